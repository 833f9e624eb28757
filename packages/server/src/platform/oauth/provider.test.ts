// The OpenID provider driven by an independent client (oauth4webapi): discovery, PAR required, PKCE S256 required,
// the code flow through the hosted sign-in and consent pages, refresh, revocation, the device grant, and the
// refusals a certified provider owes (no PAR, plain PKCE, a wrong redirect URI, a replayed code).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { startServer, type RunningServer } from '../../server.js';
import { Browser, discover, insecure } from './test-support.js';

let server: RunningServer;
let dataDir: string;
let as: oauth.AuthorizationServer;
let client: oauth.Client;
let auth: oauth.ClientAuth;
let redirectUri: string;

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-oauth-'));
  server = await startServer({ port: 0, dataDir });
  as = await discover(server.url);
  client = { client_id: server.sandbox.oauth_client_id! };
  auth = oauth.ClientSecretBasic(server.sandbox.oauth_client_secret!);
  redirectUri = server.sandbox.oauth_redirect_uri!;
});
after(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Pushes an authorization request with PKCE S256 and answers the authorize URL, the verifier, state and nonce. */
async function push(scope = 'openid email offline_access', extra: Record<string, string> = {}) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const res = await oauth.pushedAuthorizationRequest(
    as,
    client,
    auth,
    {
      // OpenID Connect grants offline_access only with prompt=consent.
      redirect_uri: redirectUri,
      scope,
      state,
      nonce,
      response_type: 'code',
      ...(scope.includes('offline_access') ? { prompt: 'consent' } : {}),
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...extra,
    },
    insecure,
  );
  const { request_uri } = await oauth.processPushedAuthorizationResponse(as, client, res);
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('request_uri', request_uri);
  return { url: url.href, verifier, state, nonce };
}

/** The code flow to its end: tokens for `email`. */
async function signIn(email = 'ada@example.com') {
  const { url, verifier, state, nonce } = await push();
  const back = await new Browser(server.url).authorize(url, email);
  const params = oauth.validateAuthResponse(as, client, back, state);
  const res = await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, verifier, insecure);
  return {
    tokens: await oauth.processAuthorizationCodeResponse(as, client, res, { expectedNonce: nonce, requireIdToken: true }),
    params,
    verifier,
  };
}

const me = (token: string) => fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });

