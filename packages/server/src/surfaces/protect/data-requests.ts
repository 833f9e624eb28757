// Data requests (DSAR): a person asks an application of the organisation for access to, erasure, portability or
// rectification of their data; the organisation processes it. Due 30 days after receipt (server clock); the
// organisation may extend it once, before it is due, by at most 60 days. `received -> in_progress -> completed`,
// `received | in_progress -> rejected`; completed and rejected are final. Completing an access request attaches an
// export of what the service holds about the person.
import {
  DATA_REQUEST_DUE_DAYS,
  DATA_REQUEST_MAX_EXTENSION_DAYS,
  type CreateDsarRequest,
  type DataRequest,
  type DataRequestExport,
  type DataRequestStatus,
  type DsarType,
  type ExtendDataRequestRequest,
} from '@svc/schemas';
import { appendAuditEvent } from '../../consent/audit/chain.js';
import { assertHomedHere } from '../../infra/cells/routing.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { homedId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import { accountApplication, illegalTransition, parsed, plusDays, type Caller } from './common.js';

export interface DataRequestRow {
  seq: number;
  id: string;
  account_id: string;
  application_id: string;
  person_id: string;
  dsar_type: DsarType;
  scope: string | null;
  status: DataRequestStatus;
  due_date: string;
  original_due_date: string;
  extended_at: string | null;
  extension_reason: string | null;
  received_at: string;
  started_at: string | null;
  completed_at: string | null;
  completion_note: string | null;
  rejected_at: string | null;
  rejection_reason: string | null;
  export: string | null;
  updated_at: string;
}

/** What the organisation does to a request. */
export type DataRequestAction = 'start' | 'extend' | 'complete' | 'reject';

/** The allowed moves: state -> action -> next state (an extension keeps the state and moves the due date). */
export const DATA_REQUEST_TRANSITIONS: Readonly<
  Record<DataRequestStatus, Readonly<Partial<Record<DataRequestAction, DataRequestStatus>>>>
> = {
  received: { start: 'in_progress', extend: 'received', reject: 'rejected' },
  in_progress: { complete: 'completed', extend: 'in_progress', reject: 'rejected' },
  completed: {},
  rejected: {},
};

const TARGET: Record<DataRequestAction, string> = { start: 'in_progress', extend: 'extended', complete: 'completed', reject: 'rejected' };
const OPEN: readonly DataRequestStatus[] = ['received', 'in_progress'];

const DATA_REQUEST_ID = /^dsar_(?:[a-z]{2}_)?[A-Za-z0-9]{16,24}$/;

export function toDataRequest(ctx: ServerContext, row: DataRequestRow): DataRequest {
  return {
    id: row.id,
    application_id: row.application_id,
    person_id: row.person_id,
    dsar_type: row.dsar_type,
    scope: parsed<DataRequest['scope']>(row.scope),
    status: row.status,
    due_date: row.due_date,
    overdue: OPEN.includes(row.status) && Date.parse(row.due_date) < ctx.clock.now(),
    extended: row.extended_at !== null,
    original_due_date: row.original_due_date,
    extended_at: row.extended_at,
    extension_reason: row.extension_reason,
    received_at: row.received_at,
    started_at: row.started_at,
    completed_at: row.completed_at,
    completion_note: row.completion_note,
    rejected_at: row.rejected_at,
    rejection_reason: row.rejection_reason,
    export: parsed<DataRequestExport>(row.export),
    home_country: ctx.country,
    created_at: row.received_at,
    updated_at: row.updated_at,
  };
}

const byId = (ctx: ServerContext, id: string) => stmt<[string], DataRequestRow>(ctx.db, 'SELECT * FROM data_requests WHERE id = ?').get(id);

/** The request `id` the caller may see (the account's for the organisation, their own for a person), or undefined. */
export function findDataRequest(ctx: ServerContext, caller: Caller, id: string): DataRequestRow | undefined {
  if (!DATA_REQUEST_ID.test(id)) return undefined;
  const row = byId(ctx, id);
  if (!row || row.account_id !== caller.accountId) return undefined;
  if (caller.kind === 'person' && row.person_id !== caller.personId) return undefined;
  return row;
}

/** Files the person's request with an application of the account: received now, due in 30 days. */
export function createDataRequest(
  ctx: ServerContext,
  person: Extract<Caller, { kind: 'person' }>,
  input: CreateDsarRequest,
): DataRequestRow {
  const applicationId = accountApplication(ctx, person.accountId, input.application_id, 'application_id');
  assertHomedHere(ctx, person.personId);
  const id = homedId(ctx.country, 'dsar_', 20);
  const now = isoNow(ctx.clock);
  const due = plusDays(now, DATA_REQUEST_DUE_DAYS);
  return transaction(ctx.db, () => {
    stmt(
      ctx.db,
      `INSERT INTO data_requests (id, account_id, application_id, person_id, dsar_type, scope, status, due_date, original_due_date, received_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, 'received', ?, ?, ?, ?)`,
    ).run(
      id,
      person.accountId,
      applicationId,
      person.personId,
      input.dsar_type,
      input.scope === undefined ? null : JSON.stringify(input.scope),
      due,
      due,
      now,
      now,
    );
    appendAuditEvent(ctx, {
      applicationId,
      type: 'data_request.received',
      occurredAt: now,
      data: { data_request_id: id, dsar_type: input.dsar_type, due_date: due },
    });
    return byId(ctx, id)!;
  });
}

