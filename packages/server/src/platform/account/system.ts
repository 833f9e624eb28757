import { z } from 'zod/mini';
import { route, routes } from '../../infra/http/route.js';
import { notFound } from '../../infra/errors.js';
import { isoNow } from '../../infra/clock.js';

const advanceRequest = z.strictObject({ seconds: z.number().check(z.gte(0), z.lte(10 * 365 * 24 * 3600)) });

/** JWKS, metrics and the test clock. */
export const systemRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'get',
      path: '/.well-known/jwks.json',
      summary: "This cell's public signing keys (receipts, tokens, credentials)",
      tag: 'Discovery and transparency',
      response: { status: 200, description: 'A JWK Set' },
    },
    (c) => {
      c.header('Cache-Control', 'public, max-age=300');
      c.header('Access-Control-Allow-Origin', '*'); // public keys: a page checks receipts offline against them
      return c.json(ctx.keys.jwks);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: '/metrics',
      summary: 'Counters in the Prometheus text format (e.g. trust_surface_postmessage_dropped_total)',
      tag: 'Operations',
      response: { status: 200, description: 'text/plain; version=0.0.4' },
    },
    (c) => c.text(ctx.metrics.render(), 200, { 'Content-Type': 'text/plain; version=0.0.4' }),
  );

  route(
    app,
    {
      method: 'post',
      path: '/api/v1/test_clock/advance',
      summary: 'Move the test clock forward (SVC_TEST_CLOCK=1 only)',
      tag: 'Test clock',
      permission: 'admin',
      body: advanceRequest,
      response: {
        status: 200,
        description: 'The clock after the move',
        schema: z.object({ test_clock: z.object({ now: z.string(), offset_seconds: z.number() }) }),
      },
      errors: [404],
      // An off clock is 404 whatever the body says.
      middleware: [
        async (_c, next) => {
          if (!ctx.testClock) throw notFound('The test clock is off; start the server with SVC_TEST_CLOCK=1.');
          await next();
        },
      ],
    },
    (c, { body: { seconds } }) => {
      ctx.testClock!.advance(seconds);
      return c.json({ test_clock: { now: isoNow(ctx.clock), offset_seconds: ctx.testClock!.offsetSeconds } });
    },
  );
});
