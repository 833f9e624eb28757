/**
 * The control plane: the organisation configuration every cell reads (accounts, applications, keys, API tokens, flows,
 * webhook endpoints, OAuth clients, agents, settings …) is ONE SQLite file, `control.sqlite` in the control data
 * directory (beside the at-rest sealing key), which every cell's connection ATTACHes as `control`; a cell's own file
 * holds its personal data only. Each table exists in exactly one file, so queries name tables plainly (SQLite looks in
 * temp, main, then attached files). A write through any cell is the write: nothing is copied, lost or brought back.
 *
 * Atomicity (WAL): a transaction writing both files is atomic per file, not across them; SQLite commits the cell's
 * file first, then the control file, so a crash between keeps the cell's part only. Writes that span both, each safe
 * in that order: a token's deferred `last_used_at` riding on a request's cell writes, and a form connection's
 * `last_submission_at` beside its submission (lost: the time is older); the webhook worker's delivery outcome (cell)
 * with the endpoint's `consecutive_failures` and automatic disable (lost: disabled one failure later, never without
 * the failed delivery on record); a delegation grant (cell) and the agent naming it (the grant exists before
 * configuration points at it); a deleted OAuth client's tokens in this cell (gone before the client is); an activity
 * event (cell) about an agent change (it may outlive a lost change: activity is a log, never read as configuration).
 * Every other configuration write touches the control file alone.
 *
 * Counters that change often stay in the control row they describe, written in place by one statement (`SET
 * last_used_at = ?`, `SET consecutive_failures = consecutive_failures + 1`): the control file's single write lock
 * serialises the cells, so every cell's increment counts, and a use written by one cell changes that column only, so
 * it cannot undo a revocation another cell wrote. They describe the token or endpoint as a whole (its last use
 * anywhere; failures anywhere disable the endpoint everywhere), which a per-cell copy would get wrong.
 *
 * Cell tables name configuration rows without foreign keys (SQLite cannot enforce one across files): the rows they
 * name (accounts, applications, flows, webhook endpoints, form connections, agents) are never deleted, only revoked,
 * archived or disabled, and the code reads the row it names before writing the reference.
 */
import { join } from 'node:path';
import type { Db } from '../db.js';

/** The schema name every cell's connection attaches the control database under. */
export const CONTROL_SCHEMA = 'control';

/** The control database's file name, in the control data directory. */
export const CONTROL_FILE = 'control.sqlite';

/** The organisation configuration tables, parents first: they live in the control file only. */
export const CONTROL_TABLES: readonly string[] = [
  'accounts',
  'account_users', // a person's id only: their email stays in their home cell
  'applications',
  'publishable_keys',
  'api_tokens',
  'allowed_origins',
  'flows',
  'flow_versions',
  'webhook_endpoints',
  'oauth_clients',
  'agent_identities',
  'agent_manifests',
  'form_connections',
  'transfers', // the transfer register: routes, bases and verdicts, no personal data
  'account_modules', // Comply: which product modules an account enabled
  'governance_settings', // Comply: an account's governance settings
  'governance_changes', // Comply: who changed which setting or module, from and to
  'meeting_consents', // Comply: a meeting, its time, consent template and disclosed agents (no attendees)
  'settings', // the service's own settings (the sandbox, first-party clients, the import allowance)
];

const isControlTable = new Set(CONTROL_TABLES);

/** Attaches the control database in `controlDir` to a cell's connection, in WAL mode like the cell's own file. */
export function attachControlPlane(db: Db, controlDir: string): void {
  db.prepare(`ATTACH DATABASE ? AS ${CONTROL_SCHEMA}`).run(join(controlDir, CONTROL_FILE));
  db.pragma(`${CONTROL_SCHEMA}.journal_mode = WAL`);
  db.pragma(`${CONTROL_SCHEMA}.synchronous = NORMAL`);
}

interface ForeignKey {
  table: string;
  from: string;
  to: string | null;
}

/** The tables of `schema`, in creation order. */
export const tablesOf = (db: Db, schema: string): string[] =>
  db
    .prepare(`SELECT name FROM ${schema}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid`)
    .pluck()
    .all() as string[];

