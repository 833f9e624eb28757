// Routes are declared once: method, path, schemas, permission and handler in one definition, from which the app
// routes, validates and documents (see ./openapi.ts). The wire schemas are zod/mini (shared with the browser), which
// @hono/zod-openapi validates but whose types and document generator expect classic zod: the casts live here only.
import { OpenAPIHono, createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod/mini';
import { requires, type RouteAccess } from '../auth.js';
import type { Env, Permission, ServerContext } from '../context.js';
import { badRequest, unprocessable } from '../errors.js';
import { fieldErrors, type Issue, jsonBody } from '../validate.js';

/** How an operation authenticates (OpenAPI security schemes of the same names). */
export type Auth = 'api_token' | 'publishable_key' | 'access_token' | 'agent_token';

type Schema = z.ZodMiniType;
type Out<S> = S extends z.ZodMiniType<infer T> ? T : undefined;
type Success = { status: number; description: string; schema?: Schema };

/** One HTTP operation: what the router serves and the OpenAPI document describes. */
export interface RouteSpec<B extends Schema | undefined = undefined, Q extends Schema | undefined = undefined> {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  /** OpenAPI path template, e.g. `/api/v1/flows/{id}`. */
  path: string;
  summary: string;
  tag: string;
  /** The permission an API token needs; the route then admits API tokens and whoever `access` names. */
  permission?: Permission;
  access?: RouteAccess;
  /** Credentials of a route without `permission` (it checks them itself); empty or absent for a public route. */
  auth?: Auth[];
  body?: B;
  /** An empty body is read as `{}` (the schema's defaults apply). */
  optionalBody?: boolean;
  /** A body the handler reads itself (raw bytes under a signature, a transport's own parsing): documented only. */
  rawBody?: Schema;
  query?: Q;
  /** Success response: status and body schema (omit the schema for an empty body). */
  response: Success;
  /** Other successes (e.g. a 202 that accepts without a body). */
  alsoResponds?: Success[];
  /** Error statuses this operation can answer besides those its credentials and body imply (e.g. 404, 422). */
  errors?: number[];
  deprecated?: boolean;
  /** Runs after the permission check and before the body is read (e.g. a larger body limit). */
  middleware?: MiddlewareHandler<Env>[];
}

/** Answers a request given its validated body. */
export type Answer<T> = (c: Context<Env>, body: T) => Response | Promise<Response>;

/** The validated request a handler receives. */
export interface Input<B, Q> {
  body: Out<B>;
  query: Out<Q>;
}

const statusText: Record<number, string> = {
  400: 'Invalid parameters or malformed JSON',
  401: 'Missing or invalid authentication',
  403: 'Authenticated but not allowed',
  404: "No such resource (or not this account's)",
  409: 'A request with the same Idempotency-Key is still running, or a status change the current status does not allow',
  405: 'Method not allowed',
  406: 'Not acceptable: the Accept header names no type this operation answers',
  413: 'Request body too large',
  415: 'Unsupported media type',
  421: "Misdirected: the resource is homed in another country's cell; `home_country` names the cell to re-issue against",
  422: 'Validation failed; `errors` names each path',
  429: 'Too many requests: over a rate limit (per application, client address or API token); retry after `Retry-After` seconds',
};

/** The credentials a route admits: API tokens with a permission, plus whom its access names. */
function authOf(spec: RouteSpec<Schema | undefined, Schema | undefined>): Auth[] {
  if (!spec.permission) return spec.auth ?? [];
  if (spec.auth) throw new Error(`${spec.method} ${spec.path}: auth follows from permission and access`);
  const { publishable, person, agent } = spec.access ?? {};
  return [
    'api_token',
    ...(publishable ? ['publishable_key' as const] : []),
    ...(person ? ['access_token' as const] : []),
    ...(agent ? ['agent_token' as const] : []),
  ];
}

/** Every status the operation can answer besides its success, as the document lists them. */
function errorStatuses(spec: RouteSpec<Schema | undefined, Schema | undefined>, auth: Auth[]): number[] {
  const api = spec.path.startsWith('/api/v1/');
  const write = api && spec.method !== 'get' && auth.length > 0;
  const statuses = new Set<number>([
    ...(auth.length ? [401, 403] : []),
    ...(api && auth.length ? [429] : []), // infra/limits: the caller's rate limits
    // Any API request can name another cell's resource (in its path or, for a create, its subject's country).
    ...(api ? [421] : []),
    ...(spec.body ? [400, 413, 422] : []),
    ...(write ? [400, 409, 422] : []),
    ...(spec.errors ?? []),
  ]);
  return [...statuses].sort();
}

/** Turns a spec into the library's route definition (the registry entry the document is built from). */
export function definition(
  spec: RouteSpec<Schema | undefined, Schema | undefined>,
  middleware: MiddlewareHandler<Env>[],
  auth = authOf(spec),
): RouteConfig {
  const json = (schema: Schema) => ({ 'application/json': { schema } });
  const success = (r: Success) => [r.status, { description: r.description, ...(r.schema ? { content: json(r.schema) } : {}) }] as const;
  const config = {
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    tags: [spec.tag],
    ...(spec.deprecated ? { deprecated: true } : {}),
    security: auth.map((scheme) => ({ [scheme]: [] })),
    ...(spec.permission ? { 'x-svc-permission': spec.permission } : {}),
    request: {
      ...(spec.body ? { body: { required: true, content: json(spec.body) } } : {}),
      ...(spec.query ? { query: spec.query } : {}),
    },
    responses: {
      ...Object.fromEntries([spec.response, ...(spec.alsoResponds ?? [])].map(success)),
      ...Object.fromEntries(errorStatuses(spec, auth).map((s) => [s, { description: statusText[s] ?? 'Error' }])),
    },
    ...(spec.rawBody ? { 'x-svc-raw-body': spec.rawBody } : {}),
    middleware,
  };
  return createRoute(config as unknown as RouteConfig);
}

/**
 * Maps the library's validation result to the service's errors: a body that does not match is 422 naming each
 * path; bad query parameters are 400 (spec: Errors).
 */
function onInvalid(result: { success: boolean; target: string; error?: { issues: readonly Issue[] } }): void {
  if (result.success) return;
  const errors = fieldErrors(result.error?.issues ?? []);
  const first = errors[0];
  const detail = first ? `: ${first.path}: ${first.message}` : '.';
  if (result.target === 'json') throw unprocessable(`Request is invalid${detail}`, 'validation_failed', errors);
  throw badRequest(`Query is invalid${detail}`, 'invalid_parameters', errors);
}

/** A router for one part of the product; mount it with `app.route('/', router)`. */
export function router(): OpenAPIHono<Env> {
  return new OpenAPIHono<Env>({ defaultHook: onInvalid as never });
}

/** A part of the product's routes: a sub-app made once per server. */
export type RouteModule = (ctx: ServerContext) => OpenAPIHono<Env>;

/** Declares a part's routes on its own router. */
export function routes(declare: (app: OpenAPIHono<Env>, ctx: ServerContext) => void): RouteModule {
  return (ctx) => {
    const app = router();
    declare(app, ctx);
    return app;
  };
}

/** Declares one route on a router: the permission check, body parsing, validation, the handler and its document. */
export function route<B extends Schema | undefined = undefined, Q extends Schema | undefined = undefined>(
  app: OpenAPIHono<Env>,
  spec: RouteSpec<B, Q>,
  handler: (c: Context<Env>, input: Input<B, Q>) => Response | Promise<Response>,
): void {
  const middleware = [
    ...(spec.permission ? [requires(spec.permission, spec.access)] : []),
    ...(spec.middleware ?? []),
    ...(spec.body ? [jsonBody(spec.optionalBody)] : []),
  ];
  const req = (c: Context<Env>) => c.req as unknown as { valid(target: string): unknown };
  app.openapi(
    definition(spec, middleware) as never,
    ((c: Context<Env>) =>
      handler(c, {
        body: (spec.body ? req(c).valid('json') : undefined) as Out<B>,
        query: (spec.query ? req(c).valid('query') : undefined) as Out<Q>,
      })) as never,
  );
}
