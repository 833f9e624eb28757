// Webhook endpoints through the client against a running reference server, delivering to a loopback receiver whose
// requests verifyWebhook checks with the secret the client was shown once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcHttpError, SvcNotFoundError, SvcValidationError, type SvcError } from '../lib/errors.js';
import { json, loopback, startTestServer, type Loopback, type Received, type TestServer } from '../testing/servers.test.helper.js';
import { createRecordFlow, freshEmail, grantAll } from '../testing/records.test.helper.js';
import { SvcWebhookSignatureError, verifyWebhook } from '../verify/webhook.js';
import type { WebhookDelivery } from '@svc/schemas';
import type { IssuedWebhookEndpoint } from './webhook-endpoints.js';
import { rejection } from '../testing/rejection.test.helper.js';

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('webhookEndpoints against the reference server', () => {
  let server: TestServer;
  let svc: SvcClient;
  let receiver: Loopback;
  let app: string;
  let endpoint: IssuedWebhookEndpoint;
  let firstSecret: string;

  const lastOfType = (type: string): Received | undefined => receiver.requests.findLast((r) => r.headers['x-svc-event-type'] === type);

  before(async () => {
    server = await startTestServer();
    svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    app = server.sandbox.application_id;
    receiver = await loopback((_req, res) => json(res, 200, { received: true }));
  });
  after(async () => {
    await server.dispose();
    await receiver.close();
  });

  it('creates an endpoint and shows its secret in that answer only', async () => {
    endpoint = await svc.webhookEndpoints.create(app, { url: `${receiver.url}/hooks/svc`, events: ['*'], description: 'CRM sync' });
    firstSecret = endpoint.secret;
    assert.match(endpoint.secret, /^whsec_/);
    assert.equal(endpoint.application_id, app);
    assert.equal(endpoint.status, 'enabled');
    assert.equal(endpoint.consecutive_failures, 0);
    assert.deepEqual(endpoint.events, ['*']);

    const read = await svc.webhookEndpoints.get(app, endpoint.id);
    assert.equal('secret' in read, false);
    const { secret: _secret, ...withoutSecret } = endpoint;
    assert.deepEqual(read, withoutSecret);
  });

  it('sends a test delivery that verifyWebhook accepts with the secret shown once', async () => {
    const delivery = await svc.webhookEndpoints.test(app, endpoint.id);
    assert.equal(delivery.test, true);
    assert.equal(delivery.event_type, 'webhook.test');
    assert.equal(delivery.status, 'acknowledged');
    assert.equal(delivery.attempts[0]?.status_code, 200);

    const received = lastOfType('webhook.test')!;
    assert.equal(received.method, 'POST');
    assert.equal(received.url, '/hooks/svc');
    assert.equal(received.headers['x-svc-event-id'], delivery.event_id);
    const event = await verifyWebhook(received.body, received.headers, endpoint.secret);
    assert.equal(event.type, 'webhook.test');
    assert.equal(event.id, delivery.event_id);
    if (event.type === 'webhook.test') assert.equal(event.data.webhook_endpoint_id, endpoint.id);
    await rejection(verifyWebhook(received.body, received.headers, 'whsec_not-the-secret'), SvcWebhookSignatureError);
    await rejection(
      verifyWebhook(received.body.replace('webhook.test', 'webhook.tesT'), received.headers, endpoint.secret),
      SvcWebhookSignatureError,
    );
  });

  it('delivers a real consent.granted, signed, when a record is made', async () => {
    const flowId = await createRecordFlow(svc);
    const record = await svc.consentRecords.create({
      flow_id: flowId,
      subject: { email: freshEmail('hook'), external_id: 'crm-7' },
      decisions: grantAll,
    });
    const received = await waitFor('consent.granted at the receiver', () => lastOfType('consent.granted'));
    const event = await verifyWebhook(received.body, received.headers, endpoint.secret);
    assert.equal(event.type, 'consent.granted');
    if (event.type === 'consent.granted') {
      assert.equal(event.data.record_id, record.id);
      assert.equal(event.data.channel, 'controller_attested');
      assert.equal(event.data.subject_ref?.external_id, 'crm-7');
    }
    const [delivery] = await waitFor('the delivery acknowledged', async () => {
      const { items } = await svc.webhookEndpoints.deliveries(app, endpoint.id, { event_id: event.id }).page();
      return items[0]?.status === 'acknowledged' ? items : undefined;
    });
    assert.equal(delivery!.test, false);
    assert.equal(delivery!.attempt_count, 1);
    assert.deepEqual(await svc.webhookEndpoints.getDelivery(app, endpoint.id, delivery!.id), delivery);
  });

  it('rotates the secret: both sign for a day, and the new one is shown once', async () => {
    const rotated = await svc.webhookEndpoints.rotateSecret(app, endpoint.id);
    assert.equal(rotated.id, endpoint.id);
    assert.match(rotated.secret, /^whsec_/);
    assert.notEqual(rotated.secret, firstSecret);
    assert.ok(rotated.secret_rotated_at && rotated.previous_secret_expires_at);
    assert.equal('secret' in (await svc.webhookEndpoints.get(app, endpoint.id)), false);

    await svc.webhookEndpoints.test(app, endpoint.id);
    const received = lastOfType('webhook.test')!;
    assert.equal(String(received.headers['x-svc-signature']).match(/v1=/g)?.length, 2, 'one signature per valid secret');
    await verifyWebhook(received.body, received.headers, rotated.secret);
    await verifyWebhook(received.body, received.headers, firstSecret);
    endpoint = rotated;
  });

  it('lists deliveries newest first over several pages, filtered by status', async () => {
    const ids: string[] = [];
    let pages = 0;
    for await (const page of svc.webhookEndpoints.deliveries(app, endpoint.id, { limit: 1 }).pages()) {
      pages++;
      ids.push(...page.items.map((d) => d.id));
    }
    assert.ok(pages >= 3, `walked ${pages} pages`);
    assert.equal(new Set(ids).size, ids.length);
    const all: WebhookDelivery[] = [];
    for await (const delivery of svc.webhookEndpoints.deliveries(app, endpoint.id)) all.push(delivery);
    assert.deepEqual(
      all.map((d) => d.id),
      ids,
    );
    assert.ok(
      all.every((d, i) => i === 0 || d.created_at <= all[i - 1]!.created_at),
      'newest first',
    );
    const acknowledged = [];
    for await (const delivery of svc.webhookEndpoints.deliveries(app, endpoint.id, { status: 'acknowledged' }))
      acknowledged.push(delivery.id);
    assert.deepEqual(acknowledged, ids);
    assert.deepEqual((await svc.webhookEndpoints.deliveries(app, endpoint.id, { status: 'failed' }).page()).items, []);
  });

  it('redelivers a finished delivery: pending again, then sent with the same event id; a test delivery is refused', async () => {
    const { items } = await svc.webhookEndpoints.deliveries(app, endpoint.id, { status: 'acknowledged' }).page();
    const done = items.find((d) => !d.test)!;
    const queued = await svc.webhookEndpoints.redeliver(app, endpoint.id, done.id);
    assert.deepEqual([queued.id, queued.status, queued.event_id, queued.attempt_count], [done.id, 'pending', done.event_id, 0]);
    await waitFor('the redelivery acknowledged', async () => {
      const again = await svc.webhookEndpoints.getDelivery(app, endpoint.id, done.id);
      return again.status === 'acknowledged' ? again : undefined;
    });
    const sent = receiver.requests.filter((r) => r.headers['x-svc-event-id'] === done.event_id);
    assert.equal(sent.length, 2, 'the event went out again');
    await verifyWebhook(sent[1]!.body, sent[1]!.headers, endpoint.secret);
    const test = items.find((d) => d.test)!;
    const refused = await rejection<SvcError>(svc.webhookEndpoints.redeliver(app, endpoint.id, test.id), SvcHttpError);
    assert.deepEqual([refused.status, refused.reason], [409, 'test_delivery']);
  });

  it('lists, updates and deletes endpoints, one page each', async () => {
    const second = await svc.webhookEndpoints.create(app, {
      url: `${receiver.url}/other`,
      events: ['consent.revoked', 'consent.purpose_revoked'],
    });
    const listed: string[] = [];
    for await (const e of svc.webhookEndpoints.list(app, { limit: 1 })) {
      assert.equal('secret' in e, false);
      listed.push(e.id);
    }
    assert.deepEqual(listed.sort(), [endpoint.id, second.id].sort());

    const disabled = await svc.webhookEndpoints.update(app, second.id, { status: 'disabled', description: 'paused' });
    assert.equal(disabled.status, 'disabled');
    assert.equal(disabled.disabled_reason, 'manual');
    assert.equal(disabled.description, 'paused');
    assert.equal((await svc.webhookEndpoints.update(app, second.id, { status: 'enabled' })).status, 'enabled');

    await svc.webhookEndpoints.delete(app, second.id);
    await rejection<SvcError>(svc.webhookEndpoints.get(app, second.id), SvcNotFoundError);
    await rejection<SvcError>(svc.webhookEndpoints.delete(app, second.id), SvcNotFoundError);
  });

  it('refuses a URL that is not http(s) as SvcValidationError, and an unknown application as SvcNotFoundError', async () => {
    const err = await rejection(svc.webhookEndpoints.create(app, { url: 'ftp://hooks.example/svc', events: ['*'] }), SvcValidationError);
    assert.equal(err.errors[0]?.path, 'webhook_endpoint.url');
    await rejection<SvcError>(svc.webhookEndpoints.list('tp_dev_nothing').page(), SvcNotFoundError);
    await rejection<SvcError>(svc.webhookEndpoints.getDelivery(app, endpoint.id, 'whd_nothing'), SvcNotFoundError);
  });
});
