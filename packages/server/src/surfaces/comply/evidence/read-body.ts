import type { Context } from 'hono';
import type { z } from 'zod/mini';
import { readJson, validate } from '../../../infra/validate.js';

/** Reads an optional JSON body: an empty body is `{}`, anything else is read and validated as `readJson` does. */
export async function readOptionalJson<T>(c: Context, schema: z.ZodMiniType<T>): Promise<T> {
  const text = await c.req.text(); // Hono keeps the body, so readJson reads it again
  return text.trim() === '' ? validate(schema, {}) : readJson(c, schema);
}
