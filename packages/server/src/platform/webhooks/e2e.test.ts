// End to end through the APIs that emit: hosted decisions (consent and approval) and the Record API (records,
// later records, withdrawals). Every delivery verifies with verifyWebhook, matches its published schema, and
// carries what the spec says.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { verifyWebhook, type WebhookEvent, type WebhookEventOf } from '@svc/client';
import { consentExchange } from '@svc/schemas';
import { createConsent, createDecision, exchange, grantStandard, ok } from '../../consent/decisions/test-support.js';
import { createActiveFlow, createRecord, grantAll } from '../../consent/records/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { createEndpoint, drain, startReceiver, type Receiver } from './test-support.js';

describe('webhooks from the decisions and records APIs', () => {
  let server: TestServer;
  let r: Receiver;
  let secret: string;
  let flowId: string;

  before(async () => {
    server = await startTestServer();
    r = await startReceiver(200);
    secret = (await createEndpoint(server, r.url, ['*'])).secret;
    flowId = await createActiveFlow(server);
  });
  after(async () => {
    await server.dispose();
    await r.close();
  });
  beforeEach(() => {
    r.received.length = 0;
  });

  /** The one event of `type` among `events`. */
  function one<T extends WebhookEvent['type']>(events: WebhookEvent[], type: T): WebhookEventOf<T> {
    const found = events.filter((e) => e.type === type);
    assert.equal(found.length, 1, `one ${type} among ${JSON.stringify(events.map((e) => e.type))}`);
    return found[0] as WebhookEventOf<T>;
  }

  /** Drains the outbox and verifies every delivery received since the last call. */
  async function delivered(): Promise<WebhookEvent[]> {
    await drain(server);
    const events: WebhookEvent[] = [];
    for (const request of r.received)
      events.push(await verifyWebhook(request.body, request.headers, secret, { now: server.context.clock.now() }));
    r.received.length = 0;
    return events;
  }

  it('a granted hosted consent: consent token, user identifier, flow id, subject reference, per-purpose outcome', async () => {
    const d = await createConsent(server);
    const completion = await grantStandard(server, d.session_token, ['newsletter']);
    const events = await delivered();
    assert.equal(events.length, 1);
    const event = one(events, 'consent.granted');
    assert.equal(event.data.decision_id, d.id);
    assert.equal(event.data.flow_id, server.sandbox.flow_id);
    assert.deepEqual(event.data.subject_ref, { email: 'ada@example.com', external_id: null });
    assert.ok(event.data.purposes.some((p) => p.key === 'newsletter' && p.outcome === 'granted'));
    assert.ok(event.data.consent_token);
    assert.ok(event.data.consent_token_expires_at);
    const exchanged = consentExchange.parse(await (await exchange(server, d.session_token, completion.exchange_token)).json());
    assert.equal(event.data.consent_token, exchanged.access_token, 'the same consent token the exchange hands out');
    assert.equal(event.data.consent_transaction_id, exchanged.consent_transaction_id);
    assert.equal(server.context.metrics.value('webhooks.payload_invalid_total', { type: 'consent.granted' }), 0);
  });

  it('a declined hosted consent: consent.denied without a token', async () => {
    const d = await createConsent(server);
    await ok(server, d.session_token, { action: 'decline' });
    const event = one(await delivered(), 'consent.denied');
    assert.equal(event.data.decision_id, d.id);
    assert.equal(event.data.consent_token, null);
  });

  for (const [action, type, outcome] of [
    ['approve', 'approval.granted', 'approved'],
    ['deny', 'approval.denied', 'denied'],
    ['counter', 'approval.countered', 'countered'],
  ] as const) {
    it(`an approval ${outcome}: ${type} with the escalation`, async () => {
      const d = await createDecision(server, {
        kind: 'approval',
        subject_ref: 'esc_42',
        delivery_mode: 'popup',
        scope: 'payments:write',
        state: 'Pay 240 EUR',
      });
      await ok(server, d.session_token, action === 'counter' ? { action, proposal: 'Pay 200 EUR instead' } : { action });
      const event = one(await delivered(), type);
      assert.deepEqual(
        [event.data.decision_id, event.data.escalation_id, event.data.outcome, event.data.scope, event.data.state],
        [d.id, 'esc_42', outcome, 'payments:write', 'Pay 240 EUR'],
      );
      assert.equal(event.data.counter_proposal, action === 'counter' ? 'Pay 200 EUR instead' : null);
    });
  }

  it('records: a record, a later record that withdraws a purpose, and a withdrawal of the rest', async () => {
    const record = await createRecord(server, {
      flow_id: flowId,
      subject: { email: 'grace@example.com', external_id: 'crm-7' },
      decisions: grantAll,
    });
    const granted = one(await delivered(), 'consent.granted');
    assert.deepEqual(
      [granted.data.record_id, granted.data.flow_id, granted.data.channel, granted.data.consent_token],
      [record.id, flowId, 'controller_attested', null],
    );
    assert.deepEqual(granted.data.subject_ref, { email: 'grace@example.com', external_id: 'crm-7' });
    assert.ok(granted.data.user_id, "the person's identifier");
    assert.deepEqual(
      granted.data.purposes.map((p) => `${p.key}:${p.outcome}`),
      ['newsletter:granted', 'research:granted', 'analytics:noticed', 'service:noticed', 'invoices:noticed'],
    );

    const later = await createRecord(server, {
      flow_id: flowId,
      subject: { email: 'grace@example.com', external_id: 'crm-7' },
      decisions: { ...grantAll, newsletter: { decision: 'declined' } },
    });
    const events = await delivered();
    const revoked = one(events, 'consent.purpose_revoked');
    assert.deepEqual(
      [revoked.data.record_id, revoked.data.purpose, revoked.data.outcome, revoked.data.event_channel, revoked.data.withdrawn],
      [record.id, 'newsletter', 'revoked', 'newer_record', [{ key: 'newsletter', outcome: 'revoked' }]],
    );
    assert.deepEqual(revoked.data.subject_ref, { email: 'grace@example.com', external_id: 'crm-7' });
    assert.equal(revoked.data.user_id, granted.data.user_id);
    assert.equal(one(events, 'consent.granted').data.record_id, later.id);

    const res = await server.api(`/api/v1/consent_records/${later.id}/withdraw`, {
      method: 'POST',
      json: { event_channel: 'person_records' },
    });
    assert.equal(res.status, 200);
    const withdrawn = one(await delivered(), 'consent.revoked');
    assert.equal(withdrawn.data.record_id, later.id);
    assert.equal(withdrawn.data.event_channel, 'person_records');
    assert.deepEqual(withdrawn.data.subject_ref, { email: 'grace@example.com', external_id: 'crm-7' });
    assert.ok(withdrawn.data.purposes.some((p) => p.key === 'research' && p.outcome === 'revoked'));
    assert.ok(withdrawn.data.withdrawn.some((w) => w.key === 'research' && w.outcome === 'revoked'));
    for (const type of ['consent.granted', 'consent.purpose_revoked', 'consent.revoked']) {
      assert.equal(server.context.metrics.value('webhooks.payload_invalid_total', { type }), 0, `${type} matches its schema`);
    }
  });
});
