import type { Context, MiddlewareHandler } from 'hono';
import { config, type z } from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { badRequest, unprocessable, type FieldError } from './errors.js';

// The schemas are zod/mini (shared with the browser); on the server we want readable messages.
config(en());

type Schema<T> = z.ZodMiniType<T>;
export type Issue = { code: string; path: PropertyKey[]; message: string; keys?: string[] };

/** Turns zod issues into the error body's `errors[]`, one entry per path. */
export function fieldErrors(issues: readonly Issue[], prefix: PropertyKey[] = []): FieldError[] {
  return issues.flatMap((issue) => {
    const base = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      return issue.keys.map((key) => ({
        path: formatPath([...base, key]),
        code: 'unknown_field',
        message: `Unknown field "${key}".`,
      }));
    }
    return [{ path: formatPath(base), code: issue.code, message: issue.message }];
  });
}

function formatPath(path: PropertyKey[]): string {
  return path.map(String).join('.') || '(body)';
}

/** Validates a value against a schema, throwing a 422 that names each failing path. */
export function validate<T>(schema: Schema<T>, value: unknown, what = 'Request'): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error.issues as Issue[]);
  const first = errors[0];
  throw unprocessable(`${what} is invalid${first ? `: ${first.path}: ${first.message}` : '.'}`, 'validation_failed', errors);
}

// A JSON media type, with parameters (`; charset=utf-8`): what the router's body validator accepts.
const JSON_TYPE = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

/**
 * Before a route's body is validated: a body that is not JSON is a 400 saying why (wrong Content-Type, empty,
 * malformed), so that only well-formed JSON reaches the schema (whose mismatch is a 422). Where the body is
 * optional, an empty one is read as `{}`.
 */
export const jsonBody =
  (optional = false): MiddlewareHandler =>
  async (c, next) => {
    const type = c.req.header('content-type');
    const text = await c.req.text();
    if (optional && text.trim() === '') {
      // The validator reads `{}` (it parses the cached text, and reads no body at all without a Content-Type).
      if (type) (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve('{}');
      return next();
    }
    if (type ? !JSON_TYPE.test(type) : text !== '') throw badRequest('Content-Type must be application/json.', 'unsupported_content_type');
    if (text === '') throw badRequest('Request body is empty; a JSON object is required.', 'malformed_json');
    try {
      JSON.parse(text);
    } catch (err) {
      throw badRequest('Request body is not valid JSON.', 'malformed_json', undefined, { cause: err });
    }
    await next();
  };

/** Reads and validates a JSON body: malformed JSON is a 400, a shape error a 422. */
export async function readJson<T>(c: Context, schema: Schema<T>): Promise<T> {
  const type = c.req.header('content-type');
  if (type && !/^application\/(.+\+)?json\b/i.test(type)) {
    throw badRequest('Content-Type must be application/json.', 'unsupported_content_type');
  }
  const text = await c.req.text();
  let value: unknown;
  try {
    value = text === '' ? undefined : JSON.parse(text);
  } catch (err) {
    throw badRequest('Request body is not valid JSON.', 'malformed_json', undefined, { cause: err });
  }
  if (value === undefined) throw badRequest('Request body is empty; a JSON object is required.', 'malformed_json');
  return validate(schema, value);
}

/** Validates query parameters (as a flat object of strings) against a schema; bad parameters are a 400 (spec: Errors). */
export function readQuery<T>(c: Context, schema: Schema<T>): T {
  const result = schema.safeParse(c.req.query());
  if (result.success) return result.data;
  const errors = fieldErrors(result.error.issues as Issue[]);
  const first = errors[0];
  throw badRequest(`Query is invalid${first ? `: ${first.path}: ${first.message}` : '.'}`, 'invalid_parameters', errors);
}
