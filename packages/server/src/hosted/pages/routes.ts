// The hosted pages: `/decisions/{token}` (popup or redirect), `/decisions/{token}/embed` (iframe), the hosted flow
// page `/accord/{flow_id}`, and the page bundles under `/assets/`.
import { createMessage } from '@svc/protocol';
import type { Context, Hono } from 'hono';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { httpUri } from '@svc/schemas';
import { z } from 'zod/mini';
import { getActiveFlowVersion } from '../../platform/flows/store.js';
import type { Env, Principal, ServerContext } from '../../infra/context.js';
import { isoNow } from '../../infra/clock.js';
import { ApiError, errorResponse, notFound } from '../../infra/errors.js';
import { allowedOrigins, getApplication } from '../../consent/decisions/applications.js';
import { kindModules, kindOf } from '../../consent/decisions/kinds/index.js';
import type { DecisionRow } from '../../consent/decisions/row.js';
import { createDecision, findDecision, progressOf } from '../../consent/decisions/store.js';
import { targetOriginOf } from '../../consent/decisions/targets.js';
import { addresseeProven, type Viewer } from '../../consent/decisions/authentication.js';
import { viewerOf } from '../../consent/decisions/viewer.js';
import type { PageData, PageParts } from './page-data.js';
import { notAllowedOriginMessage } from '../../platform/origins.js';
import { FRAME_MESSAGES_JS, frameMessagePage, messagePage, PAGE_CSS, PAGE_HEADERS, pageCsp, pageShell } from './render.js';

/**
 * Where the rollup bundles live: `dist/public` beside the built module (tsup's `dist/*.js`), or, when running from
 * `src` under tsx, the package's `dist/public` (so one `pnpm run build` serves both). Looked up on first use, so that
 * importing the server reads nothing.
 */
let publicDir: string | undefined;
function publicDirectory(): string {
  publicDir ??=
    [new URL('./public/', import.meta.url), new URL('../../../dist/public/', import.meta.url)]
      .map((url) => fileURLToPath(url))
      .find((dir) => existsSync(dir)) ?? fileURLToPath(new URL('./public/', import.meta.url));
  return publicDir;
}

const ASSETS: Record<string, string> = {
  'decision-page.js': 'text/javascript; charset=utf-8',
  'decision-page.js.map': 'application/json; charset=utf-8',
  'playground.js': 'text/javascript; charset=utf-8',
  'playground.js.map': 'application/json; charset=utf-8',
  'oauth-page.js': 'text/javascript; charset=utf-8',
  'oauth-page.js.map': 'application/json; charset=utf-8',
};

const assetCache = new Map<string, { mtimeMs: number; size: number; body: Uint8Array<ArrayBuffer>; etag: string }>();

/** The bytes of a built asset and their strong ETag (re-read when the file changes on disk). */
function assetOf(path: string): { body: Uint8Array<ArrayBuffer>; etag: string } {
  const stat = statSync(path);
  const cached = assetCache.get(path);
  if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached;
  const body = new Uint8Array(readFileSync(path));
  const entry = {
    mtimeMs: stat.mtimeMs,
    size: stat.size,
    body,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
  };
  assetCache.set(path, entry);
  return entry;
}

/** Whether an `If-None-Match` header names `etag` (weak comparison, as RFC 9110 asks for GET). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Sends a hosted page with its CSP and security headers. */
export function sendPage(c: Context<Env>, html: string, ancestors: readonly string[], status: 200 | 400 | 403 | 404 = 200) {
  const headers: Record<string, string> = { ...PAGE_HEADERS, 'Content-Security-Policy': pageCsp(ancestors) };
  // Old browsers ignore frame-ancestors; a page no one may frame says so the old way too.
  if (ancestors.length === 0) headers['X-Frame-Options'] = 'DENY';
  return c.body(html, status, headers);
}

function deniedUri(redirectUri: string | null): string | null {
  if (!redirectUri) return null;
  const url = new URL(redirectUri);
  url.searchParams.set('error', 'access_denied');
  return url.toString();
}

/** Every kind's part empty: a page carries only its own kind's. */
const NO_PARTS = Object.fromEntries(kindModules.map((kind) => [kind.kind, null])) as Pick<PageData, keyof PageParts>;

/**
 * The public data the page is rendered with (nothing secret: no comprehension answers, no tokens but its own) and
 * its document title.
 */
