// A person's own credentials over the API: whose credentials each token sees (never another person's; an
// organisation's client only that organisation's; the service's own clients every organisation's), that a
// presentation discloses exactly the chosen claims (decoded here, and checked by the service's verifier), and what the
// person presented to whom.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { credentialClaims } from '@svc/client/credentials';
import {
  createdPersonPresentationEnvelope,
  personCredentialEnvelope,
  personCredentialList,
  personPresentationList,
  type Credential,
  type PersonCredential,
} from '@svc/schemas';
import { exportJWK, generateKeyPair } from 'jose';
import { call, type Person } from '../../authority/delegations/test-support.js';
import { fulfilledConsent, issue, verify } from '../../consent/credentials/test-support.js';
import { newId } from '../../infra/ids.js';
import { firstPartyClient } from '../../platform/oauth/first-party.js';
import { Browser, personAccessToken } from '../../platform/oauth/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';

const SCOPES = 'openid email credentials:read credentials:write';
const API = '/api/v1/me/credentials';

let server: TestServer;
let ada: Person;
let bob: Person;
let adaReadOnly: string;
let adaFirstParty: string;
const creds: Record<'ada' | 'adaOther' | 'adaBound' | 'bob', Credential> = {} as never;
let otherAccount: string;

async function signIn(email: string, scope = SCOPES): Promise<Person> {
  const token = await personAccessToken(server, email, scope);
  const me = await call(server, '/api/v1/me', { token });
  assert.equal(me.status, 200, JSON.stringify(me.body));
  return { token, id: me.body.person.id };
}

async function credentialOf(email: string, extra: Record<string, unknown> = {}): Promise<Credential> {
  const ctxn = await fulfilledConsent(server, email);
  return issue(server, { consent_transaction_id: ctxn, credential_type: 'ConsentCredential', ...extra });
}

/**
 * Moves a credential (and the consent record it attests) to another organisation, written straight into storage:
 * the API has no signup, so a second organisation's decision cannot be made through it.
 */
function moveToOtherOrganisation(credentialId: string): string {
  const db = server.context.db;
  const now = new Date().toISOString();
  const accountId = newId('acct_');
  const personId = newId('per_');
  db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(accountId, 'Other organisation', now);
  db.prepare('INSERT INTO persons (id, account_id, email, created_at) VALUES (?, ?, ?, ?)').run(
    personId,
    accountId,
    'ada@example.com',
    now,
  );
  const decisionId = db.prepare('SELECT decision_id FROM credentials WHERE id = ?').pluck().get(credentialId);
  db.prepare("UPDATE consent_records SET account_id = ?, person_id = ? WHERE idempotency_key = 'decision:' || ?").run(
    accountId,
    personId,
    decisionId,
  );
  db.prepare('UPDATE credentials SET account_id = ? WHERE id = ?').run(accountId, credentialId);
  return accountId;
}

