// Prepared statements cached per database: records, imports, receipts and the audit trail run the same few
// statements thousands of times per import.
import type { Statement } from 'better-sqlite3';
import type { Db } from '../lib/db.js';

const cache = new WeakMap<Db, Map<string, Statement>>();

/** The prepared statement for `sql` on `db`, made once. */
export function stmt<P extends unknown[] = unknown[], R = unknown>(db: Db, sql: string): Statement<P, R> {
  let statements = cache.get(db);
  if (!statements) cache.set(db, (statements = new Map()));
  let s = statements.get(sql);
  if (!s) statements.set(sql, (s = db.prepare(sql)));
  return s as Statement<P, R>;
}

/** Runs `fn` in a transaction, or directly when one is open already (the caller's transaction covers it). */
export function inTransaction<T>(db: Db, fn: () => T): T {
  return db.inTransaction ? fn() : db.transaction(fn)();
}
