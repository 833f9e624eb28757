import type { Migration } from '../db.js';
import {
  CONTROL_FILE,
  CONTROL_SCHEMA,
  CONTROL_TABLES,
  copyColumns,
  keepSequence,
  schemaOf,
  sequenceOf,
  tablesOf,
} from '../cells/control-plane.js';
import { consoleAccountUsers } from './control-console.js';
import { oauthClientIdTokenAlg } from './control-oauth-clients.js';
import { webhookAttemptLeases } from './control-webhook-leases.js';

/** A CREATE statement SQLite keeps (normalised: `CREATE TABLE name …`, no schema), made in the control database. */
const inControl = (sql: string): string =>
  sql.replace(/^(CREATE (?:UNIQUE )?INDEX|CREATE TABLE|CREATE TRIGGER|CREATE VIEW)\s+/i, `$1 ${CONTROL_SCHEMA}.`);

/**
 * Control migration 1: fills a new control database from the cell it is first opened with (the first country's):
 * the control tables as the cell migrations built them, their indexes, triggers, rows (with their rowids, so cursors
 * keep their place) and AUTOINCREMENT marks. A data directory of the versions that kept a replica in every cell
 * upgrades here: the first cell's replica becomes the one copy; then every cell's replica is dropped (`separateCell`).
 * A new deployment gets the empty tables.
 */
export const adoptFirstReplica: Migration = {
  id: 1,
  name: 'control-plane',
  run(db) {
    const present = new Set(tablesOf(db, 'main'));
    const missing = CONTROL_TABLES.filter((table) => !present.has(table));
    if (missing.length) {
      throw new Error(
        `The control database (${CONTROL_FILE}) is new, but this cell's database has no ${missing.join(', ')} to fill it ` +
          `from: the cell was separated from a control database that is now missing. Restore ${CONTROL_FILE} from a backup.`,
      );
    }
    for (const table of CONTROL_TABLES) {
      const { table: createSql, dependents } = schemaOf(db, 'main', table);
      db.exec(inControl(createSql));
      const columns = copyColumns(db, 'main', table, createSql).join(', ');
      db.exec(`INSERT INTO ${CONTROL_SCHEMA}."${table}" (${columns}) SELECT ${columns} FROM main."${table}"`);
      keepSequence(db, CONTROL_SCHEMA, table, sequenceOf(db, 'main', table));
      for (const sql of dependents) db.exec(inControl(sql));
    }
  },
};

/** Control migration 2: an API token's own rate limit (`rate_limit` on the wire), null when it has none. */
export const apiTokenRateLimits: Migration = {
  id: 2,
  name: 'api-token-rate-limits',
  sql: `
    ALTER TABLE ${CONTROL_SCHEMA}.api_tokens ADD COLUMN rate_limit_requests INTEGER CHECK (rate_limit_requests >= 1);
    ALTER TABLE ${CONTROL_SCHEMA}.api_tokens ADD COLUMN rate_limit_window_seconds INTEGER CHECK (rate_limit_window_seconds >= 1);
  `,
};

/** The control database's migrations, recorded in its own `schema_migrations`. */
export const controlMigrations: Migration[] = [
  adoptFirstReplica,
  apiTokenRateLimits,
  oauthClientIdTokenAlg,
  consoleAccountUsers,
  webhookAttemptLeases,
];
