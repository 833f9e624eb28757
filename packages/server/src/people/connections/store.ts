// A person's own connections, device links and trust pairings: which a signed-in person may see, and how each reads
// for them. Each belongs to the person row of one organisation, so a person's are found by their verified email
// (people/reader.ts); what an organisation's client sees stops at that organisation. Each row is read, and each
// action taken, through Connect's own functions, as the person row of the row's organisation.
import type { ConnectionStatus, DeviceLinkStatus, PersonConnection, PersonDeviceLink, PersonTrustPairing } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { DEFAULT_LIMIT, decodeCursor, toPage } from '../../infra/pagination.js';
import { toConnectionDetail, visibleConnection } from '../../surfaces/connect/connections.js';
import { getDeviceLink, toTrustPairing, visiblePairing } from '../../surfaces/connect/devices.js';
import { type PersonReader, readerParams, readerPersons } from '../reader.js';

type Person = Extract<Principal, { kind: 'person' }>;

/** Where a row of the person's lives: its organisation (and its name) and the person row there. */
export interface OwnedRow {
  seq: number;
  id: string;
  account_id: string;
  person_id: string;
  organisation_name: string;
}

interface Page {
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** The caller as the person row that owns `row`: what Connect's functions check ownership, and act, by. */
export const asOwner = (caller: Person, row: OwnedRow): Person => ({ ...caller, personId: row.person_id, accountId: row.account_id });

const organisationOf = (row: OwnedRow) => ({ id: row.account_id, name: row.organisation_name });

/** A table of the person's things: its alias, and the condition (with parameters) of a status filter. */
interface Table {
  name: 'connections' | 'device_links' | 'trust_pairings';
  status: (status: string, now: string) => [string, unknown[]];
}

const plainStatus = (status: string): [string, unknown[]] => ['t.status = ?', [status]];

const TABLES = {
  connections: { name: 'connections', status: plainStatus },
  trust_pairings: { name: 'trust_pairings', status: plainStatus },
  // A pending link past its time reads expired (as Connect's own list says it).
  device_links: {
    name: 'device_links',
    status: (status, now) =>
      status === 'expired'
        ? ["t.status = 'pending' AND t.expires_at <= ?", [now]]
        : status === 'pending'
          ? ["t.status = 'pending' AND t.expires_at > ?", [now]]
          : plainStatus(status),
  },
} satisfies Record<string, Table>;

const select = (table: Table) => `SELECT t.seq, t.id, t.account_id, t.person_id, a.name AS organisation_name
  FROM ${table.name} t JOIN accounts a ON a.id = t.account_id WHERE ${readerPersons('t.person_id')}`;

/** A page of the reader's rows of `table`, most recent first (`seq`), optionally of one status now. */
function pageOf(ctx: ServerContext, table: Table, reader: PersonReader, page: Page & { status?: string | undefined }) {
  const limit = page.limit ?? DEFAULT_LIMIT;
  const before = page.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(page.cursor);
  const [condition, params] = page.status ? table.status(page.status, isoNow(ctx.clock)) : ['1', []];
  const rows = stmt<unknown[], OwnedRow>(ctx.db, `${select(table)} AND t.seq < ? AND ${condition} ORDER BY t.seq DESC LIMIT ?`).all(
    ...readerParams(reader),
    before,
    ...params,
    limit + 1,
  );
  return toPage(rows, limit, (r) => r.seq);
}

/** The reader's row `id` of `table`, or undefined: another person's (another organisation's, for its client) is not there. */
function ownRow(ctx: ServerContext, table: Table, reader: PersonReader, id: string): OwnedRow | undefined {
  return stmt<unknown[], OwnedRow>(ctx.db, `${select(table)} AND t.id = ?`).get(...readerParams(reader), id);
}

// ---- Connections ------------------------------------------------------------------------------------------------

/** A connection as the person reads it: Connect's detail, with its organisation. */
export function toPersonConnection(ctx: ServerContext, caller: Person, row: OwnedRow): PersonConnection {
  return { ...toConnectionDetail(ctx, visibleConnection(ctx, asOwner(caller, row), row.id)), organisation: organisationOf(row) };
}

export function listPersonConnections(
  ctx: ServerContext,
  caller: Person,
  reader: PersonReader,
  page: Page & { status?: ConnectionStatus | undefined },
): { connections: PersonConnection[]; next_cursor: string | null } {
  const { items, next_cursor } = pageOf(ctx, TABLES.connections, reader, page);
  return { connections: items.map((row) => toPersonConnection(ctx, caller, row)), next_cursor };
}

export const findPersonConnection = (ctx: ServerContext, reader: PersonReader, id: string) => ownRow(ctx, TABLES.connections, reader, id);

// ---- Device links -----------------------------------------------------------------------------------------------

/** A device link as the person reads it (never its code), with its organisation. */
export function toPersonDeviceLink(ctx: ServerContext, caller: Person, row: OwnedRow): PersonDeviceLink {
  return { ...getDeviceLink(ctx, asOwner(caller, row), row.id), organisation: organisationOf(row) };
}

export function listPersonDeviceLinks(
  ctx: ServerContext,
  caller: Person,
  reader: PersonReader,
  page: Page & { status?: DeviceLinkStatus | undefined },
): { device_links: PersonDeviceLink[]; next_cursor: string | null } {
  const { items, next_cursor } = pageOf(ctx, TABLES.device_links, reader, page);
  return { device_links: items.map((row) => toPersonDeviceLink(ctx, caller, row)), next_cursor };
}

export const findPersonDeviceLink = (ctx: ServerContext, reader: PersonReader, id: string) => ownRow(ctx, TABLES.device_links, reader, id);

// ---- Trust pairings ---------------------------------------------------------------------------------------------

/** A trust pairing as the person reads it, with its organisation. */
export function toPersonTrustPairing(ctx: ServerContext, caller: Person, row: OwnedRow): PersonTrustPairing {
  return { ...toTrustPairing(visiblePairing(ctx, asOwner(caller, row), row.id)), organisation: organisationOf(row) };
}

export function listPersonTrustPairings(
  ctx: ServerContext,
  caller: Person,
  reader: PersonReader,
  page: Page & { status?: 'active' | 'revoked' | undefined },
): { trust_pairings: PersonTrustPairing[]; next_cursor: string | null } {
  const { items, next_cursor } = pageOf(ctx, TABLES.trust_pairings, reader, page);
  return { trust_pairings: items.map((row) => toPersonTrustPairing(ctx, caller, row)), next_cursor };
}

export const findPersonTrustPairing = (ctx: ServerContext, reader: PersonReader, id: string) =>
  ownRow(ctx, TABLES.trust_pairings, reader, id);
