import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createApp } from './app.js';
import { FAMILIES } from './people/pages/families.js';
import { CONSOLE_FAMILIES } from './console/families.js';
import { startTestServer, type TestServer } from './testing.js';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { security: Record<string, unknown>[]; requestBody?: unknown; responses: Record<string, unknown> }>>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, { type: string; scheme?: string; in?: string; name?: string }>;
  };
};

/**
 * What a person's browser opens rather than a program calls: hosted pages, their same-origin form posts and
 * assets, the playground, the script-tag SDK files, and the OpenID provider's sign-in interaction. Everything else
 * the server answers is an API operation the document describes.
 */
const PAGES = [
  /^get \/$/,
  /^(get|post) \/decisions\/\{\}(\/(embed|transitions|drops))?$/,
  /^get \/assets\//,
  /^get \/accord\/\{\}$/,
  /^get \/authorization_receipts\/\{\}\/withdraw$/,
  /^(get|post) \/playground\//,
  /^get \/sdk\/v1\/\{\}$/,
  /^(get|post) \/oauth\/interaction\//,
  /^get \/oap\/escalations/,
  /^(get|post) \/inbox(\/|$)/,
  /^(get|post) \/(session|people)\//,
  ...FAMILIES.map((family) => new RegExp(`^get ${family.path}$`)),
  ...CONSOLE_FAMILIES.map((family) => new RegExp(`^get ${family.path}$`)),
  /^post \/console\/access_token$/,
  /^(get|post) \/(withdraw|manage)\//,
];
const isPage = (route: string) => PAGES.some((page) => page.test(route));

describe('GET /.well-known/openapi', () => {
  let server: TestServer;
  let doc: Doc;
  before(async () => {
    server = await startTestServer();
    const res = await fetch(`${server.url}/.well-known/openapi`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    doc = (await res.json()) as Doc;
  });
  after(() => server.dispose());

  it('is a valid OpenAPI 3.1 document', async () => {
    assert.match(doc.openapi, /^3\.1\./);
    const result = await new Validator().validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  });

  it('describes every route the app serves, and serves every route it describes', () => {
    const app = createApp(server.context);
    const served = new Set(
      app.routes
        .filter((r) => r.method !== 'ALL' && r.method !== 'OPTIONS')
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:\w+(\{[^}]*\})?/g, '{}')}`),
    );
    assert.ok(served.size > 200);
    const described = new Set(
      Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path.replace(/\{[^}]+\}/g, '{}')}`)),
    );
    const missing = [...served].filter((r) => !described.has(r) && !isPage(r));
    assert.deepEqual(missing, [], 'served but not described');
    const phantom = [...described].filter((r) => !served.has(r));
    assert.deepEqual(phantom, [], 'described but not served');
  });

  it('declares the two security schemes and a shared error body', () => {
    assert.deepEqual(doc.components.securitySchemes.api_token, {
      ...doc.components.securitySchemes.api_token,
      type: 'http',
      scheme: 'bearer',
    });
    assert.deepEqual(doc.components.securitySchemes.publishable_key, {
      ...doc.components.securitySchemes.publishable_key,
      type: 'apiKey',
      in: 'header',
      name: 'X-Publishable-Key',
    });
    const error = doc.components.schemas.Error as { required: string[] };
    assert.ok(error.required.includes('message'));
    assert.deepEqual((doc.paths['/api/v1/flows']?.post?.responses['422'] as { $ref: string }).$ref, '#/components/responses/Error');
  });

  it('offers Idempotency-Key on every authenticated API write, and on no read', () => {
    const ref = '#/components/parameters/IdempotencyKey';
    const takesKey = (op: { parameters?: { $ref?: string }[] }) => (op.parameters ?? []).some((p) => p.$ref === ref);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item) as [string, { parameters?: { $ref?: string }[]; security?: unknown[] }][]) {
        const write = path.startsWith('/api/v1/') && method !== 'get' && (op.security?.length ?? 0) > 0;
        assert.equal(takesKey(op), write, `${method} ${path}`);
      }
    }
    const parameter = (doc.components as unknown as { parameters: Record<string, { in: string; name: string }> }).parameters.IdempotencyKey;
    assert.deepEqual([parameter?.in, parameter?.name], ['header', 'Idempotency-Key']);
  });

  it('describes every answer below 400 as a success, never as the error body', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses) as [string, { $ref?: string; description: string }][]) {
          if (Number(status) >= 400) continue;
          assert.equal(response.$ref, undefined, `${method} ${path} ${status}`);
          assert.notEqual(response.description, 'Error', `${method} ${path} ${status}`);
        }
      }
    }
    // A notification to the gateway is accepted without a body; an escalated check answers the check itself.
    const accepted = doc.paths['/mcp/v1/agent']?.post?.responses['202'] as { content?: unknown };
    assert.equal(accepted.content, undefined);
    const escalated = doc.paths['/api/v1/authorities/check']?.post?.responses['202'] as { content?: Record<string, unknown> };
    assert.ok(escalated.content?.['application/json']);
  });

  it('describes request bodies as the server reads them (defaults optional, unknown fields refused)', () => {
    const body = doc.paths['/api/v1/api_tokens']?.post?.requestBody as {
      content: { 'application/json': { schema: { properties: { api_token: { required: string[]; additionalProperties: boolean } } } } };
    };
    const inner = body.content['application/json'].schema.properties.api_token;
    assert.deepEqual(inner.required, ['name']);
    assert.equal(inner.additionalProperties, false);
  });

  it('refuses a publishable key (403) on every operation that does not list it', async () => {
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!op.security.length || op.security.some((s) => 'publishable_key' in s)) continue;
        const url = path.replace(/\{[^}]+\}/g, 'x');
        const res = await fetch(`${server.url}${url}`, {
          method: method.toUpperCase(),
          headers: { 'x-publishable-key': server.sandbox.publishable_key, 'content-type': 'application/json' },
          ...(op.requestBody ? { body: '{}' } : {}),
        });
        assert.equal(res.status, 403, `${method} ${path}`);
        assert.ok(((await res.json()) as { message: string }).message);
        checked++;
      }
    }
    assert.ok(checked > 15, `${checked} operations checked`);
  });
});
