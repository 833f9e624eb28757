// Step 6 of recording: persist. The record row (with its frozen receipt), the queued receipt email, the audit event
// and the `consent.granted`/`consent.denied` domain event, all inside the caller's transaction.
import type { ConsentReceiptRecord, ConsentRecord } from '@svc/schemas';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import type { DomainEvent } from '../../infra/events.js';
import { appendAuditEvent } from '../audit/chain.js';
import type { IssuedOutcome } from './attestation.js';
import { recordState, subjectRef } from './rows.js';
import type { ConsentRecordInput, RecordDraft, RecordOptions } from './types.js';

/** Consent was given for nothing: the flow asked for consent and every consent purpose was declined. */
function isDenial(outcomes: readonly IssuedOutcome[]): boolean {
  const consent = outcomes.filter((o) => o.basis === 'consent');
  return consent.length > 0 && consent.every((o) => o.outcome !== 'granted');
}

const purposeOutcomes = (outcomes: readonly IssuedOutcome[]) => outcomes.map(({ key, outcome, basis }) => ({ key, outcome, basis }));

function insertRecord(ctx: ServerContext, input: ConsentRecordInput, draft: RecordDraft, receipt: ConsentReceiptRecord): void {
  const { terms } = draft;
  const clientFacts =
    input.clientFacts || input.noticeHashes
      ? JSON.stringify({ ...(input.clientFacts ?? {}), ...(input.noticeHashes ? { notice_hashes: input.noticeHashes } : {}) })
      : null;
  stmt(
    ctx.db,
    `INSERT INTO consent_records (id, account_id, application_id, flow_id, flow_version, person_id, external_id, channel, captured_at,
            recorded_at, expires_at, locale, notice_hash, wording_verdict, purposes, idempotency_key, request_fingerprint, import_id,
            supersedes_record_id, suppress_receipt, client_facts, receipt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    draft.id,
    terms.account_id,
    draft.applicationId,
    input.flowId,
    terms.version,
    draft.personId,
    draft.externalId,
    input.channel,
    draft.capturedAt,
    draft.now,
    draft.expiresAt,
    input.locale ?? terms.config.locale,
    input.noticeHash ?? null,
    draft.verdict,
    JSON.stringify(draft.outcomes),
    input.idempotencyKey ?? null,
    draft.print,
    input.importId ?? null,
    draft.previous?.id ?? null,
    input.suppressReceipt ? 1 : 0,
    clientFacts,
    JSON.stringify(receipt),
  );
}

/** The audit event: `consent.modified` when it changed the previous record's outcomes, else granted or denied. */
function auditRecorded(ctx: ServerContext, input: ConsentRecordInput, draft: RecordDraft): void {
  const { previous, changed, outcomes } = draft;
  const evidence = {
    record_id: draft.id,
    flow_id: input.flowId,
    flow_version: draft.terms.version,
    person_id: draft.personId,
    channel: input.channel,
    captured_at: draft.capturedAt,
    purposes: outcomes.map(({ key, outcome }) => ({ key, outcome })),
    ...(previous ? { supersedes_record_id: previous.id } : {}),
    ...(changed.length && previous ? { changed } : {}),
    ...(input.importId ? { import_id: input.importId } : {}),
    ...(draft.anonymous ? { anonymous: true } : {}),
  };
  const decision = previous && changed.length ? 'modified' : isDenial(outcomes) ? 'denied' : 'granted';
  appendAuditEvent(ctx, {
    applicationId: draft.applicationId,
    type: `consent.${decision}`,
    occurredAt: draft.now,
    data: { decision, ...evidence },
  });
}

/** The domain event webhooks listen to, emitted (or handed to `options.announce`) unless `options.quiet`. */
function announceRecorded(ctx: ServerContext, input: ConsentRecordInput, draft: RecordDraft, options: RecordOptions): void {
  const recorded: DomainEvent = {
    type: isDenial(draft.outcomes) ? 'consent.denied' : 'consent.granted',
    application_id: draft.applicationId,
    occurred_at: draft.now,
    data: {
      record_id: draft.id,
      user_id: draft.anonymous ? null : draft.personId,
      flow_id: input.flowId,
      flow_version: draft.terms.version,
      channel: input.channel,
      subject_ref: subjectRef(draft.personId, draft.email, draft.externalId),
      purposes: purposeOutcomes(draft.outcomes),
      captured_at: draft.capturedAt,
      recorded_at: draft.now,
      expires_at: draft.expiresAt,
      supersedes_record_id: draft.previous?.id ?? null,
      ...(input.importId ? { import_id: input.importId } : {}),
    },
  };
  if (options.quiet) return;
  if (options.announce) options.announce(recorded);
  else ctx.events.emit(ctx, recorded);
}

/** Writes the drafted record and tells the audit trail and the listeners; returns the record's wire shape. */
export function persistRecord(
  ctx: ServerContext,
  input: ConsentRecordInput,
  draft: RecordDraft,
  receipt: ConsentReceiptRecord,
  options: RecordOptions,
): ConsentRecord {
  insertRecord(ctx, input, draft, receipt);
  // An anonymous principal has no address to send the receipt to.
  if ((options.sendReceipt ?? true) && !input.suppressReceipt && !draft.anonymous) {
    stmt(ctx.db, "INSERT INTO receipt_emails (record_id, person_id, status, created_at) VALUES (?, ?, 'queued', ?)").run(
      draft.id,
      draft.personId,
      draft.now,
    );
  }
  auditRecorded(ctx, input, draft);
  announceRecorded(ctx, input, draft, options);
  return {
    id: draft.id,
    status: recordState(draft.outcomes, [], draft.expiresAt, draft.now).status,
    purposes: purposeOutcomes(draft.outcomes),
    receipt_id: draft.id,
    captured_at: draft.capturedAt,
    recorded_at: draft.now,
    expires_at: draft.expiresAt,
    channel: input.channel,
    flow_id: input.flowId,
    flow_version: draft.terms.version,
    subject: { email: draft.email, external_id: draft.externalId },
    wording_verdict: draft.verdict,
  };
}
