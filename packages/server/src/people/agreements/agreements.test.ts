// A person's own agreements and collaborations over the API: whose each token sees (a party by their verified email,
// never another person's; an organisation's client only that organisation's; the service's own clients every
// organisation's), who may sign, decline and leave (the person themself, holding agreements:write), that a replay has
// no second effect, that a closed signing session stays closed, and that each action is the Agree surface's own (the
// same signature, webhook and audit events as the organisation's API).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { personAgreementList, personAgreementEnvelope, personCollaborationEnvelope, personCollaborationList } from '@svc/schemas';
import { call, grant, type Json, type Person } from '../../authority/delegations/test-support.js';
import { firstPartyClient } from '../../platform/oauth/first-party.js';
import { Browser, personAccessToken } from '../../platform/oauth/test-support.js';
import { createEndpoint, delivered, startReceiver, type Receiver } from '../../platform/webhooks/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { otherOrganisation as anotherOrganisation } from '../test-support.js';

const SCOPES = 'openid email agreements:read agreements:write';
const API = '/api/v1/me/agreements';
const COLLABS = '/api/v1/me/collaborations';
const TEXT = 'Joint venture\n\n1. Each party contributes its share.\n';
const document = { text: TEXT, sha256: createHash('sha256').update(TEXT, 'utf8').digest('hex') };

let server: TestServer;
let receiver: Receiver;
let secret: string;
let ada: Person;
let bob: Person;
let carol: Person;
/** Ada through another organisation's client, and through one of the service's own clients. */
let adaElsewhere: string;
let adaFirstParty: string;
let other: { token: string; accountId: string; applicationId: string };
const ids: Record<string, string> = {};

/** A second organisation, written straight into storage. */
const otherOrganisation = () => anotherOrganisation(server);

async function signIn(email: string, scope = SCOPES): Promise<Person> {
  const token = await personAccessToken(server, email, scope);
  const me = await call(server, '/api/v1/me', { token });
  assert.equal(me.status, 200, JSON.stringify(me.body));
  return { token, id: me.body.person.id };
}

function tokenThrough(client: { id: string; secret?: string; redirectUri: string }, email: string): Promise<string> {
  const sandbox = {
    ...server.sandbox,
    oauth_client_id: client.id,
    oauth_client_secret: client.secret,
    oauth_redirect_uri: client.redirectUri,
  };
  return personAccessToken({ url: server.url, sandbox }, email, SCOPES, new Browser(server.url));
}

