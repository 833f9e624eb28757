// Deliveries against real HTTP receivers on loopback: acknowledgement, permanent failure on 4xx, the retry
// schedule on the test clock, timeouts, network errors, auto-disable, test deliveries and secret rotation.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { ActivityEvent, AuditEvent, WebhookDelivery } from '@svc/schemas';
import { verifyWebhook } from '@svc/client';
import { startTestCells, startTestServer, type TestServer } from '../../testing.js';
import { webhookService } from './service.js';
import {
  advanceAndDrain,
  closedPortUrl,
  createEndpoint,
  drain,
  emit,
  grantedData,
  listDeliveries,
  readEndpoint,
  startReceiver,
  type Receiver,
  waitFor,
} from './test-support.js';

let server: TestServer;
let receivers: Receiver[] = [];
const receiver = async (...args: Parameters<typeof startReceiver>) => {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
};
const nowMs = () => server.context.clock.now();
const eventIds = (r: Receiver) => r.received.map((x) => x.headers['x-svc-event-id']);

async function activity(type: string): Promise<ActivityEvent[]> {
  const res = await server.api(`/api/v1/applications/${server.sandbox.application_id}/activity?type=${type}&limit=100`);
  return ((await res.json()) as { activity_events: ActivityEvent[] }).activity_events;
}

/** The audit trail's webhook.delivery_failed entries of the sandbox application. */
async function auditTrail(): Promise<AuditEvent[]> {
  const res = await server.api(`/api/v1/audit/events?application_id=${server.sandbox.application_id}&limit=100`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { audit_events: AuditEvent[] }).audit_events.filter((e) => e.type === 'webhook.delivery_failed');
}

beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.dispose();
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});

