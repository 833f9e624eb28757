// OAuth clients of an application: registration (secrets hashed, shown once), redirect URI rules, rotation,
// deletion (which ends every token the client holds), and that a restart keeps grants and refresh tokens.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as oauth from 'oauth4webapi';
import { startServer, type RunningServer } from '../../server.js';
import { Browser, discover, insecure } from './test-support.js';

let server: RunningServer;
let dataDir: string;

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-oauth-clients-'));
  server = await startServer({ port: 0, dataDir });
});
after(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function api(path: string, init: { method?: string; json?: unknown; token?: string } = {}) {
  const res = await fetch(server.url + path, {
    method: init.method ?? (init.json ? 'POST' : 'GET'),
    headers: {
      authorization: `Bearer ${init.token ?? server.sandbox.api_token}`,
      ...(init.json ? { 'content-type': 'application/json' } : {}),
    },
    ...(init.json ? { body: JSON.stringify(init.json) } : {}),
  });
  return { status: res.status, body: res.status === 204 ? undefined : ((await res.json()) as Record<string, any>) };
}

const clients = () => `/api/v1/applications/${server.sandbox.application_id}/oauth_clients`;

/** Signs a person in with `clientId`/`secret` and answers the tokens (PAR, PKCE, the hosted pages). */
async function tokensFor(clientId: string, secret: string, redirectUri: string) {
  const as = await discover(server.url);
  const client = { client_id: clientId };
  const auth = oauth.ClientSecretBasic(secret);
  const verifier = oauth.generateRandomCodeVerifier();
  const par = await oauth.processPushedAuthorizationResponse(
    as,
    client,
    await oauth.pushedAuthorizationRequest(
      as,
      client,
      auth,
      {
        redirect_uri: redirectUri,
        scope: 'openid offline_access',
        prompt: 'consent',
        response_type: 'code',
        state: 's',
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      },
      insecure,
    ),
  );
  const back = await new Browser(server.url).authorize(
    `${as.authorization_endpoint}?client_id=${clientId}&request_uri=${encodeURIComponent(par.request_uri)}`,
    'ada@example.com',
  );
  const params = oauth.validateAuthResponse(as, client, back, 's');
  return oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, verifier, insecure),
  );
}

