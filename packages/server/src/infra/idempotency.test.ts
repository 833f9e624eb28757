import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signIn, type Json, type Person } from '../authority/delegations/test-support.js';
import { startTestServer, type TestServer } from '../testing.js';

describe('Idempotency-Key on API writes', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  const createToken = (key: string, name = 'ci') =>
    server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name } }, headers: { 'idempotency-key': key } });
  const tokenCount = () => server.context.db.prepare('SELECT count(*) FROM api_tokens').pluck().get() as number;

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
    const stored = server.context.db
      .prepare("SELECT body FROM idempotency_keys WHERE key LIKE '%:' || ?")
      .pluck()
      .get('create-ci-2') as string;
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
    const send = () =>
      server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name: '' } }, headers: { 'idempotency-key': 'bad-body' } });
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

describe('Idempotency-Key replays stay with the credential that made them', () => {
  let server: TestServer;
  let ada: Person;
  let bob: Person;
  before(async () => {
    server = await startTestServer();
    ada = await signIn(server, 'ada@example.com');
    bob = await signIn(server, 'bob@example.com');
  });
  after(() => server.dispose());

  const send = (path: string, json: unknown, key: string, headers: Record<string, string> = {}) =>
    server.api(path, { method: 'POST', json, headers: { 'idempotency-key': key, ...headers } });
  const newToken = async (permissions: string[]) => {
    const res = await send(
      '/api/v1/api_tokens',
      { api_token: { name: `other ${permissions.join(' ')}`, permissions } },
      `token-${permissions.join('-')}`,
    );
    assert.equal(res.status, 201);
    return ((await res.json()) as { api_token: { token: string } }).api_token.token;
  };
  const replayed = (res: Response) => res.headers.get('idempotent-replayed');

  it("answers the publishable key what it alone would get (403), never the admin's new token", async () => {
    const body = { api_token: { name: 'ops', permissions: ['admin'] } };
    const first = await send('/api/v1/api_tokens', body, 'admin-token-1');
    assert.equal(first.status, 201);
    const secret = ((await first.json()) as { api_token: { token: string } }).api_token.token;

    const res = await send('/api/v1/api_tokens', body, 'admin-token-1', { 'x-publishable-key': server.sandbox.publishable_key });
    const text = await res.text();
    assert.equal(res.status, 403);
    assert.equal((JSON.parse(text) as { code: string }).code, 'publishable_key_not_allowed');
    assert.equal(replayed(res), null);
    assert.equal(text.includes(secret), false);
  });

  it("runs another API token's request as its own: it never receives a client secret or a signing secret made by another", async () => {
    const other = await newToken(['read', 'write']);
    const app = server.sandbox.application_id;
    const cases = [
      {
        path: `/api/v1/applications/${app}/oauth_clients`,
        body: { oauth_client: { name: 'Billing', client_type: 'confidential', redirect_uris: ['https://billing.example/cb'] } },
        secret: (b: Json) => b.oauth_client.client_secret as string,
        id: (b: Json) => b.oauth_client.client_id as string,
      },
      {
        path: `/api/v1/applications/${app}/webhook_endpoints`,
        body: { webhook_endpoint: { url: 'https://hooks.example/in', events: ['consent.granted'] } },
        secret: (b: Json) => b.webhook_endpoint.secret as string,
        id: (b: Json) => b.webhook_endpoint.id as string,
      },
    ];
    for (const { path, body, secret, id } of cases) {
      const first = await send(path, body, `create:${path}`);
      assert.equal(first.status, 201);
      const made = (await first.json()) as Json;
      assert.ok(secret(made));

      const res = await send(path, body, `create:${path}`, { authorization: `Bearer ${other}` });
      assert.equal(res.status, 201, path);
      assert.equal(replayed(res), null);
      const own = (await res.json()) as Json;
      assert.notEqual(id(own), id(made), 'a resource of its own, made by its own request');
      assert.notEqual(secret(own), secret(made));
    }
  });

  it("gives person B their own answer, never person A's data request", async () => {
    const body = { application_id: server.sandbox.application_id, dsar_type: 'access' };
    const first = await send('/api/v1/data_requests', body, 'my-request', { authorization: `Bearer ${ada.token}` });
    assert.equal(first.status, 201);
    const adas = ((await first.json()) as Json).data_request;
    assert.equal(adas.person_id, ada.id);

    const res = await send('/api/v1/data_requests', body, 'my-request', { authorization: `Bearer ${bob.token}` });
    assert.equal(res.status, 201);
    assert.equal(replayed(res), null);
    const bobs = ((await res.json()) as Json).data_request;
    assert.equal(bobs.person_id, bob.id);
    assert.notEqual(bobs.id, adas.id);
  });

  it('still replays to the credential that made the request, and refuses it the same key for another request', async () => {
    const body = { application_id: server.sandbox.application_id, dsar_type: 'erasure' };
    const first = await send('/api/v1/data_requests', body, 'erase-me', { authorization: `Bearer ${ada.token}` });
    const again = await send('/api/v1/data_requests', body, 'erase-me', { authorization: `Bearer ${ada.token}` });
    assert.deepEqual([first.status, again.status, replayed(again)], [201, 201, 'true']);
    assert.deepEqual(await again.json(), await first.json());
    const other = await send('/api/v1/data_requests', { ...body, dsar_type: 'access' }, 'erase-me', {
      authorization: `Bearer ${ada.token}`,
    });
    assert.equal(other.status, 422);

    const writer = await newToken(['write']);
    const tokenBody = { api_token: { name: 'reader', permissions: ['read'] } };
    const made = await send('/api/v1/api_tokens', tokenBody, 'reader-1', { authorization: `Bearer ${writer}` });
    const retry = await send('/api/v1/api_tokens', tokenBody, 'reader-1', { authorization: `Bearer ${writer}` });
    assert.deepEqual([made.status, retry.status, replayed(retry)], [201, 201, 'true']);
    assert.deepEqual(await retry.json(), await made.json());
  });
});
