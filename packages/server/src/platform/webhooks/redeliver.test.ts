// `POST .../webhook_endpoints/{endpoint_id}/deliveries/{delivery_id}/redeliver`: a finished delivery goes out again
// through the outbox and the worker (same event id and body, signed like any), and nobody but the application's own
// writers can make it so.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyWebhook } from '@svc/client';
import { webhookDeliveryEnvelope, type WebhookDelivery } from '@svc/schemas';
import { startTestServer, type TestServer } from '../../testing.js';
import { otherOrganisation } from '../../people/test-support.js';
import { personAccessToken } from '../oauth/test-support.js';
import { closedPortUrl, createEndpoint, drain, emit, listDeliveries, startReceiver, type Receiver } from './test-support.js';

describe('redelivering a webhook delivery', () => {
  let server: TestServer;
  let r: Receiver;
  let base: string;
  before(async () => {
    server = await startTestServer();
    r = await startReceiver(400);
    base = `/api/v1/applications/${server.sandbox.application_id}/webhook_endpoints`;
  });
  after(async () => {
    await server.dispose();
    await r.close();
  });

  const redeliverPath = (endpointId: string, deliveryId: string) => `${base}/${endpointId}/deliveries/${deliveryId}/redeliver`;
  const redeliver = (endpointId: string, deliveryId: string, headers: Record<string, string> = {}) =>
    server.api(redeliverPath(endpointId, deliveryId), { method: 'POST', headers });

  /** An endpoint at `r` and one delivery to it that failed (the receiver answered 400). */
  async function failedDelivery(): Promise<{ endpoint: Awaited<ReturnType<typeof createEndpoint>>; delivery: WebhookDelivery }> {
    r.behave(400);
    const endpoint = await createEndpoint(server, r.url, ['consent.granted']);
    emit(server, 'consent.granted');
    await drain(server);
    const [delivery] = await listDeliveries(server, endpoint.id);
    assert.equal(delivery?.status, 'failed');
    return { endpoint, delivery: delivery! };
  }

  it('queues the delivery again (202, pending, due now, counted from 0); the worker sends it signed, with the same event', async () => {
    const { endpoint, delivery } = await failedDelivery();
    r.received.length = 0;
    r.behave(200);
    const res = await redeliver(endpoint.id, delivery.id);
    assert.equal(res.status, 202);
    const queued = webhookDeliveryEnvelope.parse(await res.json()).delivery;
    assert.deepEqual(
      [queued.id, queued.status, queued.failure_reason, queued.completed_at, queued.event_id, queued.attempt_count, queued.test],
      [delivery.id, 'pending', null, null, delivery.event_id, 0, false],
    );
    assert.ok(Date.parse(queued.next_attempt_at!) <= server.context.clock.now(), 'due now');
    assert.deepEqual(queued.attempts, delivery.attempts, 'the earlier attempts are kept');

    await drain(server);
    assert.equal(r.received.length, 1);
    const event = await verifyWebhook(r.received[0]!.body, r.received[0]!.headers, endpoint.secret, { now: server.context.clock.now() });
    assert.equal(event.id, delivery.event_id);
    const [after] = await listDeliveries(server, endpoint.id);
    assert.deepEqual(
      [after!.id, after!.status, after!.attempt_count, after!.attempts.map((a) => a.outcome)],
      [delivery.id, 'acknowledged', 1, ['rejected', 'acknowledged']],
    );
  });

  it('refuses (409) while the delivery is pending, and while the endpoint is disabled', async () => {
    const { endpoint, delivery } = await failedDelivery();
    const first = await redeliver(endpoint.id, delivery.id);
    assert.equal(first.status, 202);
    const again = await redeliver(endpoint.id, delivery.id);
    assert.equal(again.status, 409);
    const body = (await again.json()) as { message: string; code: string };
    assert.equal(body.code, 'delivery_pending');
    assert.ok(body.message);

    await drain(server); // the receiver still answers 400: the redelivery fails too
    assert.equal((await listDeliveries(server, endpoint.id))[0]!.status, 'failed');
    const disabled = await server.api(`${base}/${endpoint.id}`, { method: 'PATCH', json: { webhook_endpoint: { status: 'disabled' } } });
    assert.equal(disabled.status, 200);
    const refused = await redeliver(endpoint.id, delivery.id);
    assert.equal(refused.status, 409);
    assert.equal(((await refused.json()) as { code: string }).code, 'webhook_endpoint_disabled');
    assert.equal((await redeliver(endpoint.id, 'whd_doesnotexist0000')).status, 404, 'no such delivery, even when disabled');
    assert.equal(await pendingCount(endpoint.id), 0, 'nothing was queued by a refusal');
  });

  it('refuses (409) to redeliver a test delivery: a new test is sent instead', async () => {
    const endpoint = await createEndpoint(server, await closedPortUrl());
    const test = await server.api(`${base}/${endpoint.id}/test`, { method: 'POST' });
    const delivery = webhookDeliveryEnvelope.parse(await test.json()).delivery;
    assert.equal(delivery.status, 'failed');
    const res = await redeliver(endpoint.id, delivery.id);
    assert.equal(res.status, 409);
    assert.equal(((await res.json()) as { code: string }).code, 'test_delivery');
  });

  it("answers 404 for another endpoint's, application's or account's delivery, and for none", async () => {
    const { endpoint, delivery } = await failedDelivery();
    const sibling = await createEndpoint(server, r.url, ['consent.granted']);
    assert.equal((await redeliver(sibling.id, delivery.id)).status, 404, "another endpoint's delivery");
    assert.equal((await redeliver(endpoint.id, 'whd_doesnotexist0000')).status, 404);
    assert.equal((await redeliver('we_doesnotexist0000', delivery.id)).status, 404);

    const created = await server.api('/api/v1/applications', {
      method: 'POST',
      json: { application: { name: 'Second', environment: 'production', region: 'eu' } },
    });
    const secondApp = ((await created.json()) as { application: { id: string } }).application.id;
    const wrongApp = `/api/v1/applications/${secondApp}/webhook_endpoints/${endpoint.id}/deliveries/${delivery.id}/redeliver`;
    assert.equal((await server.api(wrongApp, { method: 'POST' })).status, 404, 'the endpoint under another application');

    const other = otherOrganisation(server);
    const asOther = await redeliver(endpoint.id, delivery.id, { authorization: `Bearer ${other.token}` });
    assert.equal(asOther.status, 404, "another account's admin token");
    const theirs = `/api/v1/applications/${other.applicationId}/webhook_endpoints/${endpoint.id}/deliveries/${delivery.id}/redeliver`;
    assert.equal((await server.api(theirs, { method: 'POST', headers: { authorization: `Bearer ${other.token}` } })).status, 404);
    assert.equal(await pendingCount(endpoint.id), 0, 'nothing was queued');
  });

  it('refuses a read token, a publishable key, a person’s token and no credential', async () => {
    const { endpoint, delivery } = await failedDelivery();
    const made = await server.api('/api/v1/api_tokens', {
      method: 'POST',
      json: { api_token: { name: 'viewer', permissions: ['read', 'audit:verify'] } },
    });
    const reader = ((await made.json()) as { api_token: { token: string } }).api_token.token;
    const asReader = await redeliver(endpoint.id, delivery.id, { authorization: `Bearer ${reader}` });
    assert.equal(asReader.status, 403);
    assert.equal(((await asReader.json()) as { code: string }).code, 'insufficient_permissions');

    const path = server.url + redeliverPath(endpoint.id, delivery.id);
    const pk = await fetch(path, { method: 'POST', headers: { 'x-publishable-key': server.sandbox.publishable_key } });
    assert.ok([401, 403].includes(pk.status), `a publishable key: ${pk.status}`);
    const person = await personAccessToken(server, 'mallory@example.com', 'openid email');
    const asPerson = await fetch(path, { method: 'POST', headers: { authorization: `Bearer ${person}` } });
    assert.ok([401, 403].includes(asPerson.status), `a person's token: ${asPerson.status}`);
    assert.equal((await fetch(path, { method: 'POST' })).status, 401);
    assert.equal(await pendingCount(endpoint.id), 0, 'nothing was queued');
  });

  const pendingCount = async (endpointId: string) =>
    (await listDeliveries(server, endpointId)).filter((d) => d.status === 'pending').length;
});
