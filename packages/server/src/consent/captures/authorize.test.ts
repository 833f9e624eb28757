// POST /api/v1/decisions/{session_token}/authorize against a running server: committing capture tokens, the
// 24-hour expiry on the test clock, the receipt email and the webhooks' domain events.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DomainEvent } from '../../infra/events.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { createConsent } from '../decisions/test-support.js';
import { authorize, capture, createActiveFlow, expectError, recordCount, render, validDecisions } from './test-support.js';

interface AuthorizeAnswer {
  decision: {
    id: string;
    session_token: string;
    kind: string;
    status: string;
    record_id: string;
    channel: string;
    flow_id: string;
    flow_version: number;
    subject: { email: string; external_id: string | null };
    purposes: { key: string; outcome: string; basis: string }[];
    wording_verdict: string | null;
    receipt_email_queued: boolean;
    captured_at: string;
    committed_at: string;
  };
}

describe('POST /api/v1/decisions/{session_token}/authorize', () => {
  let server: TestServer;
  let flowId: string;
  const events: DomainEvent[] = [];
  const newCapture = async (extra: Record<string, unknown> = {}) =>
    (await capture(server, { flow_id: flowId, decisions: validDecisions, ...extra })).session_token;

  before(async () => {
    server = await startTestServer();
    flowId = await createActiveFlow(server);
    server.context.events.on('consent.*', (_ctx, event) => events.push(event));
  });
  after(() => server.dispose());

  it('commits the capture: the decision is fulfilled with its record, bound to the person by email', async () => {
    const token = await newCapture();
    const res = await authorize(server, token, { subject: { email: 'Ada@Example.com', external_id: 'cust-1' } });
    const { decision } = (await res.json()) as AuthorizeAnswer;
    assert.equal(res.status, 200, JSON.stringify(decision));
    assert.equal(decision.status, 'fulfilled');
    assert.equal(decision.kind, 'consent');
    assert.equal(decision.session_token, token);
    assert.match(decision.id, /^att_/);
    assert.match(decision.record_id, /^cr_/);
    assert.equal(decision.channel, 'form_capture');
    assert.equal(decision.flow_id, flowId);
    assert.equal(decision.flow_version, 1);
    assert.deepEqual(decision.subject, { email: 'ada@example.com', external_id: 'cust-1' });
    assert.deepEqual(
      decision.purposes.map((p) => `${p.key}:${p.outcome}`),
      ['newsletter:granted', 'partners:declined', 'analytics:noticed', 'service:noticed'],
    );
    assert.equal(decision.receipt_email_queued, true);

    const record = await server.api(`/api/v1/consent_records/${decision.record_id}`);
    const { consent_record } = (await record.json()) as {
      consent_record: { channel: string; status: string; subject: { email: string; external_id: string }; captured_at: string };
    };
    assert.equal(record.status, 200);
    assert.equal(consent_record.channel, 'form_capture');
    assert.equal(consent_record.status, 'fulfilled');
    assert.deepEqual(consent_record.subject, { email: 'ada@example.com', external_id: 'cust-1' });
    assert.equal(consent_record.captured_at, decision.captured_at, 'captured when the person decided, not when committed');
  });

  it('keeps external_id on the record, never on the person', async () => {
    const { decision } = (await (
      await authorize(server, await newCapture(), { subject: { email: 'lin@example.com', external_id: 'ext-9' } })
    ).json()) as AuthorizeAnswer;
    const person = server.context.db
      .prepare('SELECT p.* FROM persons p JOIN consent_records r ON r.person_id = p.id WHERE r.id = ?')
      .get(decision.record_id) as Record<string, unknown>;
    assert.equal(person.email, 'lin@example.com');
    assert.equal(Object.values(person).includes('ext-9'), false);
  });

  it('queues the receipt email unless suppressed', async () => {
    const queued = (await (await authorize(server, await newCapture(), { subject: { email: 'q@example.com' } })).json()) as AuthorizeAnswer;
    const emails = (id: string) => server.context.db.prepare('SELECT count(*) FROM receipt_emails WHERE record_id = ?').pluck().get(id);
    assert.equal(emails(queued.decision.record_id), 1);
    const suppressed = (await (
      await authorize(server, await newCapture(), { subject: { email: 's@example.com' }, suppress_receipt: true })
    ).json()) as AuthorizeAnswer;
    assert.equal(suppressed.decision.receipt_email_queued, false);
    assert.equal(emails(suppressed.decision.record_id), 0);
  });

  it('fires the webhooks: a consent.granted domain event carrying the subject reference', async () => {
    const endpoint = await server.api(`/api/v1/applications/${server.sandbox.application_id}/webhook_endpoints`, {
      method: 'POST',
      json: { webhook_endpoint: { url: 'http://127.0.0.1:9/hooks', events: ['consent.granted'] } },
    });
    assert.equal(endpoint.status, 201, await endpoint.clone().text());
    const { decision } = (await (
      await authorize(server, await newCapture(), { subject: { email: 'hook@example.com', external_id: 'h-1' } })
    ).json()) as AuthorizeAnswer;
    const event = events.find((e) => e.data.record_id === decision.record_id);
    assert.ok(event, 'an event for the record');
    assert.equal(event.type, 'consent.granted');
    assert.deepEqual(event.data.subject_ref, { email: 'hook@example.com', external_id: 'h-1' });
    assert.equal(event.data.channel, 'form_capture');
    const outboxed = server.context.db
      .prepare("SELECT count(*) FROM webhook_events WHERE type = 'consent.granted'")
      .pluck()
      .get() as number;
    assert.ok(outboxed >= 1, 'written to the webhook outbox');
  });

  it('fires consent.denied when every consent purpose was declined', async () => {
    const token = await newCapture({ decisions: { newsletter: { decision: 'declined' }, partners: { decision: 'declined' } } });
    const { decision } = (await (await authorize(server, token)).json()) as AuthorizeAnswer;
    assert.equal(events.find((e) => e.data.record_id === decision.record_id)?.type, 'consent.denied');
  });

  it('commits a consent field capture to embedded_field', async () => {
    const { render_proof, notice_hash } = await render(server, flowId);
    const { session_token } = await capture(server, { flow_id: flowId, decisions: validDecisions, notice_hash }, { proof: render_proof });
    const { decision } = (await (await authorize(server, session_token)).json()) as AuthorizeAnswer;
    assert.equal(decision.channel, 'embedded_field');
    assert.equal(decision.wording_verdict, 'match');
  });

  it('refuses a second commit (422 capture_already_committed) and writes no second record', async () => {
    const token = await newCapture();
    assert.equal((await authorize(server, token)).status, 200);
    const before = recordCount(server);
    await expectError(await authorize(server, token), 422, 'capture_already_committed');
    assert.equal(recordCount(server), before);
  });

  it('commits within 24 hours of the capture (test clock)', async () => {
    const token = await newCapture();
    server.advance(24 * 3600 - 60);
    assert.equal((await authorize(server, token)).status, 200);
  });

  it('refuses a token 24 hours after the capture (422 capture_expired): it left no record', async () => {
    const token = await newCapture({ snapshot: '<div data-svc-snapshot="1"></div>' });
    const before = recordCount(server);
    server.advance(24 * 3600);
    await expectError(await authorize(server, token), 422, 'capture_expired');
    assert.equal(recordCount(server), before);
    // The sweep has wiped what the capture held.
    await capture(server, { flow_id: flowId, decisions: validDecisions });
    const row = server.context.db.prepare("SELECT status, snapshot FROM captures WHERE snapshot IS NULL AND status = 'expired'").all();
    assert.ok(row.length >= 1);
    await expectError(await authorize(server, token), 422, 'capture_expired');
  });

  it('answers 404 for an unknown or malformed token', async () => {
    await expectError(await authorize(server, `dts_${'A'.repeat(43)}`), 404, 'not_found');
    await expectError(await authorize(server, 'dts_short'), 404, 'not_found');
  });

  it('refuses the token of a hosted decision (422 not_a_capture)', async () => {
    const decision = await createConsent(server);
    await expectError(await authorize(server, decision.session_token), 422, 'not_a_capture');
  });

  it('validates the body strictly: an email is required, no other fields', async () => {
    const token = await newCapture();
    const missing = await expectError(await authorize(server, token, { subject: {} }), 422, 'validation_failed');
    assert.equal(missing.errors?.[0]?.path, 'subject.email');
    const extra = await expectError(
      await authorize(server, token, { subject: { email: 'a@example.com' }, commit: true }),
      422,
      'validation_failed',
    );
    assert.deepEqual(
      extra.errors?.map((e) => [e.path, e.code]),
      [['commit', 'unknown_field']],
    );
    await expectError(await authorize(server, token, { subject: { email: 'not-an-email' } }), 422, 'validation_failed');
    assert.equal((await authorize(server, token)).status, 200, 'a refused body did not use the token');
  });

  it('needs an API token with write: read (403), a publishable key (403), none (401)', async () => {
    const token = await newCapture();
    const created = await server.api('/api/v1/api_tokens', {
      method: 'POST',
      json: { api_token: { name: 'reader', permissions: ['read'] } },
    });
    const reader = ((await created.json()) as { api_token: { token: string } }).api_token.token;
    const call = (headers: Record<string, string>) =>
      fetch(`${server.url}/api/v1/decisions/${token}/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ subject: { email: 'a@example.com' } }),
      });
    await expectError(await call({ authorization: `Bearer ${reader}` }), 403, 'insufficient_permissions');
    await expectError(await call({ 'x-publishable-key': server.sandbox.publishable_key }), 403, 'publishable_key_not_allowed');
    assert.equal((await call({})).status, 401);
  });

  it('works under the deprecated /api/v1/consent_sessions alias, with deprecation headers', async () => {
    const res = await authorize(server, await newCapture(), undefined, 'consent_sessions');
    assert.equal(res.status, 200);
    assert.ok(res.headers.get('deprecation'));
    assert.match(res.headers.get('link') ?? '', /\/api\/v1\/decisions\/dts_[^>]+\/authorize>; rel="successor-version"/);
  });

  it('keeps the version the person saw when the flow publishes another before the commit', async () => {
    const flow = await createActiveFlow(server);
    const { session_token } = await capture(server, { flow_id: flow, decisions: validDecisions });
    await server.api(`/api/v1/flows/${flow}/versions`, { method: 'POST', json: { flow: { title: 'Signup consent v2' } } });
    const { decision } = (await (await authorize(server, session_token)).json()) as AuthorizeAnswer;
    assert.equal(decision.flow_version, 1);
    const version = server.context.db.prepare('SELECT flow_version FROM consent_records WHERE id = ?').pluck().get(decision.record_id);
    assert.equal(version, 1);
  });
});
