import type { Db } from '../db.js';

/**
 * The organisation-level configuration every cell reads: one API token, application, flow or webhook endpoint works
 * in every cell. The reference server keeps a replica of these tables in each cell's database and copies each write
 * to the others as soon as the request that made it ends (last writer wins per row); a real deployment keeps them
 * in one control-plane store. Listed parents first. `key` is the natural key rows are matched on; a local `seq`
 * (each database's own order) is never copied.
 */
export const CONTROL_TABLES: readonly { table: string; key: readonly string[] }[] = [
  { table: 'accounts', key: ['id'] },
  { table: 'account_users', key: ['id'] }, // a person's id only: their email stays in their home cell
  { table: 'applications', key: ['id'] },
  { table: 'publishable_keys', key: ['key'] },
  { table: 'api_tokens', key: ['id'] },
  { table: 'allowed_origins', key: ['application_id', 'origin'] },
  { table: 'flows', key: ['id'] },
  { table: 'flow_versions', key: ['flow_id', 'version'] },
  { table: 'webhook_endpoints', key: ['id'] },
  { table: 'oauth_clients', key: ['id'] },
  { table: 'agent_identities', key: ['id'] },
  { table: 'agent_manifests', key: ['agent_id', 'version'] },
  { table: 'form_connections', key: ['id'] },
  { table: 'transfers', key: ['id'] }, // the transfer register: routes, bases and verdicts, no personal data
  { table: 'account_modules', key: ['account_id', 'key'] }, // Comply: which product modules an account enabled
  { table: 'governance_settings', key: ['account_id'] }, // Comply: an account's governance settings
  { table: 'governance_changes', key: ['id'] }, // Comply: who changed which setting or module, from and to
  { table: 'meeting_consents', key: ['id'] }, // Comply: a meeting, its time, consent template and disclosed agents (no attendees)
];

const LOCAL_COLUMNS = new Set(['seq']);

interface Change {
  seq: number;
  tbl: string;
  op: 'upsert' | 'delete';
  row: string;
}

interface TableStatements {
  upsert: (row: Record<string, unknown>) => void;
  remove: (row: Record<string, unknown>) => void;
  all: () => Record<string, unknown>[];
}

/** One cell's database as the replicator sees it. */
interface Replica {
  country: string;
  db: Db;
  tables: Map<string, TableStatements>;
  pending: () => Change[];
  lastSeq: () => number;
  forget: (op: '<=' | '>', seq: number) => void;
}

const columnsOf = (db: Db, table: string): string[] =>
  (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name).filter((name) => !LOCAL_COLUMNS.has(name));

/**
 * Records each write to a control-plane table in a per-connection TEMP log (temp triggers never touch the database
 * file) and prepares the statements that apply a row elsewhere.
 */
function install(country: string, db: Db): Replica {
  db.exec('CREATE TEMP TABLE IF NOT EXISTS control_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT NOT NULL, op TEXT NOT NULL, row TEXT NOT NULL)');
  const tables = new Map<string, TableStatements>();
  for (const { table, key } of CONTROL_TABLES) {
    const columns = columnsOf(db, table);
    const json = (alias: string, names: readonly string[]) => `json_object(${names.map((n) => `'${n}', ${alias}.${n}`).join(', ')})`;
    db.exec(`
      CREATE TEMP TRIGGER IF NOT EXISTS cp_${table}_insert AFTER INSERT ON main.${table}
      BEGIN INSERT INTO control_changes (tbl, op, row) VALUES ('${table}', 'upsert', ${json('NEW', columns)}); END;
      CREATE TEMP TRIGGER IF NOT EXISTS cp_${table}_update AFTER UPDATE ON main.${table}
      BEGIN INSERT INTO control_changes (tbl, op, row) VALUES ('${table}', 'upsert', ${json('NEW', columns)}); END;
      CREATE TEMP TRIGGER IF NOT EXISTS cp_${table}_delete AFTER DELETE ON main.${table}
      BEGIN INSERT INTO control_changes (tbl, op, row) VALUES ('${table}', 'delete', ${json('OLD', key)}); END;`);
    const others = columns.filter((c) => !key.includes(c));
    const upsert = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})
      ON CONFLICT (${key.join(', ')}) DO ${others.length ? `UPDATE SET ${others.map((c) => `${c} = excluded.${c}`).join(', ')}` : 'NOTHING'}`);
    const remove = db.prepare(`DELETE FROM ${table} WHERE ${key.map((c) => `${c} = @${c}`).join(' AND ')}`);
    const all = db.prepare(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY rowid`);
    tables.set(table, {
      upsert: (row) => upsert.run(row),
      remove: (row) => remove.run(row),
      all: () => all.all() as Record<string, unknown>[],
    });
  }
  const pending = db.prepare('SELECT seq, tbl, op, row FROM temp.control_changes ORDER BY seq');
  const lastSeq = db.prepare('SELECT coalesce(max(seq), 0) FROM temp.control_changes').pluck();
  const forgetUpTo = db.prepare('DELETE FROM temp.control_changes WHERE seq <= ?');
  const forgetAfter = db.prepare('DELETE FROM temp.control_changes WHERE seq > ?');
  return {
    country,
    db,
    tables,
    pending: () => pending.all() as Change[],
    lastSeq: () => lastSeq.get() as number,
    forget: (op, seq) => void (op === '<=' ? forgetUpTo : forgetAfter).run(seq),
  };
}

/** Copies control-plane writes between the cells' databases. */
export class ControlPlane {
  readonly #replicas: Replica[];
  #syncing = false;

  constructor(cells: readonly { country: string; db: Db }[]) {
    // One cell has nothing to copy to: no triggers, no log.
    this.#replicas = cells.length > 1 ? cells.map(({ country, db }) => install(country, db)) : [];
  }

  /** Applies rows to `target` without logging them there again (they came from elsewhere). */
  #apply(target: Replica, changes: readonly Pick<Change, 'tbl' | 'op' | 'row'>[]): void {
    const { db } = target;
    db.transaction(() => {
      const before = target.lastSeq();
      for (const change of changes) {
        const statements = target.tables.get(change.tbl);
        if (!statements) continue;
        const row = JSON.parse(change.row) as Record<string, unknown>;
        if (change.op === 'upsert') statements.upsert(row);
        else statements.remove(row);
      }
      target.forget('>', before);
    })();
  }

  /** Copies every control-plane row of the first cell into the others: a new or restarted cell catches up. */
  catchUp(): void {
    const [source, ...targets] = this.#replicas;
    if (!source) return;
    const rows = CONTROL_TABLES.flatMap(({ table }) =>
      source.tables.get(table)!.all().map((row) => ({ tbl: table, op: 'upsert' as const, row: JSON.stringify(row) })));
    for (const target of targets) this.#apply(target, rows);
  }

  /** Sends each cell's pending control-plane writes to every other cell, in the order they were made. */
  sync(): void {
    if (this.#syncing || !this.#replicas.length) return;
    this.#syncing = true;
    try {
      for (const source of this.#replicas) {
        const changes = source.pending();
        if (!changes.length) continue;
        for (const target of this.#replicas) {
          if (target === source) continue;
          try {
            this.#apply(target, changes);
          } catch (error) {
            console.error(`[svc-server] control plane: copying ${changes.length} change(s) from ${source.country} to ${target.country} failed`, error);
          }
        }
        source.forget('<=', changes.at(-1)!.seq);
      }
    } finally {
      this.#syncing = false;
    }
  }
}
