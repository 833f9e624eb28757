// The participant API: what the hosted page calls to move its decision. Not under /api/v1 and without an API key:
// the session token in the path is the page's credential. Same-origin JSON only, so no other site can drive it.
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { z } from 'zod/mini';
import type { Env, ServerContext } from '../../infra/context.js';
import { limitBody } from '../../infra/body-limit.js';
import { ApiError, forbidden, notFound } from '../../infra/errors.js';
import { readJson } from '../../infra/validate.js';
import type { TransitionRequest } from './participant-types.js';
import { cancelAction } from './actions.js';
import { viewerOf } from './viewer.js';
import { kindModules } from './kinds/index.js';
import { findDecision, recordDrop } from './store.js';
import { targetOriginOf } from './targets.js';
import { applyTransition } from './transitions.js';

/**
 * `POST /decisions/{token}/transitions`: one participant step, discriminated by `action`: every kind's (an action
 * several kinds share is one schema, listed once), and `cancel`.
 */
export const transitionRequest = z.discriminatedUnion('action', [cancelAction, ...new Set(kindModules.flatMap((kind) => kind.actions))]);

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
    const row = findDecision(ctx, token(c));
    if (!row) throw notFound('No decision with that session token.');
    const request = (await readJson(c, transitionRequest)) as TransitionRequest;
    return c.json(applyTransition(ctx, token(c), request, await viewerOf(ctx, c, row)));
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
