import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { WebhookDelivery, WebhookEndpoint } from '@svc/schemas';
import { webhookDeliveryList, webhookEndpointEnvelope, webhookEndpointList } from '@svc/schemas';
import { startTestServer, type TestServer } from '../../testing.js';
import { KEY_FILE } from '../../infra/secrets.js';
import { createEndpoint, drain, emit, startReceiver, type Receiver } from './test-support.js';

describe('webhook endpoint routes', () => {
  let server: TestServer;
  let r: Receiver;
  let base: string;
  let readToken: string;
  before(async () => {
    server = await startTestServer();
    r = await startReceiver(200);
    base = `/api/v1/applications/${server.sandbox.application_id}/webhook_endpoints`;
    const res = await server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name: 'reader', permissions: ['read'] } } });
    readToken = ((await res.json()) as { api_token: { token: string } }).api_token.token;
  });
  after(async () => {
    await server.dispose();
    await r.close();
  });

  const post = (json: unknown, path = base) => server.api(path, { method: 'POST', json });

  it('creates an enabled endpoint and shows its secret only in that answer', async () => {
    const res = await post({ webhook_endpoint: { url: r.url, events: ['consent.granted', 'consent.revoked'], description: 'CRM sync' } });
    assert.equal(res.status, 201);
    const body = webhookEndpointEnvelope.parse(await res.json());
    const endpoint = body.webhook_endpoint;
    assert.match(endpoint.id, /^we_[A-Za-z0-9]{16}$/);
    assert.match(endpoint.secret ?? '', /^whsec_[A-Za-z0-9]{43}$/);
    assert.deepEqual(
      { ...endpoint, id: undefined, secret: undefined, created_at: undefined, updated_at: undefined },
      {
        id: undefined,
        secret: undefined,
        created_at: undefined,
        updated_at: undefined,
        application_id: server.sandbox.application_id,
        url: r.url,
        description: 'CRM sync',
        events: ['consent.granted', 'consent.revoked'],
        status: 'enabled',
        consecutive_failures: 0,
        disabled_reason: null,
        disabled_at: null,
        secret_rotated_at: null,
        previous_secret_expires_at: null,
      },
    );

    const read = (await (await server.api(`${base}/${endpoint.id}`)).json()) as { webhook_endpoint: WebhookEndpoint };
    assert.equal(read.webhook_endpoint.secret, undefined);
    const { secret: _secret, ...withoutSecret } = endpoint;
    assert.deepEqual(read.webhook_endpoint, withoutSecret);
    const list = webhookEndpointList.parse(await (await server.api(base)).json());
    assert.ok(list.webhook_endpoints.every((e) => e.secret === undefined));
    assert.ok(list.webhook_endpoints.some((e) => e.id === endpoint.id));
    assert.equal(list.next_cursor, null);
  });

  it('keeps secrets and event bodies encrypted at rest, with the key in its own file', async () => {
    const endpoint = await createEndpoint(server, r.url);
    emit(server, 'consent.granted');
    await drain(server);
    const db = server.context.db;
    const row = db.prepare('SELECT secret_enc FROM webhook_endpoints WHERE id = ?').get(endpoint.id) as { secret_enc: string };
    assert.match(row.secret_enc, /^v1\./);
    assert.ok(!row.secret_enc.includes(endpoint.secret.slice(6)));
    const bodies = db.prepare('SELECT body_enc FROM webhook_events').pluck().all() as string[];
    assert.ok(bodies.length > 0 && bodies.every((b) => b.startsWith('v1.') && !b.includes('consent-token-value')));
    for (const name of ['svc.sqlite', 'svc.sqlite-wal', 'control.sqlite', 'control.sqlite-wal']) {
      const file = existsSync(join(server.dataDir, name)) ? readFileSync(join(server.dataDir, name)) : Buffer.alloc(0);
      assert.equal(file.includes(Buffer.from(endpoint.secret)), false, `the secret is not in ${name}`);
      assert.equal(file.includes(Buffer.from('consent-token-value')), false, `the consent token is not in ${name}`);
    }
    const key = statSync(join(server.dataDir, KEY_FILE));
    assert.equal(key.mode & 0o777, 0o600);
  });

  it('pages through endpoints with next_cursor', async () => {
    const page1 = webhookEndpointList.parse(await (await server.api(`${base}?limit=1`)).json());
    assert.equal(page1.webhook_endpoints.length, 1);
    assert.ok(page1.next_cursor);
    const page2 = webhookEndpointList.parse(await (await server.api(`${base}?limit=1&cursor=${page1.next_cursor}`)).json());
    assert.notEqual(page2.webhook_endpoints[0]!.id, page1.webhook_endpoints[0]!.id);
  });

  it('validates the subscription: http(s) URL without credentials, known event types or *, no repeats', async () => {
    const bad = [
      { url: 'ftp://example.com/hook', events: ['*'] },
      { url: 'https://user:pass@example.com/hook', events: ['*'] },
      { url: 'https://example.com/hook#frag', events: ['*'] },
      { url: '/relative', events: ['*'] },
      { url: r.url, events: [] },
      { url: r.url, events: ['consent.maybe'] },
      { url: r.url, events: ['webhook.test'] },
      { url: r.url, events: ['consent.granted', 'consent.granted'] },
      { url: r.url, events: 'consent.granted' },
      { url: r.url },
      { url: r.url, events: ['*'], secret: 'whsec_mine' },
    ];
    for (const input of bad) {
      const res = await post({ webhook_endpoint: input });
      assert.equal(res.status, 422, JSON.stringify(input));
      const body = (await res.json()) as { message: string; errors: { path: string }[] };
      assert.ok(body.message && body.errors.length, JSON.stringify(body));
    }
  });

  it('requires https for a production application', async () => {
    const created = await post({ application: { name: 'Live', environment: 'production', region: 'eu' } }, '/api/v1/applications');
    const id = ((await created.json()) as { application: { id: string } }).application.id;
    const res = await post(
      { webhook_endpoint: { url: 'http://example.com/hook', events: ['*'] } },
      `/api/v1/applications/${id}/webhook_endpoints`,
    );
    assert.equal(res.status, 422);
    assert.equal(((await res.json()) as { code: string }).code, 'insecure_webhook_url');
    const ok = await post(
      { webhook_endpoint: { url: 'https://example.com/hook', events: ['*'] } },
      `/api/v1/applications/${id}/webhook_endpoints`,
    );
    assert.equal(ok.status, 201);
    const patch = await server.api(
      `/api/v1/applications/${id}/webhook_endpoints/${((await ok.json()) as { webhook_endpoint: { id: string } }).webhook_endpoint.id}`,
      {
        method: 'PATCH',
        json: { webhook_endpoint: { url: 'http://example.com/other' } },
      },
    );
    assert.equal(patch.status, 422);
  });

  it('updates url, events and description; PATCH with nothing changes nothing', async () => {
    const endpoint = await createEndpoint(server, r.url, ['consent.granted']);
    const path = `${base}/${endpoint.id}`;
    let res = await server.api(path, {
      method: 'PATCH',
      json: { webhook_endpoint: { events: ['approval.granted'], description: 'Approvals', url: `${r.url}?v=2` } },
    });
    assert.equal(res.status, 200);
    let updated = webhookEndpointEnvelope.parse(await res.json()).webhook_endpoint;
    assert.deepEqual(
      [updated.events, updated.description, updated.url, updated.secret],
      [['approval.granted'], 'Approvals', `${r.url}?v=2`, undefined],
    );
    res = await server.api(path, { method: 'PATCH', json: { webhook_endpoint: { description: null } } });
    updated = webhookEndpointEnvelope.parse(await res.json()).webhook_endpoint;
    assert.equal(updated.description, null);
    res = await server.api(path, { method: 'PATCH', json: { webhook_endpoint: {} } });
    assert.equal(res.status, 200);
    res = await server.api(path, { method: 'PATCH', json: { webhook_endpoint: { consecutive_failures: 0 } } });
    assert.equal(res.status, 422, 'the failure count is not writable');
  });

  it('deletes an endpoint; it is gone from reads and lists', async () => {
    const endpoint = await createEndpoint(server, r.url);
    const path = `${base}/${endpoint.id}`;
    assert.equal((await server.api(path, { method: 'DELETE' })).status, 204);
    assert.equal((await server.api(path)).status, 404);
    assert.equal((await server.api(path, { method: 'DELETE' })).status, 404);
    assert.equal((await server.api(`${path}/deliveries`)).status, 404);
    const list = webhookEndpointList.parse(await (await server.api(`${base}?limit=100`)).json());
    assert.ok(!list.webhook_endpoints.some((e) => e.id === endpoint.id));
  });

  it('lists deliveries newest first with their attempts, pages and filters them', async () => {
    const endpoint = await createEndpoint(server, r.url, ['consent.granted']);
    for (let i = 0; i < 3; i += 1) emit(server, 'consent.granted');
    await drain(server);
    const path = `${base}/${endpoint.id}/deliveries`;
    const all = webhookDeliveryList.parse(await (await server.api(path)).json());
    assert.equal(all.deliveries.length, 3);
    const seqs = server.context.db
      .prepare('SELECT id FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY seq DESC')
      .pluck()
      .all(endpoint.id);
    assert.deepEqual(
      all.deliveries.map((d) => d.id),
      seqs,
      'newest first',
    );
    assert.ok(all.deliveries.every((d) => d.status === 'acknowledged' && d.attempts.length === 1 && d.webhook_endpoint_id === endpoint.id));

    const first = webhookDeliveryList.parse(await (await server.api(`${path}?limit=2`)).json());
    const second = webhookDeliveryList.parse(await (await server.api(`${path}?limit=2&cursor=${first.next_cursor}`)).json());
    assert.deepEqual(
      [...first.deliveries, ...second.deliveries].map((d) => d.id),
      seqs,
    );
    assert.equal(second.next_cursor, null);

    const byEvent = webhookDeliveryList.parse(await (await server.api(`${path}?event_id=${all.deliveries[1]!.event_id}`)).json());
    assert.deepEqual(
      byEvent.deliveries.map((d) => d.id),
      [all.deliveries[1]!.id],
    );
    const failed = webhookDeliveryList.parse(await (await server.api(`${path}?status=failed`)).json());
    assert.equal(failed.deliveries.length, 0);

    const one = await server.api(`${path}/${all.deliveries[0]!.id}`);
    assert.equal(one.status, 200);
    assert.deepEqual(((await one.json()) as { delivery: WebhookDelivery }).delivery, all.deliveries[0]);
    assert.equal((await server.api(`${path}/whd_nope`)).status, 404);
    assert.equal((await server.api(`${path}?status=sideways`)).status, 400);
  });

  it("lets a read token read but not change, and hides other accounts' applications", async () => {
    const endpoint = await createEndpoint(server, r.url);
    const asReader = { authorization: `Bearer ${readToken}` };
    assert.equal((await server.api(base, { headers: asReader })).status, 200);
    assert.equal((await server.api(`${base}/${endpoint.id}/deliveries`, { headers: asReader })).status, 200);
    for (const [method, path] of [
      ['POST', base],
      ['PATCH', `${base}/${endpoint.id}`],
      ['DELETE', `${base}/${endpoint.id}`],
      ['POST', `${base}/${endpoint.id}/rotate_secret`],
      ['POST', `${base}/${endpoint.id}/test`],
    ] as const) {
      const res = await server.api(path, {
        method,
        headers: asReader,
        ...(method === 'DELETE' ? {} : { json: { webhook_endpoint: { url: r.url, events: ['*'] } } }),
      });
      assert.equal(res.status, 403, `${method} ${path}`);
    }
    const pk = { 'x-publishable-key': server.sandbox.publishable_key };
    assert.equal((await fetch(server.url + base, { headers: pk })).status, 403);
    assert.equal((await server.api('/api/v1/applications/tp_dev_doesnotexist00/webhook_endpoints')).status, 404);
    assert.equal((await server.api(`${base}/we_doesnotexist0000`)).status, 404);
  });
});
