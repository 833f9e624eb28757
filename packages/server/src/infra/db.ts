import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { controlMigrations, migrations } from './migrations/index.js';
import { attachControlPlane, CONTROL_SCHEMA, separateCell } from './cells/control-plane.js';

export type Db = Database.Database;

/**
 * One schema step; `id`s are applied in ascending order, each exactly once, each in its own transaction. The step is
 * its `sql`, or `run` for one that must read what it rebuilds.
 */
export interface Migration {
  id: number;
  name: string;
  sql?: string;
  run?: (db: Db) => void;
  /**
   * The step rebuilds a table other tables reference (SQLite cannot alter a CHECK): it runs with foreign keys off, as
   * SQLite's own procedure for such changes asks (with them on, dropping the old table deletes its rows first, which
   * fires the children's ON DELETE CASCADE and leaves the rest counted as violations). Before the step commits,
   * `PRAGMA foreign_key_check` must find nothing dangling, or the step rolls back.
   */
  rebuildsReferencedTable?: boolean;
}

/**
 * Opens (or creates) a cell's SQLite database in `dataDir` with WAL, applies its pending migrations, and attaches the
 * control database in `controlDir` (the organisation configuration every cell shares: see `cells/control-plane.ts`),
 * applying its migrations too. The cell migrations run first, on the cell's file alone; then the control database is
 * filled from this cell if it is new, and the cell's file is left with its own tables only.
 */
export function openDatabase(dataDir: string, controlDir: string = dataDir): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'svc.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  try {
    migrate(db, migrations);
    mkdirSync(controlDir, { recursive: true });
    attachControlPlane(db, controlDir);
    migrate(db, controlMigrations, CONTROL_SCHEMA);
    separateCell(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** Applies every migration not yet recorded in `schema_migrations` of `schema` (the cell's own file unless named). */
export function migrate(db: Db, list: readonly Migration[], schema = 'main'): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Set(db.prepare(`SELECT id FROM ${schema}.schema_migrations`).pluck().all() as number[]);
  const ids = new Set<number>();
  for (const m of [...list].sort((a, b) => a.id - b.id)) {
    if (ids.has(m.id)) throw new Error(`duplicate migration id ${m.id}`);
    ids.add(m.id);
    if (applied.has(m.id)) continue;
    const step = db.transaction(() => {
      if (m.sql) db.exec(m.sql);
      m.run?.(db);
      if (m.rebuildsReferencedTable) {
        const dangling = db.pragma(`${schema}.foreign_key_check`) as { table: string; parent: string }[];
        if (dangling.length > 0) {
          const first = dangling[0]!;
          throw new Error(
            `migration ${m.id} (${m.name}) leaves ${dangling.length} rows dangling (first: ${first.table} -> ${first.parent})`,
          );
        }
      }
      db.prepare(`INSERT INTO ${schema}.schema_migrations (id, name, applied_at) VALUES (?, ?, ?)`).run(
        m.id,
        m.name,
        new Date().toISOString(),
      );
    });
    if (!m.rebuildsReferencedTable) {
      step();
      continue;
    }
    // PRAGMA foreign_keys is a no-op inside a transaction: it is switched around the step's transaction.
    const enforced = db.pragma('foreign_keys', { simple: true }) === 1;
    db.pragma('foreign_keys = OFF');
    try {
      step();
    } finally {
      if (enforced) db.pragma('foreign_keys = ON');
    }
  }
}

const statements = new WeakMap<Db, Map<string, Database.Statement>>();

/** The prepared statement for `sql` on `db`, prepared once per database (hot paths read on every request). */
export function stmt<P extends unknown[] = unknown[], R = unknown>(db: Db, sql: string): Database.Statement<P, R> {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let s = cache.get(sql);
  if (!s) cache.set(sql, (s = db.prepare(sql)));
  // Callers share the statement and some switch it to pluck mode: every use starts from whole rows again.
  else if (s.reader) s.pluck(false);
  return s as Database.Statement<P, R>;
}
