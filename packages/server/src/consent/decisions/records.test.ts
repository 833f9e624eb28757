// A consent decision completed in the hosted pages leaves the same proof as every other path: a consent record
// (channel `hosted` for the full page, popup and redirect, `embedded` for the iframe embed), its receipt in every
// flavor, and an event in the hash-chained audit trail, all in the completion's transaction; webhooks fire once.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { verifyAuditChain } from '@svc/client';
import {
  consentExchange,
  consentRecord as consentRecordSchema,
  decision as decisionSchema,
  type AuditEvent,
  type ConsentExchange,
  type ConsentReceiptRecord,
  type ConsentRecord,
  type Decision,
  localWitnessKeys,
  type WitnessConfiguration,
} from '@svc/schemas';
import { createActiveFlow, fetchReceipt, signedReceiptsVerified } from '../records/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { createEndpoint, delivered as deliveredEvents, startReceiver, type Receiver } from '../../platform/webhooks/test-support.js';
import { createConsent, exchange, ok, step, toReview } from './test-support.js';

type Mode = 'embed' | 'popup' | 'redirect';
const MODES: Mode[] = ['embed', 'popup', 'redirect'];

describe('hosted decisions make consent records, receipts and audit events', () => {
  let server: TestServer;
  let receiver: Receiver;
  let secret: string;
  let keys: { issuer: { keys: never[] }; witness: { keys: never[] } };
  let n = 0;
  const fresh = () => `hosted${++n}@example.com`;

  before(async () => {
    server = await startTestServer();
    receiver = await startReceiver(200);
    secret = (await createEndpoint(server, receiver.url, ['*'])).secret;
    const witness = (await (await fetch(`${server.url}/.well-known/witness-configuration`)).json()) as WitnessConfiguration;
    keys = {
      issuer: (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as never,
      witness: localWitnessKeys(witness) as never,
    };
  });
  after(async () => {
    await server.dispose();
    await receiver.close();
  });
  beforeEach(async () => {
    await delivered(); // start every test with an empty receiver
  });

  /** A consent decision in `mode` on `flowId` (default: the standard demo flow). */
  function create(mode: Mode, flowId = server.sandbox.flow_id!): Promise<Decision> {
    const origin = new URL(server.url).origin;
    return createConsent(server, {
      subject_ref: flowId,
      delivery_mode: mode,
      ...(mode === 'embed' ? { embed_origin: origin } : { embed_origin: undefined }),
      ...(mode === 'redirect' ? { redirect_uri: `${origin}/back` } : {}),
    });
  }

  async function readDecision(token: string): Promise<Decision> {
    const res = await server.api(`/api/v1/decisions/${token}`);
    assert.equal(res.status, 200);
    return decisionSchema.parse(((await res.json()) as { decision: unknown }).decision);
  }

  async function readRecord(id: string): Promise<ConsentRecord> {
    const res = await server.api(`/api/v1/consent_records/${id}`);
    assert.equal(res.status, 200, await res.clone().text());
    return consentRecordSchema.parse(((await res.json()) as { consent_record: unknown }).consent_record);
  }

  /** The canonical receipt (validated against the published schema), after checking dpv and signed work too. */
  async function receiptsOf(recordId: string): Promise<{ canonical: ConsentReceiptRecord; dpv: Record<string, unknown> }> {
    const verifiedBefore = signedReceiptsVerified();
    const canonical = await fetchReceipt(server, recordId, 'canonical');
    assert.equal(canonical.status, 200);
    const signed = await fetchReceipt(server, recordId, 'signed'); // validated and verified with only the JWKS
    assert.equal(signed.status, 200);
    assert.equal(signedReceiptsVerified(), verifiedBefore + 1);
    assert.deepEqual(signed.body.receipt, canonical.body.consent_receipt, 'the signed flavor signs the canonical receipt');
    const dpv = await fetchReceipt(server, recordId, 'dpv');
    assert.equal(dpv.status, 200);
    assert.match(dpv.contentType, /application\/ld\+json/);
    return { canonical: canonical.body.consent_receipt as ConsentReceiptRecord, dpv: dpv.body };
  }

  async function auditEvents(): Promise<AuditEvent[]> {
    const res = await server.api('/api/v1/audit/events?limit=100');
    assert.equal(res.status, 200);
    const page = (await res.json()) as { audit_events: AuditEvent[]; next_cursor: string | null };
    assert.equal(page.next_cursor, null, 'fewer than 100 events in this suite');
    return page.audit_events;
  }

  const delivered = () => deliveredEvents(server, receiver, secret);

  async function exchanged(token: string, exchangeToken: string): Promise<ConsentExchange> {
    const res = await exchange(server, token, exchangeToken);
    assert.equal(res.status, 200);
    return consentExchange.parse(await res.json());
  }

  for (const mode of MODES) {
    const channel = mode === 'embed' ? 'embedded' : 'hosted';
    it(`standard path, ${mode}: an identified ${channel} record, its receipt in three flavors, one audit event, one webhook`, async () => {
      const email = fresh();
      const d = await create(mode);
      assert.equal(d.record_id, null, 'no record before completion');
      const auditBefore = (await auditEvents()).length;
      await toReview(server, d.session_token, email);
      const done = await ok(server, d.session_token, { action: 'agree', granted: ['newsletter'], objected: ['analytics'] });
      assert.ok(done.completion);

      const read = await readDecision(d.session_token);
      assert.match(read.record_id ?? '', /^cr_/);
      const result = await exchanged(d.session_token, done.completion.exchange_token);
      assert.equal(result.record_id, read.record_id);
      assert.equal(result.provenance.collection_channel, channel);

      const record = await readRecord(read.record_id!);
      assert.equal(record.channel, channel);
      assert.equal(record.flow_id, server.sandbox.flow_id);
      assert.equal(record.flow_version, read.flow_version);
      assert.deepEqual(record.subject, { email, external_id: null });
      assert.equal(record.captured_at, read.completed_at);
      assert.equal(record.status, 'fulfilled');
      assert.equal(record.wording_verdict, 'match');
      assert.ok(record.expires_at, 'the demo flow declares a consent duration');
      assert.deepEqual(
        record.purposes.map((p) => `${p.key}:${p.outcome}`),
        ['newsletter:granted', 'analytics:objected', 'service:noticed', 'invoices:noticed'],
      );

      const { canonical, dpv } = await receiptsOf(record.id);
      assert.equal(canonical.record_id, record.id);
      assert.equal(canonical.anonymous, undefined);
      assert.match(canonical.pii_principal_id ?? '', /^prs_/);
      const { authentication, ...extensions } = canonical.extensions!;
      assert.deepEqual(extensions, {
        consent_flow_id: server.sandbox.flow_id,
        collection_channel: channel,
        captured_at: record.captured_at,
        recorded_at: record.recorded_at,
        wording_drift: false,
        delivery_mode: mode,
      });
      // The person proved their email with the page's code before agreeing: the receipt says so, and when.
      assert.equal(authentication?.method, 'email_code');
      assert.ok(authentication!.authenticated_at <= record.captured_at!, authentication!.authenticated_at);
      assert.match(canonical.pii_processing.collection_method ?? '', /decision page of the service/i);
      assert.deepEqual(
        canonical.pii_processing.purposes.map((p) => p.purpose_id),
        ['newsletter', 'service', 'invoices'],
      );
      assert.deepEqual(
        canonical.event.map((e) => e.event_state),
        ['consent requested', 'consent given'],
      );
      assert.equal(canonical.event[1]!.entity_id, canonical.pii_principal_id);
      assert.ok(JSON.stringify(dpv).includes(record.id));

      const trail = await auditEvents();
      const added = trail.slice(auditBefore);
      assert.deepEqual(
        added.map((e) => e.type),
        ['consent.granted'],
      );
      assert.equal(added[0]!.data.record_id, record.id);
      assert.equal(added[0]!.data.channel, channel);
      assert.equal(JSON.stringify(added).includes(email), false, 'no email in the trail');
      assert.deepEqual(await verifyAuditChain(trail, [], keys), {
        ok: true,
        events: trail.length,
        anchors: 0,
        anchored_through: null,
        witnessed: 0,
        externally_witnessed: 0,
        witnesses: [],
      });

      const events = await delivered();
      assert.deepEqual(
        events.map((e) => e.type),
        ['consent.granted'],
        'exactly one webhook for the completion',
      );
      const event = events[0]!;
      if (event.type !== 'consent.granted') return;
      assert.equal(event.data.decision_id, d.id);
      assert.equal(event.data.record_id, record.id);
      assert.equal(event.data.user_id, canonical.pii_principal_id);
      assert.equal(event.data.channel, channel);
      assert.equal(event.data.flow_id, server.sandbox.flow_id);
      assert.deepEqual(event.data.subject_ref, { email, external_id: null });
      assert.equal(event.data.consent_token, result.access_token, 'the consent token the exchange hands out');
      assert.equal(event.data.consent_transaction_id, result.consent_transaction_id);
      assert.equal((event.data as Record<string, unknown>).delivery_mode, mode);
      assert.equal(server.context.metrics.value('webhooks.payload_invalid_total', { type: 'consent.granted' }), 0);
    });
  }

  it('informed path without sign-in: an anonymous record whose id stands in for the principal', async () => {
    const informed = server.sandbox.informed_flow_id!;
    const d = await create('embed', informed);
    await ok(server, d.session_token, { action: 'begin' });
    await ok(server, d.session_token, { action: 'acknowledge' });
    assert.equal((await step(server, d.session_token, { action: 'answer', answer: 1 })).status, 422, 'a wrong answer first');
    await ok(server, d.session_token, { action: 'answer', answer: 0 });
    const done = await ok(server, d.session_token, { action: 'agree', granted: ['research'], objected: [] });
    const result = await exchanged(d.session_token, done.completion!.exchange_token);
    assert.equal(result.claims.kind === 'consent' && result.claims.subject, null);
    const recordId = result.record_id!;
    assert.equal((await readDecision(d.session_token)).record_id, recordId);

    const record = await readRecord(recordId);
    assert.equal(record.channel, 'embedded');
    assert.deepEqual(record.subject, { email: '', external_id: null }, 'nobody known: no email');
    assert.deepEqual(
      record.purposes.map((p) => `${p.key}:${p.outcome}`),
      ['research:granted', 'study_administration:noticed'],
    );

    const { canonical, dpv } = await receiptsOf(recordId);
    assert.equal(canonical.anonymous, true);
    assert.equal('pii_principal_id' in canonical, false);
    assert.deepEqual(
      canonical.event.map((e) => [e.event_state, e.entity_id]),
      [
        ['notice shown', server.sandbox.application_id],
        ['consent requested', server.sandbox.application_id],
        ['consent given', recordId],
      ],
    );
    // The service checked the answers itself: the receipt says the check was passed, and after how many answers.
    assert.equal(
      canonical.extensions?.collection_mechanism,
      "Informed consent on the service's decision page: the comprehension check passed (2 answers given)",
    );
    assert.equal(JSON.stringify(dpv).includes('hasDataSubject'), false, 'no data subject in the dpv flavor');
    const queued = server.context.db.prepare('SELECT count(*) FROM receipt_emails WHERE record_id = ?').pluck().get(recordId);
    assert.equal(queued, 0, 'no address to send a receipt email to');

    const [event, ...more] = await delivered();
    assert.equal(more.length, 0);
    assert.equal(event?.type, 'consent.granted');
    if (event?.type !== 'consent.granted') return;
    assert.deepEqual(
      [event.data.record_id, event.data.user_id, event.data.subject_ref, event.data.channel],
      [recordId, null, null, 'embedded'],
    );
    assert.ok(event.data.consent_token);

    // The organisation can still withdraw it (say, the person asked with the receipt's record link).
    const withdrawn = await server.api(`/api/v1/consent_records/${recordId}/withdraw`, {
      method: 'POST',
      json: { event_channel: 'receipt_record_link' },
    });
    assert.equal(withdrawn.status, 200, await withdrawn.clone().text());
    const revoked = await delivered();
    assert.deepEqual(
      revoked.map((e) => e.type),
      ['consent.revoked'],
    );
    if (revoked[0]?.type !== 'consent.revoked') return;
    assert.deepEqual([revoked[0].data.user_id, revoked[0].data.subject_ref], [null, null]);
    const after = (await fetchReceipt(server, recordId)).body.consent_receipt as ConsentReceiptRecord;
    assert.equal(after.event.at(-1)!.entity_id, recordId, "the withdrawal is the stand-in principal's");
    const trail = await auditEvents();
    assert.deepEqual(
      trail.slice(-2).map((e) => e.type),
      ['consent.granted', 'consent.revoked'],
    );
    assert.equal(trail.at(-2)!.data.anonymous, true);
    assert.equal((await verifyAuditChain(trail, [], keys)).ok, true);
  });

  it('informed path declined before the comprehension check: the receipt says nothing about a check', async () => {
    const d = await create('popup', server.sandbox.informed_flow_id!);
    await ok(server, d.session_token, { action: 'begin' });
    await ok(server, d.session_token, { action: 'acknowledge' });
    await step(server, d.session_token, { action: 'answer', answer: 1 });
    await ok(server, d.session_token, { action: 'decline' });
    const { canonical } = await receiptsOf((await readDecision(d.session_token)).record_id!);
    assert.equal(canonical.extensions?.collection_mechanism, undefined, 'a failed check is not a passed one');
    await delivered();
  });

  it('decline on the first screen: an anonymous record with consent declined, consent.denied once, no token', async () => {
    const d = await create('popup');
    const done = await ok(server, d.session_token, { action: 'decline' });
    const result = await exchanged(d.session_token, done.completion!.exchange_token);
    assert.equal(result.access_token, undefined);
    const record = await readRecord(result.record_id!);
    assert.equal(record.channel, 'hosted');
    assert.deepEqual(
      record.purposes.map((p) => `${p.key}:${p.outcome}`),
      ['newsletter:declined', 'analytics:noticed', 'service:noticed', 'invoices:noticed'],
    );
    const { canonical } = await receiptsOf(record.id);
    assert.equal(canonical.anonymous, true);
    assert.deepEqual(
      canonical.pii_processing.purposes.map((p) => p.purpose_id),
      ['analytics', 'service', 'invoices'],
      'declined consent is not on the receipt',
    );
    assert.equal(canonical.extensions?.delivery_mode, 'popup');
    assert.equal((await auditEvents()).at(-1)!.type, 'consent.denied');
    const events = await delivered();
    assert.deepEqual(
      events.map((e) => e.type),
      ['consent.denied'],
    );
    if (events[0]?.type !== 'consent.denied') return;
    assert.deepEqual([events[0].data.record_id, events[0].data.consent_token, events[0].data.decision_id], [record.id, null, d.id]);
  });

  it('decline after signing in but before verifying: the unverified email is dropped and the record is anonymous', async () => {
    const email = fresh();
    const d = await create('redirect');
    await ok(server, d.session_token, { action: 'begin' });
    await ok(server, d.session_token, { action: 'sign_in', email });
    const done = await ok(server, d.session_token, { action: 'decline' });
    assert.equal(done.progress.subject_email, null);
    const result = await exchanged(d.session_token, done.completion!.exchange_token);
    assert.equal(result.claims.kind === 'consent' && result.claims.subject, null);
    const { canonical } = await receiptsOf(result.record_id!);
    assert.equal(canonical.anonymous, true);
    const events = await delivered();
    assert.deepEqual(
      events.map((e) => e.type),
      ['consent.denied'],
    );
    assert.equal(JSON.stringify(events).includes(email), false, 'the unverified email goes nowhere');
  });

  it('a verified person who declines later withdraws what they granted before: consent.denied, then the revocation', async () => {
    const email = fresh();
    const first = await create('embed');
    await toReview(server, first.session_token, email);
    await ok(server, first.session_token, { action: 'agree', granted: ['newsletter'], objected: [] });
    const firstRecordId = (await readDecision(first.session_token)).record_id!;
    await delivered();

    const second = await create('popup');
    await toReview(server, second.session_token, email);
    await ok(server, second.session_token, { action: 'decline' });
    const secondRecord = await readRecord((await readDecision(second.session_token)).record_id!);
    assert.deepEqual(secondRecord.subject, { email, external_id: null });
    const { canonical } = await receiptsOf(secondRecord.id);
    assert.equal(canonical.event.at(-1)!.record_reference, firstRecordId, 'it supersedes the earlier record');

    const events = await delivered();
    assert.deepEqual(
      events.map((e) => e.type),
      ['consent.denied', 'consent.revoked'],
      'one event for the decision, then the withdrawal it caused',
    );
    if (events[1]?.type !== 'consent.revoked') return;
    assert.equal(events[1].data.record_id, firstRecordId);
    assert.equal(events[1].data.event_channel, 'newer_record');
    assert.equal((await readRecord(firstRecordId)).status, 'revoked');
    const trail = await auditEvents();
    assert.deepEqual(
      trail.slice(-2).map((e) => e.type),
      ['consent.modified', 'consent.revoked'],
    );
    assert.equal((await verifyAuditChain(trail, [], keys)).ok, true);
  });

  it('records any active flow, capturable or not: a flow without consent duration on the default standard path', async () => {
    const flowId = await createActiveFlow(
      server,
      {
        purposes: [{ key: 'updates', label: 'Product updates', basis: 'consent', mechanism: 'explicit' }],
      },
      'No term',
    );
    const d = await create('redirect', flowId);
    await toReview(server, d.session_token, fresh());
    await ok(server, d.session_token, { action: 'agree', granted: ['updates'], objected: [] });
    const record = await readRecord((await readDecision(d.session_token)).record_id!);
    assert.equal(record.expires_at, null);
    const { canonical } = await receiptsOf(record.id);
    assert.equal(canonical.event.at(-1)!.validity_duration, undefined, 'no term, no validity duration');
    assert.deepEqual(
      (await delivered()).map((e) => e.type),
      ['consent.granted'],
    );
  });

  it('the sandbox capture flow works hosted too (a review step only)', async () => {
    const d = await create('embed', server.sandbox.capture_flow_id!);
    await ok(server, d.session_token, { action: 'begin' });
    await ok(server, d.session_token, { action: 'agree', granted: [], objected: [] });
    const record = await readRecord((await readDecision(d.session_token)).record_id!);
    assert.deepEqual(
      record.purposes.map((p) => `${p.key}:${p.outcome}`),
      ['newsletter:declined', 'analytics:noticed', 'service:noticed'],
    );
    // The decision was completed (agree), so the webhook says granted; the trail records what the record holds.
    assert.deepEqual(
      (await delivered()).map((e) => e.type),
      ['consent.granted'],
    );
    assert.equal((await auditEvents()).at(-1)!.type, 'consent.denied');
  });

  it('cancelled and expired decisions make no record; approvals make an authorization record, never a consent record', async () => {
    const count = () => server.context.db.prepare('SELECT count(*) FROM consent_records').pluck().get() as number;
    const before = count();
    const cancelled = await create('embed');
    await ok(server, cancelled.session_token, { action: 'cancel', cancelled_by: 'host' });
    assert.equal((await readDecision(cancelled.session_token)).record_id, null);
    const approval = await createConsent(server, {
      kind: 'approval',
      subject_ref: 'esc_1',
      delivery_mode: 'popup',
      embed_origin: undefined,
    });
    const done = await ok(server, approval.session_token, { action: 'approve' });
    const result = await exchanged(approval.session_token, done.completion!.exchange_token);
    assert.match(result.record_id ?? '', /^ar_/, "the approval's authorization record (see authorizations.test.ts)");
    assert.equal((await readDecision(approval.session_token)).record_id, result.record_id);
    assert.deepEqual(
      (await delivered()).map((e) => e.type),
      ['approval.granted'],
    );
    const expired = await create('popup');
    server.advance(16 * 60);
    assert.equal((await readDecision(expired.session_token)).status, 'expired');
    assert.equal(count(), before);
    assert.deepEqual(await delivered(), []);
  });

  it('is one transaction: when the record cannot be written, the decision does not complete and nothing is emitted', async () => {
    const db = server.context.db;
    const d = await create('embed');
    await toReview(server, d.session_token, fresh());
    const counts = () =>
      ['consent_records', 'audit_events', 'consent_tokens', 'webhook_events'].map((t) =>
        db.prepare(`SELECT count(*) FROM ${t}`).pluck().get(),
      );
    const before = counts();
    db.exec("CREATE TRIGGER refuse_records BEFORE INSERT ON consent_records BEGIN SELECT RAISE(ABORT, 'records are refused'); END");
    try {
      const res = await step(server, d.session_token, { action: 'agree', granted: ['newsletter'], objected: [] });
      assert.equal(res.status, 500);
    } finally {
      db.exec('DROP TRIGGER refuse_records');
    }
    assert.deepEqual(counts(), before);
    const read = await readDecision(d.session_token);
    assert.deepEqual([read.status, read.record_id, read.completed_at], ['reviewing', null, null]);
    assert.deepEqual(await delivered(), []);
    // The person can try again, and then everything is written once.
    await ok(server, d.session_token, { action: 'agree', granted: ['newsletter'], objected: [] });
    assert.match((await readDecision(d.session_token)).record_id ?? '', /^cr_/);
    assert.deepEqual(
      (await delivered()).map((e) => e.type),
      ['consent.granted'],
    );
  });
});
