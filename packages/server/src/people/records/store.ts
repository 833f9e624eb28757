// A person's own consent records: which records a signed-in person may see, and how each reads for them. Records
// belong to a person row per organisation, so a person's records are found by their verified email; what an
// organisation's client sees stops at that organisation, so it never learns what the person agreed to elsewhere.
import type { ConsentRecordStatus, PersonConsentRecord, RecordPurposeOutcome } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { DEFAULT_LIMIT, decodeCursor, toPage } from '../../infra/pagination.js';
import { ENDED, REVOKED } from '../../consent/records/list.js';
import { issuedOf, recordState, withdrawalsOf, type RecordRow } from '../../consent/records/rows.js';
import { withdrawableUnder } from '../../consent/records/withdrawals.js';
import { getFlowVersion } from '../../platform/flows/store.js';
import { type PersonReader, readerParams, readerPersons } from '../reader.js';
import { recordWithdrawalUrl } from '../withdrawal/links.js';

type PersonRecordRow = RecordRow & { organisation_name: string; application_name: string };

const WHOSE = readerPersons('r.person_id');
const SELECT = `SELECT r.*, a.name AS organisation_name, ap.name AS application_name
  FROM consent_records r JOIN accounts a ON a.id = r.account_id JOIN applications ap ON ap.id = r.application_id`;

/** A page of the reader's records homed in this cell, most recently recorded first (`seq`), optionally of one status now. */
export function listPersonRecords(
  ctx: ServerContext,
  reader: PersonReader,
  page: { limit?: number | undefined; cursor?: string | undefined; status?: ConsentRecordStatus | undefined },
): { consent_records: PersonConsentRecord[]; next_cursor: string | null } {
  const limit = page.limit ?? DEFAULT_LIMIT;
  const before = page.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(page.cursor);
  const now = isoNow(ctx.clock);
  const status = {
    revoked: [REVOKED, []],
    expired: [`NOT ${REVOKED} AND ${ENDED}`, [now]],
    fulfilled: [`NOT ${REVOKED} AND NOT ${ENDED}`, [now]],
  } as const;
  const [condition, params] = page.status ? status[page.status] : ['1', []];
  const rows = stmt<unknown[], PersonRecordRow>(
    ctx.db,
    `${SELECT} WHERE ${WHOSE} AND r.seq < ? AND ${condition} ORDER BY r.seq DESC LIMIT ?`,
  ).all(...readerParams(reader), before, ...params, limit + 1);
  const { items, next_cursor } = toPage(rows, limit, (r) => r.seq);
  return { consent_records: items.map((row) => toPersonRecord(ctx, row)), next_cursor };
}

/** The reader's record `id` (its organisation's id with it), or undefined: another person's record is not there. */
export function findPersonRecord(ctx: ServerContext, reader: PersonReader, id: string): PersonRecordRow | undefined {
  return stmt<unknown[], PersonRecordRow>(ctx.db, `${SELECT} WHERE r.id = ? AND ${WHOSE}`).get(id, ...readerParams(reader));
}

/** A record as the person reads it: its state now, under the labels and title of the terms that govern it. */
export function toPersonRecord(ctx: ServerContext, row: PersonRecordRow): PersonConsentRecord {
  const { status, purposes } = recordState(issuedOf(row), withdrawalsOf(ctx, row.id), row.expires_at, isoNow(ctx.clock));
  const terms = getFlowVersion(ctx, row.flow_id, row.flow_version);
  const byKey = new Map(terms?.config.purposes.map((p) => [p.key, p]));
  const withdrawable = withdrawableUnder(ctx, row);
  return {
    id: row.id,
    status,
    recorded_at: row.recorded_at,
    captured_at: row.captured_at,
    expires_at: row.expires_at,
    flow_id: row.flow_id,
    organisation: { id: row.account_id, name: row.organisation_name },
    application: { id: row.application_id, name: row.application_name },
    title: terms?.title ?? null,
    purposes: purposes.map((p) => ({
      key: p.key,
      label: byKey.get(p.key)?.label ?? p.key,
      outcome: p.outcome,
      basis: p.basis,
      withdrawable: status !== 'expired' && withdrawable(p),
    })),
    receipt_id: row.id,
    withdrawal_method: recordWithdrawalUrl(ctx, row.id),
  };
}
