// An approval decision (approve, deny, counter on the hosted page) leaves proof as a consent decision does: an
// authorization record with its receipt (canonical and signed; dpv refused, Errors rule 11) and an event in the
// hash-chained audit trail, all in the completion's transaction; the webhook names the record. Consent reads are
// not confused by it, and everything survives a restart.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  createClient,
  SvcReceiptSignatureError,
  SvcValidationError,
  verifyAuditChain,
  verifyReceipt,
  type AnchorWithReceipts,
} from '@svc/client';
import {
  decision as decisionSchema,
  type AnchorReceipt,
  type AuditAnchor,
  type AuditEvent,
  type AuthorizationReceiptRecord,
  type Decision,
  localWitnessKeys,
  type WitnessConfiguration,
} from '@svc/schemas';
import { anchorNow } from '../audit/anchor.js';
import { createDecision, exchange, ok, step } from '../decisions/test-support.js';
import { PLATFORM_PARTY_ID } from '../receipts/canonical.js';
import { UNIDENTIFIED_PRINCIPAL } from '../receipts/authorization.js';
import { assertValidReceipt, fetchReceipt, signedReceiptsVerified } from '../records/test-support.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { createEndpoint, delivered as deliveredEvents, startReceiver, type Receiver } from '../../platform/webhooks/test-support.js';

type Mode = 'embed' | 'popup' | 'redirect';
type Keys = { issuer: { keys: never[] }; witness: { keys: never[] } };

const OUTCOMES = [
  { action: 'approve', outcome: 'approved', state: 'approval granted', type: 'approval.granted', decision: 'granted', mode: 'embed' },
  { action: 'deny', outcome: 'denied', state: 'approval denied', type: 'approval.denied', decision: 'denied', mode: 'popup' },
  {
    action: 'counter',
    outcome: 'countered',
    state: 'approval countered',
    type: 'approval.countered',
    decision: 'countered',
    mode: 'redirect',
  },
] as const;

