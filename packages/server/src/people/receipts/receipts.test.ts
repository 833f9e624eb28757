// A person's receipts over the API: whose receipts each token sees (never another person's; an organisation's client
// only that organisation's; the service's own clients every organisation's), who may read them, and that each
// carries the signed receipt the organisation's API would hand out, verifiable with nothing but the JWKS.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SvcReceiptSignatureError, verifyReceipt } from '@svc/client';
import {
  BOUND_NAMES,
  personAuthorizationReceiptList,
  personDisclosureReceiptList,
  type PersonAuthorizationReceiptList,
  type PersonDisclosureReceiptList,
} from '@svc/schemas';
import { agentToken, call, check, grant, newAgent, type Agent, type Json, type Person } from '../../authority/delegations/test-support.js';
import { assertValidReceipt, createActiveFlow, createRecord, grantAll, recordFlowConfig } from '../../consent/records/test-support.js';
import { firstPartyClient } from '../../platform/oauth/first-party.js';
import { Browser, personAccessToken } from '../../platform/oauth/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { otherOrganisation as anotherOrganisation } from '../test-support.js';

const SCOPES = 'openid email receipts:read';
const AUTHORIZATIONS = '/api/v1/me/authorization_receipts';
const DISCLOSURES = '/api/v1/me/disclosure_receipts';

let server: TestServer;
let ada: Person;
let bob: Person;
let agent: Agent;
let adaElsewhere: Person;
let adaFirstParty: string;
let other: { token: string; accountId: string; applicationId: string };
let jwks: Json;
/** Ada's grants (to the agent; in the other organisation, to Bob) and Bob's to Ada; their authorization records. */
const grants = {} as Record<'agent' | 'other' | 'toAda', Json>;
/** Ada's consent records: under terms that disclose the agent, under terms that do not; Bob's under the first. */
const records = {} as Record<'disclosed' | 'plain' | 'bob', string>;
const within = { scope: 'bookings:read', action: 'read', value: 20, currency: 'EUR', jurisdiction: 'DE' };

/** A second organisation, written straight into storage. */
const otherOrganisation = () => anotherOrganisation(server);

/** A person signed in through the sandbox organisation's client (or `client`) with `scope`. */
async function signIn(email: string, scope = SCOPES, client?: { id: string; secret?: string; redirectUri: string }): Promise<Person> {
  const sandbox = client
    ? { ...server.sandbox, oauth_client_id: client.id, oauth_client_secret: client.secret, oauth_redirect_uri: client.redirectUri }
    : server.sandbox;
  const token = await personAccessToken({ url: server.url, sandbox }, email, scope, new Browser(server.url));
  const me = await call(server, '/api/v1/me', { token });
  assert.equal(me.status, 200, JSON.stringify(me.body));
  return { token, id: me.body.person.id };
}

