// A person's own data requests: which requests a signed-in person may see, which organisations they may file one with,
// and how each reads for them. Requests belong to a person row per organisation, found by the person's verified
// email; what an organisation's client sees stops at that organisation. Filing goes through Protect's
// `createDataRequest`, so the organisation receives it exactly as one filed on its own API.
import type { DataRequestStatus, DsarScope, DsarType, PersonDataRequest, RequestableOrganisation } from '@svc/schemas';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { DEFAULT_LIMIT, decodeCursor, toPage } from '../../infra/pagination.js';
import { createDataRequest, type DataRequestRow, toDataRequest } from '../../surfaces/protect/data-requests.js';
import { type PersonReader, readerParams, readerPersons } from '../reader.js';

type PersonDataRequestRow = DataRequestRow & { organisation_name: string };

/** Who reads, and (a token of one of the service's own clients) the service's own account, which is nobody's organisation. */
export interface RequestReader extends PersonReader {
  serviceAccountId: string | undefined;
}

const WHOSE = readerPersons('d.person_id');
const SELECT = 'SELECT d.*, a.name AS organisation_name FROM data_requests d JOIN accounts a ON a.id = d.account_id';
const EXPORT_PATH = '/api/v1/me/data_requests';

/** A page of the reader's requests homed in this cell, most recently filed first (`seq`), optionally of one status. */
export function listPersonDataRequests(
  ctx: ServerContext,
  reader: PersonReader,
  page: { limit?: number | undefined; cursor?: string | undefined; status?: DataRequestStatus | undefined },
): { data_requests: PersonDataRequest[]; next_cursor: string | null } {
  const limit = page.limit ?? DEFAULT_LIMIT;
  const before = page.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(page.cursor);
  const status = page.status ?? null;
  const rows = stmt<unknown[], PersonDataRequestRow>(
    ctx.db,
    `${SELECT} WHERE ${WHOSE} AND d.seq < ? AND (? IS NULL OR d.status = ?) ORDER BY d.seq DESC LIMIT ?`,
  ).all(...readerParams(reader), before, status, status, limit + 1);
  const { items, next_cursor } = toPage(rows, limit, (r) => r.seq);
  return { data_requests: items.map((row) => toPersonDataRequest(ctx, row)), next_cursor };
}

/** The reader's request `id`, or undefined: another person's request (or organisation's, for its client) is not there. */
export function findPersonDataRequest(ctx: ServerContext, reader: PersonReader, id: string): PersonDataRequestRow | undefined {
  return stmt<unknown[], PersonDataRequestRow>(ctx.db, `${SELECT} WHERE d.id = ? AND ${WHOSE}`).get(id, ...readerParams(reader));
}

/** A request as the person reads it: the organisation's answer and due dates, and where a completed access request's export is. */
export function toPersonDataRequest(ctx: ServerContext, row: PersonDataRequestRow): PersonDataRequest {
  const { id, dsar_type, scope, status, received_at, due_date, overdue, extended, original_due_date, ...rest } = toDataRequest(ctx, row);
  return {
    id,
    organisation: { id: row.account_id, name: row.organisation_name },
    dsar_type,
    scope,
    status,
    received_at,
    due_date,
    overdue,
    extended,
    original_due_date,
    extended_at: rest.extended_at,
    extension_reason: rest.extension_reason,
    started_at: rest.started_at,
    completed_at: rest.completed_at,
    completion_note: rest.completion_note,
    rejected_at: rest.rejected_at,
    rejection_reason: rest.rejection_reason,
    export_url: row.export === null ? null : `${ctx.baseUrl}${EXPORT_PATH}/${id}/export`,
  };
}

/** The reader's person row in each organisation they may file with: one with an active application, never the service's own. */
type Standing = RequestableOrganisation & { person_id: string };
const standings = (ctx: ServerContext, reader: RequestReader, accountId: string | null): Standing[] =>
  stmt<unknown[], Standing>(
    ctx.db,
    `SELECT a.id, a.name, p.id AS person_id FROM persons p JOIN accounts a ON a.id = p.account_id
      WHERE ${readerPersons('p.id')} AND (? IS NULL OR a.id = ?) AND (? IS NULL OR a.id <> ?)
        AND EXISTS (SELECT 1 FROM applications ap WHERE ap.account_id = a.id AND ap.active = 1)
      ORDER BY a.name, a.id`,
  ).all(...readerParams(reader), accountId, accountId, reader.serviceAccountId ?? null, reader.serviceAccountId ?? null);

/** The organisations the reader may file a request with, by name. */
export function requestableOrganisations(ctx: ServerContext, reader: RequestReader): RequestableOrganisation[] {
  return standings(ctx, reader, null).map(({ id, name }) => ({ id, name }));
}

/**
 * The application a request filed from the person's pages goes to: the one of the person's latest consent record with
 * the organisation when it is active, else the organisation's first active application.
 */
function applicationFor(ctx: ServerContext, accountId: string, personId: string): string {
  return stmt<[string, string, string], string>(
    ctx.db,
    `SELECT id FROM applications WHERE account_id = ? AND active = 1
      ORDER BY id = (SELECT application_id FROM consent_records WHERE person_id = ? AND account_id = ? ORDER BY seq DESC LIMIT 1) DESC, created_at, id
      LIMIT 1`,
  )
    .pluck()
    .get(accountId, personId, accountId) as unknown as string;
}

/**
 * Files the reader's request with `organisationId` through Protect's own `createDataRequest` (its validation, due date
 * and audit event), as the reader's person row there; undefined when they have none (nothing is created).
 */
export function filePersonDataRequest(
  ctx: ServerContext,
  reader: RequestReader,
  input: { organisation_id: string; dsar_type: DsarType; scope?: DsarScope | undefined },
): PersonDataRequestRow | undefined {
  const [standing] = standings(ctx, reader, input.organisation_id);
  if (!standing) return undefined;
  const person = { kind: 'person', accountId: standing.id, personId: standing.person_id } as const;
  const application_id = applicationFor(ctx, standing.id, standing.person_id);
  const row = createDataRequest(ctx, person, { application_id, dsar_type: input.dsar_type, scope: input.scope });
  return { ...row, organisation_name: standing.name };
}
