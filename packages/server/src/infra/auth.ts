import type { MiddlewareHandler } from 'hono';
import type { Env, Permission, Principal, ServerContext } from './context.js';
import { API_CHALLENGE, ApiError, forbidden, unauthorized } from './errors.js';
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
 * The challenge of a refused bearer token (RFC 6750 §3): `error="invalid_token"` and the reason, which must be a
 * quoted string of printable ASCII without a quote or backslash; `prefix` is the scheme and its parameters.
 */
export function invalidTokenChallenge(description: string, prefix = API_CHALLENGE): string {
  const safe = description
    .replace(/…/g, '...')
    .replace(/["\\]/g, "'")
    .replace(/[^\x20-\x7e]/g, '');
  return `${prefix}, error="invalid_token", error_description="${safe}"`;
}

/** A bearer token refused: 401 with the RFC 6750 challenge (the body's code stays `unauthorized`). */
const invalidToken = (message: string) => unauthorized(message, invalidTokenChallenge(message));

/** A 401 from a token resolver (agent tokens, access tokens) gets the invalid_token challenge if it has none. */
export function withTokenChallenge(err: unknown, prefix = API_CHALLENGE): unknown {
  if (!(err instanceof ApiError) || err.status !== 401) return err;
  if (Object.keys(err.headers ?? {}).some((name) => name.toLowerCase() === 'www-authenticate')) return err;
  const headers = { ...err.headers, 'WWW-Authenticate': invalidTokenChallenge(err.message, prefix) };
  return new ApiError(401, err.message, { code: err.code, errors: err.errors, headers, cause: err.cause });
}

/**
 * What the product's parts resolve for {@link authenticate}, handed over by the app's assembly: infra knows no domain.
 */
export interface CredentialResolvers {
  /** A bearer token that is not an API token (a person's OAuth access token), when the provider is mounted. */
  accessTokens?: (token: string) => Promise<Principal | undefined>;
  /** An agent token (`ra_agent_…`) against its grant, or the 401/403 that says why it cannot act. */
  agentTokens?: (token: string) => Principal;
  /**
   * A console token (`svc_console_…`): an account user of the organisation's console, as an API token of their role;
   * undefined when it is not a current one.
   */
  consoleTokens?: (token: string) => Principal | undefined;
  /** A person calling with `X-Delegation-Grant-Id`, as the principal's delegate, or the 403. */
  delegates?: (person: Extract<Principal, { kind: 'person' }>, grantId: string) => Principal;
}

/**
 * Resolves the caller from `Authorization: Bearer <API token>` or `X-Publishable-Key`, or answers 401.
 * Sending both is refused: a page must never hold a server credential.
 */
export function authenticate(ctx: ServerContext, resolvers: CredentialResolvers = {}): MiddlewareHandler<Env> {
  const findToken = ctx.db.prepare<
    [string],
    {
      id: string;
      account_id: string;
      permissions: string;
      expires_at: string | null;
      revoked_at: string | null;
      rate_limit_requests: number | null;
      rate_limit_window_seconds: number | null;
    }
  >(
    `SELECT id, account_id, permissions, expires_at, revoked_at, rate_limit_requests, rate_limit_window_seconds
       FROM api_tokens WHERE token_hash = ?`,
  );
  const touchToken = ctx.db.prepare('UPDATE api_tokens SET last_used_at = ? WHERE id = ?');
  const findKey = ctx.db.prepare<
    [string],
    { application_id: string; account_id: string; environment: 'development' | 'production'; revoked_at: string | null; active: number }
  >(
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

  /** The principal of a bearer token: an agent token, an API token, or a signed-in person's access token. */
  const bearer = async (method: string, token: string): Promise<{ principal: Principal; deferred: boolean }> => {
    if (token.startsWith(AGENT_TOKEN_PREFIX)) {
      if (!resolvers.agentTokens) throw invalidToken('Agent tokens are not accepted by this server.');
      return { principal: resolvers.agentTokens(token), deferred: false };
    }
    if (token.startsWith(CONSOLE_TOKEN_PREFIX)) {
      const principal = resolvers.consoleTokens?.(token);
      if (!principal) throw invalidToken('The console token is not valid: sign in to the console again.');
      return { principal, deferred: false };
    }
    const row = findToken.get(hashSecret(token));
    if (!row) {
      // Not an API token: an OAuth access token of a signed-in person, or nothing.
      const principal = await resolvers.accessTokens?.(token);
      if (!principal) throw invalidToken('The bearer token is not valid: not an API token, nor a current access token.');
      return { principal, deferred: false };
    }
    const now = ctx.clock.now();
    if (row.revoked_at) throw invalidToken('The API token is not valid.');
    if (row.expires_at && row.expires_at <= new Date(now).toISOString()) throw invalidToken('The API token has expired.');
    const permissions = JSON.parse(row.permissions) as Permission[];
    // The token's own rate limit rides on the principal: the limiter needs no second read of the row.
    const rateLimit =
      row.rate_limit_requests && row.rate_limit_window_seconds
        ? { requests: row.rate_limit_requests, windowSeconds: row.rate_limit_window_seconds }
        : undefined;
    return {
      principal: { kind: 'api_token', accountId: row.account_id, tokenId: row.id, permissions, ...(rateLimit ? { rateLimit } : {}) },
      deferred: recordUse(method, row.id, now),
    };
  };

  return async (c, next) => {
    const authorization = c.req.header('authorization');
    const publishable = c.req.header('x-publishable-key');
    if (authorization && publishable) throw unauthorized('Send either a bearer token or a publishable key, not both.');

    let principal: Principal | undefined;
    let deferred = false;
    if (authorization) {
      const match = /^Bearer ([\x21-\x7e]{1,512})$/.exec(authorization);
      if (!match?.[1]) {
        const message = 'Authorization must be "Bearer <token>".';
        // A bearer token that is malformed is an invalid one (RFC 6750 §3.1); another scheme sent no token at all.
        throw /^Bearer(\s|$)/i.test(authorization) ? invalidToken(message) : unauthorized(message);
      }
      try {
        ({ principal, deferred } = await bearer(c.req.method, match[1]));
      } catch (err) {
        throw withTokenChallenge(err);
      }
    } else if (publishable) {
      const row = /^pk_(test|live)_[A-Za-z0-9]{8,64}$/.test(publishable) ? findKey.get(publishable) : undefined;
      if (!row || row.revoked_at || !row.active) throw unauthorized('The publishable key is not valid.');
      principal = {
        kind: 'publishable_key',
        accountId: row.account_id,
        applicationId: row.application_id,
        environment: row.environment,
        key: publishable,
      };
    }
    if (!principal) throw unauthorized('Authentication is required: send "Authorization: Bearer <API token>" or "X-Publishable-Key".');
    const grantId = c.req.header('x-delegation-grant-id');
    if (grantId !== undefined) {
      // Human-to-human only: a delegate presents their own access token; agents act through their own token.
      if (principal.kind !== 'person') {
        throw forbidden(
          `X-Delegation-Grant-Id is for a person acting as another's delegate with their own access token, not for ${
            principal.kind === 'agent'
              ? 'an agent token (an agent acts through its own token)'
              : principal.kind === 'api_token'
                ? 'an API token'
                : 'a publishable key'
          }.`,
          'delegation_header_not_allowed',
        );
      }
      if (!resolvers.delegates) throw forbidden('Delegation grants are not accepted by this server.', 'delegation_header_not_allowed');
      principal = resolvers.delegates(principal, grantId);
    }
    c.set('principal', principal);
    await next();
    if (deferred) flushDeferredWrites(ctx.db); // the request wrote nothing that carried the use
  };
}

/** The prefix of an AI agent token. */
export const AGENT_TOKEN_PREFIX = 'ra_agent_';

/** The prefix of a console token, which a console page's elements call the API with for an account user. */
export const CONSOLE_TOKEN_PREFIX = 'svc_console_';

/** Who besides API tokens a route admits, and the scope a delegate needs for it. */
export interface RouteAccess {
  publishable?: boolean;
  /** A person's own endpoint: their access token is admitted. */
  person?: boolean;
  /** An agent token is admitted (the route then checks the agent's grant itself). */
  agent?: boolean;
  /**
   * The scope a delegate (`X-Delegation-Grant-Id`) must have been delegated to call the route in the principal's
   * context; `null` admits every delegate (`GET /api/v1/me`); absent admits none.
   */
  delegateScope?: string | null;
}

/**
 * Allows API tokens holding `permission`; publishable keys are refused with 403, and so are a person's access
 * tokens and agent tokens, unless the route admits them (`person`, `agent`). A delegate is admitted to a person's
 * route only when it names the scope it needs and the grant delegates it; anything else is beyond the scope bound.
 */
export function requires(permission: Permission, opts: RouteAccess = {}): MiddlewareHandler<Env> {
  return async (c, next) => {
    const principal = c.get('principal');
    if (principal.kind === 'publishable_key') {
      if (!opts.publishable)
        throw forbidden(
          'A publishable key can only create decision sessions, fetch render data and post captures.',
          'publishable_key_not_allowed',
        );
    } else if (principal.kind === 'person') {
      if (!opts.person)
        throw forbidden("A person's access token cannot call an organisation's endpoint; use an API token.", 'person_token_not_allowed');
      if (principal.delegation && opts.delegateScope === undefined) {
        throw forbidden("A delegate cannot call this endpoint in the principal's context.", 'delegate_not_allowed');
      }
      if (principal.delegation && typeof opts.delegateScope === 'string' && !principal.delegation.scopes.includes(opts.delegateScope)) {
        throw new ApiError(
          403,
          `This call needs the scope ${opts.delegateScope}, which delegation grant ${principal.delegation.grantId} does not delegate.`,
          'bound_exceeded',
          [{ path: 'X-Delegation-Grant-Id', code: 'scope', message: `scope ${opts.delegateScope} is not delegated` }],
        );
      }
    } else if (principal.kind === 'agent') {
      if (!opts.agent)
        throw forbidden(
          'An agent token cannot call this endpoint: agents ask before they act (POST /api/v1/authorities/check).',
          'agent_token_not_allowed',
        );
    } else if (!holds(principal.permissions, permission)) {
      throw forbidden(`This API token lacks the "${permission}" permission.`, 'insufficient_permissions');
    }
    await next();
  };
}
