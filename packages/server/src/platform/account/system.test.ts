import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing.js';

describe('system routes', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  it('publishes the signing key as a JWKS without private parts', async () => {
    const res = await fetch(`${server.url}/.well-known/jwks.json`);
    assert.equal(res.status, 200);
    const { keys } = (await res.json()) as { keys: Record<string, string>[] };
    assert.equal(keys.length, 1);
    assert.equal(keys[0]?.kid, server.context.keys.kid);
    assert.equal(keys[0]?.d, undefined);
  });

  it('answers 401 with a message when no credential is sent', async () => {
    const res = await fetch(`${server.url}/api/v1/test_clock/advance`, { method: 'POST' });
    assert.equal(res.status, 401);
    assert.match(((await res.json()) as { message: string }).message, /Authentication is required/);
  });

  it('moves the test clock for an admin token', async () => {
    const before = server.context.clock.now();
    const res = await server.api('/api/v1/test_clock/advance', { method: 'POST', json: { seconds: 3600 } });
    assert.equal(res.status, 200);
    assert.ok(server.context.clock.now() - before >= 3600_000);
  });

  it('refuses a test clock move with a negative number as a 422 naming the field', async () => {
    const res = await server.api('/api/v1/test_clock/advance', { method: 'POST', json: { seconds: -1 } });
    assert.equal(res.status, 422);
    const body = (await res.json()) as { errors: { path: string }[] };
    assert.equal(body.errors[0]?.path, 'seconds');
  });

  it('answers malformed JSON with 400', async () => {
    const res = await server.api('/api/v1/test_clock/advance', {
      method: 'POST',
      body: '{"seconds":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 400);
  });
});
