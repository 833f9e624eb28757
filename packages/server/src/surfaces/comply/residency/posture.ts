// Residency posture: where an account's subjects' data is stored, per country cell, as counts, with an assurance
// status per cell. Each cell's counts are drawn from that cell's own database (the reference server runs every cell
// in one process; the directory's contexts are used for these aggregate counts only, never to read a row).
import type { ResidencyCountry, ResidencyPosture } from '@svc/schemas';
import { isoNow } from '../../../infra/clock.js';
import type { ServerContext } from '../../../infra/context.js';
import type { Db } from '../../../infra/db.js';
import { firstCountry } from '../../../infra/cells/routing.js';

/**
 * The tables of personal data a cell keeps, each with the type prefix of its ids (see HOMED_PREFIXES): the home of a
 * row is the country its id names after the prefix (`cr_de_…`), or the first country for ids minted before cells.
 */
export const PERSONAL_TABLES = [
  { table: 'persons', prefix: 'prs_' },
  { table: 'consent_records', prefix: 'cr_' },
  { table: 'authorization_records', prefix: 'ar_' },
  { table: 'notice_records', prefix: 'nr_' },
  { table: 'decisions', prefix: 'dec_' },
  { table: 'delegation_grants', prefix: 'dlg_' },
  { table: 'escalations', prefix: 'esc_' },
  { table: 'agreements', prefix: 'agr_' },
  { table: 'vouches', prefix: 'vch_' },
  { table: 'collaborations', prefix: 'col_' },
  { table: 'policies', prefix: 'pol_' },
  { table: 'data_requests', prefix: 'dsar_' },
  { table: 'data_licenses', prefix: 'dlic_' },
  { table: 'data_offers', prefix: 'dof_' },
  { table: 'portability_transfers', prefix: 'ptr_' }, // Protect
  { table: 'clean_rooms', prefix: 'clr_' }, // Comply: homed with their agreement (aggregates only; their queries hang off them)
] as const;

type PersonalTable = (typeof PERSONAL_TABLES)[number]['table'];

/** Rows of `table` for the account in `db`, and how many of them name another home than `country`. */
function countRows(
  db: Db,
  table: string,
  prefix: string,
  accountId: string,
  country: string,
  first: boolean,
): { rows: number; elsewhere: number } {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
  if (!exists) return { rows: 0, elsewhere: 0 };
  const p = prefix.length;
  // A homed id has two lower-case letters and `_` after its prefix (base62 ids never hold `_`; `dlg_dev_…` does not
  // match, being three letters): its home is those letters. Any other id belongs to the first country.
  const row = db
    .prepare(`SELECT COUNT(*) AS rows,
      COALESCE(SUM(CASE
        WHEN substr(id, ${p + 3}, 1) = '_' AND substr(id, ${p + 1}, 2) GLOB '[a-z][a-z]' THEN upper(substr(id, ${p + 1}, 2)) <> @country
        ELSE @first = 0 END), 0) AS elsewhere
    FROM ${table} WHERE account_id = @account`)
    .get({ account: accountId, country, first: first ? 1 : 0 }) as { rows: number; elsewhere: number };
  return row;
}

/** The posture of one cell for the account: its counts and whether everything stored there is homed there. */
export function cellPosture(cell: ServerContext, accountId: string, first: string): ResidencyCountry {
  const counts = {} as Record<PersonalTable, number>;
  let checked = 0;
  let elsewhere = 0;
  for (const { table, prefix } of PERSONAL_TABLES) {
    const c = countRows(cell.db, table, prefix, accountId, cell.country, cell.country === first);
    counts[table] = c.rows;
    checked += c.rows;
    elsewhere += c.elsewhere;
  }
  return {
    country: cell.country,
    storage_locations: [cell.country],
    subjects: counts.persons,
    consent_records: counts.consent_records,
    authorization_records: counts.authorization_records,
    notice_records: counts.notice_records,
    receipts: counts.consent_records + counts.authorization_records + counts.notice_records,
    decisions: counts.decisions,
    delegation_grants: counts.delegation_grants,
    rows_checked: checked,
    rows_homed_elsewhere: elsewhere,
    assurance: elsewhere === 0 ? 'verified' : 'attention',
  };
}

/** The account's residency posture over every cell of the deployment (this one alone before the directory fills). */
export function residencyPosture(ctx: ServerContext, accountId: string): ResidencyPosture {
  const cells = ctx.cells.list().map((c) => c.context);
  const contexts = cells.length > 0 ? cells : [ctx];
  const first = firstCountry(ctx);
  const countries = contexts.filter((c) => c.db.open).map((c) => cellPosture(c, accountId, first));
  return {
    drawn_at: isoNow(ctx.clock),
    assurance: countries.every((c) => c.assurance === 'verified') ? 'verified' : 'attention',
    countries,
  };
}
