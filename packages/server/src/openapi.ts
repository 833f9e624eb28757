// The OpenAPI 3.1 document at /.well-known/openapi: every route's own definition.
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Env, ServerContext } from './infra/context.js';
import { buildOpenApi, declaredRoutes } from './infra/http/openapi.js';
import { definition } from './infra/http/route.js';
import type { Operation } from './infra/operations.js';

/** Operation lists of the modules whose routes do not declare themselves yet. */
export const operationLists: Operation[][] = [];

/** The app's routes as the document describes them: declared routes, then the remaining descriptor lists. */
export function documentedRoutes(app: OpenAPIHono<Env>) {
  const legacy = operationLists.flat().map((op) => definition({ ...op, auth: undefined }, [], op.auth));
  return [...declaredRoutes(app), ...legacy];
}

/** `GET /.well-known/openapi`: the document, built once per server from the app's routes. */
export function serveOpenApi(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  let cached: string | undefined;
  app.get('/.well-known/openapi', (c) => {
    cached ??= JSON.stringify(buildOpenApi(documentedRoutes(app), ctx.baseUrl || undefined));
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(cached, 200, { 'Content-Type': 'application/json' });
  });
}
