// The delegation grants a person made, over the API: whose grants each token sees (never another person's; an
// organisation's client only that organisation's; the service's own clients every organisation's), who may read and
// change them, and that a change is the organisation API's own: the agent's next call fails, one audit event, once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { personDelegation, personDelegationList, type PersonDelegation, type PersonDelegationList } from '@svc/schemas';
import { hashSecret, newId, newSecret } from '../../infra/ids.js';
import { agentToken, call, check, grant, newAgent, type Agent, type Json, type Person } from '../../authority/delegations/test-support.js';
import { firstPartyClient } from '../../platform/oauth/first-party.js';
import { Browser, personAccessToken } from '../../platform/oauth/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';

const SCOPES = 'openid email delegations:read delegations:write';
const API = '/api/v1/me/delegations';

let server: TestServer;
let ada: Person;
let bob: Person;
let agent: Agent;
/** Ada through another organisation's client, and through one of the service's own clients. */
let adaElsewhere: Person;
let adaFirstParty: string;
let other: { token: string; accountId: string; applicationId: string };
/** Ada's grants: to the agent and to Bob (sandbox organisation), to Bob in the other organisation; Bob's to Ada. */
const grants = {} as Record<'agent' | 'bob' | 'toAda' | 'other', Json>;
const action = { scope: 'bookings:read', action: 'read', value: 0, currency: 'EUR', jurisdiction: 'DE' };

/** A second organisation (its account, application and admin token), written straight into storage: the API has no signup. */
function otherOrganisation(): { token: string; applicationId: string; accountId: string } {
  const db = server.context.db;
  const now = new Date().toISOString();
  const accountId = newId('acct_');
  const applicationId = newId('tp_dev_');
  const token = newSecret();
  db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(accountId, 'Other organisation', now);
  db.prepare(
    `INSERT INTO applications (id, account_id, name, environment, created_at, updated_at) VALUES (?, ?, 'Other shop', 'development', ?, ?)`,
  ).run(applicationId, accountId, now, now);
  db.prepare(
    `INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at) VALUES (?, ?, 'other', '["read","write","admin"]', ?, ?)`,
  ).run(newId('api_token_'), accountId, hashSecret(token), now);
  return { token, applicationId, accountId };
}

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

