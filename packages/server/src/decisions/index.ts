// Decisions as one route module: the API (and its deprecated alias), the participant API, the hosted pages (with the
// withdrawal entry of an approval's authorization record) and the playground at `/`.
import type { Hono } from 'hono';
import { authorizationPageRoutes } from '../authorizations/routes.js';
import type { Env, ServerContext } from '../lib/context.js';
import { pageRoutes } from '../pages/routes.js';
import { playgroundRoutes } from '../playground/routes.js';
import { participantRoutes } from './participant.js';
import { decisionRoutes } from './routes.js';

export { decisionOperations } from './routes.js';

/** Mounts everything decisions need. */
export function decisionsModule(app: Hono<Env>, ctx: ServerContext): void {
  decisionRoutes(app, ctx);
  participantRoutes(app, ctx);
  pageRoutes(app, ctx);
  authorizationPageRoutes(app, ctx);
  playgroundRoutes(app, ctx);
}
