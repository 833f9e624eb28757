// The receipts a person may read: the authorization records made in their name (a grant they made, an approval
// they answered: the receipt's `pii_principal_id` is one of their person rows) and their consent records whose
// receipts disclosed agents to them. Each is read through the organisation API's own receipt readers and signed as
// its signed flavor is, so what the person checks offline is what the organisation would hand them.
import {
  BOUND_NAMES,
  type AuthorizationReceiptRecord,
  type PersonAuthorizationReceipt,
  type PersonDisclosureReceipt,
  type ReceiptAction,
  type ReceiptBound,
  type ReceiptRecord,
} from '@svc/schemas';
import { readAuthorizationReceipt } from '../../consent/authorizations/store.js';
import { readReceipt } from '../../consent/records/read.js';
import { signReceipt } from '../../consent/receipts/routes.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { DEFAULT_LIMIT, decodeCursor, toPage } from '../../infra/pagination.js';
import { type PersonReader, readerParams, readerPersons } from '../reader.js';

/** How many of a grant's actions a receipt lists (the counts cover them all). */
export const RECENT_ACTIONS = 50;

interface Row {
  seq: number;
  id: string;
  account_id: string;
  application_id: string;
  organisation_name: string;
  application_name: string;
}
type AuthorizationRow = Row & { grant_id: string | null; outcome: PersonAuthorizationReceipt['outcome']; recorded_at: string };
type ConsentRow = Row & { captured_at: string; receipt: string };

interface Page {
  limit?: number | undefined;
  cursor?: string | undefined;
}

const NAMES = 'a.name AS organisation_name, ap.name AS application_name';
const AUTHORIZATIONS = `SELECT r.seq, r.id, r.account_id, r.application_id, r.grant_id, r.outcome, r.recorded_at, ${NAMES}
  FROM authorization_records r JOIN accounts a ON a.id = r.account_id JOIN applications ap ON ap.id = r.application_id
  WHERE ${readerPersons("json_extract(r.receipt, '$.pii_principal_id')")}`;
// A consent record discloses agents when its frozen receipt carries them (the terms it was made under declared agents).
const DISCLOSURES = `SELECT r.seq, r.id, r.account_id, r.application_id, r.captured_at, r.receipt, ${NAMES}
  FROM consent_records r JOIN accounts a ON a.id = r.account_id JOIN applications ap ON ap.id = r.application_id
  WHERE ${readerPersons('r.person_id')} AND json_array_length(r.receipt, '$.extensions.agent_disclosures') > 0`;

/** Reads `limit + 1` rows of `sql` before the cursor, newest first, and pages them. */
function pageOf<T extends Row>(ctx: ServerContext, sql: string, reader: PersonReader, page: Page) {
  const limit = page.limit ?? DEFAULT_LIMIT;
  const before = page.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(page.cursor);
  const rows = stmt<unknown[], T>(ctx.db, `${sql} AND r.seq < ? ORDER BY r.seq DESC LIMIT ?`).all(
    ...readerParams(reader),
    before,
    limit + 1,
  );
  return toPage(rows, limit, (r) => r.seq);
}

/** A page of the authorization receipts in the reader's name, most recently recorded first. */
export async function listAuthorizationReceipts(ctx: ServerContext, reader: PersonReader, page: Page) {
  const { items, next_cursor } = pageOf<AuthorizationRow>(ctx, AUTHORIZATIONS, reader, page);
  return { authorization_receipts: await Promise.all(items.map((row) => toAuthorizationReceipt(ctx, row))), next_cursor };
}

/** The authorization receipt `id` in the reader's name, or undefined: anyone else's is not there. */
export async function findAuthorizationReceipt(ctx: ServerContext, reader: PersonReader, id: string) {
  const row = stmt<unknown[], AuthorizationRow>(ctx.db, `${AUTHORIZATIONS} AND r.id = ?`).get(...readerParams(reader), id);
  return row && toAuthorizationReceipt(ctx, row);
}

