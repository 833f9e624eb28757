import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiToken, Me } from '@svc/schemas';
import { startTestServer, type TestServer } from '../../testing.js';

type Body = { message: string; code?: string };

describe('API tokens, me and authentication', () => {
  let server: TestServer;
  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  const create = async (body: unknown, token = server.sandbox.api_token) =>
    server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: body }, headers: as(token) });
  const issue = async (name: string, permissions?: string[], extra: Record<string, unknown> = {}) => {
    const res = await create({ name, ...(permissions ? { permissions } : {}), ...extra });
    assert.equal(res.status, 201);
    return ((await res.json()) as { api_token: ApiToken & { token: string } }).api_token;
  };
  const me = (token: string) => server.api('/api/v1/me', { headers: as(token) });

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('creates a token with [read] by default and returns its opaque value once', async () => {
    const token = await issue('reporting');
    assert.deepEqual(token.permissions, ['read']);
    assert.match(token.id, /^api_token_[A-Za-z0-9]+$/);
    assert.match(token.token, /^[A-Za-z0-9_-]{43}$/, 'a 32-byte URL-safe value with no prefix');
    assert.equal(token.expires_at, null);
    assert.equal(token.last_used_at, null);

    const list = (await (await server.api('/api/v1/api_tokens')).json()) as { api_tokens: ApiToken[] };
    const listed = list.api_tokens.find((t) => t.id === token.id);
    assert.ok(listed);
    assert.equal('token' in listed, false, 'later reads never show the value');
  });

  it('stores only a hash of the value', async () => {
    const token = await issue('hashed');
    const dump = JSON.stringify(server.context.db.prepare('SELECT * FROM api_tokens').all());
    assert.equal(dump.includes(token.token), false);
  });

  it('answers me with the calling token and account, and updates last_used_at', async () => {
    const token = await issue('me', ['read', 'write']);
    const res = await me(token.token);
    assert.equal(res.status, 200);
    const body = (await res.json()) as Me;
    assert.equal(body.kind, 'api_token');
    assert.equal(body.api_token.id, token.id);
    assert.deepEqual(body.api_token.permissions, ['read', 'write']);
    assert.ok(body.account.id.startsWith('acct_'));
    assert.equal(body.account.name, 'Sandbox');
    assert.ok(body.api_token.last_used_at, 'the call itself counts as a use');
  });

  it('writes last_used_at at most once a minute per token (server clock), on reads and writes alike', async () => {
    const token = await issue('coalesced', ['read', 'write']);
    const lastUsed = async () => {
      const list = (await (await server.api('/api/v1/api_tokens?limit=100')).json()) as { api_tokens: ApiToken[] };
      return Date.parse(list.api_tokens.find((t) => t.id === token.id)!.last_used_at ?? '');
    };
    const age = (at: number) => server.context.clock.now() - at;
    // A write request that stores nothing of its own (an unknown consent token) still records the use.
    const write = () =>
      server.api('/api/v1/consent_tokens/verify', { method: 'POST', json: { consent_token: 'x'.repeat(43) }, headers: as(token.token) });

    assert.equal((await write()).status, 200);
    const first = await lastUsed();
    assert.ok(age(first) < 5_000, 'stamped by the server clock now');
    server.advance(30);
    await me(token.token);
    await write();
    assert.equal(await lastUsed(), first, 'uses within the minute are not written again');

    server.advance(31);
    await write();
    const second = await lastUsed();
    assert.ok(second - first >= 60_000 && age(second) < 5_000, 'a minute after the last write the use is written again');

    server.advance(61);
    const body = (await (await me(token.token)).json()) as Me;
    assert.ok(age(Date.parse((body.kind === 'api_token' && body.api_token.last_used_at) || '')) < 5_000, 'a read shows its own use');
  });

  it('refuses admin to a caller without admin (Errors rule 5) and lets an admin issue it', async () => {
    const writer = await issue('writer', ['read', 'write']);
    const refused = await create({ name: 'escalate', permissions: ['read', 'admin'] }, writer.token);
    assert.equal(refused.status, 403);
    const body = (await refused.json()) as Body;
    assert.equal(body.code, 'insufficient_permissions');
    assert.match(body.message, /admin/);
    const granted = await create({ name: 'second admin', permissions: ['admin'] });
    assert.equal(granted.status, 201);
  });

  it('lets a write token issue read and write tokens', async () => {
    const writer = await issue('writer 2', ['write']);
    assert.equal((await create({ name: 'child', permissions: ['read', 'write'] }, writer.token)).status, 201);
  });

  it('forbids a read token every write with 403', async () => {
    const reader = await issue('reader', ['read']);
    const headers = as(reader.token);
    const writes: [string, string, unknown][] = [
      ['POST', '/api/v1/api_tokens', { api_token: { name: 'x' } }],
      ['POST', '/api/v1/flows', { flow: { pattern: 'standard', title: 'x' } }],
      ['POST', '/api/v1/applications', { application: { name: 'x' } }],
      ['PATCH', `/api/v1/applications/${server.sandbox.application_id}`, { application: { name: 'x' } }],
      [
        'POST',
        `/api/v1/applications/${server.sandbox.application_id}/allowed_origins`,
        { allowed_origin: { origin: 'https://x.example' } },
      ],
      ['POST', `/api/v1/flows/${server.sandbox.flow_id}/activate`, undefined],
      ['POST', `/api/v1/api_tokens/${reader.id}/rotate`, undefined],
      ['DELETE', `/api/v1/api_tokens/${reader.id}`, undefined],
    ];
    for (const [method, path, json] of writes) {
      const res = await server.api(path, { method, headers, ...(json ? { json } : {}) });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.match(((await res.json()) as Body).message, /"write"/);
    }
    assert.equal((await server.api('/api/v1/flows', { headers })).status, 200, 'reads still work');
  });

  it('rotates: the old value stops working at once, the new one works', async () => {
    const token = await issue('rotating', ['read']);
    const res = await server.api(`/api/v1/api_tokens/${token.id}/rotate`, { method: 'POST' });
    assert.equal(res.status, 200);
    const rotated = ((await res.json()) as { api_token: ApiToken & { token: string } }).api_token;
    assert.equal(rotated.id, token.id);
    assert.notEqual(rotated.token, token.token);
    const old = await me(token.token);
    assert.equal(old.status, 401);
    assert.match(((await old.json()) as Body).message, /not valid/);
    assert.equal((await me(rotated.token)).status, 200);
  });

  it('does not let a write token rotate or revoke an admin token', async () => {
    const writer = await issue('writer 3', ['write']);
    const admin = await issue('admin 3', ['admin']);
    for (const [method, path] of [
      ['POST', `/api/v1/api_tokens/${admin.id}/rotate`],
      ['DELETE', `/api/v1/api_tokens/${admin.id}`],
    ] as const) {
      const res = await server.api(path, { method, headers: as(writer.token) });
      assert.equal(res.status, 403, `${method} ${path}`);
    }
    assert.equal((await me(admin.token)).status, 200);
  });

  it('revokes: the value answers 401 and the record is gone', async () => {
    const token = await issue('doomed');
    assert.equal((await server.api(`/api/v1/api_tokens/${token.id}`, { method: 'DELETE' })).status, 204);
    const res = await me(token.token);
    assert.equal(res.status, 401);
    assert.ok(((await res.json()) as Body).message);
    assert.equal((await server.api(`/api/v1/api_tokens/${token.id}`, { method: 'DELETE' })).status, 404);
    assert.equal((await server.api(`/api/v1/api_tokens/${token.id}/rotate`, { method: 'POST' })).status, 404);
  });

  it('expires a token by the server clock, storing expires_at in UTC', async () => {
    const inAnHour = new Date(server.context.clock.now() + 3600_000);
    // The same instant written at +02:00.
    const local = new Date(inAnHour.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    const token = await issue('short-lived', ['read'], { expires_at: local });
    assert.equal(token.expires_at, inAnHour.toISOString());
    assert.equal((await me(token.token)).status, 200);
    server.advance(3601);
    const res = await me(token.token);
    assert.equal(res.status, 401);
    assert.match(((await res.json()) as Body).message, /expired/);
  });

  it('answers 401 with a message for a missing, wrong or malformed credential', async () => {
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: 'Token abc' },
      { 'x-publishable-key': 'pk_test_doesnotexist' },
    ];
    for (const headers of cases) {
      const res = await fetch(`${server.url}/api/v1/me`, { headers });
      assert.equal(res.status, 401, JSON.stringify(headers));
      const body = (await res.json()) as Body;
      assert.equal(body.code, 'unauthorized');
      assert.ok(body.message.length > 10);
    }
  });

  it('pages through tokens with limit and cursor in a stable order', async () => {
    for (let i = 0; i < 5; i++) await issue(`page ${i}`);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      const page = (await (await server.api(`/api/v1/api_tokens${query}`)).json()) as {
        api_tokens: ApiToken[];
        next_cursor: string | null;
      };
      assert.ok(page.api_tokens.length <= 2);
      seen.push(...page.api_tokens.map((t) => t.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    const all = (await (await server.api('/api/v1/api_tokens?limit=100')).json()) as { api_tokens: ApiToken[] };
    assert.ok(pages > 2);
    assert.deepEqual(
      seen,
      all.api_tokens.map((t) => t.id),
    );
    assert.equal(new Set(seen).size, seen.length);
  });
});
