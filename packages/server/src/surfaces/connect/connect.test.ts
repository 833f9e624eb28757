// Connect over HTTP: accounts and their users, connections between a person and an application (made by the person
// or by their first consent; suspended, resumed, disconnected with warnings that name what stopped), device links
// claimed by a person's second device (expiry on the test clock, brute-force lock) and the trust pairings they make.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  accountEnvelope,
  accountList,
  connectionEnvelope,
  connectionList,
  deviceLinkEnvelope,
  deviceLinkList,
  disconnectResult,
  trustPairingEnvelope,
  trustPairingList,
} from '@svc/schemas';
import { fulfilledConsent, issue } from '../../consent/credentials/test-support.js';
import { createConsent } from '../../consent/decisions/test-support.js';
import { agentToken, call, grant, newAgent, signIn, type Json, type Person } from '../../authority/delegations/test-support.js';
import { hashSecret, newSecret } from '../../infra/ids.js';
import { personAccessToken } from '../../platform/oauth/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';

let server: TestServer;
let ada: Person;
let bob: Person;
let readToken: string;
let writeToken: string;
let theirToken: string;
let otherApp: string;

const ACCOUNTS = '/api/v1/accounts';
const CONNECTIONS = '/api/v1/connections';
const LINKS = '/api/v1/device_links';
const PAIRINGS = '/api/v1/trust_pairings';

