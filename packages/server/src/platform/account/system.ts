import type { Hono } from 'hono';
import { z } from 'zod/mini';
import { requires } from '../../infra/auth.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import { readJson } from '../../infra/validate.js';
import { isoNow } from '../../infra/clock.js';
import type { Operation } from '../../infra/operations.js';

const advanceRequest = z.strictObject({ seconds: z.number().check(z.gte(0), z.lte(10 * 365 * 24 * 3600)) });

/** JWKS, metrics and the test clock. */
export function systemRoutes(app: Hono<Env>, ctx: ServerContext): void {
  app.get('/.well-known/jwks.json', (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(ctx.keys.jwks);
  });

  app.get('/metrics', (c) => c.text(ctx.metrics.render(), 200, { 'Content-Type': 'text/plain; version=0.0.4' }));

  app.post('/api/v1/test_clock/advance', requires('admin'), async (c) => {
    if (!ctx.testClock) throw notFound('The test clock is off; start the server with SVC_TEST_CLOCK=1.');
    const { seconds } = await readJson(c, advanceRequest);
    ctx.testClock.advance(seconds);
    return c.json({ test_clock: { now: isoNow(ctx.clock), offset_seconds: ctx.testClock.offsetSeconds } });
  });
}

/** OpenAPI descriptors of the system routes under `/api/v1`. */
export const systemOperations: Operation[] = [
  {
    method: 'post', path: '/api/v1/test_clock/advance', summary: 'Move the test clock forward (SVC_TEST_CLOCK=1 only)', tag: 'Test clock',
    auth: ['api_token'], permission: 'admin', body: advanceRequest,
    response: {
      status: 200,
      description: 'The clock after the move',
      schema: z.object({ test_clock: z.object({ now: z.string(), offset_seconds: z.number() }) }),
    },
    errors: [404],
  },
];