describe('OAuth clients', () => {
  it('registers a confidential client whose secret is shown once, and a public one with none', async () => {
    const created = await api(clients(), {
      json: {
        oauth_client: { name: 'Shop', client_type: 'confidential', redirect_uris: ['https://shop.example/cb', 'http://localhost:3000/cb'] },
      },
    });
    assert.equal(created.status, 201);
    const client = created.body!.oauth_client;
    assert.match(client.client_id, /^oc_/);
    assert.match(client.client_secret, /^ocs_/);
    assert.equal(client.token_endpoint_auth_method, 'client_secret_basic');
    assert.deepEqual(client.grant_types.length, 4);
    const read = await api(`${clients()}/${client.client_id}`);
    assert.equal(read.body!.oauth_client.client_secret, undefined);
    const listed = await api(clients());
    assert.ok(
      listed.body!.oauth_clients.some(
        (c: { client_id: string; client_secret?: string }) => c.client_id === client.client_id && c.client_secret === undefined,
      ),
    );

    const spa = await api(clients(), {
      json: { oauth_client: { name: 'SPA', client_type: 'public', redirect_uris: ['http://127.0.0.1:5173/callback'] } },
    });
    assert.equal(spa.status, 201);
    assert.equal(spa.body!.oauth_client.token_endpoint_auth_method, 'none');
    assert.equal(spa.body!.oauth_client.client_secret, undefined);
  });

  it('refuses redirect URIs that are not full https (or loopback http) URLs, and mismatched auth methods, naming each', async () => {
    const res = await api(clients(), {
      json: {
        oauth_client: {
          name: 'Bad',
          client_type: 'public',
          token_endpoint_auth_method: 'client_secret_post',
          redirect_uris: ['http://shop.example/cb', '/relative', 'https://shop.example/cb#frag', 'javascript:alert(1)'],
        },
      },
    });
    assert.equal(res.status, 422);
    assert.deepEqual(
      res.body!.errors.map((e: { path: string }) => e.path),
      [
        'oauth_client.redirect_uris.0',
        'oauth_client.redirect_uris.1',
        'oauth_client.redirect_uris.2',
        'oauth_client.redirect_uris.3',
        'oauth_client.token_endpoint_auth_method',
      ],
    );
    const unknown = await api(clients(), { json: { oauth_client: { name: 'X', client_type: 'public', redirect_uris: [], extra: 1 } } });
    assert.equal(unknown.status, 422);
    const reader = await api('/api/v1/api_tokens', { json: { api_token: { name: 'reader', permissions: ['read'] } } });
    const denied = await api(clients(), {
      token: reader.body!.api_token.token,
      json: { oauth_client: { name: 'X', client_type: 'public', redirect_uris: ['https://a.example/cb'] } },
    });
    assert.equal(denied.status, 403);
  });

  it('refuses redirect URIs with control characters, whitespace, wildcards, or any form that parsing rewrites (exact matching, RFC 9700 section 4.1.3): 422 naming each', async () => {
    const refused: [string, RegExp][] = [
      ['https://shop.example/cb\u0000', /control characters/],
      ['https://shop.example/cb\r\nSet-Cookie:x=1', /control characters/],
      ['https://shop.example/c\u0085b', /control characters/],
      ['https://shop.example/c b', /whitespace/],
      [' https://shop.example/cb', /whitespace/],
      ['https://shop.example/cb\u00a0', /whitespace/],
      ['https://*.shop.example/cb', /wildcard/],
      ['https://shop.example/*', /wildcard/],
      ['https://SHOP.example/cb', /exactly as it parses: https:\/\/shop\.example\/cb/],
      ['https://shop.example', /exactly as it parses: https:\/\/shop\.example\//],
      ['https://shop.example:443/cb', /exactly as it parses/],
      ['https://shop.example/a/../cb', /exactly as it parses/],
      ['https:shop.example/cb', /exactly as it parses/],
      ['https://shop.example/c\\b', /exactly as it parses/],
      ['https://xn--shp-sna.example/cb'.replace('xn--shp-sna', 'shöp'), /exactly as it parses/],
    ];
    const res = await api(clients(), {
      json: { oauth_client: { name: 'Loose', client_type: 'public', redirect_uris: refused.map(([uri]) => uri) } },
    });
    assert.equal(res.status, 422);
    const errors = res.body!.errors as { path: string; code: string; message: string }[];
    assert.deepEqual(
      errors.map((e) => e.path),
      refused.map((_, i) => `oauth_client.redirect_uris.${i}`),
    );
    for (const [i, [uri, problem]] of refused.entries()) {
      assert.equal(errors[i]!.code, 'invalid_redirect_uri', uri);
      assert.match(errors[i]!.message, problem, JSON.stringify(uri));
    }
    // What parses to itself is registered as sent.
    const exact = ['https://shop.example/cb?next=%2Fhome', 'http://127.0.0.1:5173/callback', 'com.example.app:/oauth'];
    const ok = await api(clients(), { json: { oauth_client: { name: 'Exact', client_type: 'public', redirect_uris: exact } } });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.deepEqual(ok.body!.oauth_client.redirect_uris, exact);
  });

  it('rotates a secret (the old one stops at once) and deleting a client ends its tokens', async () => {
    const redirect = 'https://shop.example/cb';
    const { oauth_client: created } = (
      await api(clients(), { json: { oauth_client: { name: 'Rotating', client_type: 'confidential', redirect_uris: [redirect] } } })
    ).body!;
    const tokens = await tokensFor(created.client_id, created.client_secret, redirect);
    const me = (token: string) => fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    assert.equal(await me(tokens.access_token), 200);

    const { oauth_client: rotated } = (await api(`${clients()}/${created.client_id}/rotate_secret`, { method: 'POST' })).body!;
    assert.notEqual(rotated.client_secret, created.client_secret);
    const as = await discover(server.url);
    const old = await oauth.refreshTokenGrantRequest(
      as,
      { client_id: created.client_id },
      oauth.ClientSecretBasic(created.client_secret),
      tokens.refresh_token!,
      insecure,
    );
    assert.equal(old.status, 401);
    const fresh = await oauth.refreshTokenGrantRequest(
      as,
      { client_id: created.client_id },
      oauth.ClientSecretBasic(rotated.client_secret),
      tokens.refresh_token!,
      insecure,
    );
    assert.equal(fresh.status, 200);
    const { access_token } = (await fresh.json()) as { access_token: string };

    assert.equal((await api(`${clients()}/${created.client_id}`, { method: 'DELETE' })).status, 204);
    assert.equal(await me(access_token), 401);
    assert.equal((await api(`${clients()}/${created.client_id}`)).status, 404);
  });

  it('keeps grants and refresh tokens across a restart', async () => {
    const { oauth_client_id: id, oauth_client_secret: secret, oauth_redirect_uri: redirect } = server.sandbox;
    const tokens = await tokensFor(id!, secret!, redirect!);
    const port = Number(new URL(server.url).port);
    await server.close();
    // Let fetch's pool see its kept-alive sockets to the old server closed before the new one takes the port.
    await new Promise((resolve) => setTimeout(resolve, 100));
    server = await startServer({ port, dataDir });
    // The sandbox client's secret lives in sandbox.json; the database kept its hash, the grant and the refresh token.
    assert.equal(server.sandbox.oauth_client_secret, secret);
    const as = await discover(server.url);
    const res = await oauth.refreshTokenGrantRequest(
      as,
      { client_id: id! },
      oauth.ClientSecretBasic(secret!),
      tokens.refresh_token!,
      insecure,
    );
    assert.equal(res.status, 200, await res.clone().text());
  });
});
