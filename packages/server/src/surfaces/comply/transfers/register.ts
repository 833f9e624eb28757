// The transfer register: what crossed a border, under which lawful basis and with which adequacy verdict. Entries
// carry no personal data (no person, record, email or subject reference): an application, a data category and a
// route. Other modules record a transfer with `recordTransfer`; the register is read through GET
// /api/v1/transfer_register.
import { isoNow } from '../../../infra/clock.js';
import type { ServerContext } from '../../../infra/context.js';
import { stmt } from '../../../infra/db.js';
import { newId } from '../../../infra/ids.js';
import { decodeCursor, toPage } from '../../../infra/pagination.js';

/** One transfer as a module records it. Countries are ISO 3166-1 alpha-2 codes. */
export interface TransferInput {
  application_id: string;
  /** A data category, never a value: `consent_proof`, `signature_evidence`, `contact_email`, … */
  category: string;
  from_country: string;
  to_country: string;
  /** Why the transfer is lawful, e.g. one of `lawfulBasisFor(adequacy)`'s codes. */
  lawful_basis: string;
  /** The adequacy verdict of the route, normally `adequacyOf(from_country, to_country)`. */
  adequacy: string;
}

/** A register entry as the API returns it. */
export interface TransferEntry extends TransferInput {
  id: string;
  created_at: string;
}

/**
 * Adequacy verdict of a route, from the exporting country's side (the GDPR's Chapter V for EEA exporters):
 *
 * - `not_a_transfer`: same country; nothing crosses a border (`recordTransfer` records nothing).
 * - `intra_eea`: both countries in the EEA (EU 27 + Iceland, Liechtenstein, Norway): free movement, no Chapter V
 *   instrument needed.
 * - `adequacy_decision`: an EEA country to a country with a Commission adequacy decision (Art. 45). The United States
 *   is listed under the EU-US Data Privacy Framework (Decision of 10 July 2023; strictly it covers recipients certified
 *   under the framework). The other way round (US or another adequate country into the EEA) is also `adequacy_decision`:
 *   the receiving side's protection is at least the exporter's, and the US imposes no general export restriction.
 * - `standard_contractual_clauses`: an EEA country to a country without an adequacy decision: the transfer needs an
 *   Art. 46 safeguard, and the reference server's one is the Commission's standard contractual clauses.
 * - `none`: neither end is in the EEA and no adequacy framework this table knows of covers the route; the register
 *   still records the transfer, with no adequacy claim.
 */
export type Adequacy = 'not_a_transfer' | 'intra_eea' | 'adequacy_decision' | 'standard_contractual_clauses' | 'none';

/** EU 27 plus the EEA's Iceland, Liechtenstein and Norway. */
export const EEA = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'IS',
  'LI',
  'NO',
]);

/**
 * Countries with an EU adequacy decision in force (Art. 45 GDPR), the US through the Data Privacy Framework. Canada's
 * covers commercial organisations under PIPEDA; Japan's and Korea's likewise cover their private sectors.
 */
export const EU_ADEQUATE = new Set(['AD', 'AR', 'CA', 'FO', 'GG', 'IL', 'IM', 'JP', 'JE', 'NZ', 'KR', 'CH', 'GB', 'UY', 'US']);

/** The adequacy verdict of moving data from `from` to `to` (ISO alpha-2 codes, any case). See `Adequacy`. */
export function adequacyOf(from: string, to: string): Adequacy {
  const a = from.toUpperCase();
  const b = to.toUpperCase();
  if (a === b) return 'not_a_transfer';
  const aEea = EEA.has(a);
  const bEea = EEA.has(b);
  if (aEea && bEea) return 'intra_eea';
  if (aEea) return EU_ADEQUATE.has(b) ? 'adequacy_decision' : 'standard_contractual_clauses';
  if (bEea) return EU_ADEQUATE.has(a) ? 'adequacy_decision' : 'none';
  return 'none';
}

/** The lawful basis code the reference server records for a verdict (what `recordTransfer`'s callers normally pass). */
export function lawfulBasisFor(adequacy: Adequacy): string {
  switch (adequacy) {
    case 'not_a_transfer':
      return 'not_a_transfer';
    case 'intra_eea':
      return 'gdpr_free_movement_eea'; // Art. 1(3) GDPR
    case 'adequacy_decision':
      return 'gdpr_art45_adequacy_decision';
    case 'standard_contractual_clauses':
      return 'gdpr_art46_standard_contractual_clauses';
    case 'none':
      return 'controller_instruction'; // no Chapter V instrument applies; the controller's instruction is the basis recorded
  }
}

