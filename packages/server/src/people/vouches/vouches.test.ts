// A person's own trust scores and vouches over the API: whose vouches each token sees and may act on (never another
// person's; an organisation's client only that organisation's; the service's own clients every organisation's), that
// nobody vouches as someone else or for themselves, that a replayed vouch or withdrawal has one effect, and that
// vouching is Verify's own (the organisation reads the vouch, and the vouchee's trust score moves).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { personTrustScoreList, personVouchEnvelope, personVouchList, type PersonVouch } from '@svc/schemas';
import { hashSecret, newId, newSecret } from '../../infra/ids.js';
import { call, type Json, newAgent } from '../../authority/delegations/test-support.js';
import { firstPartyClient } from '../../platform/oauth/first-party.js';
import { Browser, personAccessToken } from '../../platform/oauth/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';

const SCOPES = 'openid email vouches:read vouches:write';
const API = '/api/v1/me/vouches';
const SCORES = '/api/v1/me/trust_scores';

let server: TestServer;
let sandboxAccount: string;
/** Tokens through the sandbox organisation's own client, and the person ids they stand for there. */
let ada: string;
let bob: string;
let carol: string;
const ids = {} as Record<'ada' | 'bob' | 'carol' | 'dan' | 'adaElsewhere' | 'bobElsewhere', string>;
/** Ada through the other organisation's client, and through one of the service's own clients. */
let adaElsewhere: string;
let adaFirstParty: string;
let other: { token: string; accountId: string; applicationId: string };

/** An organisation (its account, application and admin token), written straight into storage: the API has no signup. */
function organisation(name: string): { token: string; applicationId: string; accountId: string } {
  const db = server.context.db;
  const now = new Date().toISOString();
  const accountId = newId('acct_');
  const applicationId = newId('tp_dev_');
  const token = newSecret();
  db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(accountId, name, now);
  db.prepare(
    `INSERT INTO applications (id, account_id, name, environment, created_at, updated_at) VALUES (?, ?, ?, 'development', ?, ?)`,
  ).run(applicationId, accountId, `${name} app`, now, now);
  db.prepare(
    `INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at) VALUES (?, ?, 'admin', '["read","write","admin"]', ?, ?)`,
  ).run(newId('api_token_'), accountId, hashSecret(token), now);
  return { token, applicationId, accountId };
}

/** A token through a client that is not the sandbox's. */
function tokenThrough(client: { id: string; secret?: string; redirectUri: string }, email: string, scope = SCOPES): Promise<string> {
  const sandbox = {
    ...server.sandbox,
    oauth_client_id: client.id,
    oauth_client_secret: client.secret,
    oauth_redirect_uri: client.redirectUri,
  };
  return personAccessToken({ url: server.url, sandbox }, email, scope, new Browser(server.url));
}

const idOf = async (token: string) => (await call(server, '/api/v1/me', { token })).body.person.id as string;

async function vouch(
  token: string,
  json: Json,
  status = 201,
  headers: Record<string, string> = {},
): Promise<PersonVouch & { location: string | null }> {
  const res = await call(server, API, { token, json, headers });
  assert.equal(res.status, status, JSON.stringify(res.body));
  return { ...personVouchEnvelope.parse(res.body).vouch, location: res.headers.get('location') };
}

