// What the withdrawal pages show of a record: who holds it, the terms' title and purpose labels, each purpose's
// outcome now and whether it can still be withdrawn. Records are found by id (a record link) or by person and
// organisation together (a management link), never by anything the page's visitor chooses beyond that.
import type { ConsentRecordStatus, PurposeOutcomeValue } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { issuedOf, recordState, withdrawalsOf, type RecordRow } from '../../consent/records/rows.js';
import { withdrawableUnder } from '../../consent/records/withdrawals.js';
import { getFlowVersion } from '../../platform/flows/store.js';

/** One purpose as the person reads it. */
export interface PurposeView {
  key: string;
  label: string;
  outcome: PurposeOutcomeValue;
  basis: string | null;
  withdrawable: boolean;
  /** When it was withdrawn or objected to. */
  withdrawnAt: string | undefined;
}

/** One record as the withdrawal pages show it. */
export interface RecordView {
  id: string;
  accountId: string;
  status: ConsentRecordStatus;
  recordedAt: string;
  expiresAt: string | null;
  locale: string;
  applicationName: string;
  /** The title of the terms the record was given under, when they are found. */
  title: string | null;
  purposes: PurposeView[];
}

type Row = RecordRow & { application_name: string };

const SELECT = 'SELECT r.*, ap.name AS application_name FROM consent_records r JOIN applications ap ON ap.id = r.application_id';

/** The most records a management page lists (newest first); an older one is still withdrawn through its own receipt. */
export const MANAGE_LIMIT = 100;

function viewOf(ctx: ServerContext, row: Row): RecordView {
  const withdrawals = withdrawalsOf(ctx, row.id);
  const { status, purposes } = recordState(issuedOf(row), withdrawals, row.expires_at, isoNow(ctx.clock));
  const terms = getFlowVersion(ctx, row.flow_id, row.flow_version);
  const labels = new Map(terms?.config.purposes.map((p) => [p.key, p.label]));
  const withdrawable = withdrawableUnder(ctx, row);
  const withdrawnAt = new Map(withdrawals.map((w) => [w.purpose_key, w.withdrawn_at]));
  return {
    id: row.id,
    accountId: row.account_id,
    status,
    recordedAt: row.recorded_at,
    expiresAt: row.expires_at,
    locale: row.locale,
    applicationName: row.application_name,
    title: terms?.title ?? null,
    purposes: purposes.map((p) => ({
      key: p.key,
      label: labels.get(p.key) ?? p.key,
      outcome: p.outcome,
      basis: p.basis,
      withdrawable: status !== 'expired' && withdrawable(p),
      withdrawnAt: withdrawnAt.get(p.key),
    })),
  };
}

/** The record a record link opens, or undefined. */
export function recordView(ctx: ServerContext, id: string): RecordView | undefined {
  const row = stmt<[string], Row>(ctx.db, `${SELECT} WHERE r.id = ?`).get(id);
  return row && viewOf(ctx, row);
}

/** The person's record `id` with this organisation, or undefined (another person's or organisation's is not there). */
export function personRecordView(ctx: ServerContext, accountId: string, personId: string, id: string): RecordView | undefined {
  const row = stmt<[string, string, string], Row>(ctx.db, `${SELECT} WHERE r.id = ? AND r.account_id = ? AND r.person_id = ?`).get(
    id,
    accountId,
    personId,
  );
  return row && viewOf(ctx, row);
}

/**
 * The organisation's name and the person's records with it, newest first (at most {@link MANAGE_LIMIT}, `more` when
 * there are older ones); undefined when the person is not one of that organisation's.
 */
export function personRecords(
  ctx: ServerContext,
  accountId: string,
  personId: string,
): { organisation: string; records: RecordView[]; more: boolean } | undefined {
  const organisation = stmt<[string, string], { name: string }>(
    ctx.db,
    'SELECT a.name FROM persons p JOIN accounts a ON a.id = p.account_id WHERE p.id = ? AND p.account_id = ?',
  ).get(personId, accountId)?.name;
  if (organisation === undefined) return undefined;
  const rows = stmt<[string, string, number], Row>(
    ctx.db,
    `${SELECT} WHERE r.account_id = ? AND r.person_id = ? ORDER BY r.recorded_at DESC, r.seq DESC LIMIT ?`,
  ).all(accountId, personId, MANAGE_LIMIT + 1);
  return { organisation, records: rows.slice(0, MANAGE_LIMIT).map((row) => viewOf(ctx, row)), more: rows.length > MANAGE_LIMIT };
}
