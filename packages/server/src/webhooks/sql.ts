import type { Db } from '../lib/db.js';

const caches = new WeakMap<Db, Map<string, unknown>>();

/**
 * `db` with a `prepare` that compiles each SQL text once per database: the worker and the outbox writer run the
 * same few statements for every delivery, and preparing them each time costs more than running them.
 */
export function cached(db: Db): { prepare: Db['prepare'] } {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const statements = cache;
  const prepare = (source: string) => {
    let statement = statements.get(source);
    if (!statement) statements.set(source, (statement = db.prepare(source)));
    return statement;
  };
  return { prepare: prepare as Db['prepare'] };
}
