// Every 401 names how to authenticate: RFC 9110 §15.5.2 (a 401 MUST carry WWW-Authenticate with at least one
// challenge) and RFC 6750 §3 (a refused bearer token is `error="invalid_token"`; a request without one carries no
// error code). The challenges are read by an independent OAuth client (oauth4webapi), not by our own parser.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  allowInsecureRequests,
  customFetch,
  type CustomFetchOptions,
  type ProtectedResourceRequestBody,
  protectedResourceRequest,
  WWWAuthenticateChallengeError,
  type WWWAuthenticateChallenge,
} from 'oauth4webapi';
import { startTestServer, type TestServer } from '../testing.js';
import { invalidTokenChallenge } from './auth.js';

let server: TestServer;
before(async () => {
  // The limiter would answer 429 to the walk over every operation without a credential; the challenge is the subject.
  server = await startTestServer({ rateLimits: false });
});
after(() => server.dispose());

type Credential = { bearer: string } | { publishableKey: string } | { authorization: string } | 'none';

/**
 * Sends `credential` to `path` the way an OAuth resource client does, and answers the status, the challenges the
 * client parsed from WWW-Authenticate (none when the answer was not a 401) and the body.
 */
async function challenged(path: string, credential: Credential, init: { method?: string; body?: string } = {}) {
  const rewrite = (url: string, request: CustomFetchOptions<string, ProtectedResourceRequestBody>) => {
    const headers = new Headers(request.headers);
    if (credential === 'none' || !('bearer' in credential)) headers.delete('authorization');
    if (typeof credential === 'object' && 'publishableKey' in credential) headers.set('x-publishable-key', credential.publishableKey);
    if (typeof credential === 'object' && 'authorization' in credential) headers.set('authorization', credential.authorization);
    return fetch(url, { ...request, headers } as RequestInit);
  };
  const token = typeof credential === 'object' && 'bearer' in credential ? credential.bearer : 'unused';
  const headers = new Headers(init.body ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } : {});
  try {
    const res = await protectedResourceRequest(token, init.method ?? 'GET', new URL(path, server.url), headers, init.body ?? null, {
      [allowInsecureRequests]: true,
      [customFetch]: rewrite,
    });
    return { status: res.status, challenges: [] as WWWAuthenticateChallenge[], body: await res.json() };
  } catch (err) {
    if (!(err instanceof WWWAuthenticateChallengeError)) throw err;
    return { status: err.status, challenges: err.cause, body: (await err.response.json()) as { message: string; code: string } };
  }
}

/** Asserts a 401 with a `{message, code}` body and one Bearer challenge, and answers that challenge's parameters. */
async function bearerChallenge(path: string, credential: Credential, init?: { method?: string; body?: string }) {
  const { status, challenges, body } = await challenged(path, credential, init);
  assert.equal(status, 401, `${path}: ${JSON.stringify(body)}`);
  assert.equal(typeof body.message, 'string');
  assert.equal(typeof body.code, 'string');
  assert.equal(challenges.length, 1, 'exactly one challenge');
  assert.equal(challenges[0]!.scheme, 'bearer');
  return challenges[0]!.parameters as Record<string, string>;
}

async function apiToken(extra: Record<string, unknown> = {}) {
  const res = await server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name: 'challenged', ...extra } } });
  assert.equal(res.status, 201);
  return ((await res.json()) as { api_token: { id: string; token: string } }).api_token;
}