async function mine(token: string, query = '') {
  const res = await call(server, `${API}${query}`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return personVouchList.parse(res.body);
}

async function scores(token: string) {
  const res = await call(server, SCORES, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return personTrustScoreList.parse(res.body).trust_scores;
}

const count = (voucher: string) =>
  server.context.db.prepare('SELECT count(*) FROM vouches WHERE voucher_id = ?').pluck().get(voucher) as number;

function refused(res: { status: number; body: Json }, status: number, code: string): void {
  assert.deepEqual([res.status, res.body.code], [status, code], JSON.stringify(res.body));
}

before(async () => {
  server = await startTestServer();
  sandboxAccount = server.context.db
    .prepare('SELECT account_id FROM applications WHERE id = ?')
    .pluck()
    .get(server.sandbox.application_id) as string;
  other = organisation('Other organisation');
  ada = await personAccessToken(server, 'ada@example.com', SCOPES);
  bob = await personAccessToken(server, 'bob@example.com', SCOPES);
  carol = await personAccessToken(server, 'carol@example.com', SCOPES);
  for (const [name, token] of [
    ['ada', ada],
    ['bob', bob],
    ['carol', carol],
  ] as const)
    ids[name] = await idOf(token);
  const client = await call(server, `/api/v1/applications/${other.applicationId}/oauth_clients`, {
    headers: { authorization: `Bearer ${other.token}` },
    json: { oauth_client: { name: 'Other shop app', client_type: 'confidential', redirect_uris: ['https://shop.example/cb'] } },
  });
  assert.equal(client.status, 201, JSON.stringify(client.body));
  const { client_id, client_secret } = client.body.oauth_client;
  const elsewhere = { id: client_id, secret: client_secret, redirectUri: 'https://shop.example/cb' };
  adaElsewhere = await tokenThrough(elsewhere, 'ADA@example.com');
  ids.adaElsewhere = await idOf(adaElsewhere);
  ids.bobElsewhere = await idOf(await tokenThrough(elsewhere, 'bob@example.com'));
  const own = firstPartyClient(server.context, 'vouches_test', {
    name: 'Your vouches',
    redirectPath: '/vouches_test/callback',
    scopes: ['openid', 'email', 'vouches:read', 'vouches:write'],
  });
  adaFirstParty = await tokenThrough({ id: own.client_id, redirectUri: `${server.url}/vouches_test/callback` }, 'ada@example.com');
});
after(() => server.dispose());

describe('the attacker', () => {
  it('cannot vouch as another person: the body names no voucher (422), and nothing is recorded', async () => {
    const before = count(ids.bob);
    const res = await call(server, API, { token: ada, json: { vouchee_id: ids.carol, voucher_id: ids.bob } });
    refused(res, 422, 'validation_failed');
    assert.equal(count(ids.bob), before);
    assert.equal(count(ids.ada), 0);
  });

  it('cannot vouch for themselves, at any organisation (422 self_vouch)', async () => {
    refused(await call(server, API, { token: ada, json: { vouchee_id: ids.ada } }), 422, 'self_vouch');
    refused(await call(server, API, { token: adaFirstParty, json: { vouchee_id: ids.adaElsewhere } }), 422, 'self_vouch');
    assert.equal(count(ids.ada) + count(ids.adaElsewhere), 0);
  });

  it("never reads nor withdraws another person's vouch: 404, the same as one that does not exist", async () => {
    const bobs = await vouch(bob, { vouchee_id: ids.carol, statement: 'Carol fixed my bike.' });
    for (const token of [ada, adaElsewhere, adaFirstParty]) {
      assert.equal((await call(server, `${API}/${bobs.id}`, { token })).status, 404);
      assert.equal((await call(server, `${API}/${bobs.id}/revoke`, { token, method: 'POST' })).status, 404);
      assert.ok(!(await mine(token)).vouches.some((v) => v.id === bobs.id));
    }
    assert.equal((await call(server, `${API}/vch_us_nothinghere000000000`, { token: bob })).status, 404);
    assert.equal((await mine(carol)).vouches.find((v) => v.id === bobs.id)?.status, 'active');
  });

  it("an organisation's client neither vouches in nor sees another organisation", async () => {
    const before = count(ids.adaElsewhere) + count(ids.ada);
    const res = await call(server, API, { token: adaElsewhere, json: { vouchee_id: ids.bob } });
    refused(res, 422, 'vouchee_not_found');
    refused(await call(server, API, { token: ada, json: { vouchee_id: ids.bobElsewhere } }), 422, 'vouchee_not_found');
    assert.equal(count(ids.adaElsewhere) + count(ids.ada), before);
    const given = await vouch(ada, { vouchee_id: ids.bob });
    assert.equal((await call(server, `${API}/${given.id}`, { token: adaElsewhere })).status, 404);
    assert.ok((await mine(adaElsewhere)).vouches.every((v) => v.organisation.id === other.accountId));
    assert.deepEqual(
      (await scores(adaElsewhere)).map((s) => s.subject_id),
      [ids.adaElsewhere],
    );
  });

  it('refuses an API token (403 person_token_required) and a token without the scope (403 insufficient_scope)', async () => {
    for (const [path, json] of [[API], [SCORES], [API, { vouchee_id: ids.bob }]] as const) {
      refused(await call(server, path, json ? { json } : {}), 403, 'person_token_required');
    }
    const readOnly = await personAccessToken(server, 'ada@example.com', 'openid vouches:read');
    const noWrite = await call(server, API, { token: readOnly, json: { vouchee_id: ids.carol } });
    refused(noWrite, 403, 'insufficient_scope');
    assert.match(noWrite.headers.get('www-authenticate') ?? '', /scope="vouches:write"/);
    const none = await personAccessToken(server, 'ada@example.com', 'openid');
    refused(await call(server, SCORES, { token: none }), 403, 'insufficient_scope');
    refused(await call(server, API, { token: none }), 403, 'insufficient_scope');
  });

  it('vouches once for a replayed vouch, with or without an Idempotency-Key, and withdraws once', async () => {
    const before = count(ids.ada);
    const first = await vouch(ada, { vouchee_id: ids.carol }, 201, { 'idempotency-key': 'vouch-carol-1' });
    const replayed = await call(server, API, {
      token: ada,
      json: { vouchee_id: ids.carol },
      headers: { 'idempotency-key': 'vouch-carol-1' },
    });
    assert.deepEqual([replayed.status, replayed.headers.get('idempotent-replayed'), replayed.body.vouch.id], [201, 'true', first.id]);
    const again = await vouch(ada, { vouchee_id: ids.carol }, 200);
    assert.equal(again.id, first.id);
    assert.equal(count(ids.ada), before + 1);

    const withdrawn = await call(server, `${API}/${first.id}/revoke`, { token: ada, method: 'POST' });
    assert.equal(withdrawn.status, 200, JSON.stringify(withdrawn.body));
    server.advance(60);
    const twice = await call(server, `${API}/${first.id}/revoke`, { token: ada, method: 'POST' });
    assert.equal(twice.status, 200);
    assert.deepEqual(twice.body.vouch, withdrawn.body.vouch, 'the second withdrawal changes nothing');
    const carolScore = (await scores(carol))[0]!;
    assert.equal(carolScore.factors.find((f) => f.name === 'vouches_revoked')?.value, 1);
  });

  it("a delegate reads the person's vouches when the grant delegates vouches:read, and never vouches nor withdraws in their name", async () => {
    const adaGrants = await personAccessToken(server, 'ada@example.com', 'openid email delegations:read delegations:write');
    const made = await call(server, '/api/v1/me/delegations', {
      token: adaGrants,
      json: { delegate_id: ids.bob, delegation_grant: { delegation_type: 'peer', delegated_scopes: ['vouches:read', 'vouches:write'] } },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const asAda = { 'x-delegation-grant-id': made.body.delegation.id as string };
    const given = await vouch(ada, { vouchee_id: ids.carol, statement: 'We worked together.' });
    const read = await call(server, `${API}?direction=given`, { token: bob, headers: asAda });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.ok(
      personVouchList.parse(read.body).vouches.some((v) => v.id === given.id),
      "Ada's vouch, read by Bob for her",
    );
    const before = count(ids.ada);
    refused(await call(server, API, { token: bob, headers: asAda, json: { vouchee_id: ids.bob } }), 403, 'delegate_not_allowed');
    refused(await call(server, `${API}/${given.id}/revoke`, { token: bob, headers: asAda, json: {} }), 403, 'delegate_not_allowed');
    assert.equal(count(ids.ada), before);
    assert.equal((await call(server, `${API}/${given.id}`, { token: ada })).body.vouch.status, given.status);
  });

  it('cannot withdraw a vouch they received (403 not_your_vouch)', async () => {
    const given = await vouch(bob, { vouchee_id: ids.ada });
    refused(await call(server, `${API}/${given.id}/revoke`, { token: ada, method: 'POST' }), 403, 'not_your_vouch');
    assert.equal((await mine(bob, '?direction=given')).vouches.find((v) => v.id === given.id)?.status, 'active');
  });

  it('vouches for nobody it cannot name: an unknown id (422 vouchee_not_found), not an id at all (422)', async () => {
    refused(await call(server, API, { token: ada, json: { vouchee_id: 'prs_us_nobodyhere0000000000' } }), 422, 'vouchee_not_found');
    refused(await call(server, API, { token: ada, json: { vouchee_id: 'agt_nobody' } }), 422, 'vouchee_not_found');
    assert.equal((await call(server, API, { token: ada, json: { vouchee_id: 'bob@example.com' } })).status, 422);
  });
});

describe('the person', () => {
  it("vouches for someone through Verify's own vouch: the organisation reads it, the vouchee's score rises", async () => {
    const dan = await personAccessToken(server, 'dan@example.com', SCOPES);
    ids.dan = await idOf(dan);
    const before = (await scores(dan))[0]!;
    const given = await vouch(adaFirstParty, { vouchee_id: ids.dan, statement: 'I have known Dan for years.' });
    assert.equal(given.location, `${API}/${given.id}`);
    assert.deepEqual(
      [given.direction, given.organisation.id, given.counterpart, given.statement, given.status],
      ['given', sandboxAccount, { type: 'person', id: ids.dan, name: null }, 'I have known Dan for years.', 'active'],
    );
    const org = await call(server, `/api/v1/vouches/${given.id}`);
    assert.deepEqual([org.body.vouch.voucher_id, org.body.vouch.vouchee_id], [ids.ada, ids.dan]);

    const after = (await scores(dan))[0]!;
    assert.equal(after.score, before.score + 5);
    assert.equal(after.factors.find((f) => f.name === 'vouches_received')?.value, 1);
    const received = (await mine(dan, '?direction=received')).vouches;
    assert.deepEqual(
      received.map((v) => [v.id, v.direction, v.counterpart]),
      [[given.id, 'received', { type: 'person', id: ids.ada, name: null }]],
      'the vouchee reads who vouched by id, never by email',
    );
  });

  it('vouches for an agent identity of the organisation, named by its display name; a revoked agent is refused', async () => {
    const agent = await newAgent(server, 'Booking agent');
    const given = await vouch(bob, { vouchee_id: agent.id });
    assert.deepEqual(given.counterpart, { type: 'agent', id: agent.id, name: 'Booking agent' });
    const score = await call(server, `/api/v1/trust_scores/${agent.id}`);
    assert.equal(score.body.trust_score.factors.find((f: Json) => f.name === 'vouches_received').value, 1);
    const gone = await newAgent(server, 'Retired agent');
    assert.equal((await call(server, `/api/v1/agent_identities/${gone.id}/revoke`, { method: 'POST' })).status, 200);
    refused(await call(server, API, { token: bob, json: { vouchee_id: gone.id } }), 422, 'vouchee_revoked');
  });

  it("reads their score at every organisation with the service's own client, each factor in plain words", async () => {
    const all = await scores(adaFirstParty);
    assert.deepEqual(
      all.map((s) => [s.organisation.id, s.subject_id]),
      [
        [sandboxAccount, ids.ada],
        [other.accountId, ids.adaElsewhere],
      ],
      "oldest relationship first; the service's own account is nobody's organisation",
    );
    const sandbox = all[0]!;
    assert.ok(sandbox.score >= 0 && sandbox.score <= 100);
    assert.equal(sandbox.organisation.name, 'Sandbox');
    for (const f of sandbox.factors) assert.ok(f.description.length > 20, f.name);
    const org = await call(server, `/api/v1/trust_scores/${ids.ada}`);
    assert.equal(org.body.trust_score.score, sandbox.score, "the organisation's own score");
  });

  it('lists what they gave and received, most recent first, page by page, and by status', async () => {
    const all = (await mine(adaFirstParty)).vouches;
    assert.ok(all.some((v) => v.direction === 'given') && all.some((v) => v.direction === 'received'));
    const times = all.map((v) => v.created_at);
    assert.deepEqual(times, [...times].sort().reverse());
    const walked: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 20; pages += 1) {
      const page = await mine(adaFirstParty, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      walked.push(...page.vouches.map((v) => v.id));
      cursor = page.next_cursor;
      if (!cursor) break;
    }
    assert.deepEqual(
      walked,
      all.map((v) => v.id),
    );
    assert.ok((await mine(adaFirstParty, '?status=revoked')).vouches.every((v) => v.status === 'revoked'));
    assert.ok((await mine(adaFirstParty, '?direction=received')).vouches.every((v) => v.direction === 'received'));
    assert.equal((await call(server, `${API}?direction=sideways`, { token: ada })).status, 400);
  });
});
