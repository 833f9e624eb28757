// An organisation may set a rate limit on one API token (`rate_limit: {requests, window_seconds}`, on create or
// PATCH); none by default. Past it, that token's requests are 429 and store nothing; other tokens never notice.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiToken } from '@svc/schemas';
import { startTestServer, type TestServer } from '../../testing.js';
import { afterWaiting, assertLimited, stored } from './test-support.js';

type Issued = ApiToken & { token: string };

describe('API tokens with a rate limit of their own', () => {
  let server: TestServer;
  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  const issue = async (extra: Record<string, unknown> = {}, by = server.sandbox.api_token): Promise<Issued> => {
    const res = await server.api('/api/v1/api_tokens', {
      method: 'POST',
      headers: as(by),
      json: { api_token: { name: 'integration', permissions: ['write'], ...extra } },
    });
    const body = (await res.json()) as { api_token: Issued };
    assert.equal(res.status, 201, JSON.stringify(body));
    return body.api_token;
  };
  const change = (id: string, api_token: unknown, by = server.sandbox.api_token) =>
    server.api(`/api/v1/api_tokens/${id}`, { method: 'PATCH', headers: as(by), json: { api_token } });
  const createDecision = (token: string, headers: Record<string, string> = {}) =>
    server.api('/api/v1/decisions', {
      method: 'POST',
      headers: { ...as(token), ...headers },
      json: { kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'popup' },
    });
  const policy = (requests: number, windowSeconds: number) => ({ name: 'api_token', limit: requests, windowSeconds });

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('has no limit of its own by default, the sandbox token included, and its answers carry no RateLimit headers', async () => {
    const plain = await issue();
    assert.equal(plain.rate_limit, null);
    const list = (await (await server.api('/api/v1/api_tokens?limit=100')).json()) as { api_tokens: ApiToken[] };
    assert.ok(list.api_tokens.every((t) => t.rate_limit === null));
    const res = await createDecision(server.sandbox.api_token);
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('ratelimit-policy'), null);
  });

  it('answers 429 with Retry-After and RateLimit headers once a token sends more than its limit, storing nothing', async () => {
    const limited = await issue({ rate_limit: { requests: 3, window_seconds: 60 } });
    assert.deepEqual(limited.rate_limit, { requests: 3, window_seconds: 60 });
    for (let i = 0; i < 3; i += 1) {
      const res = await createDecision(limited.token);
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('ratelimit-policy'), '"api_token";q=3;w=60');
      assert.match(res.headers.get('ratelimit') ?? '', new RegExp(`^"api_token";r=${2 - i};t=\\d+$`));
    }
    const before = stored(server);
    await assertLimited(await createDecision(limited.token, { 'idempotency-key': 'refused-decision' }), policy(3, 60));
    assert.deepEqual(stored(server), before, 'no decision and no idempotency key was stored');

    const other = await issue();
    assert.equal((await createDecision(other.token)).status, 201, 'another token of the same account is unaffected');
    assert.equal((await createDecision(server.sandbox.api_token)).status, 201);
  });

  it('lets the token through again once the window has passed', async () => {
    const limited = await issue({ rate_limit: { requests: 1, window_seconds: 30 } });
    assert.equal((await createDecision(limited.token)).status, 201);
    const retryAfter = await assertLimited(await createDecision(limited.token), policy(1, 30));
    const res = await afterWaiting(retryAfter, () => createDecision(limited.token));
    assert.equal(res.status, 201);
  });

  it('sets, changes and lifts the limit with PATCH, effective on the next request', async () => {
    const token = await issue();
    const set = await change(token.id, { rate_limit: { requests: 1, window_seconds: 60 } });
    assert.equal(set.status, 200);
    assert.deepEqual(((await set.json()) as { api_token: ApiToken }).api_token.rate_limit, { requests: 1, window_seconds: 60 });
    assert.equal((await createDecision(token.token)).status, 201);
    await assertLimited(await createDecision(token.token), policy(1, 60));

    const renamed = await change(token.id, { name: 'renamed' });
    const body = (await renamed.json()) as { api_token: ApiToken };
    assert.deepEqual(
      [body.api_token.name, body.api_token.rate_limit],
      ['renamed', { requests: 1, window_seconds: 60 }],
      'a rename keeps it',
    );

    const lifted = await change(token.id, { rate_limit: null });
    assert.equal(((await lifted.json()) as { api_token: ApiToken }).api_token.rate_limit, null);
    assert.equal((await createDecision(token.token)).status, 201, 'lifted at once');
  });

  it("refuses a limit that is not whole positive numbers, and a change by a token lacking the target's permissions", async () => {
    for (const rate_limit of [
      { requests: 0, window_seconds: 60 },
      { requests: 10, window_seconds: 1.5 },
      { requests: 10 },
      { requests: 10, window_seconds: 60, burst: 5 },
    ]) {
      const res = await server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name: 'x', rate_limit } } });
      assert.equal(res.status, 422, JSON.stringify(rate_limit));
    }
    const admin = await issue({ permissions: ['admin'] });
    const writer = await issue();
    const res = await change(admin.id, { rate_limit: null }, writer.token);
    assert.equal(res.status, 403);
  });

  it('documents rate_limit on the token and its PATCH in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/.well-known/openapi`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    assert.ok(doc.paths['/api/v1/api_tokens/{id}']?.patch, 'PATCH /api/v1/api_tokens/{id}');
    assert.match(JSON.stringify(doc.paths['/api/v1/api_tokens']?.post), /"rate_limit".*"window_seconds"/);
  });
});
