import type { MiddlewareHandler } from 'hono';
import { countriesResponse } from '@svc/schemas';
import { route, routes } from '../http/route.js';
import type { Env, ServerContext } from '../context.js';
import { elsewhereHome, firstCountry, homeOf, wrongCountry } from './routing.js';

/** The header every answer of a cell carries: which country answered. */
export const COUNTRY_HEADER = 'Svc-Country';

/** Hosted pages a person opens by link: sent to their home cell instead of answered with a 421. */
const HOSTED_PAGES = /^\/(decisions|oap\/escalations)\//;

/** The home cell of the first homed id in `path` when another cell serves it (see {@link elsewhereHome}). */
function misdirectedTo(ctx: ServerContext, path: string): string | undefined {
  const first = firstCountry(ctx);
  for (const segment of path.split('/')) {
    if (segment && homeOf(segment, first)) return elsewhereHome(ctx, segment);
  }
  return undefined;
}

/** The answer to a request for a resource homed elsewhere: a redirect for a hosted page, else the 421. */
function misdirected(ctx: ServerContext, home: string, c: Parameters<MiddlewareHandler<Env>>[0]): Response {
  const cell = ctx.cells.get(home);
  if (cell && c.req.method === 'GET' && HOSTED_PAGES.test(c.req.path)) {
    const url = new URL(c.req.url);
    return c.redirect(`${cell.trust_url}${url.pathname}${url.search}`, 307);
  }
  throw wrongCountry(home);
}

/**
 * Runs first on every request: names the answering country, answers a request for another cell's resource before
 * anything reads a credential (the answer holds only what the path already says). A browser's request (with an Origin) is routed after CORS instead,
 * so that the page can read the 421.
 */
export function countryGate(ctx: ServerContext): MiddlewareHandler<Env> {
  return async (c, next) => {
    c.header(COUNTRY_HEADER, ctx.country);
    if (!c.req.header('origin')) {
      const home = misdirectedTo(ctx, c.req.path);
      if (home) return misdirected(ctx, home, c);
    }
    await next();
  };
}

/** Mount right after CORS: browser requests for another cell's resource, and the list of cells. */
export const countryRoutes = routes((app, ctx) => {
  app.use('/api/v1/*', async (c, next) => {
    if (c.req.header('origin')) {
      const home = misdirectedTo(ctx, c.req.path);
      if (home) return misdirected(ctx, home, c);
    }
    return next();
  });
  route(
    app,
    {
      method: 'get',
      path: '/api/v1/countries',
      summary: 'The country cells of the service and which one answered',
      tag: 'Countries',
      permission: 'read',
      access: { publishable: true, person: true, agent: true, delegateScope: null },
      response: { status: 200, description: "This cell's country and every cell's base and trust URL", schema: countriesResponse },
    },
    (c) =>
      c.json({
        country: ctx.country,
        countries: ctx.cells.list().map(({ country, base_url, trust_url }) => ({ country, base_url, trust_url })),
      }),
  );
});