/** A page of the requests the caller may see, oldest first. */
export function listDataRequests(
  ctx: ServerContext,
  caller: Caller,
  page: {
    limit: number;
    cursor?: string | undefined;
    status?: DataRequestStatus | undefined;
    dsar_type?: DsarType | undefined;
    application_id?: string | undefined;
  },
) {
  const person = caller.kind === 'person' ? caller.personId : null;
  const status = page.status ?? null;
  const type = page.dsar_type ?? null;
  const app = page.application_id ?? null;
  const rows = stmt<unknown[], DataRequestRow>(
    ctx.db,
    `SELECT * FROM data_requests WHERE account_id = ? AND seq > ?
      AND (? IS NULL OR person_id = ?) AND (? IS NULL OR status = ?) AND (? IS NULL OR dsar_type = ?) AND (? IS NULL OR application_id = ?)
    ORDER BY seq LIMIT ?`,
  ).all(caller.accountId, decodeCursor(page.cursor), person, person, status, status, type, type, app, app, page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return { data_requests: items.map((r) => toDataRequest(ctx, r)), next_cursor };
}

/**
 * What the service holds about the person in this cell for the request's organisation: records (and so receipts),
 * grants, and Protect's own rows, each of that organisation only (a person is one per email per organisation).
 */
function exportFor(ctx: ServerContext, row: DataRequestRow, now: string): DataRequestExport {
  const ids = (table: string, column = 'person_id') =>
    stmt<[string, string], string>(ctx.db, `SELECT id FROM ${table} WHERE ${column} = ? AND account_id = ? ORDER BY seq`)
      .pluck()
      .all(row.person_id, row.account_id) as unknown as string[];
  const records = stmt<
    [string, string],
    { id: string; application_id: string; flow_id: string; flow_version: number; captured_at: string; expires_at: string | null }
  >(
    ctx.db,
    'SELECT id, application_id, flow_id, flow_version, captured_at, expires_at FROM consent_records WHERE person_id = ? AND account_id = ? ORDER BY seq',
  ).all(row.person_id, row.account_id);
  const email = stmt<[string], string>(ctx.db, 'SELECT email FROM persons WHERE id = ?').pluck().get(row.person_id) as unknown as string;
  return {
    generated_at: now,
    person: { id: row.person_id, email },
    consent_records: records,
    receipt_ids: records.map((r) => r.id),
    delegation_grant_ids: ids('delegation_grants', 'principal_id'),
    policy_ids: ids('policies'),
    data_offer_ids: ids('data_offers'),
    portability_transfer_ids: ids('portability_transfers'),
    data_request_ids: ids('data_requests'),
  };
}

/** The details an action carries. */
export type DataRequestMove =
  | { action: 'start' }
  | { action: 'extend'; input: ExtendDataRequestRequest }
  | { action: 'complete'; note?: string | undefined }
  | { action: 'reject'; reason: string };

/**
 * Moves a request by the table above (409 `illegal_transition` naming the move otherwise). An extension happens once
 * (409 `already_extended`) and before the due date (409 `due_date_passed`).
 */
export function moveDataRequest(ctx: ServerContext, row: DataRequestRow, move: DataRequestMove): DataRequestRow {
  return transaction(ctx.db, () => {
    const current = byId(ctx, row.id)!;
    const to = DATA_REQUEST_TRANSITIONS[current.status][move.action];
    if (!to) {
      const final = current.status === 'completed' || current.status === 'rejected';
      throw illegalTransition(
        `A data request cannot go from ${current.status} to ${TARGET[move.action]}${final ? ` (${current.status} is final)` : ''}.`,
      );
    }
    const now = isoNow(ctx.clock);
    switch (move.action) {
      case 'start':
        stmt(ctx.db, "UPDATE data_requests SET status = 'in_progress', started_at = ?, updated_at = ? WHERE id = ?").run(
          now,
          now,
          current.id,
        );
        break;
      case 'extend': {
        if (current.extended_at)
          throw illegalTransition(
            `Data request ${current.id} was extended on ${current.extended_at}; a request is extended once.`,
            'already_extended',
          );
        if (Date.parse(current.due_date) < ctx.clock.now()) {
          throw illegalTransition(
            `Data request ${current.id} was due on ${current.due_date}: an extension must be made before the due date.`,
            'due_date_passed',
          );
        }
        const due = plusDays(current.due_date, move.input.days ?? DATA_REQUEST_MAX_EXTENSION_DAYS);
        stmt(ctx.db, 'UPDATE data_requests SET due_date = ?, extended_at = ?, extension_reason = ?, updated_at = ? WHERE id = ?').run(
          due,
          now,
          move.input.reason,
          now,
          current.id,
        );
        break;
      }
      case 'complete': {
        const exported = current.dsar_type === 'access' ? JSON.stringify(exportFor(ctx, current, now)) : null;
        stmt(
          ctx.db,
          "UPDATE data_requests SET status = 'completed', completed_at = ?, completion_note = ?, export = ?, updated_at = ? WHERE id = ?",
        ).run(now, move.note ?? null, exported, now, current.id);
        break;
      }
      case 'reject':
        stmt(
          ctx.db,
          "UPDATE data_requests SET status = 'rejected', rejected_at = ?, rejection_reason = ?, updated_at = ? WHERE id = ?",
        ).run(now, move.reason, now, current.id);
        break;
    }
    const after = byId(ctx, current.id)!;
    appendAuditEvent(ctx, {
      applicationId: current.application_id,
      type: `data_request.${TARGET[move.action] === 'in_progress' ? 'started' : TARGET[move.action]}`,
      occurredAt: now,
      data: { data_request_id: current.id, dsar_type: current.dsar_type, status: after.status, due_date: after.due_date },
    });
    return after;
  });
}