async function apiToken(name: string, permissions: string[]): Promise<string> {
  const res = await call(server, '/api/v1/api_tokens', { json: { api_token: { name, permissions } } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.api_token.token as string;
}

/** Another account, with an API token of its own (written straight into the database, as other tests do). */
function otherAccount(): string {
  const db = server.context.db;
  const now = new Date().toISOString();
  db.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acct_connect_other', 'Other', ?)").run(now);
  const token = newSecret();
  db.prepare(`INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at)
              VALUES ('api_token_connect_other', 'acct_connect_other', 'Theirs', '["read","write","admin"]', ?, ?)`).run(
    hashSecret(token),
    now,
  );
  return token;
}

function expectError(res: { status: number; body: Json }, status: number, code?: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(typeof res.body.message, 'string');
  assert.ok((res.body.message as string).length > 0);
  if (code) assert.equal(res.body.code, code, JSON.stringify(res.body));
}

before(async () => {
  server = await startTestServer();
  ada = await signIn(server, 'ada@example.com');
  bob = await signIn(server, 'bob@example.com');
  readToken = await apiToken('connect read', ['read']);
  writeToken = await apiToken('connect write', ['read', 'write']);
  theirToken = otherAccount();
  const app = await call(server, '/api/v1/applications', { json: { application: { name: 'Second app' } } });
  assert.equal(app.status, 201, JSON.stringify(app.body));
  otherApp = app.body.application.id as string;
});
after(() => server.dispose());

describe('accounts', () => {
  let accountId: string;

  it("lists the API token's own account as an array of Account in the list envelope, and reads it", async () => {
    const list = await call(server, `${ACCOUNTS}?limit=1`, { token: readToken });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const parsed = accountList.parse(list.body);
    assert.equal(parsed.accounts.length, 1);
    assert.equal(parsed.next_cursor, null);
    const account = parsed.accounts[0]!;
    accountId = account.id;
    assert.equal(account.name, 'Sandbox');
    assert.equal(account.personal, false);
    assert.equal(account.owner_id, account.id, "an account nobody owns is the organisation's own");
    assert.deepEqual(
      account.account_users.map((u) => u.role),
      ['admin'],
      "the sandbox's one account user is its console admin",
    );
    const read = await call(server, `${ACCOUNTS}/${accountId}`, { token: readToken });
    assert.equal(read.status, 200);
    assert.deepEqual(accountEnvelope.parse(read.body).account, account);
    expectError(await call(server, `${ACCOUNTS}?cursor=djE6LTE`), 400, 'invalid_cursor');
  });

  it('renames the account with write; read tokens, publishable keys, person tokens and other accounts are refused', async () => {
    const before = (await call(server, `${ACCOUNTS}/${accountId}`)).body.account;
    server.advance(1);
    const renamed = await call(server, `${ACCOUNTS}/${accountId}`, {
      token: writeToken,
      method: 'PATCH',
      json: { account: { name: 'Sandbox Ltd' } },
    });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.account.name, 'Sandbox Ltd');
    assert.ok(renamed.body.account.updated_at > before.updated_at);
    expectError(
      await call(server, `${ACCOUNTS}/${accountId}`, { token: readToken, method: 'PATCH', json: { account: { name: 'X' } } }),
      403,
      'insufficient_permissions',
    );
    const pk = await fetch(`${server.url}${ACCOUNTS}`, { headers: { 'x-publishable-key': server.sandbox.publishable_key } });
    assert.equal(pk.status, 403);
    assert.equal(((await pk.json()) as Json).code, 'publishable_key_not_allowed');
    expectError(await call(server, ACCOUNTS, { token: ada.token }), 403, 'person_token_not_allowed');
    expectError(await call(server, `${ACCOUNTS}/${accountId}`, { token: theirToken }), 404);
    expectError(
      await call(server, `${ACCOUNTS}/${accountId}`, { token: theirToken, method: 'PATCH', json: { account: { name: 'Mine now' } } }),
      404,
    );
    expectError(await call(server, `${ACCOUNTS}/${accountId}/account_users`, { token: theirToken, json: { user_id: ada.id } }), 404);
    const theirs = await call(server, ACCOUNTS, { token: theirToken });
    assert.deepEqual(
      theirs.body.accounts.map((a: Json) => a.id),
      ['acct_connect_other'],
    );
    expectError(
      await call(server, `${ACCOUNTS}/${accountId}`, { method: 'PATCH', json: { account: { name: 'Y', plan: 'gold' } } }),
      422,
      'validation_failed',
    );
  });

  it('adds a person as an account user (admin), makes them owner, refuses to remove the owner, and removes a user', async () => {
    expectError(
      await call(server, `${ACCOUNTS}/${accountId}/account_users`, { token: writeToken, json: { user_id: ada.id } }),
      403,
      'insufficient_permissions',
    );
    const added = await call(server, `${ACCOUNTS}/${accountId}/account_users`, { json: { user_id: ada.id } });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.match(added.body.account_user.id, /^au_[0-9A-Za-z]{20}$/);
    assert.equal(added.body.account_user.user_id, ada.id);
    assert.equal(added.body.account_user.role, 'viewer', 'an account user reads the console unless made an admin');
    expectError(await call(server, `${ACCOUNTS}/${accountId}/account_users`, { json: { user_id: ada.id } }), 409, 'account_user_exists');
    expectError(
      await call(server, `${ACCOUNTS}/${accountId}/account_users`, { json: { user_id: 'prs_us_nosuchperson000000000' } }),
      422,
      'user_not_found',
    );
    expectError(
      await call(server, `${ACCOUNTS}/${accountId}/account_users`, { json: { user_id: server.sandbox.application_id } }),
      422,
      'user_not_found',
    );
    const bobUser = await call(server, `${ACCOUNTS}/${accountId}/account_users`, { json: { user_id: bob.id } });
    assert.equal(bobUser.status, 201);

    // Ownership: admin only, and only to a user of the account.
    expectError(
      await call(server, `${ACCOUNTS}/${accountId}`, { token: writeToken, method: 'PATCH', json: { account: { owner_id: ada.id } } }),
      403,
      'insufficient_permissions',
    );
    const notUser = await call(server, `${ACCOUNTS}/${accountId}`, {
      method: 'PATCH',
      json: { account: { owner_id: 'prs_us_someoneelse00000000000' } },
    });
    expectError(notUser, 422, 'not_an_account_user');
    assert.equal(notUser.body.errors[0].path, 'account.owner_id');
    const owned = await call(server, `${ACCOUNTS}/${accountId}`, { method: 'PATCH', json: { account: { owner_id: ada.id } } });
    assert.equal(owned.status, 200, JSON.stringify(owned.body));
    assert.equal(owned.body.account.owner_id, ada.id);
    assert.deepEqual(owned.body.account.account_users.map((u: Json) => u.user_id).slice(1), [ada.id, bob.id]);
    // A write token may still rename, as long as the owner stays.
    const same = await call(server, `${ACCOUNTS}/${accountId}`, {
      token: writeToken,
      method: 'PATCH',
      json: { account: { name: 'Sandbox', owner_id: ada.id } },
    });
    assert.equal(same.status, 200, JSON.stringify(same.body));

    expectError(
      await call(server, `${ACCOUNTS}/${accountId}/account_users/${added.body.account_user.id}`, { method: 'DELETE' }),
      409,
      'owner_cannot_be_removed',
    );
    expectError(
      await call(server, `${ACCOUNTS}/${accountId}/account_users/${bobUser.body.account_user.id}`, { token: writeToken, method: 'DELETE' }),
      403,
    );
    const removed = await server.api(`${ACCOUNTS}/${accountId}/account_users/${bobUser.body.account_user.id}`, { method: 'DELETE' });
    assert.equal(removed.status, 204);
    expectError(await call(server, `${ACCOUNTS}/${accountId}/account_users/${bobUser.body.account_user.id}`, { method: 'DELETE' }), 404);

    // Back to the organisation, then the former owner can go.
    const back = await call(server, `${ACCOUNTS}/${accountId}`, { method: 'PATCH', json: { account: { owner_id: accountId } } });
    assert.equal(back.body.account.owner_id, accountId);
    assert.equal(
      (await server.api(`${ACCOUNTS}/${accountId}/account_users/${added.body.account_user.id}`, { method: 'DELETE' })).status,
      204,
    );
    assert.deepEqual(
      (await call(server, `${ACCOUNTS}/${accountId}`)).body.account.account_users.map((u: Json) => u.user_id),
      owned.body.account.account_users.slice(0, 1).map((u: Json) => u.user_id),
      'only the console admin is left',
    );
  });
});

describe('connections', () => {
  let adaFirst: Json;

  it('a person connects to an application of the account with their access token; connecting again answers the same connection', async () => {
    const made = await call(server, CONNECTIONS, { token: ada.token, json: { application_id: server.sandbox.application_id } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    adaFirst = connectionEnvelope.parse(made.body).connection;
    assert.match(adaFirst.id, /^con_us_[0-9A-Za-z]{20}$/);
    assert.equal(made.headers.get('location'), `${CONNECTIONS}/${adaFirst.id}`);
    assert.equal(adaFirst.status, 'active');
    assert.equal(adaFirst.user_id, ada.id);
    assert.equal(adaFirst.application_id, server.sandbox.application_id);
    assert.equal(adaFirst.application_name, 'Sandbox application');
    assert.equal(adaFirst.trust_tier, 'connected');
    assert.ok(adaFirst.connected_at);
    assert.deepEqual(adaFirst.active_policies, []);
    assert.deepEqual(adaFirst.suspensions, []);
    assert.equal(adaFirst.disconnected_at, null);

    const again = await call(server, CONNECTIONS, { token: ada.token, json: { application_id: server.sandbox.application_id } });
    assert.equal(again.status, 200);
    assert.equal(again.body.connection.id, adaFirst.id);

    const second = await call(server, CONNECTIONS, { token: ada.token, json: { application_id: otherApp } });
    assert.equal(second.status, 201);
    assert.equal(second.body.connection.application_name, 'Second app');
  });

  it('refuses API tokens, publishable keys, unknown and inactive applications', async () => {
    expectError(await call(server, CONNECTIONS, { json: { application_id: server.sandbox.application_id } }), 403, 'person_token_required');
    const pk = await fetch(`${server.url}${CONNECTIONS}`, {
      method: 'POST',
      headers: { 'x-publishable-key': server.sandbox.publishable_key, 'content-type': 'application/json' },
      body: JSON.stringify({ application_id: server.sandbox.application_id }),
    });
    assert.equal(pk.status, 403);
    const unknown = await call(server, CONNECTIONS, { token: ada.token, json: { application_id: 'tp_dev_nosuchapp' } });
    expectError(unknown, 422, 'application_not_found');
    assert.equal(unknown.body.errors[0].path, 'application_id');
    const inactive = await call(server, '/api/v1/applications', { json: { application: { name: 'Retired app' } } });
    const retiredId = inactive.body.application.id as string;
    await call(server, `/api/v1/applications/${retiredId}`, { method: 'PATCH', json: { application: { active: false } } });
    expectError(await call(server, CONNECTIONS, { token: ada.token, json: { application_id: retiredId } }), 422, 'application_inactive');
    expectError(
      await call(server, CONNECTIONS, {
        token: ada.token,
        json: { application_id: server.sandbox.application_id, trust_tier: 'delegated' },
      }),
      422,
    );
  });

  it("lists a person's own connections and an API token's account connections, page by page; another person's or account's is 404", async () => {
    const first = await call(server, `${CONNECTIONS}?limit=1`, { token: ada.token });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const page1 = connectionList.parse(first.body);
    assert.equal(page1.connections.length, 1);
    assert.equal(page1.connections[0]!.id, adaFirst.id);
    assert.ok(page1.next_cursor);
    const page2 = connectionList.parse(
      (await call(server, `${CONNECTIONS}?limit=1&cursor=${page1.next_cursor}`, { token: ada.token })).body,
    );
    assert.equal(page2.connections.length, 1);
    assert.equal(page2.connections[0]!.application_id, otherApp);
    assert.equal(page2.next_cursor, null);

    assert.deepEqual((await call(server, CONNECTIONS, { token: bob.token })).body.connections, []);
    expectError(await call(server, `${CONNECTIONS}/${adaFirst.id}`, { token: bob.token }), 404);
    expectError(await call(server, `${CONNECTIONS}/${adaFirst.id}/suspend`, { token: bob.token, json: { reason: 'mine' } }), 404);
    expectError(await call(server, `${CONNECTIONS}/${adaFirst.id}/disconnect`, { token: bob.token, method: 'POST' }), 404);

    const org = await call(server, `${CONNECTIONS}?application_id=${otherApp}`, { token: readToken });
    assert.deepEqual(
      org.body.connections.map((c: Json) => c.user_id),
      [ada.id],
    );
    assert.equal((await call(server, `${CONNECTIONS}/${adaFirst.id}`, { token: readToken })).status, 200);
    expectError(await call(server, `${CONNECTIONS}/${adaFirst.id}`, { token: theirToken }), 404);
    assert.deepEqual((await call(server, CONNECTIONS, { token: theirToken })).body.connections, []);
    expectError(await call(server, `${CONNECTIONS}/con_us_nosuchconnection0000`), 404);
    expectError(await call(server, `${CONNECTIONS}?status=gone`), 400);
  });

  it('suspends with a reason, resumes by the party that suspended, and refuses illegal transitions with 409', async () => {
    const path = `${CONNECTIONS}/${adaFirst.id}`;
    expectError(await call(server, `${path}/resume`, { token: ada.token, method: 'POST' }), 409, 'illegal_transition');
    expectError(await call(server, `${path}/suspend`, { token: readToken, json: { reason: 'x' } }), 403, 'insufficient_permissions');
    expectError(await call(server, `${path}/suspend`, { token: ada.token, json: {} }), 422);

    const paused = await call(server, `${path}/suspend`, { token: ada.token, json: { reason: 'Taking a break' } });
    assert.equal(paused.status, 200, JSON.stringify(paused.body));
    assert.equal(paused.body.connection.status, 'suspended');
    assert.deepEqual(
      paused.body.connection.suspensions.map((s: Json) => [s.reason, s.suspended_by, s.resumed_at]),
      [['Taking a break', 'person', null]],
    );
    const twice = await call(server, `${path}/suspend`, { token: ada.token, json: { reason: 'Again' } });
    expectError(twice, 409, 'illegal_transition');
    assert.match(twice.body.message, /from suspended to suspended/);
    expectError(await call(server, `${path}/resume`, { token: writeToken, method: 'POST' }), 409, 'suspended_by_other_party');
    const resumed = await call(server, `${path}/resume`, { token: ada.token, method: 'POST' });
    assert.equal(resumed.status, 200);
    assert.equal(resumed.body.connection.status, 'active');
    assert.equal(resumed.body.connection.suspensions[0].resumed_by, 'person');

    const byOrg = await call(server, `${path}/suspend`, { token: writeToken, json: { reason: 'Unusual activity' } });
    assert.equal(byOrg.body.connection.suspensions[1].suspended_by, 'organisation');
    expectError(await call(server, `${path}/resume`, { token: ada.token, method: 'POST' }), 409, 'suspended_by_other_party');
    const orgResumed = await call(server, `${path}/resume`, { token: writeToken, method: 'POST' });
    assert.equal(orgResumed.body.connection.status, 'active');
    assert.equal(orgResumed.body.connection.suspensions.length, 2);
  });

  it("a first consent connects the person; disconnecting withdraws it, revokes its credential and the grants to the application's agents, and says so", async () => {
    const ctxn = await fulfilledConsent(server, 'carol@example.com');
    const carol = await signIn(server, 'carol@example.com');
    const mine = connectionList.parse((await call(server, CONNECTIONS, { token: carol.token })).body).connections;
    assert.equal(mine.length, 1, 'the consent connected carol');
    assert.equal(mine[0]!.trust_tier, 'consented');
    const id = mine[0]!.id;
    let detail = connectionEnvelope.parse((await call(server, `${CONNECTIONS}/${id}`, { token: carol.token })).body).connection;
    assert.equal(detail.active_policies.length, 1);
    const consent = detail.active_policies[0]!;
    assert.equal(consent.type, 'consent_record');
    assert.ok(consent.type === 'consent_record' && consent.purposes.includes('newsletter'));

    const credential = await issue(server, { consent_transaction_id: ctxn, credential_type: 'ConsentCredential' });
    const agent = await newAgent(server, 'Shopping agent');
    const g = await grant(server, carol, agent.id, {
      delegation_type: 'ai_agent',
      delegated_scopes: ['orders:read'],
      bounds: { escalation: { allowed: true } },
    });
    const asked = await call(server, '/api/v1/oap/escalations', {
      token: await agentToken(server, g.id, agent),
      json: { scope: 'orders:write', action: 'write', description: 'Place the order' },
    });
    assert.equal(asked.status, 201, JSON.stringify(asked.body));
    const open = await createConsent(server, { addressee: { email: 'carol@example.com' } });
    detail = connectionEnvelope.parse((await call(server, `${CONNECTIONS}/${id}`, { token: carol.token })).body).connection;
    assert.equal(detail.trust_tier, 'delegated');
    assert.deepEqual(
      detail.active_policies.map((p) => [p.type, p.id]),
      [
        ['consent_record', consent.id],
        ['delegation_grant', g.id],
      ],
    );
    // Another person's consent or grant never shows on carol's connection.
    assert.ok(!(await call(server, `${CONNECTIONS}/${adaFirst.id}`, { token: ada.token })).body.connection.active_policies.length);

    const cut = await call(server, `${CONNECTIONS}/${id}/disconnect`, { token: carol.token, method: 'POST' });
    assert.equal(cut.status, 200, JSON.stringify(cut.body));
    const result = disconnectResult.parse(cut.body);
    assert.deepEqual(Object.keys(cut.body).sort(), ['connection', 'warnings']);
    assert.deepEqual(Object.keys(cut.body.connection).sort(), ['disconnected_at', 'id', 'status']);
    assert.equal(result.connection.status, 'disconnected');
    assert.ok(result.connection.disconnected_at);
    const text = result.warnings.join('\n');
    assert.match(text, new RegExp(`Consent record ${consent.id}.*newsletter`));
    assert.match(text, new RegExp(`Credential ${credential.id} is revoked`));
    assert.match(text, new RegExp(`Delegation grant ${g.id} to agent ${agent.id} is revoked`));
    assert.match(
      text,
      new RegExp(`Escalation ${asked.body.escalation.id} under grant ${g.id} may still be answered, but its agent can no longer act on it`),
    );
    assert.match(
      text,
      /Decision dec_\w+ \(consent\) from this application is still open until .*: disconnecting does not answer it, and granting it connects you again/,
    );
    // The escalation's own approval decision waits for carol too.
    assert.match(text, /Decision dec_\w+ \(approval\) from this application is still open until .*: disconnecting does not answer it\./);
    assert.equal(result.warnings.length, 6, text);
    assert.equal(
      (await call(server, `/api/v1/decisions/${open.session_token}`)).body.decision.status,
      'pending',
      'the open decision is left as it was',
    );

    // What the warnings say is what the service now holds.
    const record = await call(server, `/api/v1/consent_records/${consent.id}`);
    assert.equal(record.body.consent_record.status, 'revoked');
    assert.equal((await call(server, `/api/v1/credentials/${credential.id}`)).body.credential.status, 'revoked');
    assert.equal((await call(server, `/api/v1/delegations/${g.id}`, { token: carol.token })).body.delegation_grant.status, 'revoked');
    const after = connectionEnvelope.parse((await call(server, `${CONNECTIONS}/${id}`, { token: carol.token })).body).connection;
    assert.equal(after.status, 'disconnected');
    assert.equal(after.trust_tier, null);
    assert.deepEqual(after.active_policies, []);

    // Anything after disconnected is illegal.
    for (const [action, json] of [
      ['disconnect', undefined],
      ['suspend', { reason: 'late' }],
      ['resume', undefined],
    ] as const) {
      const res = await call(server, `${CONNECTIONS}/${id}/${action}`, { token: carol.token, method: 'POST', ...(json ? { json } : {}) });
      expectError(res, 409, 'illegal_transition');
      assert.match(res.body.message, /from disconnected/);
    }
    // Connecting again begins a new connection.
    const again = await call(server, CONNECTIONS, { token: carol.token, json: { application_id: server.sandbox.application_id } });
    assert.equal(again.status, 201);
    assert.notEqual(again.body.connection.id, id);
    assert.equal(again.body.connection.trust_tier, 'connected');
  });

  it('an organisation disconnects too; with nothing in force the warning says so', async () => {
    const res = await call(server, `${CONNECTIONS}?application_id=${otherApp}`, { token: ada.token });
    const id = res.body.connections[0].id as string;
    expectError(await call(server, `${CONNECTIONS}/${id}/disconnect`, { token: readToken, method: 'POST' }), 403);
    const cut = await call(server, `${CONNECTIONS}/${id}/disconnect`, { token: writeToken, method: 'POST' });
    assert.equal(cut.status, 200, JSON.stringify(cut.body));
    assert.equal(cut.body.warnings.length, 1);
    assert.match(cut.body.warnings[0], /Nothing else depended on this connection/);
    const filtered = await call(server, `${CONNECTIONS}?status=disconnected`, { token: ada.token });
    assert.deepEqual(
      filtered.body.connections.map((c: Json) => c.id),
      [id],
    );
  });
});

describe('device links and trust pairings', () => {
  let adaPhone: string;

  before(async () => {
    // Ada signed in a second time: her other device.
    adaPhone = await personAccessToken(server, 'ada@example.com');
  });

  async function link(token = ada.token, json: Json = { device_name: 'Laptop' }) {
    const res = await call(server, LINKS, { token, json });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return deviceLinkEnvelope.parse(res.body).device_link;
  }

  it('makes a pending link with a short code shown once, and pairs the second device that claims it', async () => {
    const made = await link();
    assert.match(made.id, /^dlk_us_[0-9A-Za-z]{20}$/);
    assert.equal(made.status, 'pending');
    assert.match(made.code!, /^[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{4}-[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{4}$/);
    assert.equal(Date.parse(made.expires_at) - Date.parse(made.created_at), 600_000);
    assert.equal(made.attempts_remaining, 5);
    const stored = server.context.db.prepare('SELECT code_hash FROM device_links WHERE id = ?').pluck().get(made.id) as string;
    assert.ok(!stored.includes(made.code!.replace('-', '')), 'the code is stored hashed');
    const read = await call(server, `${LINKS}/${made.id}`, { token: ada.token });
    assert.equal(read.body.device_link.code, undefined, 'the code is never shown again');

    // The sign-in that made the link cannot claim it.
    expectError(
      await call(server, `${LINKS}/claim`, { token: ada.token, json: { code: made.code, device_name: 'Laptop' } }),
      409,
      'same_device',
    );
    // Case, spaces and hyphens do not matter.
    const typed = ` ${made.code!.replace('-', ' ').toLowerCase()} `;
    const claimed = await call(server, `${LINKS}/claim`, { token: adaPhone, json: { code: typed, device_name: 'Phone' } });
    assert.equal(claimed.status, 201, JSON.stringify(claimed.body));
    const pairing = trustPairingEnvelope.parse(claimed.body).trust_pairing;
    assert.match(pairing.id, /^pair_us_[0-9A-Za-z]{20}$/);
    assert.equal(pairing.status, 'active');
    assert.equal(pairing.user_id, ada.id);
    assert.equal(pairing.device_link_id, made.id);
    assert.deepEqual(pairing.initiator, { device_name: 'Laptop', client_id: server.sandbox.oauth_client_id });
    assert.deepEqual(pairing.claimant, { device_name: 'Phone', client_id: server.sandbox.oauth_client_id });
    const after = (await call(server, `${LINKS}/${made.id}`, { token: ada.token })).body.device_link;
    assert.equal(after.status, 'claimed');
    assert.equal(after.trust_pairing_id, pairing.id);

    // Single use.
    expectError(
      await call(server, `${LINKS}/claim`, { token: adaPhone, json: { code: made.code, device_name: 'Tablet' } }),
      409,
      'device_link_used',
    );
    expectError(await call(server, `${LINKS}/${made.id}/cancel`, { token: ada.token, method: 'POST' }), 409, 'illegal_transition');
  });

  it("an expired code is 410 (test clock), a cancelled one 410; another person's code matches nothing", async () => {
    const old = await link();
    server.advance(601);
    const expired = await call(server, `${LINKS}/claim`, { token: adaPhone, json: { code: old.code, device_name: 'Phone' } });
    expectError(expired, 410, 'device_link_expired');
    assert.equal((await call(server, `${LINKS}/${old.id}`, { token: ada.token })).body.device_link.status, 'expired');
    expectError(await call(server, `${LINKS}/${old.id}/cancel`, { token: ada.token, method: 'POST' }), 409, 'illegal_transition');

    const dropped = await link();
    const cancelled = await call(server, `${LINKS}/${dropped.id}/cancel`, { token: ada.token, method: 'POST' });
    assert.equal(cancelled.body.device_link.status, 'cancelled');
    expectError(
      await call(server, `${LINKS}/claim`, { token: adaPhone, json: { code: dropped.code, device_name: 'Phone' } }),
      410,
      'device_link_cancelled',
    );

    const adas = await link();
    const stolen = await call(server, `${LINKS}/claim`, { token: bob.token, json: { code: adas.code, device_name: 'Bob phone' } });
    expectError(stolen, 422, 'invalid_code');
    expectError(await call(server, `${LINKS}/${adas.id}`, { token: bob.token }), 404);
    expectError(await call(server, `${LINKS}/${adas.id}/cancel`, { token: bob.token, method: 'POST' }), 404);
    await call(server, `${LINKS}/${adas.id}/cancel`, { token: ada.token, method: 'POST' });
  });

  it('locks pending links after five wrong codes, so guessing stops', async () => {
    const target = await link();
    const wrong = target.code!.startsWith('A') ? 'BBBB-BBBB' : 'AAAA-AAAA';
    for (let i = 1; i <= 4; i += 1) {
      const res = await call(server, `${LINKS}/claim`, { token: adaPhone, json: { code: wrong, device_name: 'Phone' } });
      expectError(res, 422, 'invalid_code');
      assert.match(res.body.message, new RegExp(`${5 - i} more wrong code`));
    }
    const last = await call(server, `${LINKS}/claim`, { token: adaPhone, json: { code: wrong, device_name: 'Phone' } });
    expectError(last, 422, 'invalid_code');
    assert.match(last.body.message, /now locked/);
    assert.equal((await call(server, `${LINKS}/${target.id}`, { token: ada.token })).body.device_link.status, 'locked');
    expectError(
      await call(server, `${LINKS}/claim`, { token: adaPhone, json: { code: target.code, device_name: 'Phone' } }),
      409,
      'device_link_locked',
    );
    expectError(
      await call(server, `${LINKS}/claim`, { token: adaPhone, json: { code: 'ABC', device_name: 'Phone' } }),
      422,
      'invalid_code',
    );
  });

  it("limits pending links, lists them page by page, and is the person's alone", async () => {
    const made = [];
    for (let i = 0; i < 5; i += 1) made.push(await link(bob.token, { device_name: `Bob ${i}` }));
    expectError(await call(server, LINKS, { token: bob.token, json: {} }), 409, 'too_many_device_links');
    const page1 = deviceLinkList.parse((await call(server, `${LINKS}?limit=2&status=pending`, { token: bob.token })).body);
    assert.deepEqual(
      page1.device_links.map((l) => l.id),
      made.slice(0, 2).map((l) => l.id),
    );
    assert.ok(page1.device_links.every((l) => l.code === undefined));
    const page2 = deviceLinkList.parse(
      (await call(server, `${LINKS}?limit=2&status=pending&cursor=${page1.next_cursor}`, { token: bob.token })).body,
    );
    assert.deepEqual(
      page2.device_links.map((l) => l.id),
      made.slice(2, 4).map((l) => l.id),
    );
    const adaLocked = deviceLinkList.parse((await call(server, `${LINKS}?status=locked`, { token: ada.token })).body);
    assert.equal(adaLocked.device_links.length, 1);

    expectError(await call(server, LINKS, { json: {} }), 403, 'person_token_required');
    expectError(await call(server, LINKS), 403, 'person_token_required');
    expectError(await call(server, `${LINKS}/claim`, { json: { code: 'AAAA-AAAA', device_name: 'x' } }), 403, 'person_token_required');
    for (const l of made) await call(server, `${LINKS}/${l.id}/cancel`, { token: bob.token, method: 'POST' });
  });

  it("lists, reads and revokes trust pairings: the person's own, the account's with an API token; revoked is final", async () => {
    const second = await link();
    const claimed = await call(server, `${LINKS}/claim`, { token: adaPhone, json: { code: second.code, device_name: 'Tablet' } });
    assert.equal(claimed.status, 201, JSON.stringify(claimed.body));

    const mine = trustPairingList.parse((await call(server, `${PAIRINGS}?limit=1`, { token: ada.token })).body);
    assert.equal(mine.trust_pairings.length, 1);
    assert.ok(mine.next_cursor);
    const rest = trustPairingList.parse((await call(server, `${PAIRINGS}?limit=1&cursor=${mine.next_cursor}`, { token: ada.token })).body);
    assert.equal(rest.trust_pairings[0]!.id, claimed.body.trust_pairing.id);
    assert.equal(rest.next_cursor, null);
    assert.deepEqual((await call(server, PAIRINGS, { token: bob.token })).body.trust_pairings, []);
    assert.equal((await call(server, PAIRINGS, { token: readToken })).body.trust_pairings.length, 2);

    const id = mine.trust_pairings[0]!.id;
    expectError(await call(server, `${PAIRINGS}/${id}`, { token: bob.token }), 404);
    expectError(await call(server, `${PAIRINGS}/${id}`, { token: theirToken }), 404);
    expectError(await call(server, `${PAIRINGS}/${id}/revoke`, { token: bob.token, method: 'POST' }), 404);
    expectError(await call(server, `${PAIRINGS}/${id}/revoke`, { token: readToken, method: 'POST' }), 403);
    assert.equal((await call(server, `${PAIRINGS}/${id}`, { token: readToken })).status, 200);
    const revoked = await call(server, `${PAIRINGS}/${id}/revoke`, { token: ada.token, method: 'POST' });
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.trust_pairing.status, 'revoked');
    assert.ok(revoked.body.trust_pairing.revoked_at);
    expectError(await call(server, `${PAIRINGS}/${id}/revoke`, { token: ada.token, method: 'POST' }), 409, 'illegal_transition');
    const byOrg = await call(server, `${PAIRINGS}/${claimed.body.trust_pairing.id}/revoke`, { token: writeToken, method: 'POST' });
    assert.equal(byOrg.body.trust_pairing.status, 'revoked');
    const active = await call(server, `${PAIRINGS}?status=active`, { token: ada.token });
    assert.deepEqual(active.body.trust_pairings, []);
  });
});
