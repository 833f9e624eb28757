// The organisation's console on the trust URL: every family of CONSOLE_FAMILIES at its path, for the account users
// of an organisation, signed in through the service's own provider like the people's pages (the same session, the
// same sign-in at /session/*). A signed-in person who is no user of the account gets 403; the page of a viewer
// shows no change controls, and the API refuses their changes anyway. `POST /console/access_token` gives the page's
// elements a console token for the account shown.
import type { Context } from 'hono';
import type { Env, ServerContext } from '../infra/context.js';
import { routes } from '../infra/http/route.js';
import { sameOrigin } from '../infra/http/same-origin.js';
import { pageCsp } from '../hosted/pages/render.js';
import { signInPage } from '../people/pages/page.js';
import { familyCsp, send } from '../people/pages/routes.js';
import { LOADER_PATH, loaderIntegrity } from '../people/pages/sdk.js';
import { signedInPerson } from '../people/session.js';
import { CONSOLE_FAMILIES, CONSOLE_TOKEN_PATH, type ConsoleFamily } from './families.js';
import { membershipsOf, type Membership } from './members.js';
import { notAnAccountUserPage, consolePage } from './page.js';
import { mintConsoleToken } from './tokens.js';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** The membership a request asks for (`?account=`), else the first; undefined when the person is no user of it. */
function chosen(memberships: readonly Membership[], account: string | undefined): Membership | undefined {
  return account === undefined ? memberships[0] : memberships.find((m) => m.accountId === account);
}

function familyRoute(ctx: ServerContext, family: ConsoleFamily) {
  return async (c: Context<Env>) => {
    const person = await signedInPerson(ctx, c);
    if (!person) return send(c, signInPage(family, c.req.query('signed_out') !== undefined), pageCsp([]));
    const memberships = membershipsOf(ctx, person.email);
    const shown = chosen(memberships, c.req.query('account'));
    if (!shown) return send(c, notAnAccountUserPage(person.email, family), pageCsp([]), 403);
    const html = consolePage({
      family,
      email: person.email,
      shown,
      memberships,
      trustUrl: ctx.trustUrl,
      tokenUrl: `${CONSOLE_TOKEN_PATH}?account=${encodeURIComponent(shown.accountId)}`,
      script: { src: LOADER_PATH, integrity: loaderIntegrity() },
    });
    return send(c, html, familyCsp(new URL(ctx.trustUrl).origin));
  };
}

/** Every organisation family, and the console's token URL. */
export const consoleRoutes = routes((app, ctx) => {
  for (const family of CONSOLE_FAMILIES) app.get(family.path, familyRoute(ctx, family));

  // A same-origin request of a signed-in account user gets a ten-minute console token for the account it names.
  app.post(CONSOLE_TOKEN_PATH, async (c) => {
    if (!sameOrigin(c, new URL(ctx.trustUrl).origin))
      return c.json({ message: 'Only the trust service’s own pages may ask for a console token.', code: 'cross_site' }, 403, NO_STORE);
    const person = await signedInPerson(ctx, c);
    if (!person) return c.json({ message: 'You are signed out: sign in again on this page.', code: 'signed_out' }, 401, NO_STORE);
    const shown = chosen(membershipsOf(ctx, person.email), c.req.query('account'));
    if (!shown) {
      const message = `${person.email} is not a user of this organisation's account.`;
      return c.json({ message, code: 'not_an_account_user' }, 403, NO_STORE);
    }
    return c.json(mintConsoleToken(ctx, shown, person.sessionUid), 200, NO_STORE);
  });
});
