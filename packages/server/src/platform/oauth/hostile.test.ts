// Malformed and hostile OAuth requests: each gets the RFC's JSON error with a 4xx (or, at the authorization and
// interaction pages, a 4xx page or a redirect to a registered URI), never a 500 and never a redirect elsewhere.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rawRequest } from '../../hostile-cases.js';
import { startTestServer, type TestServer } from '../../testing.js';

const RFC_ERRORS = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_token',
  'unsupported_token_type',
  'invalid_redirect_uri',
  'invalid_client_metadata',
  'expired_token',
  'slow_down',
  'request_uri_not_supported',
]);

let server: TestServer;
let basic: string;
const form = 'application/x-www-form-urlencoded';

before(async () => {
  server = await startTestServer();
  basic = `Basic ${Buffer.from(`${server.sandbox.oauth_client_id}:${server.sandbox.oauth_client_secret}`).toString('base64')}`;
});
after(() => server.dispose());

/** [name, method, path, headers, body] of requests answered with a JSON OAuth error. */
const jsonCases = (): [string, string, string, Record<string, string>, string?][] => [
  ['token without grant_type', 'POST', '/oauth/token', { 'content-type': form, authorization: basic }, ''],
  [
    'token with an unknown grant',
    'POST',
    '/oauth/token',
    { 'content-type': form, authorization: basic },
    'grant_type=password&username=a&password=b',
  ],
  [
    'token with a made-up code',
    'POST',
    '/oauth/token',
    { 'content-type': form, authorization: basic },
    'grant_type=authorization_code&code=nope&redirect_uri=https%3A%2F%2Fx&code_verifier=' + 'a'.repeat(43),
  ],
  [
    'token with a made-up refresh token',
    'POST',
    '/oauth/token',
    { 'content-type': form, authorization: basic },
    'grant_type=refresh_token&refresh_token=nope',
  ],
  [
    'token with a wrong secret',
    'POST',
    '/oauth/token',
    { 'content-type': form, authorization: `Basic ${Buffer.from(`${server.sandbox.oauth_client_id}:nope`).toString('base64')}` },
    'grant_type=refresh_token&refresh_token=x',
  ],
  [
    'token with a malformed basic header',
    'POST',
    '/oauth/token',
    { 'content-type': form, authorization: 'Basic %%%' },
    'grant_type=refresh_token&refresh_token=x',
  ],
  [
    'token with an unknown client',
    'POST',
    '/oauth/token',
    { 'content-type': form },
    'grant_type=refresh_token&refresh_token=x&client_id=oc_nobody',
  ],
  [
    'token with a JSON body',
    'POST',
    '/oauth/token',
    { 'content-type': 'application/json', authorization: basic },
    '{"grant_type":"refresh_token"}',
  ],
  [
    'token with repeated parameters',
    'POST',
    '/oauth/token',
    { 'content-type': form, authorization: basic },
    'grant_type=refresh_token&grant_type=authorization_code',
  ],
  [
    'token with a 100 kB parameter',
    'POST',
    '/oauth/token',
    { 'content-type': form, authorization: basic },
    `grant_type=refresh_token&refresh_token=${'x'.repeat(100_000)}`,
  ],
  [
    'token exchange without a subject token',
    'POST',
    '/oauth/token/exchange',
    { 'content-type': form, authorization: basic },
    'grant_type=urn:ietf:params:oauth:grant-type:token-exchange',
  ],
  ['par without a client', 'POST', '/oauth/par', { 'content-type': form }, 'response_type=code'],
  [
    'par with a wrong response_type',
    'POST',
    '/oauth2/par',
    { 'content-type': form, authorization: basic },
    'response_type=token&scope=openid&redirect_uri=x',
  ],
  [
    'par with an unknown scope',
    'POST',
    '/oauth/par',
    { 'content-type': form, authorization: basic },
    `response_type=code&scope=openid%20root&redirect_uri=${encodeURIComponent(server.sandbox.oauth_redirect_uri!)}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
  ],
  [
    'par with a request_uri inside',
    'POST',
    '/oauth/par',
    { 'content-type': form, authorization: basic },
    'response_type=code&request_uri=urn:x',
  ],
  [
    'device authorization with an unknown client',
    'POST',
    '/oauth/device_authorization',
    { 'content-type': form },
    'client_id=oc_nobody&scope=openid',
  ],
  ['revocation without a token', 'POST', '/oauth/revoke', { 'content-type': form, authorization: basic }, ''],
  ['introspection without a client', 'POST', '/oauth/introspect', { 'content-type': form }, 'token=x'],
  ['userinfo without a token', 'GET', '/oauth/userinfo', {}],
  ['userinfo with a made-up token', 'GET', '/oauth/userinfo', { authorization: 'Bearer nope' }],
];

describe('hostile OAuth requests', () => {
  it('answer the RFC JSON error with a 4xx, never a 500', async () => {
    for (const [name, method, path, headers, body] of jsonCases()) {
      const res = await rawRequest(server.url, method, path, headers, body);
      assert.ok(res.status >= 400 && res.status < 500, `${name}: ${res.status} ${res.text.slice(0, 200)}`);
      const parsed = JSON.parse(res.text) as { error?: string };
      assert.ok(RFC_ERRORS.has(parsed.error ?? ''), `${name}: ${res.text.slice(0, 200)}`);
    }
  });

  it('never redirects to an unregistered URI, and answers odd pages with a 4xx page', async () => {
    const cases = [
      `/oauth/authorize?client_id=${server.sandbox.oauth_client_id}&response_type=code&redirect_uri=https%3A%2F%2Fevil.example%2F&scope=openid`,
      '/oauth/authorize?client_id=oc_nobody&response_type=code&redirect_uri=https%3A%2F%2Fevil.example%2F',
      '/oauth/authorize?request_uri=urn:ietf:params:oauth:request_uri:nope',
      '/oauth/authorize?%zz=1',
      '/oauth/interaction/nope',
      '/oauth/nothing-here',
    ];
    for (const path of cases) {
      const res = await rawRequest(server.url, 'GET', path, {});
      assert.ok(res.status < 500, `${path}: ${res.status}`);
      const location = res.headers.location;
      if (location) assert.ok(String(location).startsWith(server.sandbox.oauth_redirect_uri!), `${path} redirected to ${location}`);
      else assert.ok(res.status >= 400, `${path}: ${res.status}`);
    }
    // A code entry page prefilled with junk is still just the page.
    assert.equal((await rawRequest(server.url, 'GET', '/oauth/device?user_code=%00%00', {})).status, 200);
    for (const step of ['sign_in', 'verify', 'consent']) {
      const res = await rawRequest(
        server.url,
        'POST',
        `/oauth/interaction/nope/${step}`,
        { 'content-type': form },
        'email=a%40b.c&code=1&decision=allow',
      );
      assert.equal(res.status, 400, step);
    }
  });
});
