// What delegated authority leaves behind: grant, exchange, exercise, escalation and revocation on the hash-chained
// audit trail (which still verifies), signed webhooks for escalation opened, the approval and the revocation, and
// the trust score the reputation bound reads. Time bounds follow the server clock.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { verifyAuditChain, type AuditEvent } from '@svc/client';
import { localWitnessKeys, type WitnessConfiguration } from '@svc/schemas';
import { startTestServer, type TestServer } from '../../testing.js';
import { createEndpoint, delivered as deliveredEvents, startReceiver, type Receiver } from '../../platform/webhooks/test-support.js';
import { agentToken, answer, call, check, grant, newAgent, signIn, type Agent, type Person } from './test-support.js';

let server: TestServer;
let receiver: Receiver;
let secret: string;
let ada: Person;
let agent: Agent;

before(async () => {
  server = await startTestServer();
  receiver = await startReceiver(200);
  secret = (await createEndpoint(server, receiver.url, ['*'])).secret;
  ada = await signIn(server, 'ada@example.com');
  agent = await newAgent(server, 'Trail agent');
});
after(async () => {
  await server.dispose();
  await receiver.close();
});

const delivered = () => deliveredEvents(server, receiver, secret);
const trail = async () => (await call(server, '/api/v1/audit/events?limit=100')).body.audit_events as AuditEvent[];
const valueGrant = {
  delegation_type: 'ai_agent',
  delegated_scopes: ['payments:write'],
  bounds: { value: { max_per_transaction: 100, currency: 'EUR' }, escalation: { allowed: true } },
};

