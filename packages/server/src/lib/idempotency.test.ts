import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../testing.js';

describe('Idempotency-Key on API writes', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  const createToken = (key: string, name = 'ci') =>
    server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name } }, headers: { 'idempotency-key': key } });
  const tokenCount = () => (server.context.db.prepare('SELECT count(*) FROM api_tokens').pluck().get() as number);

  it('performs a retried create once and answers the retry with the first answer', async () => {
    const before = tokenCount();
    const first = await createToken('create-ci-1');
    assert.equal(first.status, 201);
    const retry = await createToken('create-ci-1');
    assert.equal(retry.status, 201);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await retry.json(), await first.json());
    assert.equal(tokenCount(), before + 1);
  });

  it('never stores the remembered answer in clear (it may hold a secret shown once)', async () => {
    const res = await createToken('create-ci-2', 'sealed');
    const { api_token } = (await res.json()) as { api_token: { token: string } };
    const stored = server.context.db.prepare('SELECT body FROM idempotency_keys WHERE key = ?').pluck().get('create-ci-2') as string;
    assert.ok(stored);
    assert.equal(stored.includes(api_token.token), false);
  });

  it('refuses the same key on a different request (422) and an invalid key (400)', async () => {
    await createToken('create-ci-3', 'one');
    const other = await createToken('create-ci-3', 'two');
    assert.equal(other.status, 422);
    assert.equal(((await other.json()) as { code: string }).code, 'idempotency_key_reused');
    const bad = await createToken('has space');
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { code: string }).code, 'invalid_idempotency_key');
  });

  it('replays an error answer too, so a retry cannot turn a refusal into a success', async () => {
    const send = () => server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name: '' } }, headers: { 'idempotency-key': 'bad-body' } });
    const first = await send();
    assert.equal(first.status, 422);
    const retry = await send();
    assert.equal(retry.status, 422);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
  });

  it('scopes keys to the account and forgets them after 24 hours of the server clock', async () => {
    const before = tokenCount();
    await createToken('daily');
    server.advance(24 * 3600 + 1);
    const again = await createToken('daily');
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), null);
    assert.equal(tokenCount(), before + 2);
  });
});
