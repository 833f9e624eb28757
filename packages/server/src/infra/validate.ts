import type { Context, MiddlewareHandler } from 'hono';
import { config, type z } from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { ApiError, badRequest, unprocessable, type FieldError } from './errors.js';

// The schemas are zod/mini (shared with the browser); on the server we want readable messages.
config(en());

type Schema<T> = z.ZodMiniType<T>;
export type Issue = { code: string; path: PropertyKey[]; message: string; keys?: string[] };

/**
 * The most problems one error body lists. A body of many unknown fields would otherwise build (and send) an entry
 * for each: 60,000 keys made a 4.8 MB answer that took longer to build than the body took to parse.
 */
export const MAX_FIELD_ERRORS = 100;

/**
 * Turns zod issues into the error body's `errors[]`, one entry per path, at most {@link MAX_FIELD_ERRORS}; when there
 * were more, a last entry (`too_many_errors`) says how many were left out.
 */
export function fieldErrors(issues: readonly Issue[], prefix: PropertyKey[] = []): FieldError[] {
  const errors: FieldError[] = [];
  let left = 0;
  for (const issue of issues) {
    const base = [...prefix, ...issue.path];
    const unknown = issue.code === 'unrecognized_keys' && issue.keys ? issue.keys : undefined;
    const count = unknown ? unknown.length : 1;
    const room = Math.max(0, MAX_FIELD_ERRORS - errors.length);
    left += Math.max(0, count - room);
    if (room === 0) continue;
    if (!unknown) errors.push({ path: formatPath(base), code: issue.code, message: issue.message });
    for (const key of unknown?.slice(0, room) ?? []) {
      errors.push({ path: formatPath([...base, key]), code: 'unknown_field', message: `Unknown field "${key}".` });
    }
  }
  if (left > 0) errors.push({ path: formatPath(prefix), code: 'too_many_errors', message: `and ${left} more problems not listed` });
  return errors;
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

/** How much JSON one request body may ask the server to parse and validate, counted before either runs. */
export interface JsonBudget {
  /** Nesting of objects and arrays. */
  depth: number;
  /** Members of one object. */
  members: number;
  /** Elements of one array. */
  elements: number;
  /** Objects, arrays, members and elements in all. */
  total: number;
}

/**
 * The default budget, far above any body the API takes (its largest lists hold hundreds of entries, its objects tens
 * of fields, its nesting a dozen levels) and far below what 1 MiB of JSON can hold (about 175,000 members).
 */
export const JSON_BUDGET: Readonly<JsonBudget> = { depth: 64, members: 1_000, elements: 10_000, total: 100_000 };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

/** Where the string that opens at `start` closes (its next quote not escaped), or the end of an unterminated one. */
function stringEnd(text: string, start: number): number {
  let at = start;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at === -1) return text.length;
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
}

/**
 * What a JSON text asks beyond `budget`, as the sentence of a refusal, or undefined when it stays within. One pass
 * over the characters, without parsing: containers are counted at their brackets and entries at their commas,
 * outside strings. It decides nothing about well-formedness, which JSON.parse then checks.
 */
export function jsonOverBudget(text: string, budget: Readonly<JsonBudget> = JSON_BUDGET): string | undefined {
  const commas = new Int32Array(budget.depth + 1); // commas of each open container, by depth
  const isArray = new Uint8Array(budget.depth + 1);
  let depth = 0;
  let total = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === QUOTE) i = stringEnd(text, i);
    else if (ch === 0x7b || ch === 0x5b) {
      if (depth === budget.depth) return `nests deeper than ${budget.depth} levels`;
      depth++;
      commas[depth] = 0;
      isArray[depth] = ch === 0x5b ? 1 : 0;
      total++;
    } else if (ch === 0x7d || ch === 0x5d) {
      if (depth > 0) depth--;
    } else if (ch === COMMA && depth > 0) {
      const entries = ++commas[depth]! + 1;
      if (isArray[depth] && entries > budget.elements) return `has an array of more than ${budget.elements} elements`;
      if (!isArray[depth] && entries > budget.members) return `has an object of more than ${budget.members} members`;
      if (++total > budget.total) return `holds more than ${budget.total} values`;
    }
  }
  return undefined;
}

// A JSON media type, with parameters (`; charset=utf-8`): what the router's body validator accepts.
const JSON_TYPE = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

/** The body as text; a client that stops sending it (a timeout, a reset) is a 400, not a server error. */
async function readText(c: Context): Promise<string> {
  try {
    return await c.req.text();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw badRequest('The request body ended before its length.', 'incomplete_body', undefined, { cause: err });
  }
}

/**
 * Before a route's body is validated: a body that is not JSON is a 400 saying why (wrong Content-Type, empty,
 * malformed), so that only well-formed JSON reaches the schema (whose mismatch is a 422). Where the body is
 * optional, an empty one is read as `{}`.
 */
export const jsonBody =
  (optional = false): MiddlewareHandler =>
  async (c, next) => {
    const type = c.req.header('content-type');
    const text = await readText(c);
    if (optional && text.trim() === '') {
      // The validator reads `{}` (it parses the cached text, and reads no body at all without a Content-Type).
      if (type) (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve('{}');
      return next();
    }
    if (type ? !JSON_TYPE.test(type) : text !== '') throw badRequest('Content-Type must be application/json.', 'unsupported_content_type');
    if (text === '') throw badRequest('Request body is empty; a JSON object is required.', 'malformed_json');
    // Before it is parsed or validated: what a body costs is bounded by its structure, not only by its bytes.
    const over = jsonOverBudget(text);
    if (over) throw unprocessable(`Request body ${over}; no request of this API needs that many.`, 'body_too_complex');
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
