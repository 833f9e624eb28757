// A consent record as stored (one row plus its withdrawals) and how it reads: its state now and its wire shape.
import type { CollectionChannel, ConsentRecord, ConsentRecordStatus, PurposeBasis, RecordPurposeOutcome } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import type { WithdrawalFact } from '../receipts/canonical.js';
import type { IssuedOutcome } from './attestation.js';

export interface RecordRow {
  seq: number;
  id: string;
  account_id: string;
  application_id: string;
  flow_id: string;
  flow_version: number;
  person_id: string;
  external_id: string | null;
  channel: CollectionChannel;
  captured_at: string;
  recorded_at: string;
  expires_at: string | null;
  locale: string;
  notice_hash: string | null;
  wording_verdict: 'match' | 'wording_drift' | null;
  purposes: string;
  idempotency_key: string | null;
  request_fingerprint: string | null;
  import_id: string | null;
  supersedes_record_id: string | null;
  suppress_receipt: number;
  client_facts: string | null;
  receipt: string;
}

export interface WithdrawalRow extends WithdrawalFact {
  seq: number;
  record_id: string;
  superseding_record_id: string | null;
}

/**
 * Whether a record's principal is anonymous: an anonymous record's principal is the record itself (its person row
 * has the record id as id, and no email), as the spec has it: "`record_id` stands in for the principal".
 */
export function isAnonymousPrincipal(personId: string): boolean {
  return personId.startsWith('cr_');
}

export function withdrawalsOf(ctx: ServerContext, recordId: string): WithdrawalRow[] {
  return stmt<[string], Omit<WithdrawalRow, 'scoped'> & { scoped: number }>(
    ctx.db,
    'SELECT * FROM consent_withdrawals WHERE record_id = ? ORDER BY seq',
  )
    .all(recordId)
    .map((w) => ({ ...w, scoped: w.scoped === 1 }));
}

export function issuedOf(row: RecordRow): IssuedOutcome[] {
  return JSON.parse(row.purposes) as IssuedOutcome[];
}

/** A record's current purpose outcomes and status at `now`. */
export function recordState(
  issued: readonly IssuedOutcome[],
  withdrawals: readonly WithdrawalFact[],
  expiresAt: string | null,
  now: string,
): {
  status: ConsentRecordStatus;
  purposes: RecordPurposeOutcome[];
} {
  const withdrawn = new Map(withdrawals.map((w) => [w.purpose_key, w.outcome]));
  const purposes = issued.map((o) => ({ key: o.key, outcome: withdrawn.get(o.key) ?? o.outcome, basis: o.basis as PurposeBasis | null }));
  const granted = issued.filter((o) => o.outcome === 'granted');
  const allRevoked = granted.length > 0 && granted.every((o) => withdrawn.get(o.key) === 'revoked');
  const status: ConsentRecordStatus = allRevoked ? 'revoked' : expiresAt !== null && expiresAt <= now ? 'expired' : 'fulfilled';
  return { status, purposes };
}

/** The person's email; empty for an anonymous principal, which has none. */
export function emailOf(ctx: ServerContext, personId: string): string {
  if (isAnonymousPrincipal(personId)) return '';
  return stmt<[string], { email: string }>(ctx.db, 'SELECT email FROM persons WHERE id = ?').get(personId)?.email ?? '';
}

/** The subject reference events carry: null for an anonymous principal. */
export function subjectRef(personId: string, email: string, externalId: string | null) {
  return isAnonymousPrincipal(personId) ? null : { email, external_id: externalId };
}

export function toWire(
  ctx: ServerContext,
  row: RecordRow,
  withdrawals: readonly WithdrawalFact[] = withdrawalsOf(ctx, row.id),
): ConsentRecord {
  const { status, purposes } = recordState(issuedOf(row), withdrawals, row.expires_at, isoNow(ctx.clock));
  return {
    id: row.id,
    status,
    purposes,
    receipt_id: row.id,
    captured_at: row.captured_at,
    recorded_at: row.recorded_at,
    expires_at: row.expires_at,
    channel: row.channel,
    flow_id: row.flow_id,
    flow_version: row.flow_version,
    subject: { email: emailOf(ctx, row.person_id), external_id: row.external_id },
    wording_verdict: row.wording_verdict,
  };
}

/** The account's record `id`, or undefined (another account's record is not there). */
export function findRow(ctx: ServerContext, accountId: string, id: string): RecordRow | undefined {
  const row = stmt<[string], RecordRow>(ctx.db, 'SELECT * FROM consent_records WHERE id = ?').get(id);
  return row && row.account_id === accountId ? row : undefined;
}
