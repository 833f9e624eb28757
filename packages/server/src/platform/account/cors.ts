// CORS for browser calls made with a publishable key or a person's access token (a single-page app signed in
// through the OpenID provider). API-token calls get no CORS headers, and one made by a browser page is refused before
// it does anything: a page must never hold a server credential.
import type { Context } from 'hono';
import { cors } from 'hono/cors';
import { routes } from '../../infra/http/route.js';
import { recordActivity } from '../../infra/activity.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { CAPTURES_PATH } from '../../consent/captures/routes.js';
import { ApiError, forbidden } from '../../infra/errors.js';
import { firstPartyScopes } from '../oauth/first-party.js';
import { isAllowedForAnyApplication, isAllowedOrigin, notAllowedOriginMessage, requestOrigin } from '../origins.js';

/**
 * Request headers a browser may send: body type, publishable key, a person's access token, the consent field's
 * render proof, retry key.
 */
export const CORS_ALLOWED_HEADERS = ['Content-Type', 'X-Publishable-Key', 'Authorization', 'X-Svc-Render-Proof', 'Idempotency-Key'];

/** Response headers a browser client may read: deprecation notices and the rate-limit wait. */
export const CORS_EXPOSED_HEADERS = ['Deprecation', 'Sunset', 'Link', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'Svc-Country'];

/** Finds the applications a denied preflight to `path` was meant for; return undefined when the path says nothing. */
export type PreflightAttributor = (ctx: ServerContext, path: string) => string[] | undefined;

/**
 * How a denied preflight is attributed (a preflight carries no credential). Each entry may claim the request by
 * its path; the decisions module can push one for `/api/v1/decisions/{token}`. The first claim wins.
 */
export const preflightAttributors: PreflightAttributor[] = [
  (ctx, path) => {
    const flowId = /^\/api\/v1\/flows\/([^/]+)/.exec(path)?.[1];
    if (!flowId) return undefined;
    const app = stmt(ctx.db, 'SELECT application_id FROM flows WHERE id = ?').pluck().get(flowId) as string | undefined;
    return app ? [app] : [];
  },
];

/** The application of the OAuth client a person's token was issued to. */
/**
 * A refused credential (401) made readable by a browser page on an origin the service answers (one an application
 * allows, or the service's own): the page learns "signed out", not "network". Nothing else is exposed.
 */
export function readableRefusal(ctx: ServerContext, c: Context, error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 401) return error;
  const origin = requestOrigin(c);
  if (!origin || origin === 'null' || !(serviceOrigins(ctx).has(origin) || isAllowedForAnyApplication(ctx, origin))) return error;
  const headers = {
    ...error.headers,
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': ['WWW-Authenticate', ...CORS_EXPOSED_HEADERS].join(', '),
    Vary: 'Origin',
  };
  return new ApiError(error.status, error.message, { code: error.code, errors: error.errors, headers, cause: error });
}

/** The service's own origins: its base and trust URLs and every cell's. */
function serviceOrigins(ctx: ServerContext): Set<string> {
  return new Set([ctx.baseUrl, ctx.trustUrl, ...ctx.cells.list().map((cell) => cell.base_url)].map((url) => new URL(url).origin));
}

function personApplication(ctx: ServerContext, clientId: string): string {
  return stmt(ctx.db, 'SELECT application_id FROM oauth_clients WHERE id = ?').pluck().get(clientId) as string;
}

/**
 * The consent field's first call: a preflight for it is answered even from an origin no application allows (and
 * still recorded as denied), so that the page can read the refusal that follows (403 `origin_not_allowed`, naming
 * the command that allows the origin) instead of a bare network error. The refusal carries no CORS credentials.
 */
const RENDER_PATH = /^\/api\/v1\/flows\/[^/]+\/render$/;

/** A denial from one origin is recorded at most once per this many seconds per application... */
const DENIAL_WINDOW_SECONDS = 60;
/** ...and at most this many denials per application in that window, so a flood of distinct origins cannot fill the log. */
const DENIALS_PER_WINDOW = 60;

// Without a path that names the application, a denial is attributed to the applications that registered an
// origin on the same host or the same parent domain (http vs https, another port, www vs apex, a staging
// subdomain): the likely misconfigurations their owners want to see. Unrelated origins are only counted in
// /metrics: writing them to every application's log would tell one account about another's visitors and let
// anyone fill every log.
function relatedApplications(ctx: ServerContext, origin: string): string[] {
  let host: string;
  try {
    host = new URL(origin).hostname;
  } catch {
    return [];
  }
  const parent = (h: string) => h.split('.').slice(-2).join('.');
  const rows = stmt(ctx.db, 'SELECT application_id, origin FROM allowed_origins').all() as { application_id: string; origin: string }[];
  const ids = new Set<string>();
  for (const row of rows) {
    const other = new URL(row.origin).hostname;
    if (other === host || (host.includes('.') && !/^[\d.]+$/.test(host) && parent(other) === parent(host))) ids.add(row.application_id);
  }
  return [...ids];
}

