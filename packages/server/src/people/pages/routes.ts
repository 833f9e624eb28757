// The people's pages on the trust URL: every family of FAMILIES at its path, signed in through the service's own
// OpenID provider (../session.ts): the sign-in start and its callback, sign-out, and the token the pages' elements
// ask for (`POST /session/access_token`).
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { Env, ServerContext } from '../../infra/context.js';
import { routes } from '../../infra/http/route.js';
import { sameOrigin } from '../../infra/http/same-origin.js';
import { messagePage, PAGE_HEADERS, pageCsp } from '../../hosted/pages/render.js';
import { finishSignIn, mintPageToken, signedInPerson, signOut, startSignIn, TRUST_SIGN_IN } from '../session.js';
import { FAMILIES, NAV, NAV_GROUPS, type Family } from './families.js';
import { familyPage, PEOPLE_CSS, signInPage } from './page.js';
import { PEOPLE_CSS_PATH, SIGN_IN_PATH, SIGN_OUT_PATH, TOKEN_PATH } from './paths.js';
import { LOADER_PATH, loaderIntegrity, SDK_DIR } from './sdk.js';
import { CONSOLE_FAMILIES } from '../../console/families.js';

/** Where a sign-in may come back to: the people's pages and the organisations' console, nothing else. */
const KNOWN = new Set([...NAV.map((entry) => entry.path), ...CONSOLE_FAMILIES.map((family) => family.path)]);
const HOME = FAMILIES[0]!.path;

/**
 * `value` when it is a path of a people's page on `origin` (with its query), else the first family: a sign-in or a
 * sign-out never sends the browser anywhere else, whatever the form or the cookie said.
 */
export function returnToOf(value: unknown, origin: string): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 2000) return HOME;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return HOME;
  }
  return url.origin === origin && KNOWN.has(url.pathname) ? `${url.pathname}${url.search}` : HOME;
}

/** The CSP of a family's page: scripts from the SDK's directory only (the loader and its chunks). */
export const familyCsp = (origin: string) => pageCsp([]).replace("script-src 'self'", `script-src ${origin}${SDK_DIR}`);

/** Sends a people's page (or the console's): the hosted pages' headers, never framed. */
export function send(c: Context<Env>, html: string, csp: string, status: 200 | 400 | 403 = 200) {
  return c.body(html, status, { ...PAGE_HEADERS, 'Content-Security-Policy': csp, 'X-Frame-Options': 'DENY' });
}

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** A family's page: the sign-in page without a session, the family's element with one. */
function familyRoute(ctx: ServerContext, family: Family) {
  return async (c: Context<Env>) => {
    const person = await signedInPerson(ctx, c);
    if (!person) return send(c, signInPage(family, c.req.query('signed_out') !== undefined), pageCsp([]));
    const origin = new URL(ctx.trustUrl).origin;
    const html = familyPage({
      family,
      attributes: family.attributes(ctx),
      email: person.email,
      nav: NAV_GROUPS,
      script: { src: LOADER_PATH, integrity: loaderIntegrity() },
    });
    return send(c, html, familyCsp(origin));
  };
}

/** The session's routes: sign in, its callback, sign out, and the elements' token. */
function sessionRoutes(app: Parameters<Parameters<typeof routes>[0]>[0], ctx: ServerContext) {
  const origin = () => new URL(ctx.trustUrl).origin;
  const refused = (c: Context<Env>, title: string) =>
    send(c, messagePage({ title, message: 'Open your page on the trust service and use its button.' }), pageCsp([]), 403);

  app.post(SIGN_IN_PATH, async (c) => {
    if (!sameOrigin(c, origin())) return refused(c, 'Sign-in cannot start');
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    return c.redirect(await startSignIn(ctx, c, returnToOf(form.return_to, origin())), 303);
  });

  app.get(TRUST_SIGN_IN.callbackPath, (c) => {
    const back = returnToOf(finishSignIn(c), origin());
    const error = c.req.query('error');
    if (!error) return c.redirect(back, 303);
    const why = error === 'access_denied' ? 'The sign-in was cancelled.' : 'The sign-in could not finish.';
    const html = messagePage({ title: 'Sign-in did not finish', html: `<p>${why} <a href="${back}">Back to your page</a></p>` });
    return send(c, html, pageCsp([]), 400);
  });

  app.post(SIGN_OUT_PATH, async (c) => {
    if (!sameOrigin(c, origin())) return refused(c, 'Sign-out cannot happen here');
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    await signOut(ctx, c);
    return c.redirect(`${new URL(returnToOf(form.return_to, origin()), origin()).pathname}?signed_out`, 303);
  });

  // The elements' token: a same-origin request with the browser's session gets a short-lived token for its person.
  app.post(TOKEN_PATH, async (c) => {
    if (!sameOrigin(c, origin()))
      return c.json({ message: 'Only the trust service’s own pages may ask for a token.', code: 'cross_site' }, 403, NO_STORE);
    const token = await mintPageToken(ctx, c);
    if (!token) return c.json({ message: 'You are signed out: sign in again on this page.', code: 'signed_out' }, 401, NO_STORE);
    return c.json(token, 200, NO_STORE);
  });
}

/** `/decisions` (and every family), `/session/*`, and the pages' stylesheet. */
export const peopleRoutes = routes((app, ctx) => {
  sessionRoutes(app, ctx);
  const cssEtag = `"${createHash('sha256').update(PEOPLE_CSS).digest('base64url').slice(0, 27)}"`;
  app.get(PEOPLE_CSS_PATH, (c) => {
    const headers = {
      'Content-Type': 'text/css; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
      ETag: cssEtag,
    };
    if (c.req.header('if-none-match') === cssEtag) return c.body(null, 304, headers);
    return c.body(PEOPLE_CSS, 200, headers);
  });
  for (const family of FAMILIES) app.get(family.path, familyRoute(ctx, family));
});
