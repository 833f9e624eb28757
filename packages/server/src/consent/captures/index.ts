// Consent captured in the organisation's own form: the render endpoint (consent field), captures (field and
// snippet), committing a capture token (authorize), and form platform connections with their signed webhook.
import type { Hono } from 'hono';
import type { Env, ServerContext } from '../../infra/context.js';
import type { Operation } from '../../infra/operations.js';
import { formPlatformOperations, formPlatformRoutes } from '../form-platforms/routes.js';
import { renderOperations, renderRoutes } from '../render/routes.js';
import { captureOperations, captureRoutes } from './routes.js';

/** Mounts the render, capture, authorize and form platform routes. */
export function capturesModule(app: Hono<Env>, ctx: ServerContext): void {
  renderRoutes(app, ctx);
  captureRoutes(app, ctx);
  formPlatformRoutes(app, ctx);
}

/** The OpenAPI descriptors of everything {@link capturesModule} mounts. */
export const capturesOperations: Operation[] = [...renderOperations, ...captureOperations, ...formPlatformOperations];
