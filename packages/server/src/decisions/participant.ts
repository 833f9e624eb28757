// The participant API: what the hosted page calls to move its decision. Not under /api/v1 and without an API key:
// the session token in the path is the page's credential. Same-origin JSON only, so no other site can drive it.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { z } from 'zod/mini';
import type { Env, ServerContext } from '../lib/context.js';
import { limitBody } from '../lib/body-limit.js';
import { ApiError, forbidden, notFound } from '../lib/errors.js';
import { readJson } from '../lib/validate.js';
import type { TransitionRequest } from '../pages/page-data.js';
import { applyTransition, findDecision, recordDrop } from './store.js';
import { targetOriginOf } from './targets.js';

const stepIndex = { step_index: z.optional(z.int().check(z.gte(0), z.lte(100))) };
const keys = z.array(z.string().check(z.maxLength(64))).check(z.maxLength(50));

/** `POST /decisions/{token}/transitions`: one participant step, discriminated by `action`. */
export const transitionRequest = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('begin'), ...stepIndex }),
  z.strictObject({ action: z.literal('sign_in'), email: z.email().check(z.maxLength(254)), ...stepIndex }),
  z.strictObject({ action: z.literal('send_code'), email: z.optional(z.email().check(z.maxLength(254))), ...stepIndex }),
  z.strictObject({ action: z.literal('verify'), code: z.string().check(z.regex(/^\d{6}$/, 'code must be 6 digits')), ...stepIndex }),
  z.strictObject({ action: z.literal('acknowledge'), ...stepIndex }),
  z.strictObject({ action: z.literal('answer'), answer: z.int().check(z.gte(0), z.lte(9)), ...stepIndex }),
  z.strictObject({ action: z.literal('agree'), granted: keys, objected: keys, ...stepIndex }),
  z.strictObject({ action: z.literal('decline'), ...stepIndex }),
  z.strictObject({ action: z.literal('approve'), ...stepIndex }),
  z.strictObject({ action: z.literal('deny'), ...stepIndex }),
  z.strictObject({ action: z.literal('counter'), proposal: z.string().check(z.trim(), z.minLength(1), z.maxLength(1000)), ...stepIndex }),
  z.strictObject({
    action: z.literal('cancel'),
    cancelled_by: z.enum(['user', 'host']),
    reason: z.optional(z.string().check(z.maxLength(200))),
    ...stepIndex,
  }),
]);

/** `POST /decisions/{token}/drops`: messages the page could not post, for `trust_surface.postmessage_dropped_total`. */
export const dropReport = z.strictObject({
  reason: z.enum(['origin_missing', 'target_missing']),
  count: z._default(z.int().check(z.gte(1), z.lte(50)), 1),
});

/**
 * Refuses anything but a same-origin JSON call: a cross-site form cannot send `application/json`, and a
 * cross-site script would need CORS, which these routes never grant.
 */
export function sameOrigin(ctx: ServerContext): MiddlewareHandler<Env> {
  return async (c, next) => {
    const origin = c.req.header('origin');
    const site = c.req.header('sec-fetch-site');
    if ((origin && origin !== new URL(ctx.trustUrl).origin) || (site && site !== 'same-origin')) {
      throw forbidden('The participant API only answers the hosted page itself.', 'cross_origin');
    }
    if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
      throw new ApiError(400, 'Content-Type must be application/json.', 'unsupported_content_type');
    }
    await next();
  };
}

/** Mounts the participant API under `/decisions/{token}/`. */
export function participantRoutes(app: Hono<Env>, ctx: ServerContext): void {
  const limit = limitBody(16 * 1024);
  const local = sameOrigin(ctx);
  const token = (c: Context<Env>) => c.req.param('token') ?? '';

  app.post('/decisions/:token/transitions', limit, local, async (c) => {
    if (!findDecision(ctx, token(c))) throw notFound('No decision with that session token.');
    const request = (await readJson(c, transitionRequest)) as TransitionRequest;
    return c.json(applyTransition(ctx, token(c), request));
  });

  app.post('/decisions/:token/drops', limit, local, async (c) => {
    const row = findDecision(ctx, token(c));
    if (!row) throw notFound('No decision with that session token.');
    const { reason, count } = await readJson(c, dropReport);
    let counted = 0;
    for (let i = 0; i < count; i += 1) if (recordDrop(ctx, row, reason, targetOriginOf(ctx, row, 'embed'))) counted += 1;
    return c.json({ counted });
  });
}
