// One person per organisation, even with single sign-on: a browser signed in through one organisation's client and
// then sent to another organisation's client hands the second one its own person for that email (made if needed),
// never the first organisation's; what the second organisation reads and exports as that person is its own.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as oauth from 'oauth4webapi';
import { expect, otherAccount, type Json } from '../../surfaces/protect/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { oauthProvider } from './routes.js';
import { Browser, discover, insecure } from './test-support.js';

describe('single sign-on across organisations', () => {
  let server: TestServer;
  let as: oauth.AuthorizationServer;
  let other: { token: string; applicationId: string; accountId: string; clientId: string; secret: string };
  const redirectOfOther = 'https://other.example/cb';
  before(async () => {
    server = await startTestServer();
    as = await discover(server.url);
    const { token, applicationId } = otherAccount(server);
    const made = await expect(server, 201, `/api/v1/applications/${applicationId}/oauth_clients`, {
      token,
      json: { oauth_client: { name: 'Other shop', client_type: 'confidential', redirect_uris: [redirectOfOther] } },
    });
    other = {
      token,
      applicationId,
      accountId: accountOf(applicationId),
      clientId: made.oauth_client.client_id,
      secret: made.oauth_client.client_secret,
    };
  });
  after(() => server.dispose());

  const accountOf = (applicationId: string) =>
    server.context.db.prepare('SELECT account_id FROM applications WHERE id = ?').pluck().get(applicationId) as string;
  const personRow = (id: string) =>
    server.context.db.prepare('SELECT account_id, email FROM persons WHERE id = ?').get(id) as
      | { account_id: string; email: string }
      | undefined;

  /** The code flow of `clientId` in `browser` (signing in as `email` if the provider asks): its tokens and the ID token's `sub`. */
  async function codeFlow(browser: Browser, clientId: string, secret: string, redirectUri: string, email: string) {
    const client = { client_id: clientId };
    const auth = oauth.ClientSecretBasic(secret);
    const verifier = oauth.generateRandomCodeVerifier();
    const nonce = oauth.generateRandomNonce();
    const par = await oauth.processPushedAuthorizationResponse(
      as,
      client,
      await oauth.pushedAuthorizationRequest(
        as,
        client,
        auth,
        {
          redirect_uri: redirectUri,
          scope: 'openid email',
          response_type: 'code',
          state: 's',
          nonce,
          code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
        },
        insecure,
      ),
    );
    const back = await browser.authorize(
      `${as.authorization_endpoint}?client_id=${clientId}&request_uri=${encodeURIComponent(par.request_uri)}`,
      email,
    );
    const params = oauth.validateAuthResponse(as, client, back, 's');
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, verifier, insecure),
      { expectedNonce: nonce, requireIdToken: true },
    );
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    return { token: tokens.access_token, sub: claims.sub };
  }

  it("hands the second organisation's client its own person, and keeps the first organisation's data out of its reach", async () => {
    const browser = new Browser(server.url);
    const sandboxAccount = accountOf(server.sandbox.application_id);
    const first = await codeFlow(
      browser,
      server.sandbox.oauth_client_id!,
      server.sandbox.oauth_client_secret!,
      server.sandbox.oauth_redirect_uri!,
      'ada@example.com',
    );
    assert.deepEqual(personRow(first.sub), { account_id: sandboxAccount, email: 'ada@example.com' });
    // Ada's things with the first organisation.
    const heldPolicy = await expect(server, 201, '/api/v1/policies', {
      token: first.token,
      json: { template_id: 'retention', config: { data_categories: ['orders'], retention_days: 90 } },
    });
    const heldRequest = await expect(server, 201, '/api/v1/data_requests', {
      token: first.token,
      json: { application_id: server.sandbox.application_id, dsar_type: 'erasure' },
    });

    // The same browser, now at the other organisation's client: signed in already, as the other organisation's Ada.
    const second = await codeFlow(browser, other.clientId, other.secret, redirectOfOther, 'mallory@example.com');
    assert.notEqual(second.sub, first.sub);
    assert.deepEqual(personRow(second.sub), { account_id: other.accountId, email: 'ada@example.com' });
    const userinfo = await fetch(`${server.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${second.token}` } });
    assert.deepEqual(await userinfo.json(), { sub: second.sub, email: 'ada@example.com', email_verified: true });
    const me = await expect(server, 200, '/api/v1/me', { token: second.token });
    assert.deepEqual([me.person.id, me.account.id], [second.sub, other.accountId]);

    // As that person, the other organisation sees none of the first organisation's things.
    const policies = await expect(server, 200, '/api/v1/policies', { token: second.token });
    assert.deepEqual(policies.policies, []);
    const requests = await expect(server, 200, '/api/v1/data_requests', { token: second.token });
    assert.deepEqual(requests.data_requests, []);

    // An access request to the other organisation: its export holds nothing of the first organisation's.
    const filed = await expect(server, 201, '/api/v1/data_requests', {
      token: second.token,
      json: { application_id: other.applicationId, dsar_type: 'access' },
    });
    const at = (action: string) => `/api/v1/data_requests/${filed.data_request.id}/${action}`;
    await expect(server, 200, at('start'), { method: 'POST', token: other.token });
    const done = await expect(server, 200, at('complete'), { method: 'POST', token: other.token });
    const exported = done.data_request.export as Json;
    assert.deepEqual(exported.person, { id: second.sub, email: 'ada@example.com' });
    assert.deepEqual(
      [exported.policy_ids, exported.data_request_ids, exported.delegation_grant_ids, exported.consent_records],
      [[], [filed.data_request.id], [], []],
    );
    assert.equal(JSON.stringify(exported).includes(first.sub), false);
    assert.equal(JSON.stringify(exported).includes(heldPolicy.policy.id), false);
    assert.equal(JSON.stringify(exported).includes(heldRequest.data_request.id), false);

    // Back at the first organisation's client, the browser is the first organisation's Ada again.
    const again = await codeFlow(
      browser,
      server.sandbox.oauth_client_id!,
      server.sandbox.oauth_client_secret!,
      server.sandbox.oauth_redirect_uri!,
      'mallory@example.com',
    );
    assert.equal(again.sub, first.sub);
  });

  it("exports, for a request on record whose person is another organisation's, nothing of that organisation", async () => {
    // Ada with the first organisation: a policy and a data request of hers.
    const ada = await codeFlow(
      new Browser(server.url),
      server.sandbox.oauth_client_id!,
      server.sandbox.oauth_client_secret!,
      server.sandbox.oauth_redirect_uri!,
      'ada@example.com',
    );
    const held = await expect(server, 201, '/api/v1/policies', {
      token: ada.token,
      json: { template_id: 'retention', config: { data_categories: ['orders'], retention_days: 30 } },
    });
    const mine = await expect(server, 201, '/api/v1/data_requests', {
      token: ada.token,
      json: { application_id: server.sandbox.application_id, dsar_type: 'access' },
    });
    // An access request the other organisation holds for that same person row (as single sign-on once handed it over).
    const id = 'dsar_us_elsewhere000000000';
    const now = new Date().toISOString();
    server.context.db
      .prepare(`INSERT INTO data_requests (id, account_id, application_id, person_id, dsar_type, status, due_date, original_due_date, received_at, updated_at)
      VALUES (?, ?, ?, ?, 'access', 'received', ?, ?, ?, ?)`)
      .run(id, other.accountId, other.applicationId, ada.sub, now, now, now, now);
    await expect(server, 200, `/api/v1/data_requests/${id}/start`, { method: 'POST', token: other.token });
    const done = await expect(server, 200, `/api/v1/data_requests/${id}/complete`, { method: 'POST', token: other.token });
    const exported = done.data_request.export as Json;
    assert.deepEqual(
      [
        exported.policy_ids,
        exported.data_request_ids,
        exported.delegation_grant_ids,
        exported.data_offer_ids,
        exported.portability_transfer_ids,
        exported.consent_records,
      ],
      [[], [id], [], [], [], []],
    );
    assert.equal(JSON.stringify(exported).includes(held.policy.id), false);
    assert.equal(JSON.stringify(exported).includes(mine.data_request.id), false);
  });

  it("refuses, on the API and at userinfo, an access token that pairs a client with another organisation's person", async () => {
    const ada = await codeFlow(
      new Browser(server.url),
      server.sandbox.oauth_client_id!,
      server.sandbox.oauth_client_secret!,
      server.sandbox.oauth_redirect_uri!,
      'ada@example.com',
    );
    // A token of the other organisation's client naming the first organisation's Ada (as single sign-on once issued).
    const provider = await oauthProvider(server.context);
    const client = await provider.Client.find(other.clientId);
    const grant = new provider.Grant({ accountId: ada.sub, clientId: other.clientId });
    grant.addOIDCScope('openid');
    const stale = await new provider.AccessToken({
      accountId: ada.sub,
      client: client!,
      grantId: await grant.save(),
      gty: 'authorization_code',
      scope: 'openid',
    }).save();
    for (const path of ['/api/v1/me', '/oauth/userinfo']) {
      const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${stale}` } });
      assert.equal(res.status, 401, path);
    }
  });
});