/** The list as `token` reads it (asserts 200 and the schema). */
async function list(token: string, query = ''): Promise<PersonDelegationList> {
  const res = await call(server, `${API}${query}`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const parsed = personDelegationList.safeParse(res.body);
  assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  return parsed.data;
}

const idsOf = (page: { delegations: PersonDelegation[] }) => page.delegations.map((d) => d.id).sort();
const post = (token: string | undefined, id: string, change: string) =>
  call(server, `${API}/${id}/${change}`, { method: 'POST', ...(token ? { token } : {}) });
/** The audit events of `type` about grant `id`. */
async function audited(type: string, id: string): Promise<number> {
  const events = (await call(server, '/api/v1/audit/events?limit=100')).body.audit_events as Json[];
  return events.filter((e) => e.type === type && e.data?.delegation_grant_id === id).length;
}

before(async () => {
  server = await startTestServer();
  other = otherOrganisation();
  ada = await signIn('ada@example.com');
  bob = await signIn('bob@example.com');
  agent = await newAgent(server, 'Calendar helper');
  grants.agent = await grant(server, ada, agent.id, {
    delegation_type: 'ai_agent',
    delegated_scopes: ['bookings:read', 'mail.send'],
    max_actions_per_day: 20,
    expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    bounds: { value: { max_per_transaction: 500, currency: 'EUR' }, actions: ['read'] },
  });
  grants.bob = await grant(server, ada, bob.id, { delegation_type: 'peer', delegated_scopes: ['records:read'] });
  grants.toAda = await grant(server, bob, ada.id, { delegation_type: 'peer', delegated_scopes: ['records:read'] });

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

  const own = firstPartyClient(server.context, 'delegations_test', {
    name: 'Your delegations',
    redirectPath: '/delegations/callback',
    scopes: ['openid', 'email', 'delegations:read', 'delegations:write'],
  });
  adaFirstParty = (await signIn('ada@example.com', SCOPES, { id: own.client_id, redirectUri: `${server.url}/delegations/callback` })).token;
});
after(() => server.dispose());

describe('whose grants a token sees and changes', () => {
  it("answers 404 for another person's grant, on reading and on every change, and changes nothing", async () => {
    for (const id of [grants.agent.id, grants.other.id, 'dlg_eu_AAAAAAAAAAAAAAAA', 'nonsense']) {
      assert.equal((await call(server, `${API}/${id}`, { token: bob.token })).status, 404, id);
      for (const change of ['suspend', 'resume', 'revoke'])
        assert.equal((await post(bob.token, id, change)).status, 404, `${change} ${id}`);
    }
    assert.equal((await call(server, `/api/v1/delegations/${grants.agent.id}`)).body.delegation_grant.status, 'active');
    assert.deepEqual(idsOf(await list(bob.token)), [grants.toAda.id]);
  });

  it('lists only the grants the person made, never the ones made to them', async () => {
    assert.deepEqual(idsOf(await list(ada.token)), [grants.agent.id, grants.bob.id].sort());
  });

  it("keeps an organisation's client to that organisation's grants; the service's own client sees every organisation's", async () => {
    assert.deepEqual(idsOf(await list(adaElsewhere.token)), [grants.other.id]);
    assert.equal((await call(server, `${API}/${grants.agent.id}`, { token: adaElsewhere.token })).status, 404);
    assert.equal((await post(adaElsewhere.token, grants.agent.id, 'revoke')).status, 404);
    const all = await list(adaFirstParty);
    assert.deepEqual(idsOf(all), [grants.agent.id, grants.bob.id, grants.other.id].sort());
    const byId = new Map(all.delegations.map((d) => [d.id, d]));
    assert.deepEqual(byId.get(grants.other.id)?.organisation, { id: other.accountId, name: 'Other organisation' });
    assert.deepEqual(byId.get(grants.other.id)?.delegate, { type: 'person', id: grants.other.delegate_id, name: 'bob@example.com' });
    assert.deepEqual(byId.get(grants.agent.id)?.delegate, { type: 'agent', id: agent.id, name: 'Calendar helper' });
  });

  it('gives each grant its bounds in machine shape and its dates', async () => {
    const res = await call(server, `${API}/${grants.agent.id}`, { token: adaFirstParty });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const d = personDelegation.parse(res.body.delegation);
    assert.equal(d.status, 'active');
    assert.equal(d.delegation_type, 'ai_agent');
    assert.deepEqual(d.delegated_scopes, ['bookings:read', 'mail.send']);
    assert.equal(d.max_actions_per_day, 20);
    assert.deepEqual(d.bounds, { value: { max_per_transaction: 500, currency: 'EUR' }, actions: ['read'] });
    assert.equal(d.created_at, grants.agent.created_at);
    assert.equal(d.expires_at, grants.agent.expires_at);
  });
});

describe('who may call', () => {
  it('refuses an API token (person_token_required) and a token without the scope (insufficient_scope, with its challenge)', async () => {
    for (const [method, path] of [
      ['GET', API],
      ['GET', `${API}/${grants.bob.id}`],
      ['POST', `${API}/${grants.bob.id}/revoke`],
      ['POST', `${API}/${grants.bob.id}/suspend`],
    ] as const) {
      const api = await call(server, path, { method });
      assert.equal(api.status, 403, `${method} ${path}`);
      assert.equal(api.body.code, 'person_token_required');
    }
    const narrow = await signIn('ada@example.com', 'openid email');
    const refused = await call(server, API, { token: narrow.token });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'insufficient_scope');
    assert.equal(refused.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="delegations:read"');
    const readOnly = await signIn('ada@example.com', 'openid delegations:read');
    assert.equal((await call(server, API, { token: readOnly.token })).status, 200);
    const write = await post(readOnly.token, grants.bob.id, 'revoke');
    assert.equal(write.status, 403);
    assert.equal(write.body.code, 'insufficient_scope');
    assert.equal(write.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="delegations:write"');
    assert.equal((await call(server, `/api/v1/delegations/${grants.bob.id}`)).body.delegation_grant.status, 'active');
    assert.equal((await call(server, API, { token: 'not-a-token' })).status, 401);
  });
});

describe('changing a grant', () => {
  it('suspends (the agent is refused) and resumes (it acts again), each once', async () => {
    const token = await agentToken(server, grants.agent.id, agent);
    assert.equal((await check(server, token, action)).status, 200);
    const suspended = await post(adaFirstParty, grants.agent.id, 'suspend');
    assert.equal(suspended.status, 200, JSON.stringify(suspended.body));
    assert.equal(suspended.body.delegation.status, 'suspended');
    assert.ok(suspended.body.delegation.suspended_at);
    assert.equal((await check(server, token, action)).status, 403);
    assert.equal((await post(adaFirstParty, grants.agent.id, 'suspend')).status, 200);
    assert.equal(await audited('delegation.suspended', grants.agent.id), 1);
    assert.deepEqual(idsOf(await list(adaFirstParty, '?status=suspended')), [grants.agent.id]);
    const resumed = await post(adaFirstParty, grants.agent.id, 'resume');
    assert.equal(resumed.body.delegation.status, 'active');
    assert.equal((await check(server, token, action)).status, 200);
  });

  it("revokes: the agent's next call with its token fails; a second revoke changes nothing and audits nothing", async () => {
    const token = await agentToken(server, grants.agent.id, agent);
    assert.equal((await check(server, token, action)).status, 200);
    const revoked = await post(adaFirstParty, grants.agent.id, 'revoke');
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.equal(revoked.body.delegation.status, 'revoked');
    const refused = await check(server, token, action);
    assert.equal(refused.status, 401);
    assert.match(refused.body.message, /revoked/);
    const again = await post(adaFirstParty, grants.agent.id, 'revoke');
    assert.equal(again.status, 200);
    assert.equal(again.body.delegation.revoked_at, revoked.body.delegation.revoked_at);
    assert.equal(await audited('delegation.revoked', grants.agent.id), 1);
    const resume = await post(adaFirstParty, grants.agent.id, 'resume');
    assert.equal(resume.status, 409);
    assert.equal(resume.body.code, 'invalid_transition');
    assert.deepEqual(idsOf(await list(adaFirstParty, '?status=revoked')), [grants.agent.id]);
    assert.equal((await call(server, `/api/v1/delegations/${grants.agent.id}`)).body.delegation_grant.status, 'revoked');
  });

  it("revokes another organisation's grant through the service's own client, recorded in that organisation", async () => {
    const res = await post(adaFirstParty, grants.other.id, 'revoke');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const seen = await call(server, `/api/v1/delegations/${grants.other.id}`, { headers: { authorization: `Bearer ${other.token}` } });
    assert.equal(seen.body.delegation_grant.status, 'revoked');
  });
});

describe('making a grant', () => {
  const make = (token: string | undefined, json: Json, headers: Record<string, string> = {}) =>
    call(server, API, { method: 'POST', json, headers, ...(token ? { token } : {}) });
  const peer = (scopes = ['records:read']) => ({ delegation_type: 'peer', delegated_scopes: scopes });
  /** The sandbox organisation's id, as an organisation's client lists it (its own only). */
  const sandboxAccount = async () => {
    const { organisations } = await list(ada.token);
    assert.equal(organisations.length, 1);
    return organisations[0]!.name === 'Sandbox' ? organisations[0]!.id : '';
  };
  /** Every grant the organisation `token` (default: the sandbox's API token) holds, by id. */
  const held = async (headers: Record<string, string> = {}) =>
    ((await call(server, '/api/v1/delegations?limit=100', { headers })).body.delegation_grants as Json[]).map((g) => g.id as string);

  it('refuses an API token, a token without delegations:write, and a delegate acting for the person; nothing is made', async () => {
    const before = await held();
    const api = await make(undefined, { delegate_email: 'bob@example.com', delegation_grant: peer() });
    assert.equal(api.status, 403);
    assert.equal(api.body.code, 'person_token_required');
    const readOnly = await signIn('ada@example.com', 'openid delegations:read');
    const narrow = await make(readOnly.token, { delegate_email: 'bob@example.com', delegation_grant: peer() });
    assert.equal(narrow.status, 403);
    assert.equal(narrow.body.code, 'insufficient_scope');
    assert.equal(narrow.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="delegations:write"');
    // Bob may act for Ada, even with delegations:write delegated: he still cannot grant in her name.
    const toBob = await grant(server, ada, bob.id, {
      delegation_type: 'peer',
      delegated_scopes: ['delegations:read', 'delegations:write'],
    });
    const asAda = await make(
      bob.token,
      { delegate_email: 'mallory@example.com', delegation_grant: peer(['payments:write']) },
      { 'x-delegation-grant-id': toBob.id },
    );
    assert.equal(asAda.status, 403, JSON.stringify(asAda.body));
    assert.equal(asAda.body.code, 'delegate_cannot_delegate');
    assert.deepEqual(await held(), [...before, toBob.id]);
  });

  it("makes no grant in anyone else's name: no principal in the body, never to oneself", async () => {
    const named = await make(bob.token, { principal_id: ada.id, delegate_email: 'ada@example.com', delegation_grant: peer() });
    assert.equal(named.status, 422);
    for (const delegate of [{ delegate_email: 'ADA@example.com' }, { delegate_id: ada.id }]) {
      const self = await make(ada.token, { ...delegate, delegation_grant: peer() });
      assert.equal(self.status, 422, JSON.stringify(self.body));
      assert.equal(self.body.code, 'self_delegation');
    }
    const sub = await make(bob.token, {
      delegate_email: 'ada@example.com',
      delegation_grant: { ...peer(), parent_grant_id: grants.toAda.id },
    });
    assert.equal(sub.status, 422, 'a sub-delegation is made on the organisation API only');
  });

  it("answers alike whether the organisation knows the delegate's email or not: no one learns who deals with whom", async () => {
    const known = await make(ada.token, { delegate_email: 'bob@example.com', delegation_grant: peer() });
    const unknown = await make(ada.token, { delegate_email: 'Newcomer@Example.com', delegation_grant: peer() });
    assert.deepEqual([known.status, unknown.status], [201, 201]);
    assert.deepEqual(Object.keys(unknown.body.delegation).sort(), Object.keys(known.body.delegation).sort());
    // The newcomer is that delegate once they sign in with the address.
    const newcomer = await signIn('newcomer@example.com', 'openid records:read');
    const asOrganisation = await call(server, '/api/v1/delegations?limit=100');
    const made = (asOrganisation.body.delegation_grants as Json[]).find((g) => g.id === unknown.body.delegation.id);
    assert.equal(made?.delegate_id, newcomer.id);
  });

  it("keeps an organisation's client to its own organisation: another one is 404 and nothing is made", async () => {
    const before = await held();
    for (const where of [{ organisation_id: await sandboxAccount() }, { application_id: server.sandbox.application_id }]) {
      const res = await make(adaElsewhere.token, { ...where, delegate_email: 'bob@example.com', delegation_grant: peer() });
      assert.equal(res.status, 404, JSON.stringify(where));
    }
    assert.deepEqual(await held(), before);
  });

  it("checks bounds with the organisation API's own schema and rules", async () => {
    const bad = await make(ada.token, {
      delegate_id: agent.id,
      delegation_grant: {
        delegation_type: 'ai_agent',
        delegated_scopes: ['mail.send'],
        bounds: { value: { max_per_transaction: -1, currency: 'eur' } },
      },
    });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.errors.map((e: Json) => e.path).sort(), [
      'delegation_grant.bounds.value.currency',
      'delegation_grant.bounds.value.max_per_transaction',
    ]);
    const bounded = await make(ada.token, {
      delegate_email: 'bob@example.com',
      delegation_grant: { ...peer(), bounds: { value: { max_per_transaction: 5, currency: 'EUR' } } },
    });
    assert.equal(bounded.body.errors[0].code, 'bounds_for_agents');
    const both = await make(ada.token, { delegate_email: 'bob@example.com', delegate_id: bob.id, delegation_grant: peer() });
    assert.equal(both.status, 422);
    const past = await make(ada.token, {
      delegate_email: 'bob@example.com',
      delegation_grant: { ...peer(), expires_at: '2020-01-01T00:00:00Z' },
    });
    assert.equal(past.body.errors[0].code, 'in_the_past');
  });

  it('makes a bounded grant to an agent as the organisation API does: listed first, audited once, the agent acts within it', async () => {
    const helper = await newAgent(server, 'Shopping helper');
    const key = { 'idempotency-key': 'ada-shopping-helper-1' };
    const body = {
      delegate_id: helper.id,
      delegation_grant: {
        delegation_type: 'ai_agent',
        delegated_scopes: ['bookings:read'],
        expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        bounds: { value: { max_per_transaction: 50, currency: 'EUR' } },
      },
    };
    const made = await make(ada.token, body, key);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const d = personDelegation.parse(made.body.delegation);
    assert.equal(made.headers.get('location'), `${API}/${d.id}`);
    assert.deepEqual(d.delegate, { type: 'agent', id: helper.id, name: 'Shopping helper' });
    assert.deepEqual(d.bounds, { value: { max_per_transaction: 50, currency: 'EUR' } });
    assert.equal(d.status, 'active');
    const replay = await make(ada.token, body, key);
    assert.equal(replay.status, 201);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body.delegation.id, d.id);
    assert.equal(await audited('delegation.granted', d.id), 1);
    assert.equal((await list(ada.token)).delegations[0]?.id, d.id);
    const org = (await call(server, `/api/v1/delegations/${d.id}`)).body.delegation_grant;
    assert.equal(org.principal_id, ada.id);
    assert.equal(org.application_id, server.sandbox.application_id);
    const token = await agentToken(server, d.id, helper);
    assert.equal((await check(server, token, { ...action, value: 20 })).status, 200);
  });

  it("with the service's own client, makes it in the organisation the body names, as the person's row there", async () => {
    const orgs = (await list(adaFirstParty)).organisations;
    assert.deepEqual(
      orgs.map((o) => o.id).sort(),
      [await sandboxAccount(), other.accountId].sort(),
      "the person's organisations, never the service's own",
    );
    assert.deepEqual((await list(adaElsewhere.token)).organisations, [{ id: other.accountId, name: 'Other organisation' }]);
    const nowhere = await make(adaFirstParty, { delegate_email: 'bob@example.com', delegation_grant: peer() });
    assert.equal(nowhere.status, 404, "the service itself is nobody's organisation");
    const made = await make(adaFirstParty, {
      organisation_id: other.accountId,
      delegate_email: 'bob@example.com',
      delegation_grant: peer(),
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(made.body.delegation.organisation, { id: other.accountId, name: 'Other organisation' });
    const seen = await call(server, `/api/v1/delegations/${made.body.delegation.id}`, {
      headers: { authorization: `Bearer ${other.token}` },
    });
    assert.equal(seen.body.delegation_grant.principal_id, adaElsewhere.id);
    assert.equal(seen.body.delegation_grant.application_id, other.applicationId);
    const third = otherOrganisation();
    const stranger = await make(adaFirstParty, {
      organisation_id: third.accountId,
      delegate_email: 'bob@example.com',
      delegation_grant: peer(),
    });
    assert.equal(stranger.status, 404, 'an organisation the person has no relationship with');
  });
});