/** A page of the reader's receipts that disclosed agents to them, most recently recorded first. */
export async function listDisclosureReceipts(ctx: ServerContext, reader: PersonReader, page: Page) {
  const { items, next_cursor } = pageOf<ConsentRow>(ctx, DISCLOSURES, reader, page);
  return { disclosure_receipts: await Promise.all(items.map((row) => toDisclosureReceipt(ctx, row))), next_cursor };
}

/** The reader's receipt `id` that disclosed agents to them, or undefined. */
export async function findDisclosureReceipt(ctx: ServerContext, reader: PersonReader, id: string) {
  const row = stmt<unknown[], ConsentRow>(ctx.db, `${DISCLOSURES} AND r.id = ?`).get(...readerParams(reader), id);
  return row && toDisclosureReceipt(ctx, row);
}

/** The eight bound dimensions as the receipt states them: each configured exactly when the receipt carries it. */
export function boundsOf(authority: AuthorizationReceiptRecord['authority']): ReceiptBound[] {
  const stated = (authority ?? {}) as Record<string, unknown>;
  return BOUND_NAMES.map((bound) => {
    const limit = stated[`${bound}_bounds`];
    return typeof limit === 'object' && limit !== null
      ? { bound, configured: true, limit: limit as Record<string, unknown> }
      : { bound, configured: false, limit: null };
  });
}

/** Every action proposed under `grantId`, counted by verdict, with the most recent ones. */
function actionsOf(ctx: ServerContext, grantId: string | null): PersonAuthorizationReceipt['actions'] {
  const actions = { allowed: 0, denied: 0, escalated: 0, recent: [] as ReceiptAction[] };
  if (!grantId) return actions;
  const counts = stmt<[string], { outcome: ReceiptAction['outcome']; n: number }>(
    ctx.db,
    'SELECT outcome, COUNT(*) AS n FROM authority_actions WHERE grant_id = ? GROUP BY outcome',
  ).all(grantId);
  for (const { outcome, n } of counts) actions[outcome] = n;
  actions.recent = stmt<[string, number], ReceiptAction>(
    ctx.db,
    `SELECT id, at, scope, action, value, currency, jurisdiction, outcome, bound FROM authority_actions
    WHERE grant_id = ? ORDER BY seq DESC LIMIT ?`,
  ).all(grantId, RECENT_ACTIONS);
  return actions;
}

const organisationOf = (row: Row) => ({
  organisation: { id: row.account_id, name: row.organisation_name },
  application: { id: row.application_id, name: row.application_name },
});

async function toAuthorizationReceipt(ctx: ServerContext, row: AuthorizationRow): Promise<PersonAuthorizationReceipt> {
  const receipt = readAuthorizationReceipt(ctx, row.account_id, row.id)!;
  const agent = receipt.party_identification.find((p) => p.party_role === 'agent');
  return {
    id: row.id,
    kind: row.grant_id ? 'grant' : 'approval',
    outcome: row.outcome,
    ...organisationOf(row),
    delegate: agent ? { id: agent.party_id, name: agent.party_name, type: agent.party_type ?? null } : null,
    recorded_at: row.recorded_at,
    bounds: boundsOf(receipt.authority),
    actions: actionsOf(ctx, row.grant_id),
    signed_receipt: await signReceipt(ctx, receipt),
  };
}

async function toDisclosureReceipt(ctx: ServerContext, row: ConsentRow): Promise<PersonDisclosureReceipt> {
  const receipt: ReceiptRecord = readReceipt(ctx, row.account_id, row.id)!;
  const disclosed = ((receipt.extensions?.agent_disclosures ?? []) as Record<string, unknown>[]).map((d) => ({
    agent_id: String(d.agent_id),
    agent_name: String(d.agent_name),
    agent_type: String(d.agent_type),
    operator_name: typeof d.operator_name === 'string' ? d.operator_name : null,
    role: typeof d.role === 'string' ? d.role : null,
    at: typeof d.disclosed_at === 'string' ? d.disclosed_at : undefined,
  }));
  return {
    id: row.id,
    record_type: 'consent_record',
    ...organisationOf(row),
    disclosed_at: disclosed.find((d) => d.at)?.at ?? row.captured_at,
    agents: disclosed.map(({ at: _at, ...agent }) => agent),
    signed_receipt: await signReceipt(ctx, receipt),
  };
}
