// What an independent client checks against the standards, each test named for the rule it holds the provider to:
// introspection within the caller's tenant, Pragma on token responses, RS256 ID tokens on request, invalid_target
// from token exchange, and the RFC 8414 metadata path.
import assert from 'node:assert/strict';
import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { calculateJwkThumbprint, createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import * as oauth from 'oauth4webapi';
import { TOKEN_EXCHANGE_GRANT_TYPE, DELEGATION_GRANT_TOKEN_TYPE } from '@svc/schemas';
import { exchangeGrant, grant, newAgent, signIn, type Agent } from '../../authority/delegations/test-support.js';
import { expect, otherAccount } from '../../surfaces/protect/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { Browser, discover, insecure, personAccessToken } from './test-support.js';

let server: TestServer;
let as: oauth.AuthorizationServer;
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const form = 'application/x-www-form-urlencoded';

before(async () => {
  server = await startTestServer();
  as = await discover(server.url);
});
after(() => server.dispose());

/** A confidential client of `applicationId` (the sandbox's unless given), registered with `token`. */
async function confidentialClient(extra: Record<string, unknown> = {}, applicationId = server.sandbox.application_id, token?: string) {
  const body = await expect(server, 201, `/api/v1/applications/${applicationId}/oauth_clients`, {
    ...(token ? { token } : {}),
    json: { oauth_client: { name: 'Shop', client_type: 'confidential', redirect_uris: ['https://shop.example/cb'], ...extra } },
  });
  return body.oauth_client as { client_id: string; client_secret: string; id_token_signed_response_alg: string };
}

describe('introspection (RFC 7662) within the caller’s tenant', () => {
  const introspect = async (token: string, client: { client_id: string; client_secret: string }) => {
    const res = await fetch(`${server.url}/oauth/introspect`, {
      method: 'POST',
      headers: { 'content-type': form, authorization: basic(client.client_id, client.client_secret) },
      body: new URLSearchParams({ token }),
    });
    assert.equal(res.status, 200);
    return (await res.json()) as Record<string, unknown>;
  };

  it("answers active: false to a confidential client of another account, never the token's sub, client_id or scope (RFC 7662 section 2.2)", async () => {
    const accessToken = await personAccessToken(server, 'ada@example.com', 'openid email');
    const other = otherAccount(server);
    const attacker = await confidentialClient({}, other.applicationId, other.token);
    assert.deepEqual(await introspect(accessToken, attacker), { active: false });

    // A client of the token's own account learns about it; so does the client it was issued to.
    const colleague = await introspect(accessToken, await confidentialClient());
    assert.equal(colleague.active, true);
    assert.equal(colleague.client_id, server.sandbox.oauth_client_id);
    assert.match(String(colleague.sub), /^prs_/);
    const own = { client_id: server.sandbox.oauth_client_id!, client_secret: server.sandbox.oauth_client_secret! };
    assert.equal((await introspect(accessToken, own)).active, true);
  });
});

describe('token responses (RFC 6749 section 5.1)', () => {
  let agent: Agent;
  let grantId: string;
  before(async () => {
    agent = await newAgent(server);
    const ada = await signIn(server, 'ada@example.com');
    grantId = (await grant(server, ada, agent.id, { delegation_type: 'ai_agent', delegated_scopes: ['bookings:read'] })).id as string;
  });

  const noCache = (headers: Headers, what: string) => {
    assert.equal(headers.get('cache-control'), 'no-store', what);
    assert.equal(headers.get('pragma'), 'no-cache', what);
  };

  it('carry Pragma: no-cache besides Cache-Control: no-store, at the token endpoint and at token exchange, answered or refused', async () => {
    const tokenEndpoint = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': form, authorization: basic(server.sandbox.oauth_client_id!, server.sandbox.oauth_client_secret!) },
      body: 'grant_type=refresh_token&refresh_token=not-a-refresh-token',
    });
    assert.equal(tokenEndpoint.status, 400);
    noCache(tokenEndpoint.headers, 'token endpoint, refused');

    const exchanged = await exchangeGrant(server, grantId, agent);
    assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
    noCache(exchanged.headers, 'token exchange, answered');
    const refused = await exchangeGrant(server, 'dlg_nothing', agent);
    assert.equal(refused.status, 400);
    noCache(refused.headers, 'token exchange, refused');
  });

  it('token exchange answers invalid_target for a resource or audience it does not serve (RFC 8693 section 2.2.2)', async () => {
    const foreign: Record<string, string>[] = [
      { resource: 'https://elsewhere.example/api' },
      { resource: `${server.url}/mcp/v1/agent#fragment` },
      { resource: 'not a uri' },
      { audience: 'payments-service' },
      { audience: 'https://elsewhere.example' },
      { audience: server.url.replace('127.0.0.1', 'localhost') },
    ];
    for (const extra of foreign) {
      const res = await exchangeGrant(server, grantId, agent, extra);
      assert.equal(res.status, 400, JSON.stringify(extra));
      assert.equal(res.body.error, 'invalid_target', JSON.stringify(extra));
      assert.match(res.body.error_description as string, /is not served here/);
    }
    // Several targets (RFC 8693 section 2.1): one the server does not serve is enough to refuse.
    const several = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE_GRANT_TYPE,
      subject_token: grantId,
      subject_token_type: DELEGATION_GRANT_TOKEN_TYPE,
    });
    several.append('resource', `${server.url}/mcp/v1/agent`);
    several.append('resource', 'https://elsewhere.example/api');
    const mixed = await fetch(`${server.url}/oauth/token/exchange`, {
      method: 'POST',
      headers: { 'content-type': form, authorization: basic(agent.clientId, agent.clientSecret) },
      body: several,
    });
    assert.equal(((await mixed.json()) as { error: string }).error, 'invalid_target');

    // The server's own API and gateway are served.
    const ours = await exchangeGrant(server, grantId, agent, { resource: `${server.url}/mcp/v1/agent`, audience: server.url });
    assert.equal(ours.status, 200, JSON.stringify(ours.body));
  });
});