function recordDenial(ctx: ServerContext, origin: string, path: string, method: string | undefined, headers: string | undefined): void {
  ctx.metrics.increment('cors.preflight_denied_total');
  let applications: string[] | undefined;
  for (const attribute of preflightAttributors) {
    applications = attribute(ctx, path);
    if (applications) break;
  }
  applications ??= relatedApplications(ctx, origin);
  const since = new Date(ctx.clock.now() - DENIAL_WINDOW_SECONDS * 1000).toISOString();
  const stored = origin.slice(0, 300);
  const recent = stmt(
    ctx.db,
    `SELECT count(*) AS total, sum(json_extract(data, '$.origin') = ?) AS same FROM activity_events
      WHERE application_id = ? AND type = 'cors.preflight_denied' AND created_at > ?`,
  );
  for (const applicationId of applications) {
    const { total, same } = recent.get(stored, applicationId, since) as { total: number; same: number | null };
    if (same || total >= DENIALS_PER_WINDOW) continue;
    recordActivity(ctx, applicationId, 'cors.preflight_denied', {
      origin: stored,
      path: path.slice(0, 300),
      request_method: method?.slice(0, 20) ?? null,
      request_headers: headers?.slice(0, 300) ?? null,
    });
  }
}

/**
 * CORS on `/api/v1/*`. A preflight carries no credential, so it is judged by its Origin alone: allowed when any
 * active application registered that origin (its `last_seen_at` is updated), otherwise answered without CORS
 * headers (but for the consent field's render call, see `RENDER_PATH`) and recorded as `cors.preflight_denied`. The
 * actual request is judged again against the publishable key's own application: a foreign Origin is a 403
 * `origin_not_allowed` that the page may read (the origin echoed, never credentials), an allowed one is echoed exactly.
 * Mount it before every other module so that its middleware runs before their handlers.
 */
export const corsRoutes = routes((app, ctx) => {
  const touch = ctx.db.prepare(
    'UPDATE allowed_origins SET last_seen_at = ? WHERE origin = ? AND application_id IN (SELECT id FROM applications WHERE active = 1)',
  );

  const answerCors = cors({
    origin: (origin, c) => {
      if (!origin) return null;
      if (c.req.method === 'OPTIONS') {
        if (isAllowedForAnyApplication(ctx, origin)) {
          touch.run(isoNow(ctx.clock), origin);
          return origin;
        }
        recordDenial(
          ctx,
          origin,
          c.req.path,
          c.req.header('access-control-request-method'),
          c.req.header('access-control-request-headers'),
        );
        return origin !== 'null' && RENDER_PATH.test(c.req.path) ? origin : null;
      }
      // Reached only for a publishable key whose own application registered the origin (checked below).
      return origin;
    },
    allowMethods: ['GET', 'POST'],
    allowHeaders: CORS_ALLOWED_HEADERS,
    exposeHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
  });

  app.use('/api/v1/*', (c, next) => {
    if (c.req.method === 'OPTIONS') return answerCors(c, next);
    const principal = c.get('principal');
    if (principal.kind === 'api_token') {
      // Fetch Metadata's Sec-Fetch-Site marks a browser's call from another site (Node's fetch sends only
      // Sec-Fetch-Mode): an API token there is refused.
      const site = c.req.header('sec-fetch-site');
      if (site === 'cross-site' || site === 'same-site') {
        throw forbidden(
          "An API token is for servers; a browser page uses a publishable key or a person's access token.",
          'api_token_in_browser',
        );
      }
      // No CORS headers, so it skips the middleware, which sets headers before the handler runs: on
      // @hono/node-server that makes every answer a real Response read through a web stream.
      return next();
    }
    // An agent token is a server's credential too: no CORS, so no browser page can read what it answers.
    if (principal.kind === 'agent') return next();
    const origin = requestOrigin(c);
    // A token of the service's own pages (the trust center) is answered on the service's own origins only.
    if (principal.kind === 'person' && firstPartyScopes(ctx, principal.clientId) !== undefined) {
      if (origin !== undefined && !serviceOrigins(ctx).has(origin)) {
        ctx.metrics.increment('cors.request_denied_total');
        throw forbidden(`A token of the service's own pages is answered only on its own pages, not on ${origin}.`, 'origin_not_allowed');
      }
      return next();
    }
    // A person's token is answered on the allowed origins of the application whose client it was issued to.
    const applicationId = principal.kind === 'person' ? personApplication(ctx, principal.clientId) : principal.applicationId;
    if (origin !== undefined && !isAllowedOrigin(ctx, applicationId, origin)) {
      ctx.metrics.increment('cors.request_denied_total');
      // A capture answers for itself, still without CORS headers: a committing one is Errors rule 2's 422.
      if (c.req.method === 'POST' && c.req.path === CAPTURES_PATH) return next();
      // Readable by the refused page (no credentials are ever allowed): its developer learns why, not "network".
      const readable = origin === 'null' ? undefined : { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
      throw new ApiError(403, notAllowedOriginMessage(origin, applicationId), { code: 'origin_not_allowed', headers: readable });
    }
    return answerCors(c, next);
  });
});