async function authorizations(token: string, query = ''): Promise<PersonAuthorizationReceiptList> {
  const res = await call(server, `${AUTHORIZATIONS}${query}`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return personAuthorizationReceiptList.parse(res.body);
}

async function disclosures(token: string, query = ''): Promise<PersonDisclosureReceiptList> {
  const res = await call(server, `${DISCLOSURES}${query}`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return personDisclosureReceiptList.parse(res.body);
}

const ids = (items: { id: string }[]) => items.map((r) => r.id).sort();

before(async () => {
  server = await startTestServer();
  other = otherOrganisation();
  jwks = (await call(server, '/.well-known/jwks.json')).body;
  ada = await signIn('ada@example.com');
  bob = await signIn('bob@example.com');
  agent = await newAgent(server, 'Booking helper', { operator_name: 'Helpers Ltd' });
  grants.agent = await grant(server, ada, agent.id, {
    delegation_type: 'ai_agent',
    delegated_scopes: ['bookings:read'],
    max_actions_per_day: 20,
    bounds: { value: { max_per_transaction: 500, currency: 'EUR' }, jurisdiction: { allowed: ['DE', 'FR'] } },
  });
  grants.toAda = await grant(server, bob, ada.id, { delegation_type: 'peer', delegated_scopes: ['records:read'] });
  const token = await agentToken(server, grants.agent.id, agent);
  assert.equal((await check(server, token, within)).status, 200);
  assert.equal((await check(server, token, { ...within, value: 900 })).status, 403);

  const asOther = { authorization: `Bearer ${other.token}` };
  const client = await call(server, `/api/v1/applications/${other.applicationId}/oauth_clients`, {
    headers: asOther,
    json: { oauth_client: { name: 'Other shop app', client_type: 'confidential', redirect_uris: ['https://shop.example/cb'] } },
  });
  assert.equal(client.status, 201, JSON.stringify(client.body));
  const through = {
    id: client.body.oauth_client.client_id,
    secret: client.body.oauth_client.client_secret,
    redirectUri: 'https://shop.example/cb',
  };
  adaElsewhere = await signIn('ADA@example.com', SCOPES, through);
  const bobElsewhere = await signIn('bob@example.com', SCOPES, through);
  grants.other = await grant(server, adaElsewhere, bobElsewhere.id, { delegation_type: 'caregiver', delegated_scopes: ['records:read'] });

  const own = firstPartyClient(server.context, 'receipts_test', {
    name: 'Your receipts',
    redirectPath: '/receipts/callback',
    scopes: ['openid', 'email', 'receipts:read'],
  });
  adaFirstParty = (await signIn('ada@example.com', SCOPES, { id: own.client_id, redirectUri: `${server.url}/receipts/callback` })).token;

  const disclosing = await createActiveFlow(
    server,
    { ...recordFlowConfig, agents: [{ agent_id: agent.id, role: 'Books tables' }] },
    'With agent',
  );
  const plain = await createActiveFlow(server, recordFlowConfig, 'No agent');
  records.disclosed = (await createRecord(server, { flow_id: disclosing, subject: { email: 'ada@example.com' }, decisions: grantAll })).id;
  records.plain = (await createRecord(server, { flow_id: plain, subject: { email: 'ada@example.com' }, decisions: grantAll })).id;
  records.bob = (await createRecord(server, { flow_id: disclosing, subject: { email: 'bob@example.com' }, decisions: grantAll })).id;
});
after(() => server.dispose());

describe('whose receipts a token sees', () => {
  it("answers 404 for another person's receipt, and lists only the person's own", async () => {
    for (const id of [grants.agent.authorization_record_id, grants.other.authorization_record_id, 'ar_AAAAAAAAAAAAAAAAAAAA', 'x'])
      assert.equal((await call(server, `${AUTHORIZATIONS}/${id}`, { token: bob.token })).status, 404, id);
    for (const id of [records.disclosed, records.plain, 'nonsense'])
      assert.equal((await call(server, `${DISCLOSURES}/${id}`, { token: bob.token })).status, 404, id);
    assert.deepEqual(ids((await authorizations(bob.token)).authorization_receipts), [grants.toAda.authorization_record_id]);
    assert.deepEqual(ids((await disclosures(bob.token)).disclosure_receipts), [records.bob]);
  });

  it('lists what was done in the person’s name, never what they were granted by another', async () => {
    assert.deepEqual(ids((await authorizations(ada.token)).authorization_receipts), [grants.agent.authorization_record_id]);
  });

  it("keeps an organisation's client to that organisation; the service's own client sees every organisation's", async () => {
    assert.deepEqual(ids((await authorizations(adaElsewhere.token)).authorization_receipts), [grants.other.authorization_record_id]);
    assert.equal(
      (await call(server, `${AUTHORIZATIONS}/${grants.agent.authorization_record_id}`, { token: adaElsewhere.token })).status,
      404,
    );
    assert.equal((await call(server, `${DISCLOSURES}/${records.disclosed}`, { token: adaElsewhere.token })).status, 404);
    assert.deepEqual((await disclosures(adaElsewhere.token)).disclosure_receipts, []);
    const all = await authorizations(adaFirstParty);
    assert.deepEqual(ids(all.authorization_receipts), [grants.agent.authorization_record_id, grants.other.authorization_record_id].sort());
    const elsewhere = all.authorization_receipts.find((r) => r.id === grants.other.authorization_record_id);
    assert.deepEqual(elsewhere?.organisation, { id: other.accountId, name: 'Other organisation' });
  });

  it('pages with a cursor, newest first', async () => {
    const first = await authorizations(adaFirstParty, '?limit=1');
    assert.deepEqual(ids(first.authorization_receipts), [grants.other.authorization_record_id]);
    assert.ok(first.next_cursor);
    const second = await authorizations(adaFirstParty, `?limit=1&cursor=${first.next_cursor}`);
    assert.deepEqual(ids(second.authorization_receipts), [grants.agent.authorization_record_id]);
    assert.equal(second.next_cursor, null);
    assert.equal((await call(server, `${AUTHORIZATIONS}?cursor=forged`, { token: ada.token })).status, 400);
  });
});

describe('who may call', () => {
  it('refuses an API token (person_token_required), a token without the scope (insufficient_scope, with its challenge) and no token', async () => {
    for (const path of [
      AUTHORIZATIONS,
      `${AUTHORIZATIONS}/${grants.agent.authorization_record_id}`,
      DISCLOSURES,
      `${DISCLOSURES}/${records.disclosed}`,
    ]) {
      const api = await call(server, path);
      assert.equal(api.status, 403, path);
      assert.equal(api.body.code, 'person_token_required');
      const asOther = await call(server, path, { headers: { authorization: `Bearer ${other.token}` } });
      assert.equal(asOther.status, 403, path);
    }
    const narrow = await signIn('ada@example.com', 'openid email records:read');
    for (const path of [AUTHORIZATIONS, DISCLOSURES]) {
      const refused = await call(server, path, { token: narrow.token });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'insufficient_scope');
      assert.equal(refused.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="receipts:read"');
    }
    assert.equal((await call(server, AUTHORIZATIONS, { token: 'not-a-token' })).status, 401);
  });

  it("refuses a delegate whose grant does not delegate receipts:read to the principal's receipts", async () => {
    const res = await call(server, AUTHORIZATIONS, { token: ada.token, headers: { 'X-Delegation-Grant-Id': grants.toAda.id } });
    assert.equal(res.status, 403, JSON.stringify(res.body));
  });
});

describe('what a receipt says', () => {
  it("names the delegate, states all eight bounds as enforced and every action's verdict against them", async () => {
    const res = await call(server, `${AUTHORIZATIONS}/${grants.agent.authorization_record_id}`, { token: ada.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const r = res.body.authorization_receipt;
    assert.equal(r.kind, 'grant');
    assert.equal(r.outcome, 'granted');
    assert.deepEqual(r.delegate, { id: agent.id, name: 'Booking helper', type: 'software_agent' });
    assert.deepEqual(
      r.bounds.map((b: Json) => b.bound),
      [...BOUND_NAMES],
    );
    const byName = Object.fromEntries(r.bounds.map((b: Json) => [b.bound, b]));
    assert.deepEqual(byName.value.limit, { max_per_transaction: 500, currency: 'EUR' });
    assert.deepEqual(byName.jurisdiction.limit, { allowed: ['DE', 'FR'] });
    assert.deepEqual(byName.scope.limit, { scopes: ['bookings:read'] });
    assert.deepEqual(byName.sequence.limit, { max_actions_per_day: 20 });
    for (const name of ['action', 'time', 'escalation', 'reputation'])
      assert.deepEqual(byName[name], { bound: name, configured: false, limit: null });
    assert.equal(r.actions.allowed, 1);
    assert.equal(r.actions.denied + r.actions.escalated, 1);
    assert.deepEqual(
      r.actions.recent.map((a: Json) => [a.outcome === 'allowed', a.value, a.bound]),
      [
        [false, 900, 'value'],
        [true, 20, null],
      ],
    );
  });

  it("serves the JWKS to any page (public keys), so a page checks receipts offline without the service's help", async () => {
    const res = await fetch(`${server.url}/.well-known/jwks.json`, { headers: { origin: 'https://anywhere.example' } });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
  });

  it('carries the signed receipt, which verifies against the JWKS alone and fails once a byte changes', async () => {
    const res = await call(server, `${AUTHORIZATIONS}/${grants.agent.authorization_record_id}`, { token: ada.token });
    const signed = res.body.authorization_receipt.signed_receipt;
    assertValidReceipt(signed.receipt);
    const receipt = await verifyReceipt(signed, jwks as never);
    assert.equal(receipt.record_id, grants.agent.authorization_record_id);
    assert.ok(receipt.event.some((e) => e.event_state === 'authority exercised'));
    const tampered = JSON.parse(JSON.stringify(signed).replace('"max_per_transaction":500', '"max_per_transaction":5000'));
    await assert.rejects(verifyReceipt(tampered, jwks as never), SvcReceiptSignatureError);
  });

  it('lists the receipts that disclosed agents to the person, with the agents as disclosed and the signed receipt', async () => {
    const list = await disclosures(ada.token);
    assert.deepEqual(ids(list.disclosure_receipts), [records.disclosed]);
    const one = await call(server, `${DISCLOSURES}/${records.disclosed}`, { token: ada.token });
    assert.equal(one.status, 200, JSON.stringify(one.body));
    const d = one.body.disclosure_receipt;
    assert.equal(d.record_type, 'consent_record');
    assert.deepEqual(d.agents, [
      { agent_id: agent.id, agent_name: 'Booking helper', agent_type: 'autonomous', operator_name: 'Helpers Ltd', role: 'Books tables' },
    ]);
    const receipt = await verifyReceipt(d.signed_receipt, jwks as never);
    assert.equal(receipt.record_id, records.disclosed);
    assert.equal((await call(server, `${DISCLOSURES}/${records.plain}`, { token: ada.token })).status, 404);
  });
});
