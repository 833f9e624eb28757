// Safe outbound requests: a production application's webhook endpoint may not point at loopback, private,
// link-local or metadata addresses, neither when it is registered nor when a delivery connects (a name that
// resolved to a public address at registration and to loopback since: DNS rebinding). Nothing of such a service's
// answer is ever stored. A development application still delivers to loopback.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { WebhookDelivery, WebhookEndpoint } from '@svc/schemas';
import { fakeDns, type FakeDns } from '../../infra/outbound/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { webhookService } from './service.js';
import { createEndpoint, drain, emit, grantedData, listDeliveries, startReceiver, type Receiver } from './test-support.js';
import { keptExcerpt } from './transport.js';

/** An address no test reaches, outside every special range (it is example.com's). */
const PUBLIC = '93.184.215.14';

/** The URLs refused for a production application, each with the address the refusal names. */
const REFUSED: [url: string, address: RegExp][] = [
  ['https://127.0.0.1/hook', /127\.0\.0\.1/],
  ['https://10.0.0.1/hook', /10\.0\.0\.1/],
  ['https://169.254.169.254/latest/meta-data/', /169\.254\.169\.254/],
  ['https://localhost/hook', /127\.0\.0\.1|::1/],
  ['https://loopback.example/hook', /127\.0\.0\.1/],
  ['https://internal.example:8443/hook', /192\.168\.1\.20/],
  ['https://[::1]/hook', /::1/],
  ['https://[::ffff:127.0.0.1]/hook', /::ffff:7f00:1/],
  ['https://[fd00:ec2::254]/hook', /fd00:ec2::254/],
  ['https://[fe80::1]/hook', /fe80::1/],
  ['https://100.100.100.200/hook', /100\.100\.100\.200/],
  ['https://0.0.0.0/hook', /0\.0\.0\.0/],
  ['https://2130706433/hook', /127\.0\.0\.1/],
];

describe('webhook endpoints of a production application (safe outbound requests)', () => {
  let server: TestServer;
  let receiver: Receiver;
  let dns: FakeDns;
  let appId: string;
  let base: string;
  before(async () => {
    server = await startTestServer();
    receiver = await startReceiver(200);
    const created = await server.api('/api/v1/applications', {
      method: 'POST',
      json: { application: { name: 'Live', environment: 'production', region: 'eu' } },
    });
    appId = ((await created.json()) as { application: { id: string } }).application.id;
    base = `/api/v1/applications/${appId}/webhook_endpoints`;
    dns = fakeDns({ 'loopback.example': '127.0.0.1', 'internal.example': '192.168.1.20' });
    webhookService(server.context).worker.settings.lookup = dns.lookup;
  });
  after(async () => {
    await server.dispose();
    await receiver.close();
  });
  beforeEach(() => {
    dns.set('rebind.example', PUBLIC);
  });

  const create = (url: string) => server.api(base, { method: 'POST', json: { webhook_endpoint: { url, events: ['*'] } } });
  const port = () => new URL(receiver.url).port;
  const attemptsOf = async (endpointId: string) => (await listDeliveries(server, endpointId, appId)).flatMap((d) => d.attempts);
  const sendTest = async (endpointId: string): Promise<WebhookDelivery> => {
    const res = await server.api(`${base}/${endpointId}/test`, { method: 'POST' });
    assert.equal(res.status, 201);
    return ((await res.json()) as { delivery: WebhookDelivery }).delivery;
  };
  const register = async (url: string): Promise<WebhookEndpoint> => {
    const res = await create(url);
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { webhook_endpoint: WebhookEndpoint }).webhook_endpoint;
  };

  it('refuses at registration a URL whose literal address or resolved name is loopback, private, link-local or metadata (422)', async () => {
    for (const [url, address] of REFUSED) {
      const res = await create(url);
      assert.equal(res.status, 422, url);
      const body = (await res.json()) as { code: string; message: string; errors: { path: string; code: string; message: string }[] };
      assert.equal(body.code, 'non_public_webhook_url', url);
      assert.match(body.message, address, url);
      assert.match(body.message, /public/, url);
      assert.equal(body.errors.length, 1, url);
      assert.equal(body.errors[0]!.path, 'webhook_endpoint.url');
      assert.equal(body.errors[0]!.code, 'non_public_webhook_url');
      assert.match(body.errors[0]!.message, address, url);
    }
    const list = await server.api(base);
    assert.deepEqual(((await list.json()) as { webhook_endpoints: unknown[] }).webhook_endpoints, []);
  });

  it('refuses the same addresses when an endpoint is changed to them (PATCH)', async () => {
    const endpoint = await register('https://rebind.example/hook');
    for (const [url] of REFUSED) {
      const res = await server.api(`${base}/${endpoint.id}`, { method: 'PATCH', json: { webhook_endpoint: { url } } });
      assert.equal(res.status, 422, url);
      assert.equal(((await res.json()) as { code: string }).code, 'non_public_webhook_url');
    }
    const read = await server.api(`${base}/${endpoint.id}`);
    assert.equal(((await read.json()) as { webhook_endpoint: WebhookEndpoint }).webhook_endpoint.url, 'https://rebind.example/hook');
    await server.api(`${base}/${endpoint.id}`, { method: 'DELETE' });
  });

  it('refuses a delivery whose name resolved to a public address at registration and to loopback since (DNS rebinding); nothing is stored', async () => {
    const endpoint = await register(`https://rebind.example:${port()}/hook`);
    dns.set('rebind.example', '127.0.0.1');
    const connectionsBefore = receiver.connections();

    emit(server, 'consent.granted', grantedData(), appId);
    await drain(server);
    const test = await sendTest(endpoint.id);

    assert.equal(receiver.connections(), connectionsBefore, 'no connection reached the loopback receiver');
    assert.equal(receiver.received.length, 0);
    const delivery = (await listDeliveries(server, endpoint.id, appId)).find((d) => !d.test);
    assert.equal(delivery!.status, 'pending', 'retried on the schedule, like a network error');
    for (const attempt of [...delivery!.attempts, ...test.attempts]) {
      assert.equal(attempt.outcome, 'failed');
      assert.equal(attempt.error, 'refused_address');
      assert.equal(attempt.status_code, null);
      assert.equal(attempt.response_body, null);
      assert.match(attempt.error_message ?? '', /rebind\.example/);
      assert.match(attempt.error_message ?? '', /127\.0\.0\.1/);
      assert.doesNotMatch(attempt.error_message ?? '', /answered/);
    }
    await server.api(`${base}/${endpoint.id}`, { method: 'DELETE' });
  });

  it('refuses deliveries to 127.0.0.1, 10.0.0.1 and 169.254.169.254 stored before registration checked them', async () => {
    const endpoint = await register('https://rebind.example/hook');
    const connectionsBefore = receiver.connections();
    for (const host of ['127.0.0.1', '10.0.0.1', '169.254.169.254', '[::ffff:127.0.0.1]']) {
      // An endpoint registered by an earlier release, before registration refused such addresses.
      server.context.db.prepare('UPDATE webhook_endpoints SET url = ? WHERE id = ?').run(`https://${host}:${port()}/hook`, endpoint.id);
      const test = await sendTest(endpoint.id);
      const [attempt] = test.attempts;
      assert.deepEqual(
        [attempt!.outcome, attempt!.error, attempt!.status_code, attempt!.response_body],
        ['failed', 'refused_address', null, null],
        host,
      );
    }
    assert.equal(receiver.connections(), connectionsBefore);
    assert.equal((await attemptsOf(endpoint.id)).length, 4);
    await server.api(`${base}/${endpoint.id}`, { method: 'DELETE' });
  });

  it('accepts a name that resolves to a public address (the check is on the address, not the name)', async () => {
    const endpoint = await register('https://rebind.example:9/hook');
    assert.ok(dns.asked.includes('rebind.example'), 'the name was resolved at registration');
    assert.equal(endpoint.status, 'enabled');
    await server.api(`${base}/${endpoint.id}`, { method: 'DELETE' });
  });
});

