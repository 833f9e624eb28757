// A person's own consent records over the API: whose records each token sees (never another person's; an
// organisation's client only that organisation's; the service's own clients every organisation's), who may read and
// withdraw them, and that a withdrawal is the person's (person_records), immediate, and told to the organisation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  consentExchange,
  consentVerification,
  personConsentRecord,
  personConsentRecordList,
  type PersonConsentRecord,
  type PersonConsentRecordList,
} from '@svc/schemas';
import { hashSecret, newId, newSecret } from '../../infra/ids.js';
import { call, grant, type Json, type Person } from '../../authority/delegations/test-support.js';
import { createConsent, exchange, grantStandard, ok, verify } from '../../consent/decisions/test-support.js';
import { createActiveFlow, createRecord, fetchReceipt, grantAll, recordFlowConfig } from '../../consent/records/test-support.js';
import { firstPartyClient } from '../../platform/oauth/first-party.js';
import { Browser, personAccessToken } from '../../platform/oauth/test-support.js';
import { createEndpoint, delivered, startReceiver, type Receiver } from '../../platform/webhooks/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { recordWithdrawalUrl } from '../withdrawal/links.js';

const SCOPES = 'openid email records:read records:write';
const API = '/api/v1/me/consent_records';

let server: TestServer;
let receiver: Receiver;
let secret: string;
/** Ada and Bob through the sandbox organisation's own client. */
let ada: Person;
let bob: Person;
/** Ada through another organisation's client, and through one of the service's own clients. */
let adaElsewhere: string;
let adaFirstParty: string;
let other: { token: string; accountId: string; applicationId: string };
const records: Record<string, string> = {};
/** The sandbox organisation's capturable flow. */
let flowId: string;

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

/** A person signed in through the sandbox organisation's client with `scope`. */
async function signIn(email: string, scope = SCOPES): Promise<Person> {
  const token = await personAccessToken(server, email, scope);
  const me = await call(server, '/api/v1/me', { token });
  assert.equal(me.status, 200, JSON.stringify(me.body));
  return { token, id: me.body.person.id };
}

/** A token through a client that is not the sandbox's: `client` stands in for the sandbox's client fields. */
function tokenThrough(client: { id: string; secret?: string; redirectUri: string }, email: string): Promise<string> {
  const sandbox = {
    ...server.sandbox,
    oauth_client_id: client.id,
    oauth_client_secret: client.secret,
    oauth_redirect_uri: client.redirectUri,
  };
  return personAccessToken({ url: server.url, sandbox }, email, SCOPES, new Browser(server.url));
}

/** The list as `token` reads it (asserts 200 and the schema). */
async function list(token: string, query = '', headers: Record<string, string> = {}): Promise<PersonConsentRecordList> {
  const res = await call(server, `${API}${query}`, { token, headers });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const parsed = personConsentRecordList.safeParse(res.body);
  assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  return parsed.data;
}

const idsOf = (page: { consent_records: PersonConsentRecord[] }) => page.consent_records.map((r) => r.id);

