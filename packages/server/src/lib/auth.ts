import type { MiddlewareHandler } from 'hono';
import type { Env, Permission, Principal, ServerContext } from './context.js';
import { forbidden, unauthorized } from './errors.js';
import { hashSecret } from './ids.js';
import { deferWrite, flushDeferredWrites } from './transaction.js';

/**
 * How often a token's `last_used_at` is written at most (as large APIs do): the stored time is at most this old,
 * and a request's own writes stay one transaction.
 */
export const LAST_USED_RESOLUTION_MS = 60_000;

const implied: Record<Permission, Permission[]> = {
  read: ['read'],
  write: ['read', 'write'],
  admin: ['read', 'write', 'admin', 'audit:verify', 'disclosures:write'],
  'audit:verify': ['audit:verify'],
  'disclosures:write': ['disclosures:write'],
};

/** Whether a token's permissions cover `needed` (admin covers everything, write covers read). */
export function holds(permissions: readonly Permission[], needed: Permission): boolean {
  return permissions.some((p) => implied[p]?.includes(needed));
}

/**
 * Resolves the caller from `Authorization: Bearer <API token>` or `X-Publishable-Key`, or answers 401.
 * Sending both is refused: a page must never hold a server credential.
 */
export function authenticate(ctx: ServerContext): MiddlewareHandler<Env> {
  const findToken = ctx.db.prepare<[string], { id: string; account_id: string; permissions: string; expires_at: string | null; revoked_at: string | null }>(
    'SELECT id, account_id, permissions, expires_at, revoked_at FROM api_tokens WHERE token_hash = ?',
  );
  const touchToken = ctx.db.prepare('UPDATE api_tokens SET last_used_at = ? WHERE id = ?');
  const findKey = ctx.db.prepare<[string], { application_id: string; account_id: string; environment: 'development' | 'production'; revoked_at: string | null; active: number }>(
    `SELECT k.application_id, a.account_id, a.environment, k.revoked_at, a.active
       FROM publishable_keys k JOIN applications a ON a.id = k.application_id WHERE k.key = ?`,
  );

  // When each token's use was last written, by the server clock (a restart writes the next use again).
  const lastWritten = new Map<string, number>();
  /** Records a use of the token, when it is due: at once before a read, or else with the request's own writes. */
  const recordUse = (method: string, id: string, now: number): boolean => {
    const last = lastWritten.get(id);
    if (last !== undefined && now - last < LAST_USED_RESOLUTION_MS) return false;
    lastWritten.set(id, now);
    const at = new Date(now).toISOString();
    if (method === 'GET' || method === 'HEAD') {
      touchToken.run(at, id); // a read has no transaction to join, and the caller may be reading this very token
      return false;
    }
    deferWrite(ctx.db, `api_tokens.last_used_at:${id}`, () => touchToken.run(at, id));
    return true;
  };

  return async (c, next) => {
    const authorization = c.req.header('authorization');
    const publishable = c.req.header('x-publishable-key');
    if (authorization && publishable) throw unauthorized('Send either a bearer token or a publishable key, not both.');

    let principal: Principal | undefined;
    let deferred = false;
    if (authorization) {
      const match = /^Bearer ([\x21-\x7e]{1,512})$/.exec(authorization);
      if (!match?.[1]) throw unauthorized('Authorization must be "Bearer <token>".');
      const row = findToken.get(hashSecret(match[1]));
      const now = ctx.clock.now();
      if (row) {
        if (row.revoked_at) throw unauthorized('The API token is not valid.');
        if (row.expires_at && row.expires_at <= new Date(now).toISOString()) throw unauthorized('The API token has expired.');
        deferred = recordUse(c.req.method, row.id, now);
        principal = { kind: 'api_token', accountId: row.account_id, tokenId: row.id, permissions: JSON.parse(row.permissions) as Permission[] };
      } else {
        // Not an API token: an OAuth access token of a signed-in person, or nothing.
        principal = await ctx.accessTokens?.(match[1]);
        if (!principal) throw unauthorized('The bearer token is not valid: not an API token, nor a current access token.');
      }
    } else if (publishable) {
      const row = /^pk_(test|live)_[A-Za-z0-9]{8,64}$/.test(publishable) ? findKey.get(publishable) : undefined;
      if (!row || row.revoked_at || !row.active) throw unauthorized('The publishable key is not valid.');
      principal = { kind: 'publishable_key', accountId: row.account_id, applicationId: row.application_id, environment: row.environment, key: publishable };
    }
    if (!principal) throw unauthorized('Authentication is required: send "Authorization: Bearer <API token>" or "X-Publishable-Key".');
    c.set('principal', principal);
    await next();
    if (deferred) flushDeferredWrites(ctx.db); // the request wrote nothing that carried the use
  };
}

/**
 * Allows API tokens holding `permission`; publishable keys are refused with 403, and so are a person's access
 * tokens, unless the route is also a person's own (`person`).
 */
export function requires(permission: Permission, opts: { publishable?: boolean; person?: boolean } = {}): MiddlewareHandler<Env> {
  return async (c, next) => {
    const principal = c.get('principal');
    if (principal.kind === 'publishable_key') {
      if (!opts.publishable) throw forbidden('A publishable key can only create decision sessions, fetch render data and post captures.', 'publishable_key_not_allowed');
    } else if (principal.kind === 'person') {
      if (!opts.person) throw forbidden("A person's access token cannot call an organisation's endpoint; use an API token.", 'person_token_not_allowed');
    } else if (!holds(principal.permissions, permission)) {
      throw forbidden(`This API token lacks the "${permission}" permission.`, 'insufficient_permissions');
    }
    await next();
  };
}