describe('webhook delivery', () => {
  it('POSTs the event as JSON with the four headers, signed with the secret, and 200 acknowledges it', async () => {
    const r = await receiver(200);
    const endpoint = await createEndpoint(server, r.url, ['consent.granted']);
    emit(server, 'consent.granted');
    emit(server, 'approval.granted', { decision_id: 'dec_a', escalation_id: 'esc_1', outcome: 'approved' }); // not subscribed
    await drain(server);

    assert.equal(r.received.length, 1);
    const [request] = r.received;
    assert.match(request!.headers['content-type'] ?? '', /^application\/json/);
    assert.match(String(request!.headers['x-svc-event-id']), /^evt_[A-Za-z0-9]{16}$/);
    assert.equal(request!.headers['x-svc-event-type'], 'consent.granted');
    const t = String(request!.headers['x-svc-timestamp']);
    assert.match(String(request!.headers['x-svc-signature']), new RegExp(`^t=${t},v1=[0-9a-f]{64}$`));
    assert.ok(Math.abs(Number(t) - Math.floor(nowMs() / 1000)) <= 2);

    const event = await verifyWebhook(request!.body, request!.headers, endpoint.secret, { now: nowMs() });
    assert.equal(event.type, 'consent.granted');
    assert.equal(event.id, request!.headers['x-svc-event-id']);
    assert.equal(event.application_id, server.sandbox.application_id);
    if (event.type !== 'consent.granted') return;
    assert.equal(event.data.consent_token, 'consent-token-value');
    assert.equal(event.data.flow_id, 'flw_dev_test');
    assert.deepEqual(event.data.subject_ref, { email: 'ada@example.com', external_id: null });
    assert.deepEqual(event.data.purposes, [{ key: 'newsletter', outcome: 'granted', basis: 'consent' }]);
    assert.equal(event.data.record_id, null, 'fields the emitter left out are null');
    assert.equal(event.data.decided_at, event.occurred_at);

    const [delivery] = await listDeliveries(server, endpoint.id);
    assert.equal(delivery!.status, 'acknowledged');
    assert.equal(delivery!.event_id, event.id);
    assert.equal(delivery!.attempt_count, 1);
    assert.equal(delivery!.next_attempt_at, null);
    assert.deepEqual(
      delivery!.attempts.map((a) => [a.number, a.outcome, a.status_code, a.error]),
      [[1, 'acknowledged', 200, null]],
    );
    // A loopback receiver is not at a public address: its status and timing are kept, never its body (transport.ts).
    assert.equal(delivery!.attempts[0]!.response_body, null);
    assert.equal(typeof delivery!.attempts[0]!.duration_ms, 'number');
  });

  it('sends each event to every subscribed endpoint of its application and no other', async () => {
    const all = await receiver(200);
    const approvals = await receiver(200);
    const other = await receiver(200);
    await createEndpoint(server, all.url, ['*']);
    await createEndpoint(server, approvals.url, ['approval.granted', 'approval.denied']);
    const created = await server.api('/api/v1/applications', {
      method: 'POST',
      json: { application: { name: 'Other', environment: 'development' } },
    });
    const otherApp = ((await created.json()) as { application: { id: string } }).application.id;
    await createEndpoint(server, other.url, ['*'], otherApp);

    emit(server, 'consent.granted');
    emit(server, 'approval.denied', { decision_id: 'dec_b', escalation_id: 'esc_2', outcome: 'denied' });
    emit(server, 'consent.revoked', {
      record_id: 'rec_1',
      flow_id: 'flw_dev_test',
      withdrawn: [{ key: 'newsletter', outcome: 'revoked' }],
      purposes: [{ key: 'newsletter', outcome: 'revoked', basis: 'consent' }],
    });
    emit(server, 'webhook.delivery_failed', {}); // not a deliverable type
    await drain(server);

    assert.deepEqual(all.received.map((x) => x.headers['x-svc-event-type']).sort(), [
      'approval.denied',
      'consent.granted',
      'consent.revoked',
    ]);
    assert.deepEqual(
      approvals.received.map((x) => x.headers['x-svc-event-type']),
      ['approval.denied'],
    );
    assert.equal(other.received.length, 0);
    assert.equal(
      all.received.find((x) => x.headers['x-svc-event-type'] === 'approval.denied')!.headers['x-svc-event-id'],
      approvals.received[0]!.headers['x-svc-event-id'],
      'one event id per event, whatever the endpoint',
    );
  });

  it('writes nothing when the change that emitted the event rolls back', async () => {
    const r = await receiver(200);
    const endpoint = await createEndpoint(server, r.url);
    const ctx = server.context;
    assert.throws(
      () =>
        ctx.db.transaction(() => {
          ctx.events.emit(ctx, {
            type: 'consent.granted',
            application_id: server.sandbox.application_id,
            occurred_at: new Date(nowMs()).toISOString(),
            data: grantedData(),
          });
          throw new Error('the change failed');
        })(),
      /the change failed/,
    );
    await drain(server);
    assert.equal(r.received.length, 0);
    assert.deepEqual(await listDeliveries(server, endpoint.id), []);
    assert.equal(ctx.db.prepare('SELECT count(*) FROM webhook_events').pluck().get(), 0);
  });

  it('fails a delivery for good on a 4xx (410): never retried, audited, counted', async () => {
    const r = await receiver(410);
    const endpoint = await createEndpoint(server, r.url);
    emit(server, 'consent.denied', grantedData({ purposes: [{ key: 'newsletter', outcome: 'declined', basis: 'consent' }] }));
    await drain(server);
    await advanceAndDrain(server, 2 * 60 * 60);
    assert.equal(r.received.length, 1, 'never retried');

    const [delivery] = await listDeliveries(server, endpoint.id);
    assert.equal(delivery!.status, 'failed');
    assert.equal(delivery!.failure_reason, 'rejected');
    assert.deepEqual(
      delivery!.attempts.map((a) => [a.outcome, a.status_code, a.error]),
      [['rejected', 410, 'client_error']],
    );
    assert.equal((await readEndpoint(server, endpoint.id)).consecutive_failures, 1);

    const audit = await auditTrail();
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.application_id, server.sandbox.application_id);
    assert.deepEqual(audit[0]!.data, {
      delivery_id: delivery!.id,
      webhook_endpoint_id: endpoint.id,
      url_origin: new URL(r.url).origin,
      event_id: delivery!.event_id,
      event_type: 'consent.denied',
      reason: 'rejected',
      attempt_count: 1,
      last_status_code: 410,
      last_error: 'client_error',
    });
    assert.match(audit[0]!.hash, /^[0-9a-f]{64}$/, 'a link of the hash chain');
    const logged = await activity('webhook.delivery_failed');
    assert.equal(logged.length, 1);
    assert.equal(logged[0]!.data.event_id, delivery!.event_id);
  });

  it('retries a 5xx after 30 s, 2 min, 15 min and 1 h on the server clock, then fails it with an audit entry', async () => {
    const r = await receiver(500);
    const endpoint = await createEndpoint(server, r.url);
    emit(server, 'approval.countered', {
      decision_id: 'dec_c',
      escalation_id: 'esc_3',
      outcome: 'countered',
      counter_proposal: 'Half of it',
    });
    await drain(server);
    assert.equal(r.received.length, 1);

    const waits = [30, 120, 900, 3600];
    for (const [i, wait] of waits.entries()) {
      const [pending] = await listDeliveries(server, endpoint.id);
      assert.equal(pending!.status, 'pending');
      assert.equal(pending!.attempt_count, i + 1);
      const next = Date.parse(pending!.next_attempt_at!);
      const lastFinished = Date.parse(pending!.attempts.at(-1)!.finished_at!);
      assert.equal(next - lastFinished, wait * 1000, `attempt ${i + 2} waits ${wait} s`);

      await advanceAndDrain(server, wait - 1);
      assert.equal(r.received.length, i + 1, `not before ${wait} s`);
      await advanceAndDrain(server, 1);
      assert.equal(r.received.length, i + 2, `attempt ${i + 2} after ${wait} s`);
    }

    const [delivery] = await listDeliveries(server, endpoint.id);
    assert.equal(delivery!.status, 'failed');
    assert.equal(delivery!.failure_reason, 'attempts_exhausted');
    assert.equal(delivery!.attempt_count, 5);
    assert.deepEqual(
      delivery!.attempts.map((a) => [a.number, a.outcome, a.status_code, a.error]),
      [1, 2, 3, 4, 5].map((n) => [n, 'failed', 500, 'server_error']),
    );
    assert.equal(new Set(eventIds(r)).size, 1, 'the same event id on every attempt');
    assert.equal(new Set(r.received.map((x) => x.body)).size, 1, 'the same body on every attempt');
    assert.equal(new Set(r.received.map((x) => x.headers['x-svc-timestamp'])).size, 5, 'each attempt signed when sent');

    await advanceAndDrain(server, 24 * 60 * 60);
    assert.equal(r.received.length, 5, 'five attempts in all');
    const audit = await auditTrail();
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.data.reason, 'attempts_exhausted');
    assert.equal(audit[0]!.data.attempt_count, 5);
    assert.equal((await readEndpoint(server, endpoint.id)).consecutive_failures, 1);
  });

  it('retries an endpoint that hangs past the read timeout, and acknowledges once it answers', async () => {
    webhookService(server.context).worker.settings.readTimeoutMs = 300;
    const r = await receiver('hang');
    const endpoint = await createEndpoint(server, r.url);
    emit(server, 'consent.granted');
    const started = Date.now();
    await drain(server);
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 280 && elapsed < 5000, `gave up after ${elapsed} ms`);

    let [delivery] = await listDeliveries(server, endpoint.id);
    assert.equal(delivery!.status, 'pending');
    assert.deepEqual(
      delivery!.attempts.map((a) => [a.outcome, a.error, a.status_code]),
      [['failed', 'read_timeout', null]],
    );

    r.behave(204);
    await advanceAndDrain(server, 30);
    [delivery] = await listDeliveries(server, endpoint.id);
    assert.equal(delivery!.status, 'acknowledged');
    assert.deepEqual(
      delivery!.attempts.map((a) => a.outcome),
      ['failed', 'acknowledged'],
    );
    assert.deepEqual(eventIds(r), [delivery!.event_id, delivery!.event_id]);
  });

  it('does not let a hanging endpoint hold every slot: others are delivered meanwhile', async () => {
    Object.assign(webhookService(server.context).worker.settings, { concurrency: 6, endpointConcurrency: 3, readTimeoutMs: 3000 });
    const slow = await receiver('hang');
    const fast = await receiver(200);
    await createEndpoint(server, slow.url);
    for (let i = 0; i < 10; i += 1) emit(server, 'consent.granted');
    await createEndpoint(server, fast.url);
    for (let i = 0; i < 3; i += 1) emit(server, 'consent.granted');
    const started = Date.now();
    await waitFor(() => fast.received.length === 3, 2500, 'the fast endpoint');
    assert.ok(Date.now() - started < 2500);
    assert.equal(slow.received.length, 3, 'the hanging endpoint holds only its own share');
  });

  it('retries a closed port (network error)', async () => {
    const url = await closedPortUrl();
    const endpoint = await createEndpoint(server, url);
    emit(server, 'consent.granted');
    await drain(server);
    const [delivery] = await listDeliveries(server, endpoint.id);
    assert.equal(delivery!.status, 'pending');
    assert.equal(delivery!.attempts[0]!.error, 'network_error');
    assert.match(delivery!.attempts[0]!.error_message ?? '', /ECONNREFUSED/);
    assert.equal(Date.parse(delivery!.next_attempt_at!) - Date.parse(delivery!.attempts[0]!.finished_at!), 30_000);
  });

  it('retries when the connection is not up within the connect timeout', async () => {
    const { settings } = webhookService(server.context).worker;
    settings.connectTimeoutMs = 200;
    settings.lookup = () => undefined; // DNS that never answers: the connection never starts
    const endpoint = await createEndpoint(server, 'http://receiver.invalid/hook');
    emit(server, 'consent.granted');
    await drain(server);
    const [delivery] = await listDeliveries(server, endpoint.id);
    assert.equal(delivery!.status, 'pending');
    assert.equal(delivery!.attempts[0]!.error, 'connect_timeout');
    assert.ok(delivery!.attempts[0]!.duration_ms! >= 190);
  });

  it('treats a redirect as a failure to retry (redirects are not followed)', async () => {
    const r = await receiver(302);
    const endpoint = await createEndpoint(server, r.url);
    emit(server, 'consent.granted');
    await drain(server);
    const [delivery] = await listDeliveries(server, endpoint.id);
    assert.equal(delivery!.status, 'pending');
    assert.deepEqual([delivery!.attempts[0]!.outcome, delivery!.attempts[0]!.error], ['failed', 'unexpected_status']);
  });

  it('disables an endpoint after five consecutive failed deliveries; a success resets the count', async () => {
    const r = await receiver(410);
    const endpoint = await createEndpoint(server, r.url);
    for (let i = 0; i < 4; i += 1) emit(server, 'consent.granted');
    await drain(server);
    let read = await readEndpoint(server, endpoint.id);
    assert.deepEqual([read.status, read.consecutive_failures], ['enabled', 4]);

    r.behave(200);
    emit(server, 'consent.granted');
    await drain(server);
    read = await readEndpoint(server, endpoint.id);
    assert.deepEqual([read.status, read.consecutive_failures], ['enabled', 0], 'a success resets the count');

    r.behave(410);
    for (let i = 0; i < 4; i += 1) {
      emit(server, 'consent.granted');
      await drain(server);
    }
    assert.equal((await readEndpoint(server, endpoint.id)).status, 'enabled', 'four failures in a row are not enough');
    emit(server, 'consent.granted');
    await drain(server);
    read = await readEndpoint(server, endpoint.id);
    assert.deepEqual([read.status, read.consecutive_failures, read.disabled_reason], ['disabled', 5, 'consecutive_failures']);
    assert.ok(read.disabled_at);
    const disabled = await activity('webhook_endpoint.disabled');
    assert.equal(disabled.length, 1);
    assert.equal(disabled[0]!.data.webhook_endpoint_id, endpoint.id);

    const before = r.received.length;
    emit(server, 'consent.granted');
    await drain(server);
    assert.equal(r.received.length, before, 'a disabled endpoint receives nothing');
    assert.equal((await listDeliveries(server, endpoint.id)).length, 10, 'and gets no deliveries queued');

    r.behave(200);
    const res = await server.api(`/api/v1/applications/${server.sandbox.application_id}/webhook_endpoints/${endpoint.id}`, {
      method: 'PATCH',
      json: { webhook_endpoint: { status: 'enabled' } },
    });
    assert.equal(res.status, 200);
    read = ((await res.json()) as { webhook_endpoint: typeof read }).webhook_endpoint;
    assert.deepEqual([read.status, read.consecutive_failures, read.disabled_reason, read.disabled_at], ['enabled', 0, null, null]);
    emit(server, 'consent.granted');
    await drain(server);
    assert.equal(r.received.length, before + 1);
  });

  it('stops at five when eight deliveries to an endpoint that always refuses are queued together; the rest are held', async () => {
    const r = await receiver(410);
    const endpoint = await createEndpoint(server, r.url);
    for (let i = 0; i < 8; i += 1) emit(server, 'consent.granted');
    await drain(server);
    assert.equal(r.received.length, 5, 'exactly five attempts reach the receiver');
    let read = await readEndpoint(server, endpoint.id);
    assert.deepEqual([read.status, read.consecutive_failures, read.disabled_reason], ['disabled', 5, 'consecutive_failures']);
    assert.equal((await activity('webhook_endpoint.disabled')).length, 1);
    const deliveries = await listDeliveries(server, endpoint.id);
    const held = deliveries.filter((d) => d.status === 'pending');
    assert.equal(deliveries.filter((d) => d.status === 'failed').length, 5);
    assert.deepEqual(
      held.map((d) => d.attempts.length),
      [0, 0, 0],
      'the other three are held, never attempted',
    );

    await advanceAndDrain(server, 2 * 60 * 60);
    assert.equal(r.received.length, 5, 'nothing goes out while disabled, however long');
    r.behave(200);
    const path = `/api/v1/applications/${server.sandbox.application_id}/webhook_endpoints/${endpoint.id}`;
    assert.equal((await server.api(path, { method: 'PATCH', json: { webhook_endpoint: { status: 'enabled' } } })).status, 200);
    await drain(server);
    assert.equal(r.received.length, 8, 're-enabling sends the held deliveries');
    read = await readEndpoint(server, endpoint.id);
    assert.deepEqual([read.status, read.consecutive_failures], ['enabled', 0]);
  });

  it('lets a success before the fifth failure reset the count when deliveries are queued together', async () => {
    // The fifth request succeeds, every other one is refused.
    const r = await receiver((_req, index) => (index === 4 ? 200 : 410));
    const endpoint = await createEndpoint(server, r.url);
    for (let i = 0; i < 4; i += 1) emit(server, 'consent.granted');
    await drain(server);
    assert.equal((await readEndpoint(server, endpoint.id)).consecutive_failures, 4);
    for (let i = 0; i < 8; i += 1) emit(server, 'consent.granted');
    await drain(server);
    // At four failures one attempt goes out alone; its success resets the count; five more failures disable.
    assert.equal(r.received.length, 10);
    const read = await readEndpoint(server, endpoint.id);
    assert.deepEqual([read.status, read.consecutive_failures], ['disabled', 5]);
    assert.equal((await listDeliveries(server, endpoint.id)).filter((d) => d.status === 'pending').length, 2);
  });

  it('holds the limit when the deliveries are retried 5xx whose last attempts fall due together', async () => {
    const r = await receiver(503);
    const endpoint = await createEndpoint(server, r.url);
    for (let i = 0; i < 8; i += 1) emit(server, 'consent.granted');
    await drain(server);
    for (const wait of [30, 120, 900, 3600]) await advanceAndDrain(server, wait);
    const read = await readEndpoint(server, endpoint.id);
    assert.deepEqual([read.status, read.consecutive_failures], ['disabled', 5]);
    const deliveries = await listDeliveries(server, endpoint.id);
    assert.equal(deliveries.filter((d) => d.status === 'failed').length, 5);
    assert.equal(deliveries.filter((d) => d.status === 'pending').length, 3);
    assert.equal(r.received.length, 8 * 4 + 5, 'four attempts each, and the fifth of only five of them');
  });

  it('releases the lease of an attempt that failed unexpectedly, so the endpoint keeps its room', async () => {
    const r = await receiver(200);
    await createEndpoint(server, r.url);
    const worker = webhookService(server.context).worker as unknown as { complete: (...args: unknown[]) => void };
    const complete = worker.complete;
    worker.complete = () => {
      throw new Error('recording the outcome failed');
    };
    const logged = console.error;
    console.error = () => {};
    try {
      for (let i = 0; i < 5; i += 1) emit(server, 'consent.granted');
      await drain(server);
    } finally {
      worker.complete = complete;
      console.error = logged;
    }
    assert.equal(r.received.length, 5);
    assert.equal(server.context.db.prepare('SELECT count(*) FROM webhook_attempt_leases').pluck().get(), 0);
    emit(server, 'consent.granted');
    await drain(server);
    assert.equal(r.received.length, 6, 'later deliveries still go out');
  });

  it('counts a delivery that exhausts its retries once, not per attempt', async () => {
    const r = await receiver(503);
    const endpoint = await createEndpoint(server, r.url);
    emit(server, 'consent.granted');
    await drain(server);
    for (const wait of [30, 120, 900]) await advanceAndDrain(server, wait);
    assert.equal((await readEndpoint(server, endpoint.id)).consecutive_failures, 0, 'retries in progress are not failed deliveries');
    await advanceAndDrain(server, 3600);
    assert.equal((await readEndpoint(server, endpoint.id)).consecutive_failures, 1);
  });

  it('sends test deliveries at once, one attempt each, and never counts them', async () => {
    const r = await receiver(500);
    const endpoint = await createEndpoint(server, r.url, ['consent.granted']);
    const test = async () => {
      const res = await server.api(`/api/v1/applications/${server.sandbox.application_id}/webhook_endpoints/${endpoint.id}/test`, {
        method: 'POST',
      });
      assert.equal(res.status, 201);
      return ((await res.json()) as { delivery: WebhookDelivery }).delivery;
    };
    for (let i = 0; i < 6; i += 1) {
      const delivery = await test();
      assert.deepEqual(
        [delivery.test, delivery.status, delivery.event_type, delivery.attempts.length],
        [true, 'failed', 'webhook.test', 1],
      );
      assert.equal(delivery.attempts[0]!.status_code, 500);
    }
    await advanceAndDrain(server, 2 * 60 * 60);
    assert.equal(r.received.length, 6, 'test deliveries are not retried');
    let read = await readEndpoint(server, endpoint.id);
    assert.deepEqual([read.status, read.consecutive_failures], ['enabled', 0], 'failed test deliveries never count');
    assert.equal((await auditTrail()).length, 0, 'and are not audited');

    // Four real failures, then a successful test delivery: the success does not reset the count either.
    r.behave((req) => (req.headers['x-svc-event-type'] === 'webhook.test' ? 200 : 410));
    for (let i = 0; i < 4; i += 1) emit(server, 'consent.granted');
    await drain(server);
    const ok = await test();
    assert.equal(ok.status, 'acknowledged');
    const event = await verifyWebhook(r.received.at(-1)!.body, r.received.at(-1)!.headers, endpoint.secret, { now: nowMs() });
    assert.equal(event.type, 'webhook.test');
    if (event.type === 'webhook.test') assert.equal(event.data.webhook_endpoint_id, endpoint.id);
    read = await readEndpoint(server, endpoint.id);
    assert.equal(read.consecutive_failures, 4);

    // A disabled endpoint can still be tested (to check a fix before re-enabling).
    await server.api(`/api/v1/applications/${server.sandbox.application_id}/webhook_endpoints/${endpoint.id}`, {
      method: 'PATCH',
      json: { webhook_endpoint: { status: 'disabled' } },
    });
    assert.equal((await test()).status, 'acknowledged');
  });

  it('signs with both secrets during the day after a rotation, then with the new one only', async () => {
    const r = await receiver(200);
    const endpoint = await createEndpoint(server, r.url);
    const old = endpoint.secret;
    server.advance(60);
    const res = await server.api(`/api/v1/applications/${server.sandbox.application_id}/webhook_endpoints/${endpoint.id}/rotate_secret`, {
      method: 'POST',
    });
    assert.equal(res.status, 200);
    const rotated = ((await res.json()) as { webhook_endpoint: typeof endpoint }).webhook_endpoint;
    assert.match(rotated.secret, /^whsec_[A-Za-z0-9]{43}$/);
    assert.notEqual(rotated.secret, old);
    assert.equal(Date.parse(rotated.previous_secret_expires_at!) - Date.parse(rotated.secret_rotated_at!), 24 * 60 * 60 * 1000);

    emit(server, 'consent.granted');
    await drain(server);
    let request = r.received.at(-1)!;
    assert.equal(
      String(request.headers['x-svc-signature'])
        .split(',')
        .filter((p) => p.startsWith('v1=')).length,
      2,
    );
    await verifyWebhook(request.body, request.headers, old, { now: nowMs() });
    await verifyWebhook(request.body, request.headers, rotated.secret, { now: nowMs() });

    server.advance(24 * 60 * 60 - 120);
    emit(server, 'consent.granted');
    await drain(server);
    request = r.received.at(-1)!;
    await verifyWebhook(request.body, request.headers, old, { now: nowMs() }); // still inside the day

    server.advance(121);
    emit(server, 'consent.granted');
    await drain(server);
    request = r.received.at(-1)!;
    assert.equal(
      String(request.headers['x-svc-signature'])
        .split(',')
        .filter((p) => p.startsWith('v1=')).length,
      1,
    );
    await verifyWebhook(request.body, request.headers, rotated.secret, { now: nowMs() });
    await assert.rejects(verifyWebhook(request.body, request.headers, old, { now: nowMs() }), { code: 'ERR_SVC_WEBHOOK_SIGNATURE' });
    assert.equal((await readEndpoint(server, endpoint.id)).previous_secret_expires_at, null);
  });

  it('signs a retry with the secrets valid when it is sent', async () => {
    const r = await receiver(500);
    const endpoint = await createEndpoint(server, r.url);
    emit(server, 'consent.granted');
    await drain(server);
    const res = await server.api(`/api/v1/applications/${server.sandbox.application_id}/webhook_endpoints/${endpoint.id}/rotate_secret`, {
      method: 'POST',
    });
    const { secret } = ((await res.json()) as { webhook_endpoint: { secret: string } }).webhook_endpoint;
    r.behave(200);
    await advanceAndDrain(server, 30);
    const retry = r.received.at(-1)!;
    await verifyWebhook(retry.body, retry.headers, secret, { now: nowMs() });
    await verifyWebhook(retry.body, retry.headers, endpoint.secret, { now: nowMs() });
  });

  it('pauses deliveries while an endpoint is disabled and resumes them when it is enabled again', async () => {
    const r = await receiver(500);
    const endpoint = await createEndpoint(server, r.url);
    const path = `/api/v1/applications/${server.sandbox.application_id}/webhook_endpoints/${endpoint.id}`;
    emit(server, 'consent.granted');
    await drain(server);
    await server.api(path, { method: 'PATCH', json: { webhook_endpoint: { status: 'disabled' } } });
    r.behave(200);
    await advanceAndDrain(server, 3 * 60 * 60);
    assert.equal(r.received.length, 1, 'nothing goes out while disabled');
    assert.equal((await listDeliveries(server, endpoint.id))[0]!.status, 'pending');

    await server.api(path, { method: 'PATCH', json: { webhook_endpoint: { status: 'enabled' } } });
    await drain(server);
    assert.equal(r.received.length, 2);
    assert.equal((await listDeliveries(server, endpoint.id))[0]!.status, 'acknowledged');
  });

  it('fails the pending deliveries of a deleted endpoint without auditing them', async () => {
    const r = await receiver(500);
    const endpoint = await createEndpoint(server, r.url);
    emit(server, 'consent.granted');
    await drain(server);
    const path = `/api/v1/applications/${server.sandbox.application_id}/webhook_endpoints/${endpoint.id}`;
    const [before] = await listDeliveries(server, endpoint.id);
    assert.equal((await server.api(path, { method: 'DELETE' })).status, 204);
    await advanceAndDrain(server, 60);
    assert.equal(r.received.length, 1);
    const row = server.context.db.prepare('SELECT status, failure_reason FROM webhook_deliveries WHERE id = ?').get(before!.id);
    assert.deepEqual(row, { status: 'failed', failure_reason: 'endpoint_deleted' });
    assert.equal((await auditTrail()).length, 0);
  });
});

describe('webhook auto-disable across cells', () => {
  it('counts every cell against one limit: eight deliveries from two cells, five attempts', async () => {
    const cells = await startTestCells(['US', 'DE']);
    const r = await startReceiver(410);
    try {
      const { US: us, DE: de } = cells.cells as Record<'US' | 'DE', TestServer>;
      const endpoint = await createEndpoint(us, r.url);
      for (let i = 0; i < 4; i += 1) {
        emit(us, 'consent.granted');
        emit(de, 'consent.granted');
      }
      await Promise.all([drain(us), drain(de)]);
      assert.equal(r.received.length, 5);
      const read = await readEndpoint(de, endpoint.id);
      assert.deepEqual([read.status, read.consecutive_failures], ['disabled', 5]);
    } finally {
      await cells.dispose();
      await r.close();
    }
  });
});
