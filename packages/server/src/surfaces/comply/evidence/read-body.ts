import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod/mini';
import type { Env } from '../../../infra/context.js';
import { validate } from '../../../infra/validate.js';

/** Answers a request given its validated body. */
export type Answer<T> = (c: Context<Env>, body: T) => Response | Promise<Response>;

/**
 * An optional JSON body: an empty (or blank) body is answered at once as if `{}` was sent; any other body goes on to
 * the router's validation, as a required body does.
 */
export function withoutBody<T>(schema: z.ZodMiniType<T>, answer: Answer<T>): MiddlewareHandler<Env> {
  return async (c, next) => {
    if ((await c.req.text()).trim() === '') return answer(c, validate(schema, {})); // Hono keeps the body: the router reads it again
    await next();
  };
}