describe('audit trail and webhooks', () => {
  beforeEach(async () => {
    await delivered();
  });

  it('appends grant, exchange, exercise, escalation, approval and revocation to the chain, which verifies; webhooks announce escalation, approval and revocation', async () => {
    const g = await grant(server, ada, agent.id, valueGrant);
    const token = await agentToken(server, g.id, agent);
    assert.equal((await check(server, token, { scope: 'payments:write', action: 'write', value: 10, currency: 'EUR' })).status, 200);
    const esc = (
      await check(server, token, { scope: 'payments:write', action: 'write', value: 500, currency: 'EUR', description: 'Pay the deposit' })
    ).body.authority_check.escalation;
    const opened = await delivered();
    assert.deepEqual(
      opened.map((e) => e.type),
      ['escalation.opened'],
    );
    const data = opened[0]!.data as Record<string, any>;
    assert.equal(data.escalation_id, esc.id);
    assert.equal(data.trigger, 'value');
    assert.equal(data.user_id, ada.id);
    assert.deepEqual(data.action, {
      scope: 'payments:write',
      action: 'write',
      value: 500,
      currency: 'EUR',
      jurisdiction: null,
      description: 'Pay the deposit',
    });
    assert.match(data.decision.url, new RegExp(`/decisions/${data.decision.session_token}$`));

    const page = async () => {
      const res = await fetch(`${server.url}/oap/escalations/${esc.id}`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'|script-src/);
      return res.text();
    };
    const pending = await page();
    assert.match(pending, /Trail agent, an AI agent, asked for approval to: Pay the deposit \(500 EUR\)/);
    assert.match(pending, /waits for the decision/);
    assert.doesNotMatch(pending, /dts_/, 'the per-row page never carries the decision the agent could approve itself');
    await answer(server, esc.id, ada.token, 'approve');
    assert.match(await page(), /was approved/);
    const approved = await delivered();
    assert.deepEqual(
      approved.map((e) => e.type),
      ['approval.granted'],
    );
    assert.equal((approved[0]!.data as Record<string, unknown>).escalation_id, esc.id);
    assert.equal((approved[0]!.data as Record<string, unknown>).delegation_grant_id, g.id);
    assert.equal(
      (
        await check(server, token, {
          scope: 'payments:write',
          action: 'write',
          value: 500,
          currency: 'EUR',
          description: 'Pay the deposit',
          escalation_id: esc.id,
        })
      ).status,
      200,
    );

    await call(server, `/api/v1/delegations/${g.id}/revoke`, { token: ada.token, method: 'POST' });
    const revoked = await delivered();
    assert.deepEqual(
      revoked.map((e) => e.type),
      ['delegation.revoked'],
    );
    assert.deepEqual(
      { ...(revoked[0]!.data as Record<string, unknown>), revoked_at: undefined },
      {
        delegation_grant_id: g.id,
        delegate_id: agent.id,
        delegate_type: 'agent',
        user_id: ada.id,
        revoked_descendants: [],
        revoked_at: undefined,
      },
    );

    const events = await trail();
    const mine = events.filter((e) => e.data.delegation_grant_id === g.id || e.data.approval_id === esc.id);
    assert.deepEqual(
      mine.map((e) => e.type),
      [
        'delegation.granted',
        'authority.token_issued',
        'authority.exercised',
        'escalation.opened',
        'approval.granted',
        'authority.exercised',
        'delegation.revoked',
      ],
    );
    assert.ok(!JSON.stringify(mine).includes('ra_agent_'), 'the trail never holds a token');
    assert.ok(!JSON.stringify(mine).includes('ada@example.com'), 'nor an email');
    const witness = (await (await fetch(`${server.url}/.well-known/witness-configuration`)).json()) as WitnessConfiguration;
    const jwks = await (await fetch(`${server.url}/.well-known/jwks.json`)).json();
    const verified = await verifyAuditChain(events, [], { issuer: jwks as never, witness: localWitnessKeys(witness) as never });
    assert.equal(verified.ok, true, JSON.stringify(verified));
  });

  it('a refused action leaves no exercise on the trail and no row on the receipt', async () => {
    const g = await grant(server, ada, agent.id, { ...valueGrant, bounds: { value: { max_per_transaction: 100, currency: 'EUR' } } });
    const token = await agentToken(server, g.id, agent);
    const before = (await trail()).length;
    assert.equal((await check(server, token, { scope: 'payments:write', action: 'write', value: 500, currency: 'EUR' })).status, 403);
    assert.equal((await check(server, token, { scope: 'refunds:write', action: 'write', value: 5, currency: 'EUR' })).status, 403);
    assert.equal(
      (await check(server, token, { scope: 'payments:write', action: 'write' })).status,
      422,
      'no value to hold the bound against',
    );
    assert.equal((await trail()).length, before);
    const receipt = (await call(server, `/api/v1/authorization_receipts/${g.authorization_record_id}`)).body.authorization_receipt;
    assert.deepEqual(
      receipt.event.map((e: { event_state: string }) => e.event_state),
      ['authority requested', 'authority granted'],
    );
    assert.deepEqual(await delivered(), []);
  });
});

describe('time bounds, expiry and the trust score', () => {
  it("outside the time window an action is escalated (trigger time); the grant's expiry ends with authority expired on its receipt", async () => {
    const now = server.context.clock.now();
    const g = await grant(server, ada, agent.id, {
      ...valueGrant,
      expires_at: new Date(now + 3 * 3600_000).toISOString(),
      bounds: { ...valueGrant.bounds, time: { not_after: new Date(now + 3600_000).toISOString() } },
    });
    const receipt0 = (await call(server, `/api/v1/authorization_receipts/${g.authorization_record_id}`)).body.authorization_receipt;
    assert.equal(
      receipt0.authority.valid_until,
      new Date(now + 3600_000).toISOString(),
      'valid_until is the earlier of the window and the expiry',
    );
    assert.equal(receipt0.event[1].validity_duration, 'PT10800S');
    const token = await agentToken(server, g.id, agent);
    assert.equal((await check(server, token, { scope: 'payments:write', action: 'write', value: 10, currency: 'EUR' })).status, 200);
    server.advance(3600 + 60);
    assert.equal(
      (await check(server, token, { scope: 'payments:write', action: 'write', value: 10, currency: 'EUR' })).status,
      401,
      'an agent token lives an hour at most',
    );
    const late = await check(server, await agentToken(server, g.id, agent), {
      scope: 'payments:write',
      action: 'write',
      value: 10,
      currency: 'EUR',
    });
    assert.equal(late.status, 202);
    assert.equal(late.body.authority_check.escalation.trigger, 'time');
    server.advance(2 * 3600);
    assert.equal((await call(server, `/api/v1/delegations/${g.id}`)).body.delegation_grant.status, 'expired');
    const receipt = (await call(server, `/api/v1/authorization_receipts/${g.authorization_record_id}`)).body.authorization_receipt;
    assert.deepEqual(
      receipt.event.map((e: { event_state: string }) => e.event_state),
      ['authority requested', 'authority granted', 'authority exercised', 'authority expired'],
    );
    assert.equal(receipt.event[3].event_time, new Date(now + 3 * 3600_000).toISOString());
    const revoke = await call(server, `/api/v1/delegations/${g.id}/revoke`, { token: ada.token, method: 'POST' });
    assert.equal(revoke.status, 409, 'an expired grant cannot be revoked any more');
  });

  it('the trust score is a deterministic function of what was recorded, and the reputation bound reads it', async () => {
    const fresh = await newAgent(server, 'Fresh agent');
    const score = await call(server, `/api/v1/agent_identities/${fresh.id}/trust_score`);
    assert.equal(score.status, 200);
    assert.equal(score.body.trust_score.score, 50);
    assert.deepEqual(
      score.body.trust_score.factors.map((f: { name: string }) => f.name),
      ['actions_allowed', 'actions_denied', 'escalations_denied', 'grants_revoked', 'vouches_received', 'vouches_revoked'],
    );

    const g = await grant(server, ada, fresh.id, {
      delegation_type: 'ai_agent',
      delegated_scopes: ['payments:write'],
      bounds: { reputation: { min_trust_score: 45 }, escalation: { allowed: true } },
    });
    const token = await agentToken(server, g.id, fresh);
    assert.equal((await check(server, token, { scope: 'payments:write', action: 'write' })).status, 200);
    // Three actions outside the scope bound are denied (no escalation for those) and cost two points each.
    const strict = await grant(server, ada, fresh.id, { delegation_type: 'ai_agent', delegated_scopes: ['payments:write'] });
    const strictToken = await agentToken(server, strict.id, fresh);
    for (let i = 0; i < 3; i += 1) assert.equal((await check(server, strictToken, { scope: 'admin:write', action: 'write' })).status, 403);
    const lowered = (await call(server, `/api/v1/agent_identities/${fresh.id}/trust_score`)).body.trust_score;
    assert.equal(lowered.score, 44);
    assert.deepEqual(
      lowered.factors.find((f: { name: string }) => f.name === 'actions_denied'),
      { name: 'actions_denied', weight: -2, value: 3, contribution: -6, cap: 30 },
    );
    const below = await check(server, token, { scope: 'payments:write', action: 'write' });
    assert.equal(below.status, 202, 'below the reputation bound the principal is asked');
    assert.equal(below.body.authority_check.bound, 'reputation');
  });
});