describe('webhook endpoints of a development application', () => {
  let server: TestServer;
  let receiver: Receiver;
  before(async () => {
    server = await startTestServer();
    receiver = await startReceiver(200);
    webhookService(server.context).worker.settings.lookup = fakeDns({ 'receiver.example': '127.0.0.1' }).lookup;
  });
  after(async () => {
    await server.dispose();
    await receiver.close();
  });

  it('still delivers to loopback; the answer of a non-public address keeps its status and timing, never its body', async () => {
    const endpoint = await createEndpoint(server, `http://receiver.example:${new URL(receiver.url).port}/hook`);
    emit(server, 'consent.granted');
    await drain(server);
    assert.equal(receiver.received.length, 1);
    const [delivery] = await listDeliveries(server, endpoint.id);
    const [attempt] = delivery!.attempts;
    assert.deepEqual(
      [delivery!.status, attempt!.outcome, attempt!.status_code, attempt!.error],
      ['acknowledged', 'acknowledged', 200, null],
    );
    assert.equal(typeof attempt!.duration_ms, 'number');
    assert.equal(attempt!.response_body, null);
  });

  it('registers loopback and private URLs as before', async () => {
    for (const url of [receiver.url, 'http://10.0.0.1/hook', 'http://localhost:9/hook']) {
      await createEndpoint(server, url);
    }
  });
});

describe('the body excerpt of a delivery record', () => {
  it('keeps a body excerpt only for an answer from a public address', () => {
    const body = Buffer.from('x'.repeat(3000));
    assert.equal(keptExcerpt(body, '93.184.215.14')?.length, 1024);
    assert.equal(keptExcerpt(Buffer.from('é'.repeat(2000)), '8.8.8.8'), 'é'.repeat(1024));
    for (const address of ['127.0.0.1', '::1', '10.0.0.1', '::ffff:93.184.215.14', null]) {
      assert.equal(keptExcerpt(body, address), null, String(address));
    }
  });
});