export function pageOf(
  ctx: ServerContext,
  row: DecisionRow,
  frame: boolean,
  referer?: string,
  viewer?: Viewer,
  from?: string,
): { data: PageData; title: string } {
  const mode = frame ? 'embed' : row.delivery_mode === 'redirect' ? 'redirect' : 'popup';
  const page = kindOf(row.kind).page(ctx, row);
  const application = getApplication(ctx, row.application_id);
  const data: PageData = {
    ...progressOf(row),
    session_token: row.session_token,
    kind: row.kind,
    mode,
    deadline_at: row.deadline_at,
    server_now: isoNow(ctx.clock),
    locale: page.locale ?? 'en',
    branding: { name: application?.name ?? 'svc' },
    target_origin: targetOriginOf(ctx, row, mode, referer),
    redirect_uri: row.redirect_uri,
    redirect_uri_denied: deniedUri(row.redirect_uri),
    api: `/decisions/${row.session_token}`,
    return_to: returnToOf(from),
    addressee:
      row.addressee_email === null
        ? null
        : {
            email: row.addressee_email,
            proven: addresseeProven(row, viewer),
            signed_in_as: viewer && viewer.email !== row.addressee_email ? viewer.email : null,
          },
    ...NO_PARTS,
    [row.kind]: page.part,
  };
  return { data, title: `${page.heading} · ${data.branding.name}` };
}

/**
 * Where "Back to inbox" leads after answering: the inbox link's `from`, kept only when it is the inbox on this very
 * server (a path, never another origin: the page must not become an open redirect), with its filters.
 */
export function returnToOf(from: string | undefined): string | null {
  if (!from || from.length > 500 || !from.startsWith('/') || from.startsWith('//') || from.includes('\\')) return null;
  const base = 'https://trust.invalid';
  let url: URL;
  try {
    url = new URL(from, base);
  } catch {
    return null;
  }
  return url.origin === base && url.pathname === '/inbox' ? `/inbox${url.search}` : null;
}

/**
 * The origin of the page that loaded this one, from its `Referer`: the element's iframe sends it with
 * `referrerpolicy="strict-origin"`, a popup's opener by the browsers' default policy. A browser sets this header
 * itself, so a page cannot claim another origin; undefined when there is none (or it is not an http(s) URL).
 */
export function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    const url = new URL(referer);
    return /^https?:$/.test(url.protocol) ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

const NOT_FOUND = { title: 'Decision not found', message: 'This link is not valid. Ask the site that sent you here for a new one.' };

/**
 * An unknown token's page. With a `Referer`, it also posts `svc:error` `decision_not_found` to that exact origin:
 * no application can vouch for the origin here, but the message says only that the token names no decision, which
 * whoever loaded the page with that token may know (the kind is unknown too: the envelope says `consent`).
 */
function notFoundPage(c: Context<Env>, frame: boolean, from: string | undefined) {
  // An error page has nothing to click, so framing it harms no one, and the host's iframe can show why.
  const ancestors = frame ? ['*'] : [];
  if (!from) return sendPage(c, messagePage(NOT_FOUND), ancestors, 404);
  const error = createMessage('svc:error', 'consent', {
    code: 'decision_not_found',
    message:
      'No decision has this session token. Check the token attribute: it is the session_token that POST /api/v1/decisions ' +
      'returned, and the element must load it from the service (trust URL) that created it.',
    fatal: true,
    // The host's way out is a new decision (its server creates one); the origin refused below needs the developer.
    recoverable_via: 'new_decision',
  });
  const html = frameMessagePage(NOT_FOUND, { target_origin: from, mode: frame ? 'embed' : 'popup', messages: [error] });
  return sendPage(c, html, ancestors, 404);
}

/**
 * A frame embedded by a page whose origin the decision's application does not allow: the browser would refuse to
 * show the decision there (frame-ancestors), so the service answers with a page showing nothing of the decision,
 * which posts `svc:error` `origin_not_allowed` to that origin only, naming the command that allows the origin.
 */
function originRefusedPage(c: Context<Env>, row: DecisionRow, from: string) {
  const error = createMessage('svc:error', row.kind, {
    code: 'origin_not_allowed',
    message: notAllowedOriginMessage(from, row.application_id, `This page's origin ${from}`),
    fatal: true,
    recoverable_via: null,
  });
  const shown = {
    title: 'This request cannot be shown here',
    message: 'This site may not show this request. Ask the site for another way to answer it.',
  };
  // Framable by anyone, as the not-found page: it shows nothing of the decision and has nothing to click, and
  // frame-ancestors would check every ancestor, not only the page whose origin is refused.
  return sendPage(c, frameMessagePage(shown, { target_origin: from, mode: 'embed', messages: [error] }), ['*'], 403);
}

