// A person's own data requests over the API: whose requests each token sees (never another person's; an organisation's
// client only that organisation's; the service's own clients every organisation's), with whom a person may file one
// (only an organisation where they have a person row), that filing is Protect's own (the organisation lists it with
// the person as subject, its audit trail records it) and that a replayed filing files once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  dataRequestExport,
  dataRequestList,
  personDataRequestEnvelope,
  personDataRequestList,
  type PersonDataRequestList,
} from '@svc/schemas';
import { hashSecret, newId, newSecret } from '../../infra/ids.js';
import { call, type Json } from '../../authority/delegations/test-support.js';
import { firstPartyClient } from '../../platform/oauth/first-party.js';
import { Browser, personAccessToken } from '../../platform/oauth/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';

const SCOPES = 'openid email data_requests:read data_requests:write';
const API = '/api/v1/me/data_requests';
const DAY = 86_400;

let server: TestServer;
let sandboxAccount: string;
/** Ada and Bob through the sandbox organisation's own client. */
let ada: string;
let bob: string;
/** Ada through the other organisation's client, and through one of the service's own clients. */
let adaElsewhere: string;
let adaFirstParty: string;
let other: { token: string; accountId: string; applicationId: string };
/** A third organisation where Ada has no person row. */
let stranger: { token: string; accountId: string; applicationId: string };

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

