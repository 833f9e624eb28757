import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { authenticate } from './lib/auth.js';
import type { Env, ServerContext } from './lib/context.js';
import { ApiError, onError, onNotFound } from './lib/errors.js';
import { decisionsModule } from './decisions/index.js';
import { openApiRoutes } from './openapi.js';
import { allowedOriginRoutes } from './routes/allowed-origins.js';
import { apiTokenRoutes } from './routes/api-tokens.js';
import { applicationRoutes } from './routes/applications.js';
import { corsRoutes } from './routes/cors.js';
import { meRoutes } from './routes/me.js';
import { systemRoutes } from './routes/system.js';
import { flowRoutes } from './flows/routes.js';

/** A route module adds its routes to the app; API routes sit under `/api/v1` behind authentication. */
export type RouteModule = (app: Hono<Env>, ctx: ServerContext) => void;

/** Route modules in mounting order. Add a module with one line here. */
const modules: RouteModule[] = [
  corsRoutes, // first: its middleware must run before every other module's handlers
  systemRoutes,
  openApiRoutes,
  meRoutes,
  apiTokenRoutes,
  applicationRoutes,
  allowedOriginRoutes,
  flowRoutes,
  decisionsModule, // decisions API + consent_sessions alias, participant API, hosted pages, playground at /
];

/** Default limit for request bodies; routes that take more (imports) set their own. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Builds the Hono app for one server context. */
export function createApp(ctx: ServerContext): Hono<Env> {
  const app = new Hono<Env>();
  app.onError(onError);
  app.notFound(onNotFound);
  app.use('/api/*', bodyLimit({
    maxSize: DEFAULT_BODY_LIMIT,
    onError: (c) => {
      // The rest of the body is never read, so the connection cannot carry another request.
      c.header('Connection', 'close');
      throw new ApiError(413, 'Request body is too large.', 'payload_too_large');
    },
  }));
  app.use('/api/v1/*', async (c, next) => {
    if (c.req.method === 'OPTIONS') return next(); // preflights carry no credentials
    return authenticate(ctx)(c, next);
  });
  for (const mount of modules) mount(app, ctx);
  return app;
}
