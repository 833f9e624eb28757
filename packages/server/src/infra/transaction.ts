// One write transaction per request. Small writes that may wait a moment (an API token's last use) are queued and
// committed inside the next transaction opened on the database, so they cost no commit of their own.
import type { Db } from './db.js';

const queues = new WeakMap<Db, Map<string, () => void>>();
// One better-sqlite3 transaction function per database, reused: making one per call costs about as much as a small
// write itself.
const runners = new WeakMap<Db, <T>(fn: () => T) => T>();

function runner(db: Db): <T>(fn: () => T) => T {
  let run = runners.get(db);
  if (!run) runners.set(db, (run = db.transaction((fn: () => unknown) => fn()) as <T>(fn: () => T) => T));
  return run;
}

/** Queues `write` under `key` (replacing a queued write of the same key) to commit with the next transaction on `db`. */
export function deferWrite(db: Db, key: string, write: () => void): void {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = new Map()));
  queue.set(key, write);
}

/**
 * Runs `fn` in a transaction together with the queued writes, or directly inside the caller's transaction when one
 * is open (better-sqlite3 transactions are synchronous, so an open one is the caller's). The queued writes are
 * forgotten only once they committed: when `fn` throws they roll back with it and stay queued.
 */
export function transaction<T>(db: Db, fn: () => T): T {
  if (db.inTransaction) return fn();
  const queue = queues.get(db);
  if (!queue?.size) return runner(db)(fn);
  const queued = [...queue];
  const result = runner(db)(() => {
    for (const [, write] of queued) write();
    return fn();
  });
  for (const [key, write] of queued) if (queue.get(key) === write) queue.delete(key);
  return result;
}

/** Commits the queued writes now, in a transaction of their own (after a request that wrote nothing). */
export function flushDeferredWrites(db: Db): void {
  if (queues.get(db)?.size) transaction(db, () => undefined);
}