async function list(token: string, query = ''): Promise<PersonDataRequestList> {
  const res = await call(server, `${API}${query}`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return personDataRequestList.parse(res.body);
}

async function file(token: string, json: Json, headers: Record<string, string> = {}) {
  const res = await call(server, API, { token, json, headers });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { ...personDataRequestEnvelope.parse(res.body).data_request, location: res.headers.get('location') };
}

const count = (accountId: string) =>
  server.context.db.prepare('SELECT count(*) FROM data_requests WHERE account_id = ?').pluck().get(accountId) as number;

before(async () => {
  server = await startTestServer();
  sandboxAccount = server.context.db
    .prepare('SELECT account_id FROM applications WHERE id = ?')
    .pluck()
    .get(server.sandbox.application_id) as string;
  other = organisation('Other organisation');
  stranger = organisation('Stranger organisation');
  ada = await personAccessToken(server, 'ada@example.com', SCOPES);
  bob = await personAccessToken(server, 'bob@example.com', SCOPES);
  const client = await call(server, `/api/v1/applications/${other.applicationId}/oauth_clients`, {
    headers: { authorization: `Bearer ${other.token}` },
    json: { oauth_client: { name: 'Other shop app', client_type: 'confidential', redirect_uris: ['https://shop.example/cb'] } },
  });
  assert.equal(client.status, 201, JSON.stringify(client.body));
  const { client_id, client_secret } = client.body.oauth_client;
  adaElsewhere = await tokenThrough({ id: client_id, secret: client_secret, redirectUri: 'https://shop.example/cb' }, 'ADA@example.com');
  const own = firstPartyClient(server.context, 'data_requests_test', {
    name: 'Your data requests',
    redirectPath: '/data_requests_test/callback',
    scopes: ['openid', 'email', 'data_requests:read', 'data_requests:write'],
  });
  adaFirstParty = await tokenThrough({ id: own.client_id, redirectUri: `${server.url}/data_requests_test/callback` }, 'ada@example.com');
});
after(() => server.dispose());

describe('the attacker', () => {
  it("never reads another person's request: 404, the same as a request that does not exist", async () => {
    const bobs = await file(bob, { organisation_id: sandboxAccount, dsar_type: 'erasure' });
    for (const token of [ada, adaElsewhere, adaFirstParty]) {
      assert.equal((await call(server, `${API}/${bobs.id}`, { token })).status, 404);
      assert.equal((await call(server, `${API}/${bobs.id}/export`, { token })).status, 404);
      assert.ok(!(await list(token)).data_requests.some((r) => r.id === bobs.id));
    }
    assert.equal((await call(server, `${API}/dsar_us_nothinghere000000000`, { token: bob })).status, 404);
  });

  it('files nothing with an organisation where the person has no person row (404), nor with an unknown one', async () => {
    const before = count(stranger.accountId);
    for (const token of [ada, adaElsewhere, adaFirstParty]) {
      const res = await call(server, API, { token, json: { organisation_id: stranger.accountId, dsar_type: 'access' } });
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.equal(res.body.code, 'not_found');
    }
    assert.equal((await call(server, API, { token: ada, json: { organisation_id: 'acct_nope', dsar_type: 'access' } })).status, 404);
    assert.equal(count(stranger.accountId), before);
    const strangers = await call(server, '/api/v1/data_requests', { headers: { authorization: `Bearer ${stranger.token}` } });
    assert.deepEqual(strangers.body.data_requests, []);
  });

  it("an organisation's client neither files with nor sees another organisation", async () => {
    const before = count(sandboxAccount);
    const res = await call(server, API, { token: adaElsewhere, json: { organisation_id: sandboxAccount, dsar_type: 'erasure' } });
    assert.equal(res.status, 404);
    assert.equal(count(sandboxAccount), before);
    const mine = await file(ada, { organisation_id: sandboxAccount, dsar_type: 'access' });
    assert.equal((await call(server, `${API}/${mine.id}`, { token: adaElsewhere })).status, 404);
    const seen = await list(adaElsewhere);
    assert.ok(seen.data_requests.every((r) => r.organisation.id === other.accountId));
    assert.deepEqual(seen.organisations, [{ id: other.accountId, name: 'Other organisation' }]);
    assert.deepEqual(
      (await list(ada)).organisations.map((o) => o.id),
      [sandboxAccount],
    );
  });

  it('refuses an API token (403 person_token_required) and a token without the scope (403 insufficient_scope)', async () => {
    const api = await call(server, API);
    assert.deepEqual([api.status, api.body.code], [403, 'person_token_required']);
    const filedByApi = await call(server, API, { json: { organisation_id: sandboxAccount, dsar_type: 'access' } });
    assert.deepEqual([filedByApi.status, filedByApi.body.code], [403, 'person_token_required']);
    const readOnly = await personAccessToken(server, 'ada@example.com', 'openid data_requests:read');
    const noWrite = await call(server, API, { token: readOnly, json: { organisation_id: sandboxAccount, dsar_type: 'access' } });
    assert.deepEqual([noWrite.status, noWrite.body.code], [403, 'insufficient_scope']);
    assert.match(noWrite.headers.get('www-authenticate') ?? '', /scope="data_requests:write"/);
    const none = await personAccessToken(server, 'ada@example.com', 'openid');
    const noRead = await call(server, API, { token: none });
    assert.deepEqual([noRead.status, noRead.body.code], [403, 'insufficient_scope']);
  });

  it('files once for a replayed POST with the same Idempotency-Key', async () => {
    const before = count(other.accountId);
    const body = { organisation_id: other.accountId, dsar_type: 'portability', scope: 'my orders' };
    const first = await file(adaFirstParty, body, { 'idempotency-key': 'file-portability-1' });
    const again = await call(server, API, { token: adaFirstParty, json: body, headers: { 'idempotency-key': 'file-portability-1' } });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.data_request.id, first.id);
    assert.equal(count(other.accountId), before + 1);
  });

  it('refuses a body that is not a request (422), filing nothing', async () => {
    const before = count(sandboxAccount);
    for (const json of [
      { organisation_id: sandboxAccount, dsar_type: 'objection' },
      { dsar_type: 'access' },
      { organisation_id: sandboxAccount, dsar_type: 'access', extra: 1 },
    ]) {
      assert.equal((await call(server, API, { token: ada, json })).status, 422);
    }
    assert.equal(count(sandboxAccount), before);
  });
});

