// The Trust Inbox: the open decisions addressed to a person, across organisations. Who a decision is addressed to is
// the kind's rule, applied once at creation (`decisions.addressee_email`, filled by each kind's `prepare`); how an
// open decision shows in the inbox, and whether it still waits there, is the kind's `inbox`. This file knows no kind.
import type { DecisionKind, EscalationTrigger, InboxDecision, InboxSort } from '@svc/schemas';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { badRequest } from '../../infra/errors.js';
import { kindOf } from '../../consent/decisions/kinds/index.js';
import type { InboxEntry } from '../../consent/decisions/kinds/kind.js';
import { TERMINAL, type DecisionRow } from '../../consent/decisions/row.js';

/** What the inbox is asked for: its filters, its order and the page. */
export interface InboxFilter {
  kind?: DecisionKind | undefined;
  trigger?: EscalationTrigger | undefined;
  application_id?: string | undefined;
  sort: InboxSort;
  limit: number;
  cursor?: string | undefined;
}

type InboxRow = DecisionRow & { application_name: string };

const OPEN = `d.status NOT IN (${[...TERMINAL].map((s) => `'${s}'`).join(', ')})`;
/** Rows read per query while filling a page (the kind's `inbox` may pass some over). */
const BATCH = 200;

/**
 * The email a person's inbox is addressed to: their person's, which the service verified when they signed in (a code
 * sent to it); lower-case. Undefined for a person row that holds no email (an anonymous record's stand-in).
 */
export function inboxEmailOf(ctx: ServerContext, personId: string): string | undefined {
  const email = stmt<[string], string>(ctx.db, 'SELECT email FROM persons WHERE id = ?').pluck().get(personId) as unknown as
    | string
    | undefined;
  return email && /^[^\s@]+@[^\s@]+$/.test(email) ? email.toLowerCase() : undefined;
}

// Cursors are opaque: base64url of `i1:<sort>:<the last row's sort key>:<its id>`. Rows are ordered by the key and
// then by id, so equal deadlines never skip or repeat a row; a cursor made for the other sort is refused.
const CURSOR = /^i1:(deadline|newest):(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z):([A-Za-z0-9_]{1,64})$/;

function encodeCursor(sort: InboxSort, row: Pick<DecisionRow, 'deadline_at' | 'created_at' | 'id'>): string {
  return Buffer.from(`i1:${sort}:${sort === 'deadline' ? row.deadline_at : row.created_at}:${row.id}`, 'utf8').toString('base64url');
}

function decodeCursor(sort: InboxSort, cursor: string | undefined): { key: string; id: string } | undefined {
  if (cursor === undefined) return undefined;
  const match = CURSOR.exec(/^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '');
  if (!match || match[1] !== sort) {
    throw badRequest(
      match
        ? `This cursor belongs to sort=${match[1]}; pass it with the query it came from.`
        : 'cursor is not a cursor this server issued; pass next_cursor unchanged.',
      'invalid_cursor',
    );
  }
  return { key: match[2]!, id: match[3]! };
}

/** How an open decision shows in the inbox, or null when it no longer waits there: the kind's rule, else its page's heading. */
export function inboxEntryOf(ctx: ServerContext, row: DecisionRow): InboxEntry | null {
  const kind = kindOf(row.kind);
  return kind.inbox ? kind.inbox(ctx, row) : { title: kind.page(ctx, row).heading, summary: null, trigger: null };
}

/** A row as the inbox lists it. */
function toInboxDecision(ctx: ServerContext, row: InboxRow, entry: InboxEntry): InboxDecision {
  return {
    kind: row.kind,
    status: row.status,
    trigger: entry.trigger,
    application_id: row.application_id,
    application_name: row.application_name,
    title: entry.title,
    summary: entry.summary,
    session_token: row.session_token,
    url: `${ctx.trustUrl}/decisions/${row.session_token}`,
    deadline_at: row.deadline_at,
    created_at: row.created_at,
  };
}

/**
 * A page of the open decisions addressed to `email`, from every account: not completed, cancelled or expired, and
 * before their deadline (by the server clock), filtered and ordered as asked (deadline soonest first, or newest
 * first), each as its kind shows it.
 */
export function listInbox(
  ctx: ServerContext,
  email: string,
  filter: InboxFilter,
): { decisions: InboxDecision[]; next_cursor: string | null } {
  const now = new Date(ctx.clock.now()).toISOString();
  const newest = filter.sort === 'newest';
  let after = decodeCursor(filter.sort, filter.cursor);
  const out: { row: InboxRow; entry: InboxEntry }[] = [];
  const query = stmt<[Record<string, string | number | null>], InboxRow>(
    ctx.db,
    `SELECT d.*, a.name AS application_name
    FROM decisions d JOIN applications a ON a.id = d.application_id
    WHERE d.addressee_email = @email AND ${OPEN} AND d.deadline_at > @now
      AND (@kind IS NULL OR d.kind = @kind) AND (@application IS NULL OR d.application_id = @application)
      AND (@key IS NULL OR ${
        newest
          ? 'd.created_at < @key OR (d.created_at = @key AND d.id < @id)'
          : 'd.deadline_at > @key OR (d.deadline_at = @key AND d.id > @id)'
      })
    ORDER BY ${newest ? 'd.created_at DESC, d.id DESC' : 'd.deadline_at, d.id'} LIMIT ${BATCH}`,
  );
  for (;;) {
    const rows = query.all({
      email,
      now,
      kind: filter.kind ?? null,
      application: filter.application_id ?? null,
      key: after?.key ?? null,
      id: after?.id ?? null,
    });
    for (const row of rows) {
      after = { key: newest ? row.created_at : row.deadline_at, id: row.id };
      const entry = inboxEntryOf(ctx, row);
      if (!entry || (filter.trigger && entry.trigger !== filter.trigger)) continue;
      out.push({ row, entry });
      if (out.length > filter.limit) break;
    }
    if (out.length > filter.limit || rows.length < BATCH) break;
  }
  const page = out.slice(0, filter.limit);
  const last = page[page.length - 1];
  return {
    decisions: page.map(({ row, entry }) => toInboxDecision(ctx, row, entry)),
    next_cursor: out.length > filter.limit && last ? encodeCursor(filter.sort, last.row) : null,
  };
}

/** The applications that have an open decision addressed to `email`, by name: the choices of the page's filter. */
export function inboxApplications(ctx: ServerContext, email: string): { id: string; name: string }[] {
  return stmt<[string, string], { id: string; name: string }>(
    ctx.db,
    `SELECT DISTINCT a.id, a.name
    FROM decisions d JOIN applications a ON a.id = d.application_id
    WHERE d.addressee_email = ? AND ${OPEN} AND d.deadline_at > ? ORDER BY a.name, a.id`,
  ).all(email, new Date(ctx.clock.now()).toISOString());
}
