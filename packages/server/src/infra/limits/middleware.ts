// Request limits as middleware. Each runs before anything is stored: before authentication (addresses past their
// failed authentications, credential-less requests), or right after it and before idempotency and the handler
// (publishable keys, API tokens' own limits). A refused request is a 429 that wrote nothing.
import type { Context, MiddlewareHandler } from 'hono';
import type { Env, ServerContext } from '../context.js';
import { stmt } from '../db.js';
import { ApiError, tooManyRequests } from '../errors.js';
import { clientAddress } from './address.js';
import type { Limiter, Outcome, Policy } from './limiter.js';
import { policyHeader, remainingHeader, type RateLimits } from './policies.js';

/** Paths outside the API that answer for their own credentials and guessing limits: not anonymous traffic. */
const OWN_CREDENTIALS = ['/oauth/', '/oauth2/', '/mcp/', '/hooks/'];

/** The hosted flow link (`GET /accord/{flow}`): anyone may follow it, so it opens decisions as a publishable key would. */
const ACCORD = /^\/accord\/([^/]+)$/;

/** The middleware of {@link requestLimits}, mounted by the app in this order. */
export interface RequestLimits {
  /** First: credential-less requests outside the API per client address; the hosted flow link as its application's key. */
  anonymous: MiddlewareHandler<Env>;
  /** Wraps authentication: an address past its failed authentications is refused before auth runs; each 401 counts. */
  guard(auth: MiddlewareHandler<Env>): MiddlewareHandler<Env>;
  /** After authentication, before idempotency and the route: publishable-key limits and API tokens' own limits. */
  principal: MiddlewareHandler<Env>;
}

const refused = (what: string, limiter: Limiter, outcome: Outcome) =>
  tooManyRequests(
    `Too many requests: ${what} (${limiter.policy.limit} per ${limiter.policy.windowSeconds} s). Retry after the Retry-After seconds.`,
    outcome.resetMs,
    limiter.policy,
  );

/** Describes the limits a request was counted against, on its answer (the one closest to its limit in `RateLimit`). */
function describe(c: Context, counted: [Policy, Outcome][]): void {
  let closest = counted[0]!;
  for (const entry of counted) if (entry[1].remaining < closest[1].remaining) closest = entry;
  c.header('RateLimit-Policy', policyHeader(counted.map(([policy]) => policy)));
  c.header('RateLimit', remainingHeader(...closest));
}

/** The request limits of a server context, or undefined when it has none (`rateLimits: false`). */
export function requestLimits(ctx: ServerContext): RequestLimits | undefined {
  const limits = ctx.rateLimits;
  if (!limits) return undefined;
  const address = (c: Context) => clientAddress(c, limits.trustedProxies);
  const publishable = publishableLimits(ctx, limits);
  const flowApplication = ctx.db.prepare<[string], string>('SELECT application_id FROM flows WHERE id = ?').pluck();

  return {
    async anonymous(c, next) {
      const path = c.req.path;
      const api = path.startsWith('/api/v1/') && c.req.method !== 'OPTIONS'; // preflights carry no credential: anonymous
      if (api || OWN_CREDENTIALS.some((prefix) => path.startsWith(prefix))) return next();
      const key = address(c);
      if (limits.anonymous) {
        const outcome = await limits.anonymous.consume(key);
        if (!outcome.allowed) throw refused('requests from this address', limits.anonymous, outcome);
      }
      const flowId = c.req.method === 'GET' ? ACCORD.exec(path)?.[1] : undefined;
      const applicationId = flowId === undefined ? undefined : flowApplication.get(flowId);
      if (applicationId !== undefined) await publishable(c, applicationId, key);
      return next();
    },

    guard(auth) {
      const failed = limits.failedAuth;
      if (!failed) return auth;
      return async (c, next) => {
        const key = address(c);
        const seen = await failed.peek(key);
        if (!seen.allowed) throw refused('failed authentications from this address', failed, seen);
        try {
          return await auth(c, next);
        } catch (error) {
          // Only authentication's own refusals arrive here: the routes' errors are answered inside `next`.
          if (error instanceof ApiError && error.status === 401) await failed.consume(key);
          throw error;
        }
      };
    },

    async principal(c, next) {
      if (c.req.method === 'OPTIONS') return next();
      const principal = c.get('principal');
      if (principal.kind === 'publishable_key') await publishable(c, principal.applicationId, address(c));
      else if (principal.kind === 'api_token' && limits.apiToken) {
        const own = principal.rateLimit;
        if (own) {
          const limiter = limits.apiToken(own.requests, own.windowSeconds);
          const outcome = await limiter.consume(`${principal.tokenId}:${own.requests}/${own.windowSeconds}`);
          if (!outcome.allowed) throw refused('this API token is over its own rate limit', limiter, outcome);
          describe(c, [[limiter.policy, outcome]]);
        }
      }
      return next();
    },
  };
}

/**
 * Counts a publishable-key request against its application from this address, then against the application as a
 * whole; refused by the first that is over. A refusal from one of the application's allowed origins carries the CORS
 * headers the answer would have had, so the page can read the 429 and its Retry-After.
 */
function publishableLimits(ctx: ServerContext, limits: RateLimits) {
  const allowed = ctx.db.prepare<[string, string], number>('SELECT 1 FROM allowed_origins WHERE application_id = ? AND origin = ?').pluck();
  const checks: [Limiter | undefined, string, (applicationId: string, key: string) => string][] = [
    [limits.publishableAddress, "this application's requests from this address", (app, key) => `${app} ${key}`],
    [limits.publishableApplication, "this application's requests", (app) => app],
  ];
  return async (c: Context, applicationId: string, key: string): Promise<void> => {
    const counted: [Policy, Outcome][] = [];
    for (const [limiter, what, keyOf] of checks) {
      if (!limiter) continue;
      const outcome = await limiter.consume(keyOf(applicationId, key));
      if (!outcome.allowed) {
        const error = refused(what, limiter, outcome);
        const origin = c.req.header('origin');
        if (origin && allowed.get(applicationId, origin) !== undefined) {
          Object.assign(error.headers!, {
            'access-control-allow-origin': origin,
            'access-control-expose-headers': 'Retry-After, RateLimit, RateLimit-Policy',
            vary: 'Origin',
          });
        }
        throw error;
      }
      counted.push([limiter.policy, outcome]);
    }
    if (counted.length) describe(c, counted);
  };
}
