// The Trust Inbox over HTTP: `GET /api/v1/inbox` (a person's access token with the `inbox:read` scope, or a delegate
// whose grant delegates it), the hosted page `/inbox` (signed in through the service's own OpenID provider), and the
// retired operator inbox `/oap/escalations`, which now answers a permanent redirect to `/inbox`.
import { createHash } from 'node:crypto';
import { INBOX_SCOPE, inboxList, inboxQuery } from '@svc/client/schemas';
import type { Context } from 'hono';
import { routes } from '../../infra/http/route.js';
import { requires } from '../../infra/auth.js';
import type { Env, Principal, ServerContext } from '../../infra/context.js';
import { ApiError, forbidden } from '../../infra/errors.js';
import type { Operation } from '../../infra/operations.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { readQuery } from '../../infra/validate.js';
import { messagePage, PAGE_HEADERS, pageCsp } from '../../hosted/pages/render.js';
import { INBOX_CSS, INBOX_CSS_PATH, inboxPage, pageQueryOf, queryStringOf, signInPage } from './page.js';
import { CALLBACK_PATH, finishSignIn, signedInPerson, signOut, startSignIn } from './session.js';
import { inboxApplications, inboxEmailOf, listInbox } from './store.js';

const API = '/api/v1/inbox';

/**
 * The email whose inbox `principal` reads: a person's own, or, for a delegate (`X-Delegation-Grant-Id`), the
 * principal's they act for. The token must hold the `inbox:read` scope (the inbox shows what every organisation asks
 * of the person, so an application sees it only when the person allowed that); an API token has no inbox.
 */
function inboxOwner(ctx: ServerContext, c: Context<Env>, principal: Principal): string | undefined {
  if (principal.kind !== 'person') {
    throw forbidden("The inbox is a person's: call it with their access token (scope inbox:read), not an API token.", 'person_token_required');
  }
  if (!principal.scopes.includes(INBOX_SCOPE)) {
    c.header('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${INBOX_SCOPE}"`);
    throw new ApiError(403, `This access token lacks the ${INBOX_SCOPE} scope: ask for it when the person signs in.`, 'insufficient_scope');
  }
  return inboxEmailOf(ctx, principal.personId);
}

/** The same origin as the page: Fetch Metadata when the browser sends it, else the Origin header. */
function sameOrigin(ctx: ServerContext, c: Context<Env>): boolean {
  const site = c.req.header('sec-fetch-site');
  return site ? site === 'same-origin' : c.req.header('origin') === new URL(ctx.baseUrl).origin;
}

/** Sends one of the inbox's pages: the hosted pages' CSP and headers, never framed. */
function send(c: Context<Env>, html: string, status: 200 | 400 | 403 = 200) {
  return c.body(html, status, { ...PAGE_HEADERS, 'Content-Security-Policy': pageCsp([]), 'X-Frame-Options': 'DENY' });
}

/** `GET /api/v1/inbox`, `/inbox` and its sign-in, and the legacy `/oap/escalations`. */
export const inboxRoutes = routes((app, ctx) => {
  app.get(API, requires('read', { person: true, delegateScope: INBOX_SCOPE }), (c) => {
    const email = inboxOwner(ctx, c, c.get('principal'));
    const { limit = DEFAULT_LIMIT, cursor, kind, trigger, application_id, sort = 'deadline' } = readQuery(c, inboxQuery);
    if (!email) return c.json({ decisions: [], next_cursor: null });
    return c.json(listInbox(ctx, email, { limit, cursor, kind, trigger, application_id, sort }));
  });

  // The retired operator inbox: its rows live in the Trust Inbox now. Per-row pages (/oap/escalations/{id}) and the
  // JSON namespace (/api/v1/oap/escalations) are unchanged.
  app.get('/oap/escalations', (c) => c.redirect('/inbox', 301));

  const cssEtag = `"${createHash('sha256').update(INBOX_CSS).digest('base64url').slice(0, 27)}"`;
  app.get(INBOX_CSS_PATH, (c) => {
    const headers = { 'Content-Type': 'text/css; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache', ETag: cssEtag };
    if (c.req.header('if-none-match') === cssEtag) return c.body(null, 304, headers);
    return c.body(INBOX_CSS, 200, headers);
  });

  app.get('/inbox', async (c) => {
    const query = pageQueryOf(c.req.query());
    const person = await signedInPerson(ctx, c);
    if (!person) return send(c, signInPage(query, c.req.query('signed_out') !== undefined));
    const list = (cursor: string | undefined) => listInbox(ctx, person.email, { ...query, cursor, limit: DEFAULT_LIMIT });
    let page: ReturnType<typeof listInbox>;
    try {
      page = list(query.cursor);
    } catch (error) {
      // A cursor from another order or an older page: start at the first page rather than fail.
      if (!(error instanceof ApiError) || error.status !== 400) throw error;
      query.cursor = undefined;
      page = list(undefined);
    }
    return send(c, inboxPage({
      email: person.email, query, applications: inboxApplications(ctx, person.email),
      decisions: page.decisions, nextCursor: page.next_cursor, now: ctx.clock.now(),
    }));
  });

  app.post('/inbox/sign_in', async (c) => {
    if (!sameOrigin(ctx, c)) return send(c, messagePage({ title: 'Sign-in cannot start', message: 'Open the Trust Inbox and sign in from there.' }), 403);
    const form = await c.req.parseBody().catch(() => ({}));
    const fields = Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === 'string'));
    return c.redirect(await startSignIn(ctx, c, queryStringOf({ ...pageQueryOf(fields), cursor: undefined })), 303);
  });

  app.get(CALLBACK_PATH, (c) => {
    const back = finishSignIn(c);
    const error = c.req.query('error');
    if (error) {
      return send(c, messagePage({
        title: 'Sign-in did not finish',
        html: `<p>${error === 'access_denied' ? 'The sign-in was cancelled.' : 'The sign-in could not finish.'} <a href="/inbox">Back to the Trust Inbox</a></p>`,
      }), 400);
    }
    return c.redirect(`/inbox${queryStringOf(pageQueryOf(Object.fromEntries(new URLSearchParams(back))))}`, 303);
  });

  app.post('/inbox/sign_out', async (c) => {
    if (!sameOrigin(ctx, c)) return send(c, messagePage({ title: 'Sign-out cannot happen here', message: 'Sign out from the Trust Inbox itself.' }), 403);
    await signOut(ctx, c);
    return c.redirect('/inbox?signed_out', 303);
  });
});

/** OpenAPI descriptor of the inbox. */
export const inboxOperations: Operation[] = [
  {
    method: 'get', path: API, tag: 'Inbox',
    summary: 'The open decisions addressed to the person (consent, approval, signature), across organisations: filter by kind, trigger and application; deadline (default) or newest first',
    auth: ['access_token'], query: inboxQuery,
    response: { status: 200, description: 'A page of the decisions that wait for the person (needs the inbox:read scope; a delegate needs it delegated)', schema: inboxList },
    errors: [400],
  },
];
