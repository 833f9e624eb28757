// A person's data deals over the API: whose offers and licences each token sees (never another person's; an
// organisation's client only that organisation's; the service's own clients every organisation's), who may call
// (no API token, the scopes), and that an answer is Protect's own move: the policy records the acceptance, the
// organisation reads the offer moved, one audit event, a replay answers the same with no second effect, and the
// moves the data deal forbids (accept after decline, an offer that is the organisation's turn) are 409.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { personDataLicenseList, personDataOfferList, type PersonDataLicenseList, type PersonDataOfferList } from '@svc/schemas';
import { call, type Json, type Person } from '../../authority/delegations/test-support.js';
import { firstPartyClient } from '../../platform/oauth/first-party.js';
import { Browser, personAccessToken } from '../../platform/oauth/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { otherOrganisation as anotherOrganisation } from '../test-support.js';

const SCOPES = 'openid email data_offers:read data_offers:write';
const OFFERS = '/api/v1/me/data_offers';
const LICENSES = '/api/v1/me/data_licenses';

let server: TestServer;
let ada: Person;
let bob: Person;
let adaElsewhere: Person;
let adaFirstParty: string;
let other: { token: string; accountId: string; applicationId: string };
/** Offers: Ada's two countered ones and one she offered (the organisation's turn) here, hers elsewhere, Bob's. */
const offers = {} as Record<'ada' | 'adaSecond' | 'adaWaiting' | 'other' | 'bob', string>;
/** Licences: under an agreement Ada signed here and elsewhere, and under one only Lena signed. */
const licenses = {} as Record<'ada' | 'other' | 'lena', string>;

/** A second organisation, written straight into storage. */
const otherOrganisation = () => anotherOrganisation(server);

async function signIn(email: string, scope = SCOPES, client?: { id: string; secret?: string; redirectUri: string }): Promise<Person> {
  const sandbox = client
    ? { ...server.sandbox, oauth_client_id: client.id, oauth_client_secret: client.secret, oauth_redirect_uri: client.redirectUri }
    : server.sandbox;
  const token = await personAccessToken({ url: server.url, sandbox }, email, scope, new Browser(server.url));
  const me = await call(server, '/api/v1/me', { token });
  assert.equal(me.status, 200, JSON.stringify(me.body));
  return { token, id: me.body.person.id };
}

/** `call` asserting the status; answers the body. */
async function ok(status: number, path: string, init: Parameters<typeof call>[2] = {}): Promise<Json> {
  const res = await call(server, path, init);
  assert.equal(res.status, status, `${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}
const as = (token: string) => ({ authorization: `Bearer ${token}` });

/** A deal the person offers for a data_offer policy of theirs, countered by the organisation unless `counter` is false. */
async function deal(person: string, org: { token?: string; applicationId: string }, counter = true): Promise<string> {
  const policy = await ok(201, '/api/v1/policies', {
    token: person,
    json: { template_id: 'data_offer', config: { data_categories: ['steps', 'sleep'] } },
  });
  const draft = await ok(201, '/api/v1/data_offers', {
    token: person,
    json: {
      policy_id: policy.policy.id,
      application_id: org.applicationId,
      terms: { price: { amount: 1000, currency: 'EUR' }, months: 12 },
    },
  });
  const id = draft.data_offer.id as string;
  await ok(200, `/api/v1/data_offers/${id}/offer`, { token: person, method: 'POST' });
  if (counter) {
    const headers = org.token ? as(org.token) : {};
    await ok(200, `/api/v1/data_offers/${id}/counter`, {
      headers,
      json: { terms: { price: { amount: 600, currency: 'EUR' }, months: 6 } },
    });
  }
  return id;
}

/** An agreement of one party (`email`), signed on its hosted page, and a licence of three accesses under it. */
async function license(email: string, org?: { token: string }): Promise<string> {
  const headers = org ? as(org.token) : {};
  const text = `Data licence for ${email}\n`;
  const created = await ok(201, '/api/v1/agreements', {
    headers,
    json: {
      agreement: {
        title: 'Step counts for research',
        document: { text, sha256: createHash('sha256').update(text).digest('hex') },
        parties: [{ email, home_country: 'US' }],
        quorum: 1,
      },
    },
  });
  const session = created.agreement.party_details[0].session_token as string;
  const step = async (request: Json) => {
    const res = await fetch(`${server.url}/decisions/${session}/transitions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: new URL(server.url).origin },
      body: JSON.stringify(request),
    });
    const body = (await res.json()) as Json;
    assert.equal(res.status, 200, JSON.stringify(body));
    return body;
  };
  const sent = await step({ action: 'send_code' });
  await step({ action: 'verify', code: sent.sandbox_code });
  await step({ action: 'sign', name: 'Signer' });
  const issued = await ok(201, '/api/v1/data_licenses', {
    headers,
    json: { agreement_id: created.agreement.id, max_access_count: 3, terms: { purpose: 'research' } },
  });
  return issued.data_license.id as string;
}