const foreignKeys = (db: Db, schema: string, table: string): ForeignKey[] =>
  db.pragma(`${schema}.foreign_key_list("${table}")`) as ForeignKey[];

/** The text of `name`'s CREATE statement and of its indexes and triggers (SQLite keeps them normalised). */
export function schemaOf(db: Db, schema: string, name: string): { table: string; dependents: string[] } {
  const rows = db
    .prepare(`SELECT type, sql FROM ${schema}.sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY rowid`)
    .all(name) as { type: string; sql: string }[];
  const table = rows.find((row) => row.type === 'table')?.sql;
  if (!table) throw new Error(`${schema}.${name} does not exist`);
  return { table, dependents: rows.filter((row) => row.type !== 'table').map((row) => row.sql) };
}

/** Every column of `table`, for a copy that names them (with the rowid, so that rowid cursors keep their place). */
export function copyColumns(db: Db, schema: string, table: string, createSql: string): string[] {
  const columns = (db.pragma(`${schema}.table_info("${table}")`) as { name: string }[]).map((c) => `"${c.name}"`);
  return [...(/\bWITHOUT\s+ROWID\s*$/i.test(createSql) ? [] : ['rowid']), ...columns];
}

/** An AUTOINCREMENT table's high-water mark (undefined for another table, or one that never had a row). */
export function sequenceOf(db: Db, schema: string, table: string): number | undefined {
  if (!db.prepare(`SELECT 1 FROM ${schema}.sqlite_master WHERE name = 'sqlite_sequence'`).get()) return undefined;
  return db.prepare(`SELECT seq FROM ${schema}.sqlite_sequence WHERE name = ?`).pluck().get(table) as number | undefined;
}

/** Sets an AUTOINCREMENT table's high-water mark at least to `seq`, so that a copied table never hands out an id again. */
export function keepSequence(db: Db, schema: string, table: string, seq: number | undefined): void {
  if (seq === undefined) return;
  const updated = db.prepare(`UPDATE ${schema}.sqlite_sequence SET seq = max(seq, ?) WHERE name = ?`).run(seq, table);
  if (!updated.changes) db.prepare(`INSERT INTO ${schema}.sqlite_sequence (name, seq) VALUES (?, ?)`).run(table, seq);
}

const NAMES = CONTROL_TABLES.join('|');
const ACTIONS = String.raw`(?:\s+ON\s+(?:DELETE|UPDATE)\s+(?:SET\s+NULL|SET\s+DEFAULT|CASCADE|RESTRICT|NO\s+ACTION))*(?:\s+(?:NOT\s+)?DEFERRABLE(?:\s+INITIALLY\s+(?:DEFERRED|IMMEDIATE))?)?`;
const TARGET = String.raw`REFERENCES\s+["\`[]?(?:${NAMES})\b["\`\]]?(?:\s*\([^)]*\))?${ACTIONS}`;
const COLUMN_REFERENCE = new RegExp(String.raw`(?:\s+CONSTRAINT\s+\w+)?\s+${TARGET}`, 'gi');
const TABLE_REFERENCE = new RegExp(String.raw`,\s*(?:CONSTRAINT\s+\w+\s+)?FOREIGN\s+KEY\s*\([^)]*\)\s*${TARGET}`, 'gi');
const TABLE_NAME = /^CREATE TABLE\s+("(?:[^"]|"")+"|`[^`]+`|\[[^\]]+\]|'[^']+'|[^\s(]+)/i;

/** `createSql` without its foreign keys into control tables, creating `target` instead. */
function withoutControlReferences(createSql: string, target: string): string {
  return createSql.replace(TABLE_REFERENCE, '').replace(COLUMN_REFERENCE, '').replace(TABLE_NAME, `CREATE TABLE ${target}`);
}

/**
 * Rebuilds a cell table without its foreign keys into control tables: its rows (with their rowids) are set aside,
 * the table is dropped and made again from its own definition less those clauses, the rows put back, its indexes
 * and triggers made again (no rename: renaming makes SQLite re-read the whole schema, each time). Foreign keys must be off (the caller's transaction): dropping the table then neither
 * cascades nor counts its children as dangling, and the children's references name the new table.
 */