/** Creates an agreement through the organisation's API (`token`: default the sandbox's), answering its id. */
async function agreementFor(title: string, emails: string[], quorum: number, extra: Json = {}, token?: string): Promise<string> {
  const parties = emails.map((email) => ({ email, home_country: 'US', ...(email.startsWith('clara') ? { name: 'Clara Lind' } : {}) }));
  const res = await call(server, '/api/v1/agreements', {
    json: { agreement: { title, document, parties, quorum, ...extra } },
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.agreement.id;
}

async function list(token: string, query = '', headers: Record<string, string> = {}) {
  const res = await call(server, `${API}${query}`, { token, headers });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return personAgreementList.parse(res.body);
}
const titles = (page: { agreements: { title: string }[] }) => page.agreements.map((a) => a.title);

async function one(token: string, id: string) {
  const res = await call(server, `${API}/${id}`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return personAgreementEnvelope.parse(res.body).agreement;
}

function refused(res: { status: number; body: Json }, status: number, code?: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.ok(typeof res.body.message === 'string' && res.body.message.length > 0);
  if (code) assert.equal(res.body.code, code, JSON.stringify(res.body));
}

const auditCount = (type: string) =>
  server.context.db.prepare('SELECT count(*) FROM audit_events WHERE type = ?').pluck().get(type) as number;

before(async () => {
  server = await startTestServer();
  receiver = await startReceiver(200);
  secret = (await createEndpoint(server, receiver.url, ['signature.signed', 'signature.declined'])).secret;
  other = otherOrganisation();
  ada = await signIn('ada@example.com');
  bob = await signIn('bob@example.com');
  carol = await signIn('carol@example.com');
  ids.joint = await agreementFor('Joint venture', ['Ada@Example.com', 'bob@example.com', 'clara@example.com'], 2);
  server.advance(60);
  ids.solo = await agreementFor('Newsletter terms', ['ada@example.com'], 1);
  ids.bobs = await agreementFor("Bob's lease", ['bob@example.com'], 1);
  ids.elsewhere = await agreementFor('Other terms', ['ada@example.com'], 1, {}, other.token);
  const client = await call(server, `/api/v1/applications/${other.applicationId}/oauth_clients`, {
    headers: { authorization: `Bearer ${other.token}` },
    json: { oauth_client: { name: 'Other shop app', client_type: 'confidential', redirect_uris: ['https://shop.example/cb'] } },
  });
  assert.equal(client.status, 201, JSON.stringify(client.body));
  const { client_id, client_secret } = client.body.oauth_client;
  adaElsewhere = await tokenThrough({ id: client_id, secret: client_secret, redirectUri: 'https://shop.example/cb' }, 'ADA@example.com');
  const own = firstPartyClient(server.context, 'agreements_test', {
    name: 'Your agreements',
    redirectPath: '/agreements/callback',
    scopes: ['openid', 'email', 'agreements:read', 'agreements:write'],
  });
  adaFirstParty = await tokenThrough({ id: own.client_id, redirectUri: `${server.url}/agreements/callback` }, 'ada@example.com');
  await delivered(server, receiver, secret);
});
after(async () => {
  await server.dispose();
  await receiver.close();
});

describe('who may read and sign (the attacker first)', () => {
  it('answers 404, the same as for no agreement, for one the person is not a party of, on GET and on sign', async () => {
    for (const id of [ids.bobs, ids.elsewhere, 'agr_us_00000000000000000000', 'nothing']) {
      refused(await call(server, `${API}/${id}`, { token: ada.token }), 404);
      const sign = await call(server, `${API}/${id}/sign`, { token: ada.token, json: {} });
      refused(sign, 404);
      assert.equal(sign.body.message, 'No such agreement.');
    }
    assert.equal((await one(bob.token, ids.bobs!)).you.status, 'pending', "Bob's agreement is untouched");
    assert.equal(auditCount('signature.signed'), 0);
  });

  it("an organisation's client signs nothing of another organisation, though the same email is a party there", async () => {
    refused(await call(server, `${API}/${ids.joint}/sign`, { token: adaElsewhere, json: {} }), 404);
    refused(await call(server, `${API}/${ids.elsewhere}/sign`, { token: ada.token, json: {} }), 404);
    assert.deepEqual(titles(await list(adaElsewhere)), ['Other terms']);
  });

  it('refuses an API token (person_token_required), a token without the scope, and a delegate who would sign', async () => {
    for (const [path, json] of [
      [API, undefined],
      [`${API}/${ids.joint}`, undefined],
      [`${API}/${ids.joint}/sign`, {}],
      [COLLABS, undefined],
    ] as const) {
      refused(await call(server, path, json ? { json } : {}), 403, 'person_token_required');
    }
    const narrow = await signIn('ada@example.com', 'openid email');
    const none = await call(server, API, { token: narrow.token });
    refused(none, 403, 'insufficient_scope');
    assert.equal(none.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="agreements:read"');
    const readOnly = await signIn('ada@example.com', 'openid agreements:read');
    assert.equal((await call(server, API, { token: readOnly.token })).status, 200);
    const sign = await call(server, `${API}/${ids.joint}/sign`, { token: readOnly.token, json: {} });
    refused(sign, 403, 'insufficient_scope');
    assert.equal(sign.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="agreements:write"');
    refused(await call(server, API, { token: 'not-a-token' }), 401);

    // A delegate may read what the grant delegates, never sign in the person's place.
    const reader = await grant(server, ada, bob.id, {
      delegation_type: 'guardian',
      delegated_scopes: ['agreements:read', 'agreements:write'],
    });
    const asDelegate = { 'x-delegation-grant-id': reader.id };
    assert.deepEqual(titles(await list(bob.token, '', asDelegate)), ['Newsletter terms', 'Joint venture']);
    refused(
      await call(server, `${API}/${ids.solo}/sign`, { token: bob.token, json: {}, headers: asDelegate }),
      403,
      'delegate_not_allowed',
    );
    assert.equal((await one(ada.token, ids.solo!)).you.status, 'pending');
  });
});

describe('what a party reads', () => {
  it('lists the agreements the person is a party of, newest first, with the document and never a session or an email', async () => {
    assert.deepEqual(titles(await list(ada.token)), ['Newsletter terms', 'Joint venture']);
    assert.deepEqual(titles(await list(bob.token)), ["Bob's lease", 'Joint venture']);
    assert.deepEqual(titles(await list(carol.token)), []);
    assert.deepEqual(titles(await list(adaFirstParty)), ['Other terms', 'Newsletter terms', 'Joint venture']);
    const joint = await one(ada.token, ids.joint!);
    assert.deepEqual(joint.document, document);
    assert.deepEqual([joint.status, joint.quorum, joint.signed_count, joint.multi_party, joint.can_sign], ['pending', 2, 0, true, true]);
    assert.deepEqual(
      joint.parties.map((p) => [p.name, p.status, p.is_you]),
      [
        [null, 'pending', true],
        [null, 'pending', false],
        ['Clara Lind', 'pending', false],
      ],
    );
    assert.equal(joint.organisation.name, 'Sandbox');
    const raw = JSON.stringify((await call(server, API, { token: ada.token })).body);
    for (const secretish of ['session_token', 'bob@example.com', 'clara@example.com', '/decisions/'])
      assert.ok(!raw.includes(secretish), secretish);
  });

  it('filters the multi-party agreements (quorum two or more), by status, page by page', async () => {
    assert.deepEqual(titles(await list(ada.token, '?multi_party=true')), ['Joint venture']);
    assert.deepEqual(titles(await list(ada.token, '?multi_party=false')), ['Newsletter terms']);
    assert.deepEqual(titles(await list(ada.token, '?status=active')), []);
    const first = await list(ada.token, '?limit=1');
    assert.deepEqual(titles(first), ['Newsletter terms']);
    assert.deepEqual(titles(await list(ada.token, `?limit=1&cursor=${first.next_cursor}`)), ['Joint venture']);
    refused(await call(server, `${API}?multi_party=yes`, { token: ada.token }), 400);
  });
});

describe('signing', () => {
  it("signs through the party's own signing session: the signature, the webhook and the audit event, once", async () => {
    const res = await call(server, `${API}/${ids.joint}/sign`, { token: ada.token, json: { comment: 'Glad to.' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const signed = personAgreementEnvelope.parse(res.body).agreement;
    assert.deepEqual([signed.you.status, signed.status, signed.signed_count, signed.can_sign], ['signed', 'partially_signed', 1, false]);
    const events = await delivered(server, receiver, secret);
    assert.deepEqual(
      events.map((e) => e.type),
      ['signature.signed'],
    );
    assert.equal(auditCount('signature.signed'), 1);
    const receipt = await call(server, `/api/v1/agreements/${ids.joint}/receipt`);
    const payload = JSON.parse(Buffer.from(receipt.body.agreement_receipt.signatures[0].jws.split('.')[1], 'base64url').toString('utf8'));
    assert.deepEqual([payload.party_email, payload.authentication.method], ['ada@example.com', 'access_token']);

    // A replay answers the agreement as it is: no second signature, webhook or audit event.
    const again = await call(server, `${API}/${ids.joint}/sign`, { token: ada.token, json: {} });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual(personAgreementEnvelope.parse(again.body).agreement, signed);
    assert.deepEqual(await delivered(server, receiver, secret), []);
    assert.equal(auditCount('signature.signed'), 1);
    refused(await call(server, `${API}/${ids.joint}/decline`, { token: ada.token, json: {} }), 409, 'party_decided');
    const org = await call(server, `/api/v1/agreements/${ids.joint}/quorum_votes`);
    assert.deepEqual(
      org.body.quorum_votes.map((v: Json) => [v.vote, v.comment]),
      [['approve', 'Glad to.']],
    );
  });

  it('declines once (signature.declined), and a declined party cannot sign after', async () => {
    const res = await call(server, `${API}/${ids.joint}/decline`, { token: bob.token, method: 'POST' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(personAgreementEnvelope.parse(res.body).agreement.you.status, 'declined');
    assert.equal((await call(server, `${API}/${ids.joint}/decline`, { token: bob.token, method: 'POST' })).status, 200);
    assert.deepEqual(
      (await delivered(server, receiver, secret)).map((e) => e.type),
      ['signature.declined'],
    );
    refused(await call(server, `${API}/${ids.joint}/sign`, { token: bob.token, json: {} }), 409, 'party_decided');
    refused(await call(server, `${API}/${ids.joint}/sign`, { token: ada.token, json: { vote: 'approve' } }), 422);
  });

  it("with the service's own client, signs another organisation's agreement the person is a party of", async () => {
    const res = await call(server, `${API}/${ids.elsewhere}/sign`, { token: adaFirstParty, json: {} });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const agreement = personAgreementEnvelope.parse(res.body).agreement;
    assert.deepEqual([agreement.status, agreement.organisation.name], ['active', 'Other organisation']);
  });

  it('refuses to sign once the signing session closed (its deadline passed)', async () => {
    const at = new Date(server.context.clock.now() + 3600_000).toISOString();
    const id = await agreementFor('Short notice', ['ada@example.com', 'bob@example.com'], 2, { expires_at: at });
    server.advance(2 * 3600);
    const fresh = await signIn('ada@example.com');
    const read = await one(fresh.token, id);
    assert.deepEqual([read.you.status, read.can_sign, read.quorum_status], ['expired', false, 'unreachable']);
    refused(await call(server, `${API}/${id}/sign`, { token: fresh.token, json: {} }), 409, 'party_decided');
    assert.equal(auditCount('signature.signed'), 2);
  });
});

describe("a person's collaborations", () => {
  let collab: string;
  let dora: Person;

  before(async () => {
    dora = await signIn('dora@example.com');
    const res = await call(server, '/api/v1/collaborations', {
      json: { participant_ids: [dora.id, carol.id], terms: { purpose: 'Shared research' } },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    collab = res.body.collaboration.id;
  });

  const read = async (token: string) => {
    const res = await call(server, `${COLLABS}/${collab}`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return personCollaborationEnvelope.parse(res.body).collaboration;
  };

  it("never shows or changes another person's collaboration", async () => {
    const page = personCollaborationList.parse((await call(server, COLLABS, { token: ada.token })).body);
    assert.deepEqual(page.collaborations, []);
    for (const token of [ada.token, adaElsewhere]) {
      refused(await call(server, `${COLLABS}/${collab}`, { token }), 404);
      refused(await call(server, `${COLLABS}/${collab}/leave`, { token, json: {} }), 404);
      refused(await call(server, `${COLLABS}/${collab}/sign`, { token, json: {} }), 404);
    }
    refused(await call(server, `${COLLABS}/${collab}/leave`, { json: {} }), 403, 'person_token_required');
    assert.equal((await read(dora.token)).membership.status, 'pending');
  });

  it('signs with the categories the member shares, once; the collaboration is active when all have signed', async () => {
    const res = await call(server, `${COLLABS}/${collab}/sign`, { token: dora.token, json: { shared_data_categories: ['health.steps'] } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const signed = personCollaborationEnvelope.parse(res.body).collaboration;
    assert.deepEqual(
      [signed.membership.status, signed.membership.shared_data_categories, signed.can_sign, signed.can_leave],
      ['signed', ['health.steps'], false, true],
    );
    assert.deepEqual(signed.terms, { purpose: 'Shared research' });
    const again = await call(server, `${COLLABS}/${collab}/sign`, { token: dora.token, json: { shared_data_categories: ['contact'] } });
    assert.deepEqual(personCollaborationEnvelope.parse(again.body).collaboration.membership, signed.membership, 'a replay changes nothing');
    assert.equal(auditCount('collaboration.member_signed'), 1);
    await call(server, `${COLLABS}/${collab}/sign`, { token: carol.token, method: 'POST' });
    assert.equal((await read(dora.token)).status, 'active');
  });

  it('leaves once: the membership is revoked, and an active collaboration left with one member is dissolved', async () => {
    const res = await call(server, `${COLLABS}/${collab}/leave`, { token: carol.token, method: 'POST' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const left = personCollaborationEnvelope.parse(res.body).collaboration;
    assert.deepEqual([left.membership.status, left.status, left.can_leave, left.can_sign], ['revoked', 'dissolved', false, false]);
    assert.equal((await call(server, `${COLLABS}/${collab}/leave`, { token: carol.token, method: 'POST' })).status, 200);
    assert.equal(auditCount('collaboration.member_revoked'), 1);
    refused(await call(server, `${COLLABS}/${collab}/leave`, { token: dora.token, method: 'POST' }), 409, 'illegal_transition');
    const org = await call(server, `/api/v1/collaborations/${collab}`);
    assert.equal(org.body.collaboration.status, 'dissolved');
    assert.deepEqual(
      personCollaborationList
        .parse((await call(server, `${COLLABS}?status=dissolved`, { token: carol.token })).body)
        .collaborations.map((c) => c.id),
      [collab],
    );
  });
});