describe('the person', () => {
  it('files with an organisation they have a relationship with; the organisation lists it with them as subject and audits it', async () => {
    const filed = await file(adaFirstParty, { organisation_id: other.accountId, dsar_type: 'erasure', scope: 'My newsletter profile' });
    assert.equal(filed.location, `${API}/${filed.id}`);
    assert.deepEqual(
      [filed.status, filed.dsar_type, filed.scope, filed.organisation, filed.overdue, filed.extended, filed.export_url],
      ['received', 'erasure', 'My newsletter profile', { id: other.accountId, name: 'Other organisation' }, false, false, null],
    );
    assert.equal((Date.parse(filed.due_date) - Date.parse(filed.received_at)) / (DAY * 1000), 30);

    const adaThere = (await call(server, '/api/v1/me', { token: adaElsewhere })).body.person.id;
    const org = dataRequestList.parse(
      (await call(server, '/api/v1/data_requests', { headers: { authorization: `Bearer ${other.token}` } })).body,
    );
    const seen = org.data_requests.find((r) => r.id === filed.id);
    assert.ok(seen);
    assert.deepEqual([seen.person_id, seen.application_id, seen.due_date], [adaThere, other.applicationId, filed.due_date]);
    const audit = await call(server, `/api/v1/audit/events?application_id=${other.applicationId}&limit=100`, {
      headers: { authorization: `Bearer ${other.token}` },
    });
    assert.ok(audit.body.audit_events.some((e: Json) => e.type === 'data_request.received' && e.data.data_request_id === filed.id));
  });

  it("lists every organisation's requests to the service's own client, newest first, with the organisations to file with", async () => {
    const all = await list(adaFirstParty);
    assert.deepEqual(
      all.organisations.map((o) => o.id).sort(),
      [sandboxAccount, other.accountId].sort(),
      "the service's own account is nobody's organisation",
    );
    const orgs = new Set(all.data_requests.map((r) => r.organisation.id));
    assert.deepEqual([...orgs].sort(), [sandboxAccount, other.accountId].sort());
    const times = all.data_requests.map((r) => r.received_at);
    assert.deepEqual(times, [...times].sort().reverse());
    const walked: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 20; pages += 1) {
      const page: PersonDataRequestList = await list(adaFirstParty, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      walked.push(...page.data_requests.map((r) => r.id));
      cursor = page.next_cursor;
      if (!cursor) break;
    }
    assert.deepEqual(
      walked,
      all.data_requests.map((r) => r.id),
    );
  });

  it('follows the answer: extended with its reason, overdue, and the export link of a completed access request', async () => {
    const asOther = { authorization: `Bearer ${other.token}` };
    const access = await file(adaFirstParty, { organisation_id: other.accountId, dsar_type: 'access' });
    const late = await file(adaElsewhere, { organisation_id: other.accountId, dsar_type: 'rectification' });
    const at = (id: string, action: string) => `/api/v1/data_requests/${id}/${action}`;
    assert.equal(
      (await call(server, at(access.id, 'extend'), { headers: asOther, json: { reason: 'Three systems.', days: 30 } })).status,
      200,
    );
    server.advance(31 * DAY);
    const read = async (id: string) =>
      personDataRequestEnvelope.parse((await call(server, `${API}/${id}`, { token: adaFirstParty })).body).data_request;
    const extended = await read(access.id);
    assert.deepEqual([extended.extended, extended.extension_reason, extended.overdue], [true, 'Three systems.', false]);
    assert.equal((await read(late.id)).overdue, true);

    assert.equal((await call(server, `${API}/${access.id}/export`, { token: adaFirstParty })).status, 404);
    await call(server, at(access.id, 'start'), { headers: asOther, method: 'POST' });
    await call(server, at(access.id, 'complete'), { headers: asOther, method: 'POST' });
    const done = await read(access.id);
    assert.equal(done.status, 'completed');
    assert.equal(done.export_url, `${server.context.baseUrl}${API}/${access.id}/export`);
    const exported = await call(server, `${API}/${access.id}/export`, { token: adaElsewhere });
    assert.equal(exported.status, 200);
    assert.match(exported.headers.get('content-disposition') ?? '', /attachment/);
    assert.equal(dataRequestExport.parse(exported.body).person.email, 'ada@example.com');
    assert.equal((await call(server, `${API}/${access.id}/export`, { token: bob })).status, 404);
  });
});
