// Data licenses: the organisation's license to data under an active agreement of its account, optionally for a
// number of accesses. Every access is counted in one transaction with a conditional update, so the count never
// passes `max_access_count` however requests race: once every access is used the license is `exhausted` and a
// further access is 409 `max_access_count_reached`. `active | exhausted -> revoked` (final).
import type {
  CreateDataLicenseRequest,
  DataLicense,
  DataLicenseAccess,
  DataLicenseStatus,
  RecordDataLicenseAccessRequest,
} from '@svc/schemas';
import { findAgreementRow } from '../agree/agreements/store.js';
import { appendAuditEvent } from '../../consent/audit/chain.js';
import { assertHomedHere } from '../../infra/cells/routing.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError } from '../../infra/errors.js';
import { homedId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import { accountApplication, illegalTransition, parsed, refused } from './common.js';

export interface DataLicenseRow {
  seq: number;
  id: string;
  account_id: string;
  agreement_id: string;
  application_id: string;
  max_access_count: number | null;
  access_count: number;
  terms: string;
  status: DataLicenseStatus;
  last_accessed_at: string | null;
  revoked_at: string | null;
  created_at: string;
  updated_at: string;
}

interface AccessRow {
  seq: number;
  id: string;
  data_license_id: string;
  sequence: number;
  purpose: string | null;
  accessor: string | null;
  accessed_at: string;
}

const LICENSE_ID = /^dlic_(?:[a-z]{2}_)?[A-Za-z0-9]{16,24}$/;
const byId = (ctx: ServerContext, id: string) => stmt<[string], DataLicenseRow>(ctx.db, 'SELECT * FROM data_licenses WHERE id = ?').get(id);
const remaining = (row: Pick<DataLicenseRow, 'max_access_count' | 'access_count'>) =>
  row.max_access_count === null ? null : Math.max(0, row.max_access_count - row.access_count);

export function toDataLicense(ctx: ServerContext, row: DataLicenseRow): DataLicense {
  return {
    id: row.id,
    agreement_id: row.agreement_id,
    application_id: row.application_id,
    max_access_count: row.max_access_count,
    access_count: row.access_count,
    remaining_accesses: remaining(row),
    terms: parsed(row.terms)!,
    status: row.status,
    last_accessed_at: row.last_accessed_at,
    revoked_at: row.revoked_at,
    home_country: ctx.country,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function toAccess(row: AccessRow, license: DataLicenseRow): DataLicenseAccess {
  return {
    id: row.id,
    data_license_id: row.data_license_id,
    sequence: row.sequence,
    purpose: row.purpose,
    accessor: row.accessor,
    accessed_at: row.accessed_at,
    remaining_accesses: license.max_access_count === null ? null : Math.max(0, license.max_access_count - row.sequence),
  };
}

/** The account's license `id`, or undefined. */
export function findDataLicense(ctx: ServerContext, accountId: string, id: string): DataLicenseRow | undefined {
  if (!LICENSE_ID.test(id)) return undefined;
  const row = byId(ctx, id);
  return row?.account_id === accountId ? row : undefined;
}

/**
 * Issues a license under `agreement_id`, which must be an agreement of the account (422 `agreement_not_found`; 421
 * when homed in another cell) and active (422 `agreement_not_active`); the application defaults to the agreement's.
 */
export function createDataLicense(ctx: ServerContext, accountId: string, input: CreateDataLicenseRequest): DataLicenseRow {
  assertHomedHere(ctx, input.agreement_id);
  const agreement = findAgreementRow(ctx, accountId, input.agreement_id);
  if (!agreement) throw refused('agreement_id', 'agreement_not_found', `No agreement ${input.agreement_id} in this account.`);
  if (agreement.status !== 'active') {
    throw refused(
      'agreement_id',
      'agreement_not_active',
      `Agreement ${agreement.id} is ${agreement.status}: a data license needs an active agreement (its quorum signed).`,
    );
  }
  const applicationId =
    input.application_id === undefined
      ? agreement.application_id
      : accountApplication(ctx, accountId, input.application_id, 'application_id');
  const id = homedId(ctx.country, 'dlic_', 20);
  const now = isoNow(ctx.clock);
  return transaction(ctx.db, () => {
    stmt(
      ctx.db,
      `INSERT INTO data_licenses (id, account_id, agreement_id, application_id, max_access_count, access_count, terms, status, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, 0, ?, 'active', ?, ?)`,
    ).run(id, accountId, agreement.id, applicationId, input.max_access_count ?? null, JSON.stringify(input.terms ?? {}), now, now);
    appendAuditEvent(ctx, {
      applicationId,
      type: 'data_license.created',
      occurredAt: now,
      data: { data_license_id: id, agreement_id: agreement.id, max_access_count: input.max_access_count ?? null },
    });
    return byId(ctx, id)!;
  });
}

/** A page of the account's licenses, oldest first. */
export function listDataLicenses(
  ctx: ServerContext,
  accountId: string,
  page: {
    limit: number;
    cursor?: string | undefined;
    status?: DataLicenseStatus | undefined;
    agreement_id?: string | undefined;
  },
) {
  const status = page.status ?? null;
  const agreement = page.agreement_id ?? null;
  const rows = stmt<unknown[], DataLicenseRow>(
    ctx.db,
    `SELECT * FROM data_licenses WHERE account_id = ? AND seq > ?
      AND (? IS NULL OR status = ?) AND (? IS NULL OR agreement_id = ?) ORDER BY seq LIMIT ?`,
  ).all(accountId, decodeCursor(page.cursor), status, status, agreement, agreement, page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return { data_licenses: items.map((r) => toDataLicense(ctx, r)), next_cursor };
}

/**
 * Counts one access, atomically: the count goes up only while the license is active and below its maximum (one
 * conditional UPDATE inside the transaction that also writes the access row), and the access that uses the last
 * allowance makes it `exhausted`. Refused: 409 `max_access_count_reached`, 409 `data_license_revoked`.
 */
export function recordAccess(
  ctx: ServerContext,
  license: DataLicenseRow,
  input: RecordDataLicenseAccessRequest,
): { access: DataLicenseAccess; license: DataLicenseRow } {
  return transaction(ctx.db, () => {
    const now = isoNow(ctx.clock);
    const counted = stmt(
      ctx.db,
      `UPDATE data_licenses SET access_count = access_count + 1, last_accessed_at = ?, updated_at = ?,
        status = CASE WHEN max_access_count IS NOT NULL AND access_count + 1 >= max_access_count THEN 'exhausted' ELSE status END
      WHERE id = ? AND status = 'active' AND (max_access_count IS NULL OR access_count < max_access_count)`,
    ).run(now, now, license.id);
    if (counted.changes === 0) {
      const current = byId(ctx, license.id)!;
      if (current.status === 'revoked')
        throw new ApiError(409, `Data license ${license.id} is revoked: no further access.`, 'data_license_revoked');
      throw new ApiError(
        409,
        `Data license ${license.id} allowed ${current.max_access_count} accesses, and all of them are used.`,
        'max_access_count_reached',
        [
          {
            path: 'max_access_count',
            code: 'max_access_count_reached',
            message: `${current.access_count} of ${current.max_access_count} accesses used`,
          },
        ],
      );
    }
    const after = byId(ctx, license.id)!;
    const id = homedId(ctx.country, 'dla_', 20);
    stmt(
      ctx.db,
      'INSERT INTO data_license_accesses (id, data_license_id, sequence, purpose, accessor, accessed_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(id, license.id, after.access_count, input.purpose ?? null, input.accessor ?? null, now);
    const row = stmt<[string], AccessRow>(ctx.db, 'SELECT * FROM data_license_accesses WHERE id = ?').get(id)!;
    return { access: toAccess(row, after), license: after };
  });
}

/** A page of a license's accesses, in the order they were counted. */
export function listAccesses(ctx: ServerContext, license: DataLicenseRow, page: { limit: number; cursor?: string | undefined }) {
  const rows = stmt<[string, number, number], AccessRow>(
    ctx.db,
    'SELECT * FROM data_license_accesses WHERE data_license_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  ).all(license.id, decodeCursor(page.cursor), page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return { data_license_accesses: items.map((r) => toAccess(r, license)), next_cursor };
}

/** `active | exhausted -> revoked`; revoking again is 409 `illegal_transition`. */
export function revokeDataLicense(ctx: ServerContext, license: DataLicenseRow): DataLicenseRow {
  return transaction(ctx.db, () => {
    const now = isoNow(ctx.clock);
    const changed = stmt(
      ctx.db,
      "UPDATE data_licenses SET status = 'revoked', revoked_at = ?, updated_at = ? WHERE id = ? AND status != 'revoked'",
    ).run(now, now, license.id);
    if (changed.changes === 0) throw illegalTransition('A data license cannot go from revoked to revoked: revocation is final.');
    appendAuditEvent(ctx, {
      applicationId: license.application_id,
      type: 'data_license.revoked',
      occurredAt: now,
      data: { data_license_id: license.id },
    });
    return byId(ctx, license.id)!;
  });
}