describe('WWW-Authenticate on every 401 (RFC 9110 §15.5.2, RFC 6750 §3)', () => {
  it('a request with no credential: Bearer realm="svc" and no error code (RFC 6750 §3.1)', async () => {
    assert.deepEqual(await bearerChallenge('/api/v1/me', 'none'), { realm: 'svc' });
    assert.deepEqual(await bearerChallenge('/api/v1/flows', { authorization: 'Basic YTpi' }), { realm: 'svc' }, 'another scheme');
  });

  it('a bad bearer token: error="invalid_token" with an error_description (RFC 6750 §3.1)', async () => {
    const params = await bearerChallenge('/api/v1/me', { bearer: 'not-a-token' });
    assert.equal(params.realm, 'svc');
    assert.equal(params.error, 'invalid_token');
    assert.match(params.error_description ?? '', /not valid/);
    assert.equal((await bearerChallenge('/api/v1/me', { bearer: 'ra_agent_forged' })).error, 'invalid_token', 'a forged agent token');
    assert.equal((await bearerChallenge('/api/v1/me', { authorization: 'Bearer ' })).error, 'invalid_token', 'a malformed token');
  });

  it('an expired and a revoked API token: error="invalid_token" saying which (RFC 6750 §3.1)', async () => {
    const expiring = await apiToken({ expires_at: new Date(server.context.clock.now() + 60_000).toISOString() });
    const revoked = await apiToken();
    assert.equal((await server.api(`/api/v1/api_tokens/${revoked.id}`, { method: 'DELETE' })).status, 204);
    server.advance(61);
    const expired = await bearerChallenge('/api/v1/me', { bearer: expiring.token });
    assert.equal(expired.error, 'invalid_token');
    assert.match(expired.error_description ?? '', /expired/);
    assert.equal((await bearerChallenge('/api/v1/me', { bearer: revoked.token })).error, 'invalid_token');
  });

  it('a bad publishable key: Bearer realm="svc" beside the {message, code} body', async () => {
    const body = JSON.stringify({ kind: 'consent', subject_ref: 'flw_x', delivery_mode: 'popup' });
    for (const publishableKey of ['pk_test_unknown0000', 'not a key']) {
      const params = await bearerChallenge('/api/v1/decisions', { publishableKey }, { method: 'POST', body });
      assert.deepEqual(params, { realm: 'svc' }, publishableKey);
    }
    const both = await challenged('/api/v1/me', { bearer: server.sandbox.api_token });
    assert.equal(both.status, 200, 'control: the sandbox token is no 401');
  });

  it("the model-context gateway's 401s point to its protected resource metadata (MCP authorization, RFC 9728 §5.1)", async () => {
    const metadata = `${server.url}/.well-known/oauth-protected-resource/mcp/v1/agent`;
    const ping = { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) };
    assert.deepEqual(await bearerChallenge('/mcp/v1/agent', 'none', ping), { resource_metadata: metadata });
    const forged = await bearerChallenge('/mcp/v1/agent', { bearer: 'ra_agent_forged' }, ping);
    assert.equal(forged.resource_metadata, metadata);
    assert.equal(forged.error, 'invalid_token');
    assert.match(forged.error_description ?? '', /not valid/);
  });

  it('answers every REST operation that refuses a missing credential with the challenge', async () => {
    const doc = (await (await fetch(`${server.url}/.well-known/openapi`)).json()) as {
      paths: Record<string, Record<string, { security: unknown[] }>>;
    };
    let refused = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (operation.security.length === 0 || !/^\/(api\/v1|mcp)\//.test(path)) continue;
        const res = await fetch(`${server.url}${path.replace(/\{[^}]+\}/g, 'x1')}`, {
          method: method.toUpperCase(),
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          ...(method === 'get' || method === 'delete' ? {} : { body: '{}' }),
        });
        await res.body?.cancel();
        if (res.status !== 401) continue;
        refused++;
        assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer /, `${method} ${path}`);
      }
    }
    assert.ok(refused > 100, `${refused} operations answered 401`);
  });

  it('keeps error_description within the characters RFC 6750 §3 allows (no quote, no backslash, ASCII)', () => {
    const challenge = invalidTokenChallenge('Authorization must be "Bearer <token>" \\ … é.');
    const description = /error_description="([^"]*)"$/.exec(challenge)?.[1] ?? '';
    assert.match(description, /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
    assert.match(description, /Bearer <token>/);
  });
});
