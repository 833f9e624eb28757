// Reading records back: one record, its receipt as read now, and a person's latest record per flow.
import type { CollectionChannel, ConsentReceiptRecord, ConsentRecord } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { renderReceipt, type WithdrawalFact } from '../receipts/canonical.js';
import type { IssuedOutcome } from './attestation.js';
import { findRow, issuedOf, toWire, withdrawalsOf, type RecordRow } from './rows.js';

/** The account's record `id` in its wire shape, or undefined. */
export function getConsentRecord(ctx: ServerContext, accountId: string, id: string): ConsentRecord | undefined {
  const row = findRow(ctx, accountId, id);
  return row && toWire(ctx, row);
}

/** The receipt of the account's record `id` as read now (frozen part plus appended events), or undefined. */
export function readReceipt(ctx: ServerContext, accountId: string, id: string): ConsentReceiptRecord | undefined {
  const row = findRow(ctx, accountId, id);
  if (!row) return undefined;
  return renderReceipt(JSON.parse(row.receipt) as ConsentReceiptRecord, {
    withdrawals: withdrawalsOf(ctx, row.id),
    expiresAt: row.expires_at,
    grantedConsentKeys: issuedOf(row)
      .filter((o) => o.outcome === 'granted')
      .map((o) => o.key),
    now: isoNow(ctx.clock),
  });
}

/** Everything the consent status needs about one record. */
export interface StatusRecord {
  id: string;
  flow_id: string;
  flow_version: number;
  person_id: string;
  external_id: string | null;
  channel: CollectionChannel;
  captured_at: string;
  expires_at: string | null;
  issued: IssuedOutcome[];
  withdrawals: WithdrawalFact[];
}

/** The person's latest record per flow of an application (latest by `captured_at`). */
export function latestRecordsPerFlow(ctx: ServerContext, applicationId: string, personId: string): StatusRecord[] {
  const rows = stmt<[string, string], RecordRow>(
    ctx.db,
    'SELECT * FROM consent_records WHERE application_id = ? AND person_id = ? ORDER BY captured_at DESC, seq DESC',
  ).all(applicationId, personId);
  const seen = new Set<string>();
  const latest: StatusRecord[] = [];
  for (const row of rows) {
    if (seen.has(row.flow_id)) continue;
    seen.add(row.flow_id);
    latest.push({
      id: row.id,
      flow_id: row.flow_id,
      flow_version: row.flow_version,
      person_id: row.person_id,
      external_id: row.external_id,
      channel: row.channel,
      captured_at: row.captured_at,
      expires_at: row.expires_at,
      issued: issuedOf(row),
      withdrawals: withdrawalsOf(ctx, row.id),
    });
  }
  return latest;
}
