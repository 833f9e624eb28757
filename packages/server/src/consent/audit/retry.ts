// Retrying witnesses: a `failed` anchor receipt is asked again, with backoff (1 minute, doubling, at most 1 hour
// apart, 20 tries in all), of the witness it names, while that witness is configured. A success turns the receipt
// `witnessed` in place.
import type { AuditAnchor } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { askWitness, type Witness } from './witness.js';
import { witnessesOf, witnessIdsOf } from './witnesses.js';

/** Tries of one witness for one anchor, the first included. */
export const MAX_WITNESS_ATTEMPTS = 20;
const FIRST_BACKOFF_MS = 60_000;
const MAX_BACKOFF_MS = 3_600_000;
const BATCH = 50;

/** When the try after `attempts` tries is due (ISO time), or null once the tries are used up. */
export function nextAttemptAt(ctx: ServerContext, attempts: number): string | null {
  if (attempts >= MAX_WITNESS_ATTEMPTS) return null;
  const backoff = Math.min(FIRST_BACKOFF_MS * 2 ** (attempts - 1), MAX_BACKOFF_MS);
  return new Date(ctx.clock.now() + backoff).toISOString();
}

interface DueRow extends AuditAnchor {
  receipt_row_id: string;
  receipt_witness_id: string;
  attempts: number;
}

/** Due failed receipts of these witnesses (a witness no longer configured is not asked). */
const dueSql = (witnessIds: readonly string[]) =>
  `FROM audit_anchor_receipts r JOIN audit_anchors a ON a.id = r.anchor_id
   WHERE r.status = 'failed' AND r.next_attempt_at IS NOT NULL AND r.next_attempt_at <= ?
     AND r.witness_id IN (${witnessIds.map(() => '?').join(', ')})`;

/** Whether any failed receipt is due (cheap: the timer asks every second). */
export function hasDueReceipts(ctx: ServerContext): boolean {
  if (!ctx.db.open) return false;
  const ids = witnessIdsOf(ctx);
  return ctx.db.prepare(`SELECT 1 ${dueSql(ids)} LIMIT 1`).get(isoNow(ctx.clock), ...ids) !== undefined;
}

/** Retries the due failed receipts of the configured witnesses; gives how many turned `witnessed`. */
export async function retryDueReceipts(ctx: ServerContext): Promise<number> {
  if (!ctx.db.open) return 0;
  const witnesses = new Map((await witnessesOf(ctx)).map((w) => [w.id, w]));
  const ids = [...witnesses.keys()];
  const due = ctx.db
    .prepare(
      `SELECT a.*, r.id AS receipt_row_id, r.witness_id AS receipt_witness_id, r.attempts AS attempts
       ${dueSql(ids)} ORDER BY r.next_attempt_at LIMIT ${BATCH}`,
    )
    .all(isoNow(ctx.clock), ...ids) as DueRow[];
  const results = await Promise.all(due.map((row) => retryOne(ctx, witnesses.get(row.receipt_witness_id)!, row)));
  return results.filter(Boolean).length;
}

async function retryOne(ctx: ServerContext, witness: Witness, row: DueRow): Promise<boolean> {
  const { receipt_row_id, receipt_witness_id: _w, attempts: previous, seq: _seq, ...anchor } = row as DueRow & { seq: number };
  const answer = await askWitness(witness, anchor);
  if (!ctx.db.open) return false;
  const attempts = previous + 1;
  if (answer.status === 'witnessed') {
    stmt(
      ctx.db,
      `UPDATE audit_anchor_receipts SET status = 'witnessed', receipt_id = ?, witness_key_version = ?, witness_signature = ?,
              witnessed_at = ?, attempts = ?, next_attempt_at = NULL, last_error = NULL WHERE id = ? AND status = 'failed'`,
    ).run(answer.receipt_id, answer.witness_key_version, answer.witness_signature, answer.witnessed_at, attempts, receipt_row_id);
    return true;
  }
  stmt(ctx.db, 'UPDATE audit_anchor_receipts SET attempts = ?, next_attempt_at = ?, last_error = ? WHERE id = ?').run(
    attempts,
    nextAttemptAt(ctx, attempts),
    answer.error ?? 'the witness refused the anchor',
    receipt_row_id,
  );
  return false;
}
