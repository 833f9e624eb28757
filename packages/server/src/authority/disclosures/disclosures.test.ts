// Disclosure receipts: flows declare the agents they disclose (versioned with their terms); an organisation records
// that a flow disclosed an agent (every Errors rule 9 refusal names its field); the result is a notice record with
// one `notice shown` event and its receipt in all three flavors; consent records of the flow carry
// `agent_disclosures`, authorization records never do.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyReceipt } from '@svc/client';
import { consentReceiptRecord } from '@svc/schemas';
import { agentToken, call, grant, newAgent, signIn, type Agent } from '../delegations/test-support.js';
import {
  assertValidReceipt,
  createActiveFlow,
  createRecord,
  fetchReceipt,
  grantAll,
  recordFlowConfig,
} from '../../consent/records/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { DPV_TERMS } from '../../consent/vocab/dpv-context.js';
import { dpv23Terms } from '../../consent/vocab/test-support.js';

let server: TestServer;
let agent: Agent;
let other: Agent;
let flowId: string;
let disclosuresToken: string;

before(async () => {
  server = await startTestServer();
  agent = await newAgent(server, 'Support assistant', { operator_name: 'Example Shop Ltd' });
  other = await newAgent(server, 'Undeclared agent');
  flowId = await createActiveFlow(server, {
    ...recordFlowConfig,
    agents: [{ agent_id: agent.id, role: 'Answers questions in the support chat' }],
  });
  const token = await call(server, '/api/v1/api_tokens', {
    json: { api_token: { name: 'disclosures', permissions: ['disclosures:write'] } },
  });
  disclosuresToken = token.body.api_token.token;
});
after(() => server.dispose());

const disclose = (json: Record<string, unknown>, token = disclosuresToken) => call(server, '/api/v1/disclosure_receipts', { token, json });
const now = () => new Date(server.context.clock.now()).toISOString();

