// The Trust Inbox over HTTP: `GET /api/v1/inbox` (a person's access token with the `inbox:read` scope, or a delegate
// whose grant delegates it), the hosted page `/inbox` (signed in through the service's own OpenID provider), and the
// retired operator inbox `/oap/escalations`, which now answers a permanent redirect to `/inbox`.
import { createHash } from 'node:crypto';
import { INBOX_SCOPE, inboxList, inboxQuery } from '@svc/schemas';
import type { Context, MiddlewareHandler } from 'hono';
import { route, routes } from '../../infra/http/route.js';
import { sameOrigin } from '../../infra/http/same-origin.js';
import { requires } from '../../infra/auth.js';
import type { Env } from '../../infra/context.js';
import { ApiError, forbidden } from '../../infra/errors.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { messagePage, PAGE_HEADERS, pageCsp } from '../../hosted/pages/render.js';
import { INBOX_CSS, INBOX_CSS_PATH, inboxPage, pageQueryOf, queryStringOf, signInPage } from './page.js';
import { CALLBACK_PATH, finishSignIn, signedInPerson, signOut, startSignIn } from './session.js';
import { inboxApplications, inboxEmailOf, listInbox } from './store.js';

const API = '/api/v1/inbox';

/**
 * Admits only a person's token (or a delegate's, for the principal they act for) holding the `inbox:read` scope:
 * the inbox shows what every organisation asks of the person, so an application sees it only when the person
 * allowed that; an API token has no inbox.
 */
const inboxReader: MiddlewareHandler<Env> = async (c, next) => {
  const principal = c.get('principal');
  if (principal.kind !== 'person') {
    throw forbidden(
      "The inbox is a person's: call it with their access token (scope inbox:read), not an API token.",
      'person_token_required',
    );
  }
  if (!principal.scopes.includes(INBOX_SCOPE)) {
    c.header('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${INBOX_SCOPE}"`);
    throw new ApiError(403, `This access token lacks the ${INBOX_SCOPE} scope: ask for it when the person signs in.`, 'insufficient_scope');
  }
  await next();
};

/** Sends one of the inbox's pages: the hosted pages' CSP and headers, never framed. */
function send(c: Context<Env>, html: string, status: 200 | 400 | 403 = 200) {
  return c.body(html, status, { ...PAGE_HEADERS, 'Content-Security-Policy': pageCsp([]), 'X-Frame-Options': 'DENY' });
}

/** `GET /api/v1/inbox`, `/inbox` and its sign-in, and the legacy `/oap/escalations`. */
export const inboxRoutes = routes((app, ctx) => {
  // requires() runs as middleware: the document names the person's token only, which is all the inbox admits.
  route(
    app,
    {
      method: 'get',
      path: API,
      tag: 'Inbox',
      summary:
        'The open decisions addressed to the person (consent, approval, signature), across organisations: filter by kind, trigger and application; deadline (default) or newest first',
      auth: ['access_token'],
      query: inboxQuery,
      middleware: [requires('read', { person: true, delegateScope: INBOX_SCOPE }), inboxReader],
      response: {
        status: 200,
        description: 'A page of the decisions that wait for the person (needs the inbox:read scope; a delegate needs it delegated)',
        schema: inboxList,
      },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, kind, trigger, application_id, sort = 'deadline' } }) => {
      const principal = c.get('principal');
      // A delegate's principal carries the person they act for, so a delegate reads that person's inbox.
      const email = principal.kind === 'person' ? inboxEmailOf(ctx, principal.personId) : undefined;
      if (!email) return c.json({ decisions: [], next_cursor: null });
      return c.json(listInbox(ctx, email, { limit, cursor, kind, trigger, application_id, sort }));
    },
  );

  // The retired operator inbox: its rows live in the Trust Inbox now. Per-row pages (/oap/escalations/{id}) and the
  // JSON namespace (/api/v1/oap/escalations) are unchanged.
  app.get('/oap/escalations', (c) => c.redirect('/inbox', 301));

  const cssEtag = `"${createHash('sha256').update(INBOX_CSS).digest('base64url').slice(0, 27)}"`;
  app.get(INBOX_CSS_PATH, (c) => {
    const headers = {
      'Content-Type': 'text/css; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
      ETag: cssEtag,
    };
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
    return send(
      c,
      inboxPage({
        email: person.email,
        query,
        applications: inboxApplications(ctx, person.email),
        decisions: page.decisions,
        nextCursor: page.next_cursor,
        now: ctx.clock.now(),
      }),
    );
  });

  app.post('/inbox/sign_in', async (c) => {
    if (!sameOrigin(c, new URL(ctx.baseUrl).origin))
      return send(c, messagePage({ title: 'Sign-in cannot start', message: 'Open the Trust Inbox and sign in from there.' }), 403);
    const form = await c.req.parseBody().catch(() => ({}));
    const fields = Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === 'string'));
    return c.redirect(await startSignIn(ctx, c, queryStringOf({ ...pageQueryOf(fields), cursor: undefined })), 303);
  });

  app.get(CALLBACK_PATH, (c) => {
    const back = finishSignIn(c);
    const error = c.req.query('error');
    if (error) {
      return send(
        c,
        messagePage({
          title: 'Sign-in did not finish',
          html: `<p>${error === 'access_denied' ? 'The sign-in was cancelled.' : 'The sign-in could not finish.'} <a href="/inbox">Back to the Trust Inbox</a></p>`,
        }),
        400,
      );
    }
    return c.redirect(`/inbox${queryStringOf(pageQueryOf(Object.fromEntries(new URLSearchParams(back))))}`, 303);
  });

  app.post('/inbox/sign_out', async (c) => {
    if (!sameOrigin(c, new URL(ctx.baseUrl).origin))
      return send(c, messagePage({ title: 'Sign-out cannot happen here', message: 'Sign out from the Trust Inbox itself.' }), 403);
    await signOut(ctx, c);
    return c.redirect('/inbox?signed_out', 303);
  });
});