function rebuildWithoutControlReferences(db: Db, table: string): void {
  const { table: createSql, dependents } = schemaOf(db, 'main', table);
  const before = JSON.stringify(db.pragma(`main.table_info("${table}")`));
  const columns = copyColumns(db, 'main', table, createSql);
  const saved = `"${table}__rows"`;
  const hasRows = db.prepare(`SELECT 1 FROM main."${table}" LIMIT 1`).get() !== undefined;
  const aliases = columns.map((column, i) => `${column} AS c${i}`).join(', ');
  if (hasRows) db.exec(`CREATE TABLE main.${saved} AS SELECT ${aliases} FROM main."${table}"`);
  const seq = sequenceOf(db, 'main', table);
  db.exec(`DROP TABLE main."${table}"`);
  db.exec(withoutControlReferences(createSql, `main."${table}"`));
  if (hasRows) {
    db.exec(`INSERT INTO main."${table}" (${columns.join(', ')}) SELECT ${columns.map((_, i) => `c${i}`).join(', ')} FROM main.${saved}`);
    db.exec(`DROP TABLE main.${saved}`);
  }
  keepSequence(db, 'main', table, seq);
  for (const sql of dependents) db.exec(sql); // after the rows: a trigger fires on none of them
  const left = foreignKeys(db, 'main', table).filter((fk) => isControlTable.has(fk.table));
  if (left.length || JSON.stringify(db.pragma(`main.table_info("${table}")`)) !== before) {
    throw new Error(`cannot separate ${table} from the control plane: its definition is not one this server can rewrite`);
  }
}

/** References from cell rows to control rows that name nothing (after an upgrade from replicas that disagreed). */
function danglingReferences(db: Db, references: readonly { table: string; fk: ForeignKey }[]): string[] {
  const primaryKey = (table: string) =>
    (db.pragma(`${CONTROL_SCHEMA}.table_info("${table}")`) as { name: string; pk: number }[]).find((c) => c.pk === 1)?.name ?? 'rowid';
  return references.flatMap(({ table, fk }) => {
    const count = db
      .prepare(`SELECT count(*) FROM main."${table}" WHERE "${fk.from}" IS NOT NULL
      AND "${fk.from}" NOT IN (SELECT "${fk.to ?? primaryKey(fk.table)}" FROM ${CONTROL_SCHEMA}."${fk.table}")`)
      .pluck()
      .get() as number;
    return count ? [`${count} ${table}.${fk.from} -> ${fk.table}`] : [];
  });
}

/**
 * Leaves a cell's own file with its personal data only: drops the replicas of control tables that earlier versions
 * (and this server's cell migrations, which build the single-file schema) keep in it, and rebuilds the cell tables
 * that referenced them without those foreign keys. Runs on every open once the control database is attached and
 * filled; does nothing when the file is already separated.
 */
export function separateCell(db: Db): void {
  const tables = tablesOf(db, 'main');
  const replicas = tables.filter((table) => isControlTable.has(table));
  const references = tables
    .filter((table) => !isControlTable.has(table))
    .flatMap((table) =>
      foreignKeys(db, 'main', table)
        .filter((fk) => isControlTable.has(fk.table))
        .map((fk) => ({ table, fk })),
    );
  if (!replicas.length && !references.length) return;
  const enforced = db.pragma('foreign_keys', { simple: true }) === 1;
  db.pragma('foreign_keys = OFF'); // a no-op inside a transaction: switched around it
  try {
    db.transaction(() => {
      for (const table of new Set(references.map(({ table }) => table))) rebuildWithoutControlReferences(db, table);
      for (const table of replicas.reverse()) db.exec(`DROP TABLE main."${table}"`);
      const dangling = db.pragma('main.foreign_key_check') as unknown[];
      if (dangling.length) throw new Error(`separating the cell's file leaves ${dangling.length} rows dangling`);
    })();
  } finally {
    if (enforced) db.pragma('foreign_keys = ON');
  }
  const dangling = danglingReferences(db, references);
  if (dangling.length)
    console.warn(`[svc-server] control plane: cell rows naming configuration the control database lacks: ${dangling.join(', ')}`);
}