/** Records a consent for `email` on `flowId` through the Record API (`token`: the organisation's, default the sandbox's). */
async function recordFor(email: string, flowId: string, token?: string): Promise<string> {
  const body = { flow_id: flowId, subject: { email }, decisions: grantAll };
  if (!token) return (await createRecord(server, body)).id;
  const res = await call(server, '/api/v1/consent_records', { json: body, headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.consent_record.id;
}

before(async () => {
  server = await startTestServer();
  receiver = await startReceiver(200);
  secret = (await createEndpoint(server, receiver.url, ['consent.revoked', 'consent.purpose_revoked'])).secret;
  flowId = await createActiveFlow(server);
  other = otherOrganisation();
  const asOther = { authorization: `Bearer ${other.token}` };
  const otherFlow = await call(server, '/api/v1/flows', {
    headers: asOther,
    json: { flow: { pattern: 'standard', title: 'Other signup', config: recordFlowConfig, application_id: other.applicationId } },
  });
  assert.equal(otherFlow.status, 201, JSON.stringify(otherFlow.body));
  assert.equal((await call(server, `/api/v1/flows/${otherFlow.body.flow.id}/activate`, { headers: asOther, json: {} })).status, 200);

  // Ada has three records with the sandbox organisation and one with the other; Bob one with the sandbox organisation.
  for (const key of ['ada1', 'ada2', 'ada3']) {
    records[key] = await recordFor('Ada@Example.com', flowId);
    server.advance(60);
  }
  records.bob = await recordFor('bob@example.com', flowId);
  records.adaOther = await recordFor('ada@example.com', otherFlow.body.flow.id, other.token);

  ada = await signIn('ada@example.com');
  bob = await signIn('bob@example.com');
  const client = await call(server, `/api/v1/applications/${other.applicationId}/oauth_clients`, {
    headers: asOther,
    json: { oauth_client: { name: 'Other shop app', client_type: 'confidential', redirect_uris: ['https://shop.example/cb'] } },
  });
  assert.equal(client.status, 201, JSON.stringify(client.body));
  const { client_id, client_secret } = client.body.oauth_client;
  adaElsewhere = await tokenThrough({ id: client_id, secret: client_secret, redirectUri: 'https://shop.example/cb' }, 'ADA@example.com');
  const own = firstPartyClient(server.context, 'records_test', {
    name: 'Your consent records',
    redirectPath: '/records/callback',
    scopes: ['openid', 'email', 'records:read', 'records:write'],
  });
  adaFirstParty = await tokenThrough({ id: own.client_id, redirectUri: `${server.url}/records/callback` }, 'ada@example.com');
});
after(async () => {
  await server.dispose();
  await receiver.close();
});

describe('whose records a token sees', () => {
  it("never shows person A another person's records, and never B's to A", async () => {
    const adas = idsOf(await list(ada.token));
    assert.deepEqual(adas, [records.ada3, records.ada2, records.ada1], 'newest first, only her own');
    assert.deepEqual(idsOf(await list(bob.token)), [records.bob]);
    const carol = await signIn('carol@example.com');
    assert.deepEqual(idsOf(await list(carol.token)), []);
  });

  it("an organisation's client sees only that organisation's records, though the same email has records elsewhere", async () => {
    assert.ok(!idsOf(await list(ada.token)).includes(records.adaOther!));
    assert.deepEqual(idsOf(await list(adaElsewhere)), [records.adaOther]);
    const byId = await call(server, `${API}/${records.adaOther}`, { token: ada.token });
    assert.equal(byId.status, 404, "another organisation's record is not there for this organisation's client");
    const back = await call(server, `${API}/${records.ada1}`, { token: adaElsewhere });
    assert.equal(back.status, 404);
  });

  it("a token of one of the service's own clients sees every organisation's records of the person's verified email", async () => {
    const all = await list(adaFirstParty);
    assert.deepEqual(idsOf(all), [records.adaOther, records.ada3, records.ada2, records.ada1]);
    const [elsewhere, mine] = all.consent_records as [PersonConsentRecord, PersonConsentRecord];
    assert.deepEqual(elsewhere.organisation, { id: other.accountId, name: 'Other organisation' });
    assert.deepEqual(elsewhere.application, { id: other.applicationId, name: 'Other shop' });
    assert.equal(elsewhere.title, 'Other signup');
    assert.equal(
      mine.organisation.id,
      server.context.db.prepare('SELECT account_id FROM applications WHERE id = ?').pluck().get(server.sandbox.application_id),
    );
    assert.equal((await call(server, `${API}/${records.bob}`, { token: adaFirstParty })).status, 404);
  });

  it("answers a token of the service's own pages on the service's own origin, and on no other", async () => {
    const own = await call(server, API, { token: adaFirstParty, headers: { origin: new URL(server.url).origin } });
    assert.equal(own.status, 200, JSON.stringify(own.body));
    const elsewhere = await call(server, API, { token: adaFirstParty, headers: { origin: 'https://shop.example' } });
    assert.deepEqual([elsewhere.status, elsewhere.body.code], [403, 'origin_not_allowed']);
    const sandboxPage = await call(server, API, { token: ada.token, headers: { origin: 'https://shop.example' } });
    assert.deepEqual(
      [sandboxPage.status, sandboxPage.body.code],
      [403, 'origin_not_allowed'],
      "an organisation's token keeps its own application's origins",
    );
  });

  it('reads each record under the terms that govern it: title, labels, bases, what can be withdrawn, the receipt link', async () => {
    const res = await call(server, `${API}/${records.ada1}`, { token: ada.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const record = personConsentRecord.parse(res.body.consent_record);
    assert.equal(record.title, 'Shop signup');
    assert.equal(record.status, 'fulfilled');
    assert.equal(record.application.id, server.sandbox.application_id);
    assert.equal(record.receipt_id, records.ada1);
    assert.equal(record.withdrawal_method, recordWithdrawalUrl(server.context, records.ada1!));
    assert.deepEqual(
      record.purposes.map((p) => [p.key, p.label, p.outcome, p.basis, p.withdrawable]),
      [
        ['newsletter', 'Email newsletter', 'granted', 'consent', true],
        ['research', 'Research panel', 'granted', 'consent', true],
        ['analytics', 'Product analytics', 'noticed', 'legitimate_interest', true],
        ['service', 'Providing the service', 'noticed', 'contract', false],
        ['invoices', 'Keeping invoices', 'noticed', 'legal_obligation', false],
      ],
    );
  });

  it('pages by cursor, newest first, never skipping or repeating a record while new ones arrive', async () => {
    const all = idsOf(await list(adaFirstParty));
    const walked: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 10; pages += 1) {
      const page: PersonConsentRecordList = await list(adaFirstParty, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      assert.ok(page.consent_records.length <= 1);
      walked.push(...idsOf(page));
      if (pages === 0) records.late = await recordFor('ada@example.com', flowId); // arrives mid-walk
      cursor = page.next_cursor;
      if (!cursor) break;
    }
    assert.deepEqual(walked, all);
    assert.equal((await list(adaFirstParty)).consent_records[0]?.id, records.late, 'the newer record heads the next first page');
    const forged = await call(server, `${API}?cursor=${Buffer.from('not-a-cursor').toString('base64url')}`, { token: ada.token });
    assert.equal(forged.status, 400);
    const unknown = await call(server, `${API}?status=gone&colour=red`, { token: ada.token });
    assert.equal(unknown.status, 400);
  });
  it('never shows an anonymous record, not even one whose unverified sign-in named the same email', async () => {
    const seen = idsOf(await list(adaFirstParty));
    const decision = await createConsent(server);
    await ok(server, decision.session_token, { action: 'begin' });
    await ok(server, decision.session_token, { action: 'sign_in', email: 'ada@example.com' });
    const done = await ok(server, decision.session_token, { action: 'decline' });
    const exchanged = await exchange(server, decision.session_token, done.completion!.exchange_token);
    const { record_id } = consentExchange.parse(await exchanged.json());
    assert.ok(record_id);
    assert.deepEqual(idsOf(await list(adaFirstParty)), seen);
    assert.equal((await call(server, `${API}/${record_id}`, { token: adaFirstParty })).status, 404);
  });
});

describe('who may call', () => {
  it('refuses an API token (person_token_required) and a token without the scope (insufficient_scope, with its challenge)', async () => {
    for (const [method, path] of [
      ['GET', API],
      ['GET', `${API}/${records.ada1}`],
      ['POST', `${API}/${records.ada1}/withdraw`],
    ] as const) {
      const api = await call(server, path, { method, ...(method === 'POST' ? { json: {} } : {}) });
      assert.equal(api.status, 403, `${method} ${path}`);
      assert.equal(api.body.code, 'person_token_required');
    }
    const narrow = await signIn('ada@example.com', 'openid email');
    const refused = await call(server, API, { token: narrow.token });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'insufficient_scope');
    assert.equal(refused.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="records:read"');
    const readOnly = await signIn('ada@example.com', 'openid records:read');
    assert.equal((await call(server, API, { token: readOnly.token })).status, 200);
    const write = await call(server, `${API}/${records.ada1}/withdraw`, { token: readOnly.token, json: {} });
    assert.equal(write.status, 403);
    assert.equal(write.body.code, 'insufficient_scope');
    assert.equal(write.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="records:write"');
    assert.equal((await call(server, `${API}/${records.ada1}`)).status, 403);
    assert.equal((await call(server, API, { token: 'not-a-token' })).status, 401);
  });

  it("admits a delegate only when the grant delegates records:read: they read the principal's records", async () => {
    const inboxOnly = await grant(server, ada, bob.id, { delegation_type: 'guardian', delegated_scopes: ['inbox:read'] });
    const refused = await call(server, API, { token: bob.token, headers: { 'x-delegation-grant-id': inboxOnly.id } });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'bound_exceeded');
    const reader = await grant(server, ada, bob.id, { delegation_type: 'guardian', delegated_scopes: ['records:read'] });
    const asDelegate = await list(bob.token, '', { 'x-delegation-grant-id': reader.id });
    assert.deepEqual(idsOf(asDelegate), idsOf(await list(ada.token)));
    const withdraw = await call(server, `${API}/${records.ada1}/withdraw`, {
      token: bob.token,
      json: {},
      headers: { 'x-delegation-grant-id': reader.id },
    });
    assert.equal(withdraw.status, 403, 'reading was delegated, withdrawing was not');
    assert.equal(withdraw.body.code, 'bound_exceeded');
  });

  it("answers 404, the same as for no record, for another person's record on GET and POST", async () => {
    for (const id of [records.bob, records.adaOther, 'cr_nothing']) {
      const read = await call(server, `${API}/${id}`, { token: ada.token });
      assert.equal(read.status, 404, `GET ${id}`);
      assert.equal(read.body.message, 'No such consent record.');
      const post = await call(server, `${API}/${id}/withdraw`, { token: ada.token, json: { purposes: ['newsletter'] } });
      assert.equal(post.status, 404, `POST ${id}`);
      assert.equal(post.body.message, 'No such consent record.');
    }
    const bobs = await call(server, `${API}/${records.bob}`, { token: bob.token });
    assert.equal(bobs.body.consent_record.purposes[0].outcome, 'granted', "Bob's record is untouched");
  });
});

describe('withdrawing', () => {
  it('refuses a bad body with 422 and a message: a person cannot name another event channel', async () => {
    for (const body of [{ event_channel: 'organisation' }, { purposes: 'newsletter' }, { purposes: [] }]) {
      const res = await call(server, `${API}/${records.ada2}/withdraw`, { token: ada.token, json: body });
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.match(res.body.message, /^Request is invalid: /);
    }
    const unknown = await call(server, `${API}/${records.ada2}/withdraw`, { token: ada.token, json: { purposes: ['nothing'] } });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.code, 'unknown_purpose');
  });

  it('withdraws one purpose as the person (person_records): on the receipt and in the webhook event', async () => {
    await delivered(server, receiver, secret);
    const res = await call(server, `${API}/${records.ada2}/withdraw`, { token: ada.token, json: { purposes: ['newsletter'] } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const record = personConsentRecord.parse(res.body.consent_record);
    const newsletter = record.purposes.find((p) => p.key === 'newsletter');
    assert.deepEqual([newsletter?.outcome, newsletter?.withdrawable, record.status], ['revoked', false, 'fulfilled']);

    const receipt = await fetchReceipt(server, records.ada2!);
    const last = (receipt.body.consent_receipt as Json).event.at(-1);
    assert.deepEqual([last.event_state, last.purpose_id, last.event_channel], ['consent withdrawn', 'newsletter', 'person_records']);
    const events = await delivered(server, receiver, secret);
    assert.deepEqual(
      events.map((e) => e.type),
      ['consent.purpose_revoked'],
    );
    const [event] = events;
    assert.ok(event?.type === 'consent.purpose_revoked');
    assert.deepEqual([event.data.record_id, event.data.purpose, event.data.event_channel], [records.ada2, 'newsletter', 'person_records']);
    assert.equal((await list(ada.token, '?status=revoked')).consent_records.length, 0, 'research is still granted');
  });

  it('withdraws everything at once (no body): the record is revoked and its live consent tokens verify revoked', async () => {
    const decision = await createConsent(server);
    const completion = await grantStandard(server, decision.session_token);
    const exchanged = await exchange(server, decision.session_token, completion.exchange_token);
    const { access_token } = consentExchange.parse(await exchanged.json());
    const [newest] = (await list(ada.token)).consent_records as [PersonConsentRecord];
    assert.equal(newest.flow_id, server.sandbox.flow_id);

    const res = await server.api(`${API}/${newest.id}/withdraw`, { method: 'POST', headers: { authorization: `Bearer ${ada.token}` } });
    assert.equal(res.status, 200, await res.clone().text());
    const record = personConsentRecord.parse(((await res.json()) as Json).consent_record);
    assert.equal(record.status, 'revoked');
    assert.ok(record.purposes.every((p) => !p.withdrawable));
    const verified = consentVerification.parse(await (await verify(server, access_token!)).json());
    assert.deepEqual([verified.valid, verified.status], [false, 'revoked']);
    assert.deepEqual(idsOf(await list(ada.token, '?status=revoked')), [newest.id]);
    const events = await delivered(server, receiver, secret);
    const revoked = events.find((e) => e.type === 'consent.revoked') as Json | undefined;
    assert.equal(revoked?.data.event_channel, 'person_records');
  });
});
