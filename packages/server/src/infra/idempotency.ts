import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { loadSealer } from './secrets.js';
import { transaction } from './transaction.js';
import type { Env, Principal, ServerContext } from './context.js';
import { ApiError, badRequest, unprocessable } from './errors.js';

/** How long a key is remembered (the window in which a client may retry). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

const KEY = /^[\x21-\x7e]{1,255}$/;

const sorted = (values: readonly string[]) => [...values].sort().join(' ');

/**
 * Whose keys these are: the credential and what it may do. Two callers share a key space only when they are the same
 * token, key, person (through the same client, with the same scopes) or agent (on the same grant), so a replay goes
 * only to a caller the route's permission check treats as it treated the first request; anyone else's request with
 * the same key is handled as their own.
 */
function credentialOf(principal: Principal): string {
  switch (principal.kind) {
    case 'api_token':
      return `api_token\n${principal.tokenId}\n${sorted(principal.permissions)}`;
    case 'publishable_key':
      return `publishable_key\n${principal.key}`;
    case 'agent':
      return `agent\n${principal.agentId}\n${principal.grantId}\n${principal.clientId}\n${sorted(principal.scopes)}`;
    case 'person': {
      const { delegation } = principal;
      return [
        `person\n${principal.personId}\n${principal.clientId}\n${sorted(principal.scopes)}`,
        ...(delegation ? [`${delegation.delegateId}\n${delegation.grantId}\n${sorted(delegation.scopes)}`] : []),
      ].join('\n');
    }
  }
}

/**
 * Honours `Idempotency-Key` on API writes: the first request with a key runs and its answer is kept (sealed, for 24
 * hours of the server clock); a retry with the same key and the same request gets that answer again with
 * `Idempotent-Replayed: true` instead of running twice. The same key on a different request is a 422; a retry
 * while the first is still running is a 409. A 5xx answer is not kept, so the retry runs. Keys belong to the
 * credential that sent them ({@link credentialOf}): the stored key is the credential's digest and the client's key.
 */
export function idempotency(ctx: ServerContext): MiddlewareHandler<Env> {
  const sealer = loadSealer(ctx.controlDataDir);
  const find = ctx.db.prepare<[string, string], { request_hash: string; status: number | null; body: string | null; created_at: string }>(
    'SELECT request_hash, status, body, created_at FROM idempotency_keys WHERE account_id = ? AND key = ?',
  );
  const claim = ctx.db.prepare('INSERT OR REPLACE INTO idempotency_keys (account_id, key, request_hash, created_at) VALUES (?, ?, ?, ?)');
  const store = ctx.db.prepare('UPDATE idempotency_keys SET status = ?, body = ? WHERE account_id = ? AND key = ?');
  const release = ctx.db.prepare('DELETE FROM idempotency_keys WHERE account_id = ? AND key = ?');
  const prune = ctx.db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');

  return async (c, next) => {
    const given = c.req.header('idempotency-key');
    if (given === undefined || !['POST', 'PATCH', 'DELETE'].includes(c.req.method)) return next();
    if (!KEY.test(given)) throw badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters.', 'invalid_idempotency_key');

    const principal = c.get('principal');
    const accountId = principal.accountId;
    const key = `${createHash('sha256').update(credentialOf(principal)).digest('base64url')}:${given}`;
    const requestHash = createHash('sha256')
      .update(`${c.req.method} ${c.req.path}\n`)
      .update(await c.req.text())
      .digest('hex');
    const now = ctx.clock.now();
    // Forgetting expired keys, reading this one and claiming it is one transaction.
    const seen = transaction(ctx.db, () => {
      prune.run(new Date(now - IDEMPOTENCY_WINDOW_MS).toISOString());
      const found = find.get(accountId, key);
      if (!found) claim.run(accountId, key, requestHash, new Date(now).toISOString());
      return found;
    });
    if (seen) {
      if (seen.request_hash !== requestHash) {
        throw unprocessable('This Idempotency-Key was used for a different request.', 'idempotency_key_reused');
      }
      if (seen.status === null)
        throw new ApiError(409, 'A request with this Idempotency-Key is still in progress.', 'idempotency_key_in_use');
      c.header('Idempotent-Replayed', 'true');
      if (seen.body === null) return c.body(null, seen.status as 204);
      const body = sealer.open(seen.body, `idempotency:${accountId}:${key}`);
      return c.body(body, seen.status as ContentfulStatusCode, { 'Content-Type': 'application/json' });
    }

    try {
      await next();
    } catch (err) {
      release.run(accountId, key);
      throw err;
    }
    const status = c.res.status;
    if (status >= 500) {
      release.run(accountId, key);
      return;
    }
    const text = status === 204 ? null : await c.res.clone().text();
    store.run(status, text === null ? null : sealer.seal(text, `idempotency:${accountId}:${key}`), accountId, key);
  };
}
