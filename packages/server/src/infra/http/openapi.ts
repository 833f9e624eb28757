// The OpenAPI 3.1 document at /.well-known/openapi, built from the routes' own definitions (the router's registry).
// zod's own converter writes the JSON Schemas: the wire schemas are zod/mini, which the library's generator cannot read.
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import { errorBody } from '@svc/schemas';
import { z } from 'zod/mini';
import type { Env, ServerContext } from '../context.js';
import { route } from './route.js';

type JsonSchema = Record<string, unknown>;
type Content = Record<string, { schema: z.ZodMiniType }>;

function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function queryParameters(schema: z.ZodMiniType) {
  const { properties = {}, required = [] } = jsonSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, s]) => ({ name, in: 'query', required: required.includes(name), schema: s }));
}

function pathParameters(path: string) {
  return [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
}

const operationId = (method: string, path: string) =>
  `${method}${path
    .replace(/^\/api\/v1/, '')
    .replace(/\{([^}]+)\}/g, 'By_$1')
    .replace(/[^A-Za-z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ?? '').toUpperCase())}`;

function operationObject(route: RouteConfig) {
  const { method, path, summary, tags, deprecated, security = [], request, responses } = route;
  const permission = (route as { 'x-svc-permission'?: string })['x-svc-permission'];
  const write = path.startsWith('/api/v1/') && method !== 'get' && security.length > 0;
  const query = request?.query as z.ZodMiniType | undefined;
  const raw = (route as { 'x-svc-raw-body'?: z.ZodMiniType })['x-svc-raw-body'];
  const body = (request?.body?.content as Content | undefined)?.['application/json']?.schema ?? raw;
  const parameters = [
    ...pathParameters(path),
    ...(query ? queryParameters(query) : []),
    ...(write ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
  ];
  return {
    summary,
    tags,
    operationId: operationId(method, path),
    ...(deprecated ? { deprecated: true } : {}),
    security,
    ...(permission ? { 'x-svc-permission': permission } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(body, 'input') } } } } : {}),
    responses: Object.fromEntries(
      Object.entries(responses).map(([status, response]) => {
        const { description, content } = response as { description: string; content?: Content };
        if (Number(status) >= 400) return [status, { $ref: '#/components/responses/Error', description }];
        const schema = content?.['application/json']?.schema;
        return [status, { description, ...(schema ? { content: { 'application/json': { schema: jsonSchema(schema, 'output') } } } : {}) }];
      }),
    ),
  };
}

/** The routes an app declares, in the order it serves them. */
export function declaredRoutes(app: OpenAPIHono<Env>): RouteConfig[] {
  return app.openAPIRegistry.definitions.flatMap((d) => (d.type === 'route' ? [d.route] : []));
}

/** Builds the OpenAPI 3.1 document from route definitions. */
export function buildOpenApi(routes: RouteConfig[], serverUrl?: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    if (item[route.method]) throw new Error(`operation ${route.method} ${route.path} is declared twice`);
    item[route.method] = operationObject(route);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'svc reference server',
      version: '1.0.0',
      description: 'REST API of the svc Consent, Authority and Trust Service as implemented by the reference server.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths,
    components: {
      schemas: { Error: jsonSchema(errorBody, 'output') },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Performs a retried write once: for 24 hours the first answer is replayed (with `Idempotent-Replayed: true`) to the credential that made the request, and only to it (another credential sending the same key has its request handled as its own); the same key on a different request is 422 `idempotency_key_reused`, and 409 while the first is still running.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
        },
      },
      responses: {
        Error: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
      securitySchemes: {
        api_token: { type: 'http', scheme: 'bearer', description: 'API token: `Authorization: Bearer <token>` (server to server).' },
        publishable_key: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Publishable-Key',
          description: 'Publishable key (`pk_test_`/`pk_live_`) for browser calls from an allowed origin.',
        },
        access_token: {
          type: 'openIdConnect',
          openIdConnectUrl: `${serverUrl ?? ''}/.well-known/openid-configuration`,
          description:
            "A person's OAuth access token from the service's OpenID provider: `Authorization: Bearer <access token>` (only on a person's own endpoints). A delegate adds `X-Delegation-Grant-Id: <dlg_…>` to act in the principal's context within the grant's delegated scopes.",
        },
        agent_token: {
          type: 'http',
          scheme: 'bearer',
          description:
            'AI agent token (`ra_agent_…`) from `POST /oauth/token/exchange` of a delegation grant: `Authorization: Bearer <agent token>`; checked against the grant on every request.',
        },
      },
    },
  };
}

/** `GET /.well-known/openapi`: the document, built once per server from the app's own routes (this one included). */
export function serveOpenApi(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  let cached: string | undefined;
  route(
    app,
    {
      method: 'get',
      path: '/.well-known/openapi',
      summary: 'This OpenAPI 3.1 document, built from the route definitions',
      tag: 'Discovery and transparency',
      response: { status: 200, description: 'The OpenAPI document' },
    },
    (c) => {
      cached ??= JSON.stringify(buildOpenApi(declaredRoutes(app), ctx.baseUrl || undefined));
      c.header('Cache-Control', 'public, max-age=300');
      return c.body(cached, 200, { 'Content-Type': 'application/json' });
    },
  );
}
