// The storage floor of a consent record: every SQL statement (with its parameters) that `count` records made through
// the Record API run is captured, then replayed alone with better-sqlite3 in a copy of the database taken just before,
// opened as the server opens it (WAL, synchronous=NORMAL, the control file attached). No HTTP and none of the
// service's JavaScript: what the rows a record promises (record, receipt, person, connection, audit event, receipt
// email) cost the storage by themselves, so no server on this machine can record faster than this.
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Database = import('better-sqlite3').Database;
interface Call {
  sql: string;
  method: 'run' | 'get' | 'all';
  args: unknown[];
}
export interface Floor {
  statements: number;
  wallUs: number;
  cpuUs: number;
}

const fromServer = createRequire(fileURLToPath(new URL('../../../packages/server/package.json', import.meta.url)));
const Sqlite = fromServer('better-sqlite3') as typeof import('better-sqlite3');

/** Records every statement run while `capturing` is on (better-sqlite3's Statement methods, wrapped once). */
function captureStatements(): { calls: Call[]; capture(on: boolean): void } {
  const calls: Call[] = [];
  let on = false;
  const probe = new Sqlite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  for (const method of ['run', 'get', 'all'] as const) {
    const original = proto[method]!;
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      if (on) calls.push({ sql: this.source, method, args: structuredClone(args) });
      return original.apply(this, args);
    };
  }
  return { calls, capture: (value) => void (on = value) };
}

/** Copies the cell's and the control plane's files (after a full checkpoint) into a new directory. */
function snapshot(db: Database, dataDir: string): string {
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.pragma('control.wal_checkpoint(TRUNCATE)');
  const cell = (readdirSync(dataDir, { recursive: true }) as string[]).find((f) => f.endsWith('svc.sqlite'))!;
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-floor-'));
  copyFileSync(join(dataDir, cell), join(dir, 'svc.sqlite'));
  copyFileSync(join(dataDir, 'control.sqlite'), join(dir, 'control.sqlite'));
  return dir;
}

/** Replays `calls` in the copy at `dir`, opened as the server opens its database. */
function replay(dir: string, calls: Call[], records: number): Floor {
  const db = new Sqlite(join(dir, 'svc.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.prepare('ATTACH DATABASE ? AS control').run(join(dir, 'control.sqlite'));
  db.pragma('control.journal_mode = WAL');
  db.pragma('control.synchronous = NORMAL');
  const prepared = new Map(calls.map((c) => [c.sql, db.prepare(c.sql)]));
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const call of calls) (prepared.get(call.sql)![call.method] as (...args: unknown[]) => unknown)(...call.args);
  const wallUs = ((performance.now() - started) * 1000) / records;
  const used = process.cpuUsage(cpu);
  db.close();
  return { statements: calls.length / records, wallUs, cpuUs: (used.user + used.system) / records };
}

/**
 * Makes 200 records, then `count` more through `create` (one at a time, on the server whose database is `db` in
 * `dataDir`), capturing the second batch's statements, and replays them.
 */
export async function measureRecordFloor(db: Database, dataDir: string, create: () => Promise<unknown>, count: number): Promise<Floor> {
  const session = captureStatements();
  for (let i = 0; i < 200; i += 1) await create();
  const dir = snapshot(db, dataDir);
  session.capture(true);
  for (let i = 0; i < count; i += 1) await create();
  session.capture(false);
  try {
    return replay(dir, session.calls, count);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