describe('ID token signing (OpenID Connect Core 1.0 section 15.1, Discovery 1.0 section 3)', () => {
  /** The code flow of `client` to its end: the ID token. */
  async function idToken(client: { client_id: string; client_secret: string; id_token_signed_response_alg?: string }) {
    const auth = oauth.ClientSecretBasic(client.client_secret);
    const verifier = oauth.generateRandomCodeVerifier();
    const redirectUri = 'https://shop.example/cb';
    const par = await oauth.processPushedAuthorizationResponse(
      as,
      client,
      await oauth.pushedAuthorizationRequest(
        as,
        client,
        auth,
        {
          redirect_uri: redirectUri,
          scope: 'openid',
          response_type: 'code',
          state: 's',
          code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
        },
        insecure,
      ),
    );
    const back = await new Browser(server.url).authorize(
      `${as.authorization_endpoint}?client_id=${client.client_id}&request_uri=${encodeURIComponent(par.request_uri)}`,
      'grace@example.com',
    );
    const params = oauth.validateAuthResponse(as, client, back, 's');
    const res = await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, verifier, insecure);
    return (await oauth.processAuthorizationCodeResponse(as, client, res, { requireIdToken: true })).id_token!;
  }

  it('discovery lists RS256 beside ES256 in id_token_signing_alg_values_supported', () => {
    assert.deepEqual([...(as.id_token_signing_alg_values_supported ?? [])].sort(), ['ES256', 'RS256']);
  });

  it('signs ID tokens RS256 for a client registered with id_token_signed_response_alg RS256, verifiable with the jwks_uri; ES256 stays the default', async () => {
    const rs = await confidentialClient({ id_token_signed_response_alg: 'RS256' });
    assert.equal(rs.id_token_signed_response_alg, 'RS256');
    const jwks = createRemoteJWKSet(new URL(as.jwks_uri!));
    const rsToken = await idToken(rs);
    const verified = await jwtVerify(rsToken, jwks, { issuer: server.url, audience: rs.client_id, algorithms: ['RS256'] });
    assert.equal(verified.protectedHeader.alg, 'RS256');

    const es = await confidentialClient();
    assert.equal(es.id_token_signed_response_alg, 'ES256');
    const esToken = await idToken(es);
    assert.equal(decodeProtectedHeader(esToken).alg, 'ES256');
    await jwtVerify(esToken, jwks, { issuer: server.url, audience: es.client_id });

    await expect(server, 422, `/api/v1/applications/${server.sandbox.application_id}/oauth_clients`, {
      json: { oauth_client: { name: 'X', client_type: 'confidential', redirect_uris: [], id_token_signed_response_alg: 'HS256' } },
    });
  });

  it("keeps the RSA key in the data directory, owner-only, and publishes only its public part under its thumbprint beside the server's ES256 keys", async () => {
    const file = join(server.dataDir, 'oauth-keys.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const [stored] = JSON.parse(readFileSync(file, 'utf8')) as { alg: string; private_jwk: JWK }[];
    assert.equal(stored!.alg, 'RS256');
    const published = ((await (await fetch(as.jwks_uri!)).json()) as { keys: JWK[] }).keys;
    const rsa = published.find((key) => key.kty === 'RSA');
    assert.equal(rsa?.kid, await calculateJwkThumbprint(stored!.private_jwk));
    assert.ok(published.every((key) => key.d === undefined && key.p === undefined));
    const server256 = ((await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as { keys: JWK[] }).keys;
    for (const key of server256) assert.ok(published.some((k) => k.kid === key.kid && k.x === key.x));
  });
});

describe('authorization server metadata (RFC 8414)', () => {
  it('answers /.well-known/oauth-authorization-server with the same metadata as openid-configuration', async () => {
    const res = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    const rfc8414 = await res.json();
    const openid = await (await fetch(`${server.url}/.well-known/openid-configuration`)).json();
    assert.deepEqual(rfc8414, openid);
    // A client that knows only OAuth (MCP's) finds the issuer, endpoints and PKCE there.
    const issuer = new URL(server.url);
    const found = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', [oauth.allowInsecureRequests]: true }),
    );
    assert.equal(found.token_endpoint, `${server.url}/oauth/token`);
    assert.deepEqual(found.code_challenge_methods_supported, ['S256']);
  });
});
