// Allowed origins: parsing the registrations and answering "may this browser origin talk to this application?".
import type { Context } from 'hono';
import type { ServerContext } from '../infra/context.js';
import { stmt } from '../infra/db.js';

/** The environment of an application, which decides what origins it may register. */
export type Environment = 'development' | 'production';

/** Result of {@link parseOrigin}: the normalised origin, or why it was refused. */
export type ParsedOrigin = { ok: true; origin: string } | { ok: false; message: string };

const loopbackHosts = new Set(['localhost', '127.0.0.1']);

/**
 * Checks an allowed-origin registration with the WHATWG URL parser. Scheme and host are case-insensitive, so the
 * input is lower-cased first; after that it must equal `new URL(input).origin` exactly: no path (not even a
 * trailing slash), query, fragment, userinfo or default port, and an ASCII (punycode) host. Production
 * applications need https; development applications also accept http on `localhost` and `127.0.0.1`.
 */
export function parseOrigin(input: string, environment: Environment): ParsedOrigin {
  const lowered = input.toLowerCase();
  let url: URL;
  try {
    url = new URL(lowered);
  } catch {
    return { ok: false, message: 'origin must be an absolute URL origin such as https://example.com' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, message: 'origin must use https (or http on localhost for development applications)' };
  }
  if (url.username || url.password || lowered.includes('@')) return { ok: false, message: 'origin must not contain userinfo' };
  if (url.search || lowered.includes('?')) return { ok: false, message: 'origin must not contain a query' };
  if (url.hash || lowered.includes('#')) return { ok: false, message: 'origin must not contain a fragment' };
  if (url.origin !== lowered) {
    const rest = lowered.slice(`${url.protocol}//`.length);
    if (rest.endsWith('/') && url.pathname === '/') return { ok: false, message: 'origin must not end with a slash' };
    if (url.pathname !== '/') return { ok: false, message: 'origin must not contain a path' };
    if (lowered.startsWith(`${url.protocol}//`) && /:\d+$/.test(rest) && !url.port) {
      return { ok: false, message: `origin must leave out the default port: ${url.origin}` };
    }
    return { ok: false, message: `origin must be written exactly as browsers send it: ${url.origin}` };
  }
  // The URL parser admits hosts such as `*.example.com`; no browser sends one, so it could only be a wildcard hope.
  if (!/^([a-z0-9-]+\.)*[a-z0-9-]+$/.test(url.hostname) && !url.hostname.startsWith('[')) {
    return { ok: false, message: 'origin host must be a domain name or IP address (wildcards are not supported)' };
  }
  if (url.protocol === 'http:' && !(environment === 'development' && loopbackHosts.has(url.hostname))) {
    return {
      ok: false,
      message:
        environment === 'production'
          ? 'production applications require https origins'
          : 'http is accepted only for localhost and 127.0.0.1; use https elsewhere',
    };
  }
  return { ok: true, origin: url.origin };
}

/** The `Origin` request header, or undefined when the request carries none. */
export function requestOrigin(c: Context): string | undefined {
  return c.req.header('origin') || undefined;
}

/** Whether `origin` (as a browser sends it) is registered for the application. */
export function isAllowedOrigin(ctx: ServerContext, applicationId: string, origin: string): boolean {
  return stmt(ctx.db, 'SELECT 1 FROM allowed_origins WHERE application_id = ? AND origin = ?').get(applicationId, origin) !== undefined;
}

/** Whether `origin` is registered for any active application (how a credential-less preflight is judged). */
export function isAllowedForAnyApplication(ctx: ServerContext, origin: string): boolean {
  return (
    stmt(
      ctx.db,
      'SELECT 1 FROM allowed_origins o JOIN applications a ON a.id = o.application_id WHERE o.origin = ? AND a.active = 1 LIMIT 1',
    ).get(origin) !== undefined
  );
}

/** Every origin registered for the application, oldest first. */
export function allowedOriginsOf(ctx: ServerContext, applicationId: string): string[] {
  return stmt(ctx.db, 'SELECT origin FROM allowed_origins WHERE application_id = ? ORDER BY rowid').pluck().all(applicationId) as string[];
}

/**
 * The CSP `frame-ancestors` directive for a page framed by the application's sites: its allowed origins, or
 * `'none'` when it has none (a frame page must never be embeddable by anyone then).
 */
export function frameAncestorsDirective(ctx: ServerContext, applicationId: string): string {
  const origins = allowedOriginsOf(ctx, applicationId);
  return `frame-ancestors ${origins.length ? origins.join(' ') : "'none'"}`;
}

/**
 * What a developer reads when an origin is refused: the origin, and the command and call that allow it (a 403's or
 * 422's `message`; the code says the rest).
 */
export function notAllowedOriginMessage(origin: string, applicationId: string, subject = `The origin ${origin}`): string {
  const shown = origin.slice(0, 200);
  return (
    `${subject.replace(origin, shown)} is not an allowed origin of application ${applicationId}. Allow it with ` +
    `\`svc origins add ${shown} --app ${applicationId}\` or POST /api/v1/applications/${applicationId}/allowed_origins.`
  );
}
