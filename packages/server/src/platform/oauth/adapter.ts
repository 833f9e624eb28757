// oidc-provider's storage over the server's SQLite database: one table for every model the provider keeps
// (sessions, interactions, pushed requests, codes, device codes, grants, tokens), so a restart loses nothing.
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { stmt, type Db } from '../../infra/db.js';

interface Row {
  payload: string;
  expires_at: number | null;
  consumed_at: number | null;
}

// oidc-provider reads time in whole seconds of the wall clock; so does its storage.
const epoch = () => Math.floor(Date.now() / 1000);
const PRUNE_EVERY_S = 60;

/**
 * The adapter factory oidc-provider takes: one adapter per model name, all over `db`. The `Client` model reads the
 * clients applications registered, through `clients`; the provider never writes clients.
 */
export function sqliteAdapter(db: Db, clients: (id: string) => AdapterPayload | undefined): (model: string) => Adapter {
  let prunedAt = 0;
  const refuse = async () => {
    throw new Error('OAuth clients are registered through the API, not by the provider');
  };
  const readOnly = { upsert: refuse, findByUserCode: refuse, findByUid: refuse, consume: refuse, destroy: refuse, revokeByGrantId: refuse };
  const row = (model: string, where: string, value: string) =>
    stmt<[string, string, number], Row>(
      db,
      `SELECT payload, expires_at, consumed_at FROM oidc_payloads
      WHERE model = ? AND ${where} = ? AND (expires_at IS NULL OR expires_at > ?)`,
    ).get(model, value, epoch());
  const read = (found: Row | undefined): AdapterPayload | undefined => {
    if (!found) return undefined;
    const payload = JSON.parse(found.payload) as AdapterPayload;
    return found.consumed_at === null ? payload : { ...payload, consumed: found.consumed_at };
  };

  return (model) =>
    model === 'Client'
      ? { ...readOnly, find: async (id: string) => clients(id) }
      : {
          async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
            const now = epoch();
            stmt(
              db,
              `INSERT INTO oidc_payloads (model, id, payload, grant_id, user_code, uid, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, user_code = excluded.user_code,
          uid = excluded.uid, expires_at = excluded.expires_at`,
            ).run(
              model,
              id,
              JSON.stringify(payload),
              payload.grantId ?? null,
              payload.userCode ?? null,
              payload.uid ?? null,
              expiresIn ? now + expiresIn : null,
            );
            // Expired entries are never read again; clear them now and then rather than on every write.
            if (now - prunedAt >= PRUNE_EVERY_S) {
              prunedAt = now;
              stmt(db, 'DELETE FROM oidc_payloads WHERE expires_at IS NOT NULL AND expires_at <= ?').run(now);
            }
          },
          find: async (id: string) => read(row(model, 'id', id)),
          findByUserCode: async (userCode: string) => read(row(model, 'user_code', userCode)),
          findByUid: async (uid: string) => read(row(model, 'uid', uid)),
          async consume(id: string) {
            stmt(db, 'UPDATE oidc_payloads SET consumed_at = ? WHERE model = ? AND id = ? AND consumed_at IS NULL').run(epoch(), model, id);
          },
          async destroy(id: string) {
            stmt(db, 'DELETE FROM oidc_payloads WHERE model = ? AND id = ?').run(model, id);
          },
          async revokeByGrantId(grantId: string) {
            stmt(db, 'DELETE FROM oidc_payloads WHERE grant_id = ?').run(grantId);
          },
        };
}