describe('OpenID provider', () => {
  it('publishes discovery: PAR required, PKCE S256 only, the grants and scopes, and the agent extension fields', () => {
    const doc = as as Record<string, unknown>;
    assert.equal(as.issuer, server.url);
    assert.equal(doc.require_pushed_authorization_requests, true);
    assert.equal(as.pushed_authorization_request_endpoint, `${server.url}/oauth/par`);
    assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
    // The provider's own JWKS: the server's ES256 keys and the RS256 key ID tokens may be signed with on request.
    assert.equal(as.jwks_uri, `${server.url}/oauth/jwks`);
    for (const grant of [
      'authorization_code',
      'refresh_token',
      'urn:ietf:params:oauth:grant-type:device_code',
      'urn:ietf:params:oauth:grant-type:token-exchange',
    ]) {
      assert.ok(as.grant_types_supported?.includes(grant), grant);
    }
    assert.deepEqual(as.scopes_supported, [
      'openid',
      'profile',
      'email',
      'offline_access',
      'audit:verify',
      'disclosures:write',
      'inbox:read',
      'records:read',
      'records:write',
      'data_requests:read',
      'data_requests:write',
      'delegations:read',
      'delegations:write',
      'credentials:read',
      'credentials:write',
      'agreements:read',
      'agreements:write',
      'connections:read',
      'connections:write',
      'receipts:read',
      'vouches:read',
      'vouches:write',
      'data_offers:read',
      'data_offers:write',
    ]);
    for (const field of [
      'agent_claims_supported',
      'agent_types_supported',
      'delegation_methods_supported',
      'oap_jwks_uri',
      'oap_protocol_versions_supported',
    ]) {
      assert.ok(doc[field], field);
    }
  });

  it('signs a person in through PAR, PKCE and the hosted pages; the ID token verifies against the JWKS; userinfo and /api/v1/me know them', async () => {
    const { tokens } = await signIn('Ada@Example.com');
    const { payload } = await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(as.jwks_uri!)), {
      issuer: server.url,
      audience: client.client_id,
    });
    assert.match(String(payload.sub), /^prs_/);
    const info = await oauth.processUserInfoResponse(
      as,
      client,
      String(payload.sub),
      await oauth.userInfoRequest(as, client, tokens.access_token, insecure),
    );
    assert.equal(info.email, 'ada@example.com');
    const who = (await (await me(tokens.access_token)).json()) as Record<string, any>;
    assert.equal(who.kind, 'person');
    assert.deepEqual(who.person, { id: payload.sub, email: 'ada@example.com' });
    assert.equal(who.client.client_id, client.client_id);
    assert.deepEqual(who.scopes.sort(), ['email', 'offline_access', 'openid']);
    // The same person signing in again is the same subject.
    const again = await signIn('ada@example.com');
    assert.equal((await jwtVerify(again.tokens.id_token!, createRemoteJWKSet(new URL(as.jwks_uri!)))).payload.sub, payload.sub);
  });

  it("refuses a person's access token on an organisation's endpoint", async () => {
    const { tokens } = await signIn();
    const res = await fetch(`${server.url}/api/v1/flows`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as { code: string }).code, 'person_token_not_allowed');
  });

  it('refreshes, then revocation ends the access token and the refresh token at once', async () => {
    const { tokens } = await signIn();
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure),
    );
    assert.notEqual(refreshed.access_token, tokens.access_token);
    assert.equal((await me(refreshed.access_token)).status, 200);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, refreshed.access_token, insecure));
    assert.equal((await me(refreshed.access_token)).status, 401);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, refreshed.refresh_token!, insecure));
    const reused = await oauth.refreshTokenGrantRequest(as, client, auth, refreshed.refresh_token!, insecure);
    assert.equal(reused.status, 400);
    assert.equal(((await reused.json()) as { error: string }).error, 'invalid_grant');
  });

  it('refuses a front-channel authorization request that was not pushed', async () => {
    const url = new URL(as.authorization_endpoint!);
    for (const [k, v] of Object.entries({
      client_id: client.client_id,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid',
      state: 'x',
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(k, v);
    const res = await new Browser(server.url).request(url.href);
    const location = res.headers.get('location');
    // The provider tells the client so at its registered redirect URI (it is known and exact), never elsewhere.
    assert.ok(location?.startsWith(`${redirectUri}?`), `${res.status} ${location}`);
    assert.equal(new URL(location!).searchParams.get('error'), 'invalid_request');
    assert.match(new URL(location!).searchParams.get('error_description') ?? '', /Pushed Authorization Request must be used/);
  });

  it('refuses a pushed request without PKCE, with the plain method, or with an unregistered redirect URI', async () => {
    const base = { redirect_uri: redirectUri, scope: 'openid', response_type: 'code', state: 'x' };
    const cases: [Record<string, string>, RegExp][] = [
      [base, /requires PKCE/],
      [{ ...base, code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, /code_challenge_method/],
      [{ ...base, redirect_uri: 'https://evil.example/cb', code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' }, /redirect_uri/],
    ];
    for (const [params, description] of cases) {
      const res = await oauth.pushedAuthorizationRequest(as, client, auth, params, insecure);
      assert.equal(res.status, 400, JSON.stringify(params));
      assert.equal(res.headers.get('location'), null);
      const body = (await res.json()) as { error: string; error_description: string };
      assert.equal(body.error, 'invalid_request', JSON.stringify(params));
      assert.match(body.error_description, description);
    }
    const wrongSecret = await oauth.pushedAuthorizationRequest(as, client, oauth.ClientSecretBasic('ocs_wrong'), base, insecure);
    assert.equal(wrongSecret.status, 401);
    assert.equal(((await wrongSecret.json()) as { error: string }).error, 'invalid_client');
  });

  it('refuses a replayed code and revokes what it issued', async () => {
    const { tokens, params, verifier } = await signIn();
    const replay = await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, verifier, insecure);
    assert.equal(replay.status, 400);
    assert.equal(((await replay.json()) as { error: string }).error, 'invalid_grant');
    assert.equal((await me(tokens.access_token)).status, 401);
  });

  it('ends with access_denied when the person denies, at the registered redirect URI', async () => {
    const { url, state } = await push('openid');
    const back = await new Browser(server.url).authorize(url, 'grace@example.com', 'deny');
    assert.equal(back.origin + back.pathname, redirectUri);
    assert.equal(back.searchParams.get('state'), state);
    assert.equal(back.searchParams.get('error'), 'access_denied');
  });

  it('signs a device in with the device grant, approved on the hosted pages', async () => {
    const started = await oauth.processDeviceAuthorizationResponse(
      as,
      client,
      await oauth.deviceAuthorizationRequest(as, client, auth, { scope: 'openid email offline_access' }, insecure),
    );
    const pending = await oauth.deviceCodeGrantRequest(as, client, auth, started.device_code, insecure);
    assert.equal(((await pending.json()) as { error: string }).error, 'authorization_pending');

    const browser = new Browser(server.url);
    const entry = await browser.request(started.verification_uri);
    const entryHtml = await entry.text();
    assert.match(entry.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.match(entryHtml, /<label for="user_code">/);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(entryHtml)![1]!;
    const confirm = await browser.request(new URL(started.verification_uri).pathname, { form: { xsrf, user_code: started.user_code } });
    const confirmHtml = await confirm.text();
    assert.match(confirmHtml, new RegExp(started.user_code));
    const xsrf2 = /name="xsrf" value="([^"]+)"/.exec(confirmHtml)![1]!;
    const action = /action="([^"]+)"/.exec(confirmHtml)![1]!;
    const redirect = await browser.request(action, { form: { xsrf: xsrf2, user_code: started.user_code, confirm: 'yes' } });
    const done = await browser.authorize(new URL(redirect.headers.get('location')!, server.url).href, 'linus@example.com');
    assert.equal(done.origin, server.url, 'the device flow ends on the service');

    const tokens = await oauth.processDeviceCodeResponse(
      as,
      client,
      await oauth.deviceCodeGrantRequest(as, client, auth, started.device_code, insecure),
    );
    const who = (await (await me(tokens.access_token)).json()) as { person: { email: string } };
    assert.equal(who.person.email, 'linus@example.com');
  });

  it('answers token exchange at /oauth/token/exchange as a registered grant, refusing what it cannot exchange yet', async () => {
    const res = await fetch(`${server.url}/oauth/token/exchange`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.client_id}:${server.sandbox.oauth_client_secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: 'dlg_dev_x',
        subject_token_type: 'urn:svc:params:oauth:token-type:delegation_grant',
      }),
    });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: string }).error, 'invalid_request');
  });
});