async function list(token: string, path = API): Promise<PersonCredential[]> {
  const res = await call(server, path, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return personCredentialList.parse(res.body).credentials;
}

const present = (token: string, id: string, json: unknown, headers: Record<string, string> = {}) =>
  call(server, `${API}/${id}/presentations`, { token, json, headers });

before(async () => {
  server = await startTestServer();
  creds.ada = await credentialOf('ada@example.com');
  creds.bob = await credentialOf('bob@example.com');
  creds.adaOther = await credentialOf('ada@example.com');
  otherAccount = moveToOtherOrganisation(creds.adaOther.id);
  const { publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  creds.adaBound = await credentialOf('ada@example.com', { holder_jwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } });
  ada = await signIn('ada@example.com');
  bob = await signIn('bob@example.com');
  adaReadOnly = (await signIn('ada@example.com', 'openid email credentials:read')).token;
  const own = firstPartyClient(server.context, 'credentials_test', {
    name: 'Your credentials',
    redirectPath: '/credentials/callback',
    scopes: ['openid', 'email', 'credentials:read', 'credentials:write'],
  });
  const sandbox = {
    ...server.sandbox,
    oauth_client_id: own.client_id,
    oauth_client_secret: undefined,
    oauth_redirect_uri: `${server.url}/credentials/callback`,
  };
  adaFirstParty = await personAccessToken({ url: server.url, sandbox }, 'ada@example.com', SCOPES, new Browser(server.url));
});
after(() => server.dispose());

describe('the attacker', () => {
  it("never reads or presents another person's credential: the same 404 as one that does not exist", async () => {
    for (const path of [`${API}/${creds.ada.id}`, `${API}/cred_none`]) {
      const res = await call(server, path, { token: bob.token });
      assert.equal(res.status, 404, JSON.stringify(res.body));
    }
    const res = await present(bob.token, creds.ada.id, { disclose: ['email'], audience: 'Bob' });
    assert.equal(res.status, 404, JSON.stringify(res.body));
    assert.deepEqual(
      (await list(bob.token)).map((c) => c.id),
      [creds.bob.id],
    );
    const presented = await call(server, '/api/v1/me/presentations', { token: bob.token });
    assert.deepEqual(presented.body.presentations, []);
  });

  it("an organisation's client sees only that organisation's credentials; the service's own clients see every one", async () => {
    assert.deepEqual(
      (await list(ada.token)).map((c) => c.id),
      [creds.adaBound.id, creds.ada.id],
    );
    assert.equal((await call(server, `${API}/${creds.adaOther.id}`, { token: ada.token })).status, 404);
    assert.equal((await present(ada.token, creds.adaOther.id, { disclose: [], audience: 'x' })).status, 404);
    const all = await list(adaFirstParty);
    assert.deepEqual(
      all.map((c) => c.id),
      [creds.adaBound.id, creds.adaOther.id, creds.ada.id],
    );
    assert.deepEqual(all[1]!.organisation, { id: otherAccount, name: 'Other organisation' });
  });

  it('refuses an API token and a token without the scope', async () => {
    const api = await server.api(API);
    assert.equal(api.status, 403);
    assert.equal(((await api.json()) as { code: string }).code, 'person_token_required');
    const write = await present(adaReadOnly, creds.ada.id, { disclose: ['email'], audience: 'Shop' });
    assert.equal(write.status, 403, JSON.stringify(write.body));
    assert.equal(write.body.code, 'insufficient_scope');
    assert.match(write.headers.get('www-authenticate') ?? '', /scope="credentials:write"/);
    const none = await signIn('ada@example.com', 'openid email');
    const read = await call(server, API, { token: none.token });
    assert.equal(read.status, 403);
    assert.equal(read.body.code, 'insufficient_scope');
  });

  it('refuses a claim the credential does not have, and presents nothing', async () => {
    const res = await present(ada.token, creds.ada.id, { disclose: ['email', 'purposes.research'], audience: 'Shop' });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.code, 'unknown_claim');
    assert.equal(res.body.errors[0].path, 'disclose.1');
    const presented = await call(server, '/api/v1/me/presentations', { token: ada.token });
    assert.deepEqual(presented.body.presentations, []);
  });

  it("refuses a credential bound to the wallet's key: the service cannot prove it holds that key", async () => {
    const res = await present(ada.token, creds.adaBound.id, { disclose: ['email'], audience: 'Shop' });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.code, 'holder_key_required');
  });
});