async function listOffers(token: string, query = ''): Promise<PersonDataOfferList> {
  return personDataOfferList.parse(await ok(200, `${OFFERS}${query}`, { token }));
}
async function listLicenses(token: string, query = ''): Promise<PersonDataLicenseList> {
  return personDataLicenseList.parse(await ok(200, `${LICENSES}${query}`, { token }));
}
const ids = (items: { id: string }[]) => items.map((i) => i.id).sort();
const post = (token: string | undefined, path: string, json?: Json) =>
  call(server, path, { ...(json === undefined ? { method: 'POST' } : { json }), ...(token ? { token } : {}) });
async function audited(type: string, key: string, id: string, headers: Record<string, string> = {}): Promise<number> {
  const events = (await call(server, '/api/v1/audit/events?limit=100', { headers })).body.audit_events as Json[];
  return events.filter((e) => e.type === type && e.data?.[key] === id).length;
}
const orgOffer = async (id: string, headers: Record<string, string> = {}) =>
  (await ok(200, `/api/v1/data_offers/${id}`, { headers })).data_offer;

before(async () => {
  server = await startTestServer();
  other = otherOrganisation();
  ada = await signIn('ada@example.com');
  bob = await signIn('bob@example.com');
  const sandbox = { applicationId: server.sandbox.application_id };
  offers.ada = await deal(ada.token, sandbox);
  offers.adaSecond = await deal(ada.token, sandbox);
  offers.adaWaiting = await deal(ada.token, sandbox, false);
  offers.bob = await deal(bob.token, sandbox);

  const client = await ok(201, `/api/v1/applications/${other.applicationId}/oauth_clients`, {
    headers: as(other.token),
    json: { oauth_client: { name: 'Other shop app', client_type: 'confidential', redirect_uris: ['https://shop.example/cb'] } },
  });
  adaElsewhere = await signIn('ADA@example.com', SCOPES, {
    id: client.oauth_client.client_id,
    secret: client.oauth_client.client_secret,
    redirectUri: 'https://shop.example/cb',
  });
  offers.other = await deal(adaElsewhere.token, other);

  licenses.ada = await license('ada@example.com');
  licenses.lena = await license('lena@example.com');
  licenses.other = await license('ada@example.com', other);

  const own = firstPartyClient(server.context, 'data_offers_test', {
    name: 'Your data offers',
    redirectPath: '/data_offers/callback',
    scopes: ['openid', 'email', 'data_offers:read', 'data_offers:write'],
  });
  adaFirstParty = (await signIn('ada@example.com', SCOPES, { id: own.client_id, redirectUri: `${server.url}/data_offers/callback` })).token;
});
after(() => server.dispose());