describe('disclosure receipts', () => {
  it('records a disclosure as a notice record: one notice shown, never consent given, its receipt in every flavor', async () => {
    const at = now();
    const res = await disclose({ flow_id: flowId, agent_id: agent.id, disclosed_at: at, locale: 'en-GB' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const d = res.body.disclosure_receipt;
    assert.match(d.record_id, /^nr_us_[A-Za-z0-9]{20}$/);
    assert.deepEqual(
      { ...d, record_id: undefined, recorded_at: undefined },
      {
        record_id: undefined,
        record_type: 'notice_record',
        flow_id: flowId,
        flow_version: 1,
        agent_id: agent.id,
        application_id: server.sandbox.application_id,
        locale: 'en-GB',
        disclosed_at: at,
        recorded_at: undefined,
      },
    );
    assert.deepEqual((await call(server, `/api/v1/disclosure_receipts/${d.record_id}`)).body, { disclosure_receipt: d });

    const canonical = await fetchReceipt(server, d.record_id);
    assert.equal(canonical.status, 200);
    const receipt = (canonical.body as { consent_receipt: Record<string, any> }).consent_receipt;
    assertValidReceipt(receipt);
    assert.equal(consentReceiptRecord.safeParse(receipt).success, true);
    assert.equal(receipt.record_type, 'notice_record');
    assert.equal(receipt.anonymous, true);
    assert.deepEqual(receipt.event, [
      { event_time: at, entity_id: server.sandbox.application_id, event_type: 'regular', event_state: 'notice shown' },
    ]);
    assert.deepEqual(receipt.pii_processing.purposes, [], 'a notice grants nothing');
    assert.equal(receipt.pii_processing.language, 'en-GB');
    assert.deepEqual(receipt.extensions.agent_disclosures, [
      {
        agent_id: agent.id,
        agent_name: 'Support assistant',
        agent_type: 'autonomous',
        operator_name: 'Example Shop Ltd',
        role: 'Answers questions in the support chat',
        disclosed_at: at,
      },
    ]);

    const signed = await fetchReceipt(server, d.record_id, 'signed');
    const jwks = await (await fetch(`${server.url}/.well-known/jwks.json`)).json();
    assert.equal((await verifyReceipt(signed.body as never, jwks)).record_id, d.record_id);

    const dpv = await fetchReceipt(server, d.record_id, 'dpv');
    assert.equal(dpv.status, 200);
    const doc = dpv.body as Record<string, any>;
    assert.equal(doc['@type'], 'dpv:Record');
    assert.equal(doc['dpv:hasConsentStatus'], undefined, 'a notice record has no consent status');
    assert.equal(doc['dpv:isIndicatedBy'], undefined);
    const notices = doc['dpv:hasNotice'] as Record<string, string>[];
    assert.deepEqual(
      notices.map((n) => n['@type']),
      ['dpv:PrivacyNotice', 'dpv:AINotice'],
    );
    assert.equal(notices[1]!['dct:identifier'], agent.id);
    const used = new Set(
      JSON.stringify(doc)
        .match(/dpv:[A-Za-z]+/g)!
        .map((t) => t.slice(4)),
    );
    assert.deepEqual(
      [...used].filter((t) => !(DPV_TERMS as readonly string[]).includes(t)),
      [],
    );
    const dpv23 = dpv23Terms();
    assert.deepEqual(
      [...used].filter((t) => !dpv23.has(t)),
      [],
      'every term is DPV 2.3',
    );
  });

  it('refuses what Errors rule 9 names, each as a 422 naming its field, and leaves no record', async () => {
    const count = () => server.context.db.prepare('SELECT count(*) FROM notice_records').pluck().get() as number;
    const before = count();
    const otherAccountFlow = 'flw_dev_AAAAAAAAAAAAAAAA';
    const draft = await call(server, '/api/v1/flows', {
      json: { flow: { pattern: 'standard', title: 'Draft', config: { ...recordFlowConfig, agents: [{ agent_id: agent.id }] } } },
    });
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { flow_id: flowId, agent_id: agent.id, disclosed_at: new Date(server.context.clock.now() + 60_000).toISOString() },
        'disclosed_at',
        'in_the_future',
      ],
      [{ flow_id: flowId, agent_id: agent.id, disclosed_at: '2020-01-01T00:00:00Z' }, 'disclosed_at', 'before_registration'],
      [{ flow_id: otherAccountFlow, agent_id: agent.id, disclosed_at: now() }, 'flow_id', 'unknown_flow'],
      [{ flow_id: flowId, agent_id: other.id, disclosed_at: now() }, 'agent_id', 'agent_not_disclosed'],
      [{ flow_id: flowId, agent_id: 'agt_dev_AAAAAAAAAAAAAAAA', disclosed_at: now() }, 'agent_id', 'unknown_agent'],
      [{ flow_id: draft.body.flow.id, agent_id: agent.id, disclosed_at: now() }, 'flow_id', 'flow_not_active'],
    ];
    for (const [json, path, code] of cases) {
      const res = await disclose(json);
      assert.equal(res.status, 422, `${code}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(
        res.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
        [[path, code]],
      );
    }
    const noScope = await call(server, '/api/v1/api_tokens', { json: { api_token: { name: 'writer', permissions: ['write'] } } });
    const refused = await disclose({ flow_id: flowId, agent_id: agent.id, disclosed_at: now() }, noScope.body.api_token.token);
    assert.equal(refused.status, 403, 'write does not cover disclosures:write');
    assert.equal(count(), before);
  });

  it('checks the flow version in force at disclosed_at: a version that did not declare the agent then refuses it', async () => {
    const plain = await createActiveFlow(server, recordFlowConfig, 'Plain signup');
    const beforeDeclaring = now();
    server.advance(60);
    const revised = await call(server, `/api/v1/flows/${plain}/versions`, {
      json: { flow: { config: { ...recordFlowConfig, agents: [{ agent_id: agent.id }] } } },
    });
    assert.equal(revised.body.flow.version, 2, JSON.stringify(revised.body));
    const late = await disclose({ flow_id: plain, agent_id: agent.id, disclosed_at: now() });
    assert.equal(late.status, 201);
    assert.equal(late.body.disclosure_receipt.flow_version, 2);
    const early = await disclose({ flow_id: plain, agent_id: agent.id, disclosed_at: beforeDeclaring });
    assert.equal(early.status, 422);
    assert.equal(early.body.errors[0].code, 'agent_not_disclosed');
  });

  it('a flow may declare only agent identities of its account', async () => {
    const res = await call(server, '/api/v1/flows', {
      json: {
        flow: {
          pattern: 'standard',
          title: 'Bad',
          config: { ...recordFlowConfig, agents: [{ agent_id: agent.id }, { agent_id: 'agt_dev_AAAAAAAAAAAAAAAA' }] },
        },
      },
    });
    assert.equal(res.status, 422);
    assert.deepEqual(
      res.body.errors.map((e: { path: string }) => e.path),
      ['flow.config.agents.1.agent_id'],
    );
    const twice = await call(server, '/api/v1/flows', {
      json: {
        flow: {
          pattern: 'standard',
          title: 'Twice',
          config: { ...recordFlowConfig, agents: [{ agent_id: agent.id }, { agent_id: agent.id }] },
        },
      },
    });
    assert.equal(twice.status, 422);
  });
});

describe('agent_disclosures on records', () => {
  it('consent records of a flow that declares agents carry them; records of a flow that does not, and authorization records, never do', async () => {
    const record = await createRecord(server, { flow_id: flowId, subject: { email: 'dora@example.com' }, decisions: grantAll });
    const receipt = ((await fetchReceipt(server, record.id)).body as { consent_receipt: Record<string, any> }).consent_receipt;
    assert.deepEqual(receipt.extensions.agent_disclosures, [
      {
        agent_id: agent.id,
        agent_name: 'Support assistant',
        agent_type: 'autonomous',
        operator_name: 'Example Shop Ltd',
        role: 'Answers questions in the support chat',
      },
    ]);
    assert.equal(
      receipt.event.some((e: { event_state: string }) => e.event_state === 'consent given'),
      true,
    );
    const dpv = (await fetchReceipt(server, record.id, 'dpv')).body as Record<string, any>;
    assert.deepEqual(
      (dpv['dpv:hasNotice'] as Record<string, string>[]).map((n) => n['@type']),
      ['dpv:PrivacyNotice', 'dpv:AINotice'],
    );

    const plainFlow = await createActiveFlow(server, recordFlowConfig, 'No agents');
    const plain = await createRecord(server, { flow_id: plainFlow, subject: { email: 'dora@example.com' }, decisions: grantAll });
    const plainReceipt = ((await fetchReceipt(server, plain.id)).body as { consent_receipt: Record<string, any> }).consent_receipt;
    assert.equal(plainReceipt.extensions.agent_disclosures, undefined);

    const ada = await signIn(server, 'ada@example.com');
    const g = await grant(server, ada, agent.id, { delegation_type: 'ai_agent', delegated_scopes: ['support:write'] });
    await agentToken(server, g.id, agent);
    const authorization = (await call(server, `/api/v1/authorization_receipts/${g.authorization_record_id}`)).body.authorization_receipt;
    assert.equal(authorization.extensions.agent_disclosures, undefined);
  });
});