describe('presenting selectively', () => {
  it('discloses exactly the chosen claims and no others, and the service verifier agrees', async () => {
    const res = await present(ada.token, creds.ada.id, { disclose: ['email', 'purposes.newsletter'], audience: 'Bank', nonce: 'n-1' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { presentation } = createdPersonPresentationEnvelope.parse(res.body);
    // Decoded by the holder's library: what the verifier can read is the chosen claims and the always-visible ones.
    const claims = await credentialClaims(presentation.presentation);
    assert.equal(claims.email, 'ada@example.com');
    assert.deepEqual(claims.purposes, { newsletter: true });
    for (const hidden of ['jti', 'application_id', 'consent_transaction_id', 'flow_id', 'consented_at'])
      assert.ok(!(hidden in claims), hidden);
    assert.equal(presentation.presentation.split('~').length - 2, 2, 'two disclosures');
    assert.deepEqual(presentation.disclosed.map((c) => c.path).sort(), ['email', 'home_country', 'purposes.newsletter']);
    assert.equal(presentation.verification?.valid, true);
    // The organisation's verifier endpoint says the same.
    const checked = await verify(server, { presentation: presentation.presentation });
    const body = (await checked.json()) as {
      presentation: { valid: boolean; disclosed_claims: Record<string, unknown>; undisclosed_count: number };
    };
    assert.equal(checked.status, 200);
    assert.equal(body.presentation.valid, true);
    assert.deepEqual(Object.keys(body.presentation.disclosed_claims).sort(), ['email', 'home_country', 'purposes']);
    assert.equal(body.presentation.undisclosed_count, 5);
    assert.equal(presentation.audience, 'Bank');
    assert.equal(presentation.nonce, 'n-1');
  });

  it('an empty choice shares only what is always shared', async () => {
    const res = await present(ada.token, creds.ada.id, { disclose: [], audience: 'Nobody' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const claims = await credentialClaims(res.body.presentation.presentation);
    const shown = Object.keys(claims).filter((k) => !['iss', 'iat', 'exp', 'vct', 'status'].includes(k));
    assert.deepEqual(shown.sort(), ['home_country', 'purposes']);
    assert.deepEqual(claims.purposes, {}, 'no purpose disclosed');
    assert.equal(res.body.presentation.presentation.split('~').length, 2, 'no disclosure at all');
  });

  it('a replay with the same Idempotency-Key answers the same presentation and records it once', async () => {
    const before = (await call(server, '/api/v1/me/presentations', { token: ada.token })).body.presentations.length;
    const headers = { 'idempotency-key': 'present-once' };
    const first = await present(ada.token, creds.ada.id, { disclose: ['consented_at'], audience: 'Gym' }, headers);
    const again = await present(ada.token, creds.ada.id, { disclose: ['consented_at'], audience: 'Gym' }, headers);
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.equal(again.body.presentation.id, first.body.presentation.id);
    const after = (await call(server, '/api/v1/me/presentations', { token: ada.token })).body.presentations.length;
    assert.equal(after, before + 1);
  });

  it('lists the credential with its claims, labels and which ones are always shared, never the SD-JWT', async () => {
    const res = await call(server, `${API}/${creds.ada.id}`, { token: ada.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { credential } = personCredentialEnvelope.parse(res.body);
    assert.ok(!JSON.stringify(res.body).includes(creds.ada.credential.split('~')[0]!), 'no SD-JWT');
    assert.equal(credential.name, 'Consent credential');
    assert.equal(credential.status, 'active');
    assert.equal(credential.presentable, true);
    const byPath = Object.fromEntries(credential.claims.map((c) => [c.path, c]));
    assert.deepEqual(byPath.home_country, { path: 'home_country', label: 'Home country', value: 'US', required: true });
    assert.deepEqual(byPath.email, { path: 'email', label: 'Email', value: 'ada@example.com', required: false });
    assert.equal(byPath['purposes.newsletter']?.required, false);
    assert.match(byPath['purposes.newsletter']!.label, /^Purpose: /);
  });

  it('lists what the person presented, to whom, when and which claims, newest first; the first-party token sees them too', async () => {
    const res = await call(server, '/api/v1/me/presentations', { token: ada.token });
    assert.equal(res.status, 200);
    const { presentations } = personPresentationList.parse(res.body);
    assert.deepEqual(
      presentations.map((p) => p.audience),
      ['Gym', 'Nobody', 'Bank'],
    );
    assert.deepEqual(presentations[2]!.disclosed.map((c) => c.label).sort(), ['Email', 'Home country', 'Purpose: Email newsletter']);
    assert.ok(!JSON.stringify(res.body).includes('~'), 'never the presentation itself');
    const mine = await call(server, `/api/v1/me/presentations?credential_id=${creds.ada.id}`, { token: adaFirstParty });
    assert.equal(mine.body.presentations.length, 3);
  });

  it('a revoked credential reads revoked and cannot be presented', async () => {
    const revoked = await server.api(`/api/v1/credentials/${creds.ada.id}/revoke`, { method: 'POST', json: {} });
    assert.equal(revoked.status, 200);
    const [credential] = (await list(ada.token, `${API}?status=revoked`)) as [PersonCredential];
    assert.equal(credential.id, creds.ada.id);
    assert.equal(credential.presentable, false);
    const res = await present(ada.token, creds.ada.id, { disclose: ['email'], audience: 'Shop' });
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'credential_not_active');
  });
});

describe('the pages', () => {
  it('/credentials and /presentations are people pages of the trust URL: signed out, the sign-in page that comes back to them', async () => {
    for (const path of ['/credentials', '/presentations']) {
      const res = await fetch(`${server.url}${path}`);
      assert.equal(res.status, 200, path);
      const html = await res.text();
      assert.match(html, new RegExp(`name="return_to" value="${path}"`));
      assert.doesNotMatch(html, /svc-credentials/, 'no element before sign-in');
    }
  });
});