describe('whose offers and licences a token sees and answers', () => {
  it("answers 404 for another person's offer, on reading and on every answer, and moves nothing", async () => {
    for (const id of [offers.ada, offers.other, 'dof_us_AAAAAAAAAAAAAAAAAAAA', 'nonsense']) {
      assert.equal((await call(server, `${OFFERS}/${id}`, { token: bob.token })).status, 404, id);
      for (const action of ['accept', 'decline'])
        assert.equal((await post(bob.token, `${OFFERS}/${id}/${action}`)).status, 404, `${action} ${id}`);
    }
    assert.equal((await orgOffer(offers.ada)).status, 'countered');
    assert.deepEqual(ids((await listOffers(bob.token)).data_offers), [offers.bob]);
  });

  it("keeps an organisation's client to that organisation's offers; the service's own client sees every organisation's", async () => {
    assert.deepEqual(ids((await listOffers(adaElsewhere.token)).data_offers), [offers.other]);
    assert.equal((await call(server, `${OFFERS}/${offers.ada}`, { token: adaElsewhere.token })).status, 404);
    assert.equal((await post(adaElsewhere.token, `${OFFERS}/${offers.ada}/accept`)).status, 404);
    assert.equal((await orgOffer(offers.ada)).status, 'countered');
    const all = await listOffers(adaFirstParty);
    assert.deepEqual(ids(all.data_offers), [offers.ada, offers.adaSecond, offers.adaWaiting, offers.other].sort());
    const elsewhere = all.data_offers.find((o) => o.id === offers.other)!;
    assert.deepEqual(elsewhere.organisation, { id: other.accountId, name: 'Other organisation' });
    assert.deepEqual(elsewhere.application, { id: other.applicationId, name: 'Other shop' });
    assert.deepEqual([elsewhere.status, elsewhere.turn, elsewhere.answerable], ['countered', 'person', true]);
    assert.deepEqual(elsewhere.policy.data_categories, ['steps', 'sleep']);
    assert.deepEqual(elsewhere.terms, { price: { amount: 600, currency: 'EUR' }, months: 6 });
    assert.deepEqual(
      elsewhere.rounds.map((r) => [r.action, r.by]),
      [
        ['offer', 'person'],
        ['counter', 'organisation'],
      ],
    );
    const waiting = all.data_offers.find((o) => o.id === offers.adaWaiting)!;
    assert.deepEqual([waiting.status, waiting.turn, waiting.answerable], ['offered', 'organisation', false]);
  });

  it('shows licences under agreements the person signed only, each organisation to its own client', async () => {
    assert.deepEqual(ids((await listLicenses(ada.token)).data_licenses), [licenses.ada]);
    assert.deepEqual(ids((await listLicenses(adaElsewhere.token)).data_licenses), [licenses.other]);
    assert.deepEqual(ids((await listLicenses(adaFirstParty)).data_licenses), [licenses.ada, licenses.other].sort());
    assert.deepEqual((await listLicenses(bob.token)).data_licenses, []);
    for (const id of [licenses.lena, licenses.other]) {
      assert.equal((await call(server, `${LICENSES}/${id}`, { token: ada.token })).status, 404, id);
      assert.equal((await post(ada.token, `${LICENSES}/${id}/revoke`)).status, 404, id);
    }
    assert.equal((await ok(200, `/api/v1/data_licenses/${licenses.lena}`)).data_license.status, 'active');
    const [mine] = (await listLicenses(ada.token)).data_licenses;
    assert.deepEqual(
      [mine!.status, mine!.revocable, mine!.max_access_count, mine!.remaining_accesses, mine!.terms, mine!.agreement.title],
      ['active', true, 3, 3, { purpose: 'research' }, 'Step counts for research'],
    );
    assert.ok(mine!.agreement.signed_at);
  });
});