/** The verification keys: the JWKS and the witness's keys. */
async function keysOf(server: TestServer): Promise<Keys> {
  const witness = (await (await fetch(`${server.url}/.well-known/witness-configuration`)).json()) as WitnessConfiguration;
  return {
    issuer: (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as never,
    witness: localWitnessKeys(witness) as never,
  };
}

/** An approval decision in `mode` on the server's own (allowed) origin. */
function createApproval(server: TestServer, mode: Mode, extra: Record<string, unknown> = {}): Promise<Decision> {
  const origin = new URL(server.url).origin;
  return createDecision(server, {
    kind: 'approval',
    subject_ref: `esc_${mode}_${Math.random().toString(36).slice(2, 10)}`,
    delivery_mode: mode,
    ...(mode === 'embed' ? { embed_origin: origin } : {}),
    ...(mode === 'redirect' ? { redirect_uri: `${origin}/back` } : {}),
    ...extra,
  });
}

async function readDecision(server: TestServer, token: string): Promise<Decision> {
  const res = await server.api(`/api/v1/decisions/${token}`);
  assert.equal(res.status, 200);
  return decisionSchema.parse(((await res.json()) as { decision: unknown }).decision);
}

async function auditTrail(server: TestServer): Promise<AuditEvent[]> {
  const res = await server.api('/api/v1/audit/events?limit=1000');
  assert.equal(res.status, 200);
  return ((await res.json()) as { audit_events: AuditEvent[] }).audit_events;
}

async function anchorsOf(server: TestServer): Promise<AnchorWithReceipts[]> {
  const { anchors } = (await (await server.api('/api/v1/audit/anchors?limit=1000')).json()) as { anchors: AuditAnchor[] };
  return Promise.all(
    anchors.map(async (a) => ({
      ...a,
      receipts: ((await (await server.api(`/api/v1/audit/anchors/${a.id}/receipts`)).json()) as { receipts: AnchorReceipt[] }).receipts,
    })),
  );
}

/** The canonical receipt (validated against the published schema) and the signed one (verified with the JWKS only). */
async function receiptsOf(
  server: TestServer,
  recordId: string,
): Promise<{ canonical: AuthorizationReceiptRecord; signed: { receipt: unknown; signature: string } }> {
  const verifiedBefore = signedReceiptsVerified();
  const canonical = await fetchReceipt(server, recordId, 'canonical');
  assert.equal(canonical.status, 200, JSON.stringify(canonical.body));
  const signed = await fetchReceipt(server, recordId, 'signed');
  assert.equal(signed.status, 200);
  assert.equal(signedReceiptsVerified(), verifiedBefore + 1, 'the signed receipt verified with only the JWKS');
  assert.deepEqual(signed.body.receipt, canonical.body.consent_receipt, 'the signed flavor signs the canonical receipt');
  return {
    canonical: canonical.body.consent_receipt as AuthorizationReceiptRecord,
    signed: signed.body as { receipt: unknown; signature: string },
  };
}

describe('approval decisions leave authorization records, receipts and audit events', () => {
  let server: TestServer;
  let receiver: Receiver;
  let secret: string;
  let keys: Keys;

  before(async () => {
    server = await startTestServer();
    receiver = await startReceiver(200);
    secret = (await createEndpoint(server, receiver.url, ['*'])).secret;
    keys = await keysOf(server);
  });
  after(async () => {
    await server.dispose();
    await receiver.close();
  });
  beforeEach(async () => {
    await delivered();
  });

  const delivered = () => deliveredEvents(server, receiver, secret);

  for (const o of OUTCOMES) {
    it(`${o.action} (${o.mode}): an authorization record, its receipt canonical and signed, dpv refused, one audit event, one webhook`, async () => {
      const scoped = o.action === 'approve';
      const d = await createApproval(
        server,
        o.mode,
        scoped ? { scope: 'payments:write payments:read', state: 'Pay invoice INV-7: 240.00 EUR' } : {},
      );
      assert.equal(d.record_id, null, 'no record before the decision');
      const before = (await auditTrail(server)).length;
      server.advance(30);
      const done = await ok(
        server,
        d.session_token,
        o.action === 'counter' ? { action: 'counter', proposal: 'Only up to 100 EUR, please — Ada' } : { action: o.action },
      );
      assert.equal(done.completion?.outcome, o.outcome);

      const read = await readDecision(server, d.session_token);
      assert.match(read.record_id ?? '', /^ar_us_[A-Za-z0-9]{20}$/);
      const recordId = read.record_id!;
      const exchanged = await exchange(server, d.session_token, done.completion!.exchange_token);
      assert.equal(exchanged.status, 200);
      assert.equal(((await exchanged.json()) as { record_id?: string }).record_id, recordId, 'the exchange names the record');

      // Canonical: field by field, nothing the platform cannot state.
      const { canonical, signed } = await receiptsOf(server, recordId);
      const application = server.sandbox.application_id;
      assert.deepEqual(canonical, {
        schema_version: 'svc-cr/2.13',
        conforms_to: 'ISO/IEC TS 27560:2023',
        record_id: recordId,
        record_type: 'authorization_record',
        anonymous: true,
        party_identification: [
          { party_id: recordId, party_name: UNIDENTIFIED_PRINCIPAL, party_role: 'principal' },
          {
            party_id: application,
            party_name: 'Sandbox application',
            party_role: 'agent',
            party_type: 'organization',
            provenance: 'declared',
          },
          { party_id: PLATFORM_PARTY_ID, party_name: 'svc reference server', party_role: 'processor', party_type: 'organization' },
        ],
        authority: {
          withdrawal_method: `${server.context.trustUrl}/authorization_receipts/${recordId}/withdraw`,
          ...(o.outcome === 'approved' ? { valid_from: read.completed_at! } : {}),
        },
        event: [
          {
            event_time: d.created_at,
            entity_id: application,
            event_type: 'regular',
            event_state: 'approval requested',
            approval_id: d.subject_ref,
          },
          { event_time: read.completed_at!, entity_id: recordId, event_type: 'explicit', event_state: o.state, approval_id: d.subject_ref },
        ],
        extensions: {
          delivery_mode: o.mode,
          ...(scoped ? { scopes: ['payments:write', 'payments:read'] } : {}),
          collection_channel: o.mode === 'embed' ? 'embedded' : 'hosted',
          captured_at: read.completed_at!,
          recorded_at: canonical.extensions?.recorded_at ?? 'missing',
        },
      });
      assert.ok(canonical.extensions!.recorded_at! >= read.completed_at!, 'recorded when (or just after) the principal decided');
      for (const forbidden of ['pii_principal_id', 'pii_processing']) assert.equal(forbidden in canonical, false, forbidden);
      assert.equal(JSON.stringify(canonical).includes('Ada'), false, 'the counter-proposal stays out of the receipt');

      // The signed receipt verifies offline; a changed outcome does not.
      const jwks = (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as never;
      assert.deepEqual(await verifyReceipt(signed, jwks), canonical);
      const forged = structuredClone(signed) as { receipt: AuthorizationReceiptRecord; signature: string };
      forged.receipt.event[1]!.event_state = o.outcome === 'approved' ? 'approval denied' : 'approval granted';
      await assert.rejects(verifyReceipt(forged, jwks), SvcReceiptSignatureError);

      // dpv: refused (Errors rule 11) with a 422 naming the flavor.
      const dpv = await server.api(`/api/v1/consent_receipts/${recordId}?flavor=dpv`);
      assert.equal(dpv.status, 422);
      const refusal = (await dpv.json()) as { message: string; code: string; errors: { path: string; code: string }[] };
      assert.equal(refusal.code, 'dpv_not_applicable');
      assert.match(refusal.message, /personal-data processing/);
      assert.deepEqual(
        refusal.errors.map((e) => [e.path, e.code]),
        [['flavor', 'dpv_not_applicable']],
      );

      // The spec's authorization receipt path serves the same receipt in its own envelope.
      const spec = await server.api(`/api/v1/authorization_receipts/${recordId}`);
      assert.equal(spec.status, 200);
      assert.deepEqual(((await spec.json()) as { authorization_receipt: unknown }).authorization_receipt, canonical);
      const specSigned = (await (await server.api(`/api/v1/authorization_receipts/${recordId}?flavor=signed`)).json()) as {
        receipt: unknown;
        signature: string;
      };
      assert.deepEqual(await verifyReceipt(specSigned, jwks), canonical);
      assert.equal((await server.api(`/api/v1/authorization_receipts/${recordId}?flavor=dpv`)).status, 422);

      // One audit event, ids and outcome only; the chain verifies.
      const trail = await auditTrail(server);
      const added = trail.slice(before);
      assert.deepEqual(
        added.map((e) => e.type),
        [o.type],
      );
      assert.deepEqual(added[0]!.data, {
        decision: o.decision,
        record_id: recordId,
        record_type: 'authorization_record',
        decision_id: d.id,
        approval_id: d.subject_ref,
        outcome: o.outcome,
        channel: canonical.extensions!.collection_channel,
        decided_at: read.completed_at,
      });
      assert.equal(added[0]!.occurred_at, canonical.extensions!.recorded_at);
      assert.deepEqual(await verifyAuditChain(trail, [], keys), {
        ok: true,
        events: trail.length,
        anchors: 0,
        anchored_through: null,
        witnessed: 0,
        externally_witnessed: 0,
        witnesses: [],
      });

      // One webhook, naming the record.
      const events = await delivered();
      assert.deepEqual(
        events.map((e) => e.type),
        [o.type],
      );
      const data = events[0]!.data as Record<string, unknown>;
      assert.deepEqual([data.record_id, data.decision_id, data.escalation_id, data.outcome], [recordId, d.id, d.subject_ref, o.outcome]);
      assert.equal(server.context.metrics.value('webhooks.payload_invalid_total', { type: o.type }), 0);
    });
  }

  it('reads through @svc/client: the signed receipt verifies with the JWKS; getDpv is a SvcValidationError (dpv_not_applicable)', async () => {
    const d = await createApproval(server, 'popup');
    await ok(server, d.session_token, { action: 'approve' });
    const recordId = (await readDecision(server, d.session_token)).record_id!;
    const svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token, maxRetries: 0 });
    const receipt = await verifyReceipt(await svc.receipts.getSigned(recordId), await svc.receipts.jwks());
    assert.equal(receipt.record_type, 'authorization_record');
    assert.deepEqual(await svc.receipts.get(recordId), receipt);
    await assert.rejects(
      svc.receipts.getDpv(recordId),
      (err: unknown) => err instanceof SvcValidationError && err.reason === 'dpv_not_applicable' && /personal-data/.test(err.message),
    );
  });

  it("names an approval's audit row changed directly in SQLite, and anchors approvals with everything else", async () => {
    const d = await createApproval(server, 'embed');
    await ok(server, d.session_token, { action: 'deny' });
    const recordId = (await readDecision(server, d.session_token)).record_id!;
    const db = server.context.db;
    const row = db
      .prepare("SELECT sequence, data FROM audit_events WHERE application_id = ? AND json_extract(data, '$.record_id') = ?")
      .get(server.sandbox.application_id, recordId) as { sequence: number; data: string };
    const altered = row.data.replace('"denied"', '"approved"');
    assert.notEqual(altered, row.data);
    db.prepare('UPDATE audit_events SET data = ? WHERE application_id = ? AND sequence = ?').run(
      altered,
      server.sandbox.application_id,
      row.sequence,
    );
    try {
      const result = await verifyAuditChain(await auditTrail(server), [], keys);
      assert.deepEqual(result.ok ? undefined : [result.sequence, result.reason], [row.sequence, 'hash_mismatch']);
    } finally {
      db.prepare('UPDATE audit_events SET data = ? WHERE application_id = ? AND sequence = ?').run(
        row.data,
        server.sandbox.application_id,
        row.sequence,
      );
    }

    await anchorNow(server.context);
    const trail = await auditTrail(server);
    assert.ok(trail.some((e) => e.type.startsWith('approval.')));
    assert.ok(
      trail.every((e) => e.anchor_id !== null),
      'approval events are anchored like every other',
    );
    const anchors = await anchorsOf(server);
    const verified = await verifyAuditChain(trail, anchors, keys, { requireWitness: true });
    assert.ok(verified.ok);
    const { witnesses: _witnesses, ...counts } = verified;
    assert.deepEqual(counts, {
      ok: true,
      events: trail.length,
      anchors: anchors.length,
      anchored_through: trail.length,
      witnessed: anchors.length,
      externally_witnessed: 0,
    });
  });

  it('does not confuse consent reads: no consent record, person or status; the consent record path points at the receipt', async () => {
    const count = (table: string) => server.context.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
    const before = [count('consent_records'), count('persons'), count('receipt_emails')];
    const d = await createApproval(server, 'popup');
    await ok(server, d.session_token, { action: 'approve' });
    const recordId = (await readDecision(server, d.session_token)).record_id!;
    assert.deepEqual([count('consent_records'), count('persons'), count('receipt_emails')], before);
    await delivered();

    const read = await server.api(`/api/v1/consent_records/${recordId}`);
    assert.equal(read.status, 404);
    assert.match(
      ((await read.json()) as { message: string }).message,
      new RegExp(`authorization record.*/api/v1/consent_receipts/${recordId}`),
    );
    const withdraw = await server.api(`/api/v1/consent_records/${recordId}/withdraw`, { method: 'POST', json: {} });
    assert.equal(withdraw.status, 404);
    assert.deepEqual(await delivered(), [], 'nothing withdrawn, nothing announced');

    // A consent record is not an authorization record.
    const consent = await createDecision(server, { kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'popup' });
    await ok(server, consent.session_token, { action: 'decline' });
    const consentRecordId = (await readDecision(server, consent.session_token)).record_id!;
    assert.match(consentRecordId, /^cr_/);
    assert.equal((await server.api(`/api/v1/authorization_receipts/${consentRecordId}`)).status, 404);
    assert.equal((await server.api('/api/v1/authorization_receipts/ar_nope')).status, 404);
    assert.equal((await server.api('/api/v1/consent_receipts/ar_nope')).status, 404);
    assert.equal((await server.api(`/api/v1/authorization_receipts/${recordId}?flavor=pdf`)).status, 400);

    // Another account cannot read it.
    const other = await server.api('/api/v1/consent_receipts/' + recordId, { headers: { authorization: 'Bearer not-a-token' } });
    assert.equal(other.status, 401);
  });

  it('the withdrawal method is a credential-free page that says how to withdraw, truthfully per outcome', async () => {
    const granted = await createApproval(server, 'popup');
    await ok(server, granted.session_token, { action: 'approve' });
    const grantedId = (await readDecision(server, granted.session_token)).record_id!;
    const { canonical } = await receiptsOf(server, grantedId);
    const page = await fetch(canonical.authority.withdrawal_method); // no credential at all
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    const text = await page.text();
    assert.match(text, /contact Sandbox application/);
    assert.ok(text.includes(grantedId));

    const denied = await createApproval(server, 'popup');
    await ok(server, denied.session_token, { action: 'deny' });
    const deniedId = (await readDecision(server, denied.session_token)).record_id!;
    assert.match(await (await fetch(`${server.url}/authorization_receipts/${deniedId}/withdraw`)).text(), /Nothing was authorized/);
    assert.equal((await fetch(`${server.url}/authorization_receipts/ar_nope/withdraw`)).status, 404);
    assert.equal((await fetch(`${server.url}/authorization_receipts/${'x'.repeat(5000)}/withdraw`)).status, 404);
    await delivered();
  });

  it('cancelled and expired approvals make no record; a scope the schema cannot hold is left out', async () => {
    const count = () => server.context.db.prepare('SELECT count(*) FROM authorization_records').pluck().get() as number;
    const before = count();
    const cancelled = await createApproval(server, 'popup');
    await ok(server, cancelled.session_token, { action: 'cancel', cancelled_by: 'user' });
    assert.equal((await readDecision(server, cancelled.session_token)).record_id, null);
    const expired = await createApproval(server, 'popup');
    server.advance(16 * 60);
    assert.equal((await readDecision(server, expired.session_token)).status, 'expired');
    assert.equal(count(), before);
    assert.deepEqual(await delivered(), []);

    const long = await createApproval(server, 'popup', { scope: 'y'.repeat(600) });
    await ok(server, long.session_token, { action: 'approve' });
    const { canonical } = await receiptsOf(server, (await readDecision(server, long.session_token)).record_id!);
    assert.equal(canonical.extensions?.scopes, undefined, 'a 600-character scope token does not fit the schema: not stated');
    assert.equal(count(), before + 1);
    await delivered();
  });

  it('is one transaction: when the record cannot be written, the approval does not complete and nothing is emitted', async () => {
    const db = server.context.db;
    const d = await createApproval(server, 'embed');
    const counts = () =>
      ['authorization_records', 'audit_events', 'webhook_events'].map((t) => db.prepare(`SELECT count(*) FROM ${t}`).pluck().get());
    const before = counts();
    db.exec("CREATE TRIGGER refuse_authorizations BEFORE INSERT ON authorization_records BEGIN SELECT RAISE(ABORT, 'refused'); END");
    try {
      assert.equal((await step(server, d.session_token, { action: 'approve' })).status, 500);
    } finally {
      db.exec('DROP TRIGGER refuse_authorizations');
    }
    assert.deepEqual(counts(), before);
    const read = await readDecision(server, d.session_token);
    assert.deepEqual([read.status, read.record_id, read.completed_at], ['pending', null, null]);
    assert.deepEqual(await delivered(), []);
    await ok(server, d.session_token, { action: 'approve' });
    assert.match((await readDecision(server, d.session_token)).record_id ?? '', /^ar_/);
    assert.deepEqual(
      (await delivered()).map((e) => e.type),
      ['approval.granted'],
    );
  });

  it('every receipt above matched the published schema', () => {
    // fetchReceipt validated each canonical and signed receipt against schemas/receipt/v2/record.json; check the
    // validator refuses what an authorization record must never carry.
    const base = {
      schema_version: 'svc-cr/2.13',
      conforms_to: 'ISO/IEC TS 27560:2023',
      record_id: 'ar_1',
      record_type: 'authorization_record',
      anonymous: true,
      party_identification: [{ party_id: 'ar_1', party_name: UNIDENTIFIED_PRINCIPAL, party_role: 'principal' }],
      authority: { withdrawal_method: 'https://svc.example/authorization_receipts/ar_1/withdraw' },
      event: [
        {
          event_time: '2026-01-01T00:00:00.000Z',
          entity_id: 'ar_1',
          event_type: 'explicit',
          event_state: 'approval granted',
          approval_id: 'esc_1',
        },
      ],
    };
    assertValidReceipt(base);
    assert.throws(() => assertValidReceipt({ ...base, extensions: { agent_disclosures: [] } }));
    assert.throws(() => assertValidReceipt({ ...base, extensions: { signature_evidence: { pointer: 'p', digest: 'd' } } }));
    assert.throws(() => assertValidReceipt({ ...base, authority: {} }), 'withdrawal_method is required');
  });
});

describe('authorization records across a restart', () => {
  it('keeps the record, its receipt (same signature check), the decision link and the audit chain', async () => {
    const first = await startTestServer();
    const dataDir = first.dataDir;
    const d = await createApproval(first, 'popup', { scope: 'calendar:read' });
    await ok(first, d.session_token, { action: 'approve' });
    const recordId = (await readDecision(first, d.session_token)).record_id!;
    const { canonical } = await receiptsOf(first, recordId);
    const trail = await auditTrail(first);
    await first.close();

    const second = await startTestServer({ dataDir });
    try {
      assert.equal((await readDecision(second, d.session_token)).record_id, recordId);
      const again = await receiptsOf(second, recordId); // signed again with the kept key, verified with the JWKS
      assert.deepEqual(again.canonical, canonical);
      assert.deepEqual(await auditTrail(second), trail);
      assert.equal((await verifyAuditChain(trail, [], await keysOf(second))).ok, true);
      assert.equal((await fetch(canonical.authority.withdrawal_method.replace(first.url, second.url))).status, 200);
    } finally {
      await second.dispose();
    }
  });
});