const redirectQuery = z.object({ redirect_uri: z.optional(httpUri) });

/** Mounts the hosted pages and their assets. */
export function pageRoutes(app: Hono<Env>, ctx: ServerContext): void {
  const cssEtag = `"${createHash('sha256').update(PAGE_CSS).digest('base64url').slice(0, 27)}"`;
  app.get('/assets/page.css', (c) => {
    const headers = {
      'Content-Type': 'text/css; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
      ETag: cssEtag,
    };
    if (matchesEtag(c.req.header('if-none-match'), cssEtag)) return c.body(null, 304, headers);
    return c.body(PAGE_CSS, 200, headers);
  });

  const scriptEtag = `"${createHash('sha256').update(FRAME_MESSAGES_JS).digest('base64url').slice(0, 27)}"`;
  app.get('/assets/frame-messages.js', (c) => {
    const headers = {
      'Content-Type': 'text/javascript; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
      ETag: scriptEtag,
    };
    if (matchesEtag(c.req.header('if-none-match'), scriptEtag)) return c.body(null, 304, headers);
    return c.body(FRAME_MESSAGES_JS, 200, headers);
  });

  app.get('/assets/:file', (c) => {
    const file = c.req.param('file');
    const type = ASSETS[file];
    const path = type ? `${publicDirectory()}${file}` : undefined;
    if (!type || !path || !existsSync(path)) {
      return errorResponse(c, notFound(type ? `${file} is not built yet: run pnpm run build.` : `No asset ${file}.`));
    }
    // Revalidated on every use (no-cache) but re-downloaded only when the build changed: a strong ETag of the
    // bytes, answered with 304 when the browser already holds them.
    const { body, etag } = assetOf(path);
    const headers = { 'Content-Type': type, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache', ETag: etag };
    if (matchesEtag(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    return c.body(body, 200, headers);
  });

  const render = (frame: boolean) => async (c: Context<Env>) => {
    const row = findDecision(ctx, c.req.param('token') ?? '');
    const from = refererOrigin(c.req.header('referer'));
    if (!row) return notFoundPage(c, frame, from);
    if (frame && from && !allowedOrigins(ctx, row.application_id).includes(from)) return originRefusedPage(c, row, from);
    const { data, title } = pageOf(ctx, row, frame, c.req.header('referer'), await viewerOf(ctx, c, row), c.req.query('from'));
    const html = pageShell({
      lang: data.locale,
      title,
      bodyClass: frame ? 'mode-embed' : 'mode-full',
      dataId: 'svc-decision-data',
      data,
      script: '/assets/decision-page.js',
      element: 'svc-decision-page',
      noscript: 'This page needs JavaScript to record your decision.',
    });
    return sendPage(c, html, frame ? allowedOrigins(ctx, row.application_id) : []);
  };
  app.get('/decisions/:token', render(false));
  app.get('/decisions/:token/embed', render(true));

  // The hosted flow page: a link anyone can follow. It opens a decision on the flow and sends the browser to it.
  app.get('/accord/:flow', (c) => {
    const active = getActiveFlowVersion(ctx, c.req.param('flow'));
    if (!active) {
      return sendPage(c, messagePage({ title: 'Page not found', message: 'There is no published consent page at this address.' }), [], 404);
    }
    const query = redirectQuery.safeParse(c.req.query());
    if (!query.success) {
      return sendPage(c, messagePage({ title: 'Invalid link', message: 'redirect_uri must be an absolute http(s) URL.' }), [], 400);
    }
    const application = getApplication(ctx, active.application_id);
    if (!application)
      return sendPage(c, messagePage({ title: 'Page not found', message: 'There is no published consent page at this address.' }), [], 404);
    // Anyone can follow the link, so it is held to the publishable-key rules (redirect_uri on an allowed origin).
    const principal: Principal = {
      kind: 'publishable_key',
      accountId: application.account_id,
      applicationId: application.id,
      environment: application.environment,
      key: '',
    };
    try {
      const row = createDecision(ctx, principal, {
        kind: 'consent',
        subject_ref: active.flow_id,
        delivery_mode: 'redirect',
        ...(query.data.redirect_uri ? { redirect_uri: query.data.redirect_uri } : {}),
      });
      return c.redirect(`/decisions/${row.session_token}`, 303);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 422) throw error;
      return sendPage(c, messagePage({ title: 'Invalid link', message: error.message }), [], 400);
    }
  });
}
