// The OpenAPI 3.1 document at /.well-known/openapi, generated from the zod schemas the routes validate with.
import { errorBody } from '@svc/client/schemas';
import { z } from 'zod/mini';
import type { RouteModule } from './app.js';
import { allowedOriginOperations } from './platform/account/allowed-origins.js';
import { apiTokenOperations } from './platform/account/api-tokens.js';
import { applicationOperations } from './platform/account/applications.js';
import { meOperations } from './platform/account/me.js';
import { systemOperations } from './platform/account/system.js';
import { flowOperations } from './platform/flows/routes.js';
import { decisionOperations } from './consent/decisions/routes.js';
import { webhookOperations } from './platform/webhooks/index.js';
import { capturesOperations } from './consent/captures/index.js';
import { recordsOperations } from './consent/records/index.js';
import { oauthClientOperations } from './platform/oauth/index.js';
import { agentIdentityOperations } from './authority/agents/routes.js';
import { delegationOperations } from './authority/delegations/routes.js';
import { transparencyOperations } from './authority/transparency/routes.js';
import { disclosureOperations } from './authority/disclosures/routes.js';
import { mcpOperations } from './authority/mcp/routes.js';
import { agreementOperations } from './surfaces/agree/agreements/routes.js';
import { inboxOperations } from './people/inbox/routes.js';
import { complyOperations } from './surfaces/comply/evidence/routes.js';
import { countryOperations } from './infra/cells/routes.js';
import { credentialOperations } from './consent/credentials/routes.js';
import { verifyOperations } from './surfaces/verify/routes.js';
import { agreeOperations } from './surfaces/agree/routes.js';
import { complySurfaceOperations } from './surfaces/comply/routes.js';
import { protectOperations } from './surfaces/protect/routes.js';
import { connectOperations } from './surfaces/connect/routes.js';
import type { Operation } from './infra/operations.js';

/** Every module's operation list. Add a module's list with one line here. */
export const operationLists: Operation[][] = [
  systemOperations,
  meOperations,
  apiTokenOperations,
  applicationOperations,
  allowedOriginOperations,
  flowOperations,
  decisionOperations,
  webhookOperations,
  recordsOperations,
  capturesOperations,
  oauthClientOperations,
  agentIdentityOperations,
  delegationOperations,
  transparencyOperations,
  disclosureOperations,
  mcpOperations,
  agreementOperations,
  inboxOperations,
  complyOperations,
  countryOperations,
  credentialOperations,
  verifyOperations,
  agreeOperations,
  complySurfaceOperations,
  protectOperations,
  connectOperations,
];

type JsonSchema = Record<string, unknown>;

const statusText: Record<number, string> = {
  400: 'Invalid parameters or malformed JSON',
  401: 'Missing or invalid authentication',
  403: 'Authenticated but not allowed',
  404: 'No such resource (or not this account\'s)',
  409: 'A request with the same Idempotency-Key is still running, or a status change the current status does not allow',
  413: 'Request body too large',
  421: 'Misdirected: the resource is homed in another country\'s cell; `home_country` names the cell to re-issue against',
  422: 'Validation failed; `errors` names each path',
};

function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function queryParameters(schema: z.ZodMiniType) {
  const { properties = {}, required = [] } = jsonSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(properties).map(([name, s]) => ({ name, in: 'query', required: required.includes(name), schema: s }));
}

function pathParameters(path: string) {
  return [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
}

function operationObject(op: Operation) {
  const errorRef = { $ref: '#/components/responses/Error' };
  // Any API request can name another cell's resource (in its path or, for a create, its subject's country).
  const misdirectable = op.path.startsWith('/api/v1/') ? [421] : [];
  const statuses = new Set<number>([...(op.auth.length ? [401, 403] : []), ...misdirectable, ...(op.body ? [400, 413, 422] : []), ...(op.errors ?? [])]);
  const write = op.path.startsWith('/api/v1/') && op.method !== 'get' && op.auth.length > 0;
  const parameters = [
    ...pathParameters(op.path),
    ...(op.query ? queryParameters(op.query) : []),
    ...(write ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
  ];
  if (write) for (const status of [400, 409, 422]) statuses.add(status);
  return {
    summary: op.summary,
    tags: [op.tag],
    operationId: `${op.method}${op.path.replace(/^\/api\/v1/, '').replace(/\{([^}]+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ?? '').toUpperCase())}`,
    ...(op.deprecated ? { deprecated: true } : {}),
    security: op.auth.map((scheme) => ({ [scheme]: [] })),
    ...(op.permission ? { 'x-svc-permission': op.permission } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(op.body, 'input') } } } } : {}),
    responses: {
      [String(op.response.status)]: {
        description: op.response.description,
        ...(op.response.schema ? { content: { 'application/json': { schema: jsonSchema(op.response.schema, 'output') } } } : {}),
      },
      ...Object.fromEntries([...statuses].sort().map((s) => [String(s), { ...errorRef, description: statusText[s] ?? 'Error' }])),
    },
  };
}

/** Builds the OpenAPI 3.1 document from operation lists (by default every module's). */
export function buildOpenApi(lists: Operation[][] = operationLists, serverUrl?: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of lists.flat()) {
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`operation ${op.method} ${op.path} is described twice`);
    item[op.method] = operationObject(op);
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
          description: 'Performs a retried write once: for 24 hours the first answer is replayed (with `Idempotent-Replayed: true`) to the credential that made the request, and only to it (another credential sending the same key has its request handled as its own); the same key on a different request is 422 `idempotency_key_reused`, and 409 while the first is still running.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
        },
      },
      responses: {
        Error: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
      securitySchemes: {
        api_token: { type: 'http', scheme: 'bearer', description: 'API token: `Authorization: Bearer <token>` (server to server).' },
        publishable_key: { type: 'apiKey', in: 'header', name: 'X-Publishable-Key', description: 'Publishable key (`pk_test_`/`pk_live_`) for browser calls from an allowed origin.' },
        access_token: {
          type: 'openIdConnect',
          openIdConnectUrl: `${serverUrl ?? ''}/.well-known/openid-configuration`,
          description: "A person's OAuth access token from the service's OpenID provider: `Authorization: Bearer <access token>` (only on a person's own endpoints). A delegate adds `X-Delegation-Grant-Id: <dlg_…>` to act in the principal's context within the grant's delegated scopes.",
        },
        agent_token: {
          type: 'http', scheme: 'bearer',
          description: 'AI agent token (`ra_agent_…`) from `POST /oauth/token/exchange` of a delegation grant: `Authorization: Bearer <agent token>`; checked against the grant on every request.',
        },
      },
    },
  };
}

/** `GET /.well-known/openapi`: the document, built once per server. */
export const openApiRoutes: RouteModule = (app, ctx) => {
  let cached: string | undefined;
  app.get('/.well-known/openapi', (c) => {
    cached ??= JSON.stringify(buildOpenApi(operationLists, ctx.baseUrl || undefined));
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(cached, 200, { 'Content-Type': 'application/json' });
  });
};