describe('who may call', () => {
  it('refuses an API token (person_token_required) and a token without the scope (insufficient_scope, with its challenge)', async () => {
    for (const [method, path] of [
      ['GET', OFFERS],
      ['GET', `${OFFERS}/${offers.ada}`],
      ['POST', `${OFFERS}/${offers.ada}/accept`],
      ['POST', `${OFFERS}/${offers.ada}/decline`],
      ['GET', LICENSES],
      ['POST', `${LICENSES}/${licenses.ada}/revoke`],
    ] as const) {
      const api = await call(server, path, { method });
      assert.equal(api.status, 403, `${method} ${path}`);
      assert.equal(api.body.code, 'person_token_required');
    }
    const narrow = await signIn('ada@example.com', 'openid email');
    const refused = await call(server, OFFERS, { token: narrow.token });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'insufficient_scope');
    assert.equal(refused.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="data_offers:read"');
    const readOnly = await signIn('ada@example.com', 'openid data_offers:read');
    assert.equal((await call(server, LICENSES, { token: readOnly.token })).status, 200);
    for (const path of [`${OFFERS}/${offers.ada}/accept`, `${LICENSES}/${licenses.ada}/revoke`]) {
      const write = await post(readOnly.token, path);
      assert.equal(write.status, 403, path);
      assert.equal(write.body.code, 'insufficient_scope');
      assert.equal(write.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="data_offers:write"');
    }
    assert.equal((await orgOffer(offers.ada)).status, 'countered');
    assert.equal((await call(server, OFFERS, { token: 'not-a-token' })).status, 401);
  });
});

describe('answering an offer', () => {
  it("accepts the organisation's counter once: recorded on the policy, one audit event, a replay changes nothing", async () => {
    const res = await post(ada.token, `${OFFERS}/${offers.ada}/accept`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const accepted = res.body.data_offer;
    assert.deepEqual([accepted.status, accepted.turn, accepted.answerable], ['accepted', null, false]);
    const policy = (await ok(200, `/api/v1/policies/${accepted.policy.id}`, { token: ada.token })).policy;
    assert.deepEqual([policy.acceptance.accepted_by, policy.acceptance.data_offer_id], ['person', offers.ada]);
    assert.deepEqual(policy.acceptance.terms, { price: { amount: 600, currency: 'EUR' }, months: 6 });
    const again = await post(ada.token, `${OFFERS}/${offers.ada}/accept`);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.data_offer, accepted);
    assert.equal(await audited('data_offer.accepted', 'data_offer_id', offers.ada), 1);
    assert.equal((await orgOffer(offers.ada)).rounds.length, 3);
    const decline = await post(ada.token, `${OFFERS}/${offers.ada}/decline`);
    assert.equal(decline.status, 409);
    assert.equal(decline.body.code, 'illegal_transition');
  });

  it('declines with a reason once; accepting after it is 409 and a replay changes nothing', async () => {
    const res = await post(adaFirstParty, `${OFFERS}/${offers.adaSecond}/decline`, { reason: 'Too little for my sleep data.' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.data_offer.status, res.body.data_offer.decline_reason], ['declined', 'Too little for my sleep data.']);
    const again = await post(adaFirstParty, `${OFFERS}/${offers.adaSecond}/decline`);
    assert.equal(again.status, 200);
    assert.equal(again.body.data_offer.decided_at, res.body.data_offer.decided_at);
    const accept = await post(adaFirstParty, `${OFFERS}/${offers.adaSecond}/accept`);
    assert.equal(accept.status, 409);
    assert.equal(accept.body.code, 'illegal_transition');
    assert.equal(await audited('data_offer.declined', 'data_offer_id', offers.adaSecond), 1);
    assert.equal((await orgOffer(offers.adaSecond)).status, 'declined');
  });

  it("refuses to answer an offer that waits for the organisation (409), and answers another organisation's through the service's own client", async () => {
    const early = await post(ada.token, `${OFFERS}/${offers.adaWaiting}/accept`);
    assert.equal(early.status, 409);
    assert.equal((await orgOffer(offers.adaWaiting)).status, 'offered');
    const res = await post(adaFirstParty, `${OFFERS}/${offers.other}/accept`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await orgOffer(offers.other, as(other.token))).status, 'accepted');
    assert.equal(await audited('data_offer.accepted', 'data_offer_id', offers.other, as(other.token)), 1);
  });

  it('422s a decline reason that is not a short text, before anything moves', async () => {
    const fresh = await deal(ada.token, { applicationId: server.sandbox.application_id });
    const res = await post(ada.token, `${OFFERS}/${fresh}/decline`, { reason: 'x'.repeat(2001) });
    assert.equal(res.status, 422);
    assert.equal((await orgOffer(fresh)).status, 'countered');
  });
});

describe('revoking a licence', () => {
  it('revokes once: no further access is counted, one audit event, a replay changes nothing', async () => {
    await ok(201, `/api/v1/data_licenses/${licenses.ada}/accesses`, { json: { purpose: 'study' } });
    const res = await post(ada.token, `${LICENSES}/${licenses.ada}/revoke`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      [res.body.data_license.status, res.body.data_license.revocable, res.body.data_license.access_count],
      ['revoked', false, 1],
    );
    const again = await post(ada.token, `${LICENSES}/${licenses.ada}/revoke`);
    assert.equal(again.status, 200);
    assert.equal(again.body.data_license.revoked_at, res.body.data_license.revoked_at);
    assert.equal(await audited('data_license.revoked', 'data_license_id', licenses.ada), 1);
    const access = await call(server, `/api/v1/data_licenses/${licenses.ada}/accesses`, { json: {} });
    assert.equal(access.status, 409);
    assert.equal(access.body.code, 'data_license_revoked');
    assert.deepEqual(ids((await listLicenses(ada.token, '?status=revoked')).data_licenses), [licenses.ada]);
  });
});