const COUNTRY = /^[A-Z]{2}$/;

/**
 * Records one transfer in this cell's register. A route within one country is no transfer and records nothing.
 * Throws on a malformed country code or an empty category or basis (a programming error of the caller, never input
 * a request can reach unchecked).
 */
export function recordTransfer(ctx: ServerContext, entry: TransferInput): void {
  const from = entry.from_country.toUpperCase();
  const to = entry.to_country.toUpperCase();
  if (!COUNTRY.test(from) || !COUNTRY.test(to))
    throw new TypeError(`recordTransfer: countries must be ISO alpha-2 codes (got ${from} -> ${to})`);
  if (!entry.category || !entry.lawful_basis || !entry.adequacy)
    throw new TypeError('recordTransfer: category, lawful_basis and adequacy are required');
  if (from === to) return;
  stmt(
    ctx.db,
    `INSERT INTO transfers (id, application_id, category, from_country, to_country, lawful_basis, adequacy, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(newId('trf_'), entry.application_id, entry.category, from, to, entry.lawful_basis, entry.adequacy, isoNow(ctx.clock));
}

interface TransferRow extends TransferEntry {
  seq: number;
}

const toEntry = ({ seq: _seq, ...row }: TransferRow): TransferEntry => row;

/** A page of the register for the account's applications (optionally one application's), oldest first. */
export function listTransfers(
  ctx: ServerContext,
  accountId: string,
  page: { limit: number; cursor?: string | undefined; application_id?: string | undefined },
): { transfers: TransferEntry[]; next_cursor: string | null } {
  const after = decodeCursor(page.cursor);
  const rows =
    page.application_id === undefined
      ? stmt<[string, number, number], TransferRow>(
          ctx.db,
          `SELECT t.* FROM transfers t JOIN applications a ON a.id = t.application_id
        WHERE a.account_id = ? AND t.seq > ? ORDER BY t.seq LIMIT ?`,
        ).all(accountId, after, page.limit + 1)
      : stmt<[string, string, number, number], TransferRow>(
          ctx.db,
          `SELECT t.* FROM transfers t JOIN applications a ON a.id = t.application_id
        WHERE a.account_id = ? AND t.application_id = ? AND t.seq > ? ORDER BY t.seq LIMIT ?`,
        ).all(accountId, page.application_id, after, page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return { transfers: items.map(toEntry), next_cursor };
}

/** The most entries an evidence package lists one by one (the route totals always cover every entry). */
export const EVIDENCE_MAX_ENTRIES = 5000;

/** One route of the register, totalled: what moved where under which basis, how often, first and last. */
export interface TransferRoute extends TransferInput {
  count: number;
  first_at: string;
  last_at: string;
}

/** The whole register of the account (or one application) as an evidence package states it. */
export function transferRegisterSnapshot(ctx: ServerContext, accountId: string, applicationId?: string) {
  const where = `a.account_id = ?${applicationId === undefined ? '' : ' AND t.application_id = ?'}`;
  const args = applicationId === undefined ? [accountId] : [accountId, applicationId];
  const routes = ctx.db
    .prepare(`SELECT t.application_id, t.category, t.from_country, t.to_country, t.lawful_basis, t.adequacy,
      COUNT(*) AS count, MIN(t.created_at) AS first_at, MAX(t.created_at) AS last_at
    FROM transfers t JOIN applications a ON a.id = t.application_id WHERE ${where}
    GROUP BY t.application_id, t.category, t.from_country, t.to_country, t.lawful_basis, t.adequacy
    ORDER BY t.application_id, t.category, t.from_country, t.to_country, t.lawful_basis, t.adequacy`)
    .all(...args) as TransferRoute[];
  const total = routes.reduce((n, r) => n + r.count, 0);
  const entries = (
    ctx.db
      .prepare(`SELECT t.* FROM transfers t JOIN applications a ON a.id = t.application_id WHERE ${where}
    ORDER BY t.seq DESC LIMIT ?`)
      .all(...args, EVIDENCE_MAX_ENTRIES) as TransferRow[]
  )
    .reverse()
    .map(toEntry);
  return {
    application_id: applicationId ?? null,
    total,
    routes,
    /** The newest entries, oldest first; `entries_complete` says whether they are all of them. */
    transfers: entries,
    entries_complete: entries.length === total,
  };
}
