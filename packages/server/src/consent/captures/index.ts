// Consent captured in the organisation's own form: the render endpoint (consent field), captures (field and
// snippet), committing a capture token (authorize), and form platform connections with their signed webhook.
import type { ServerContext } from '../../infra/context.js';
import { routes } from '../../infra/http/route.js';
import type { Operation } from '../../infra/operations.js';
import { formPlatformOperations, formPlatformRoutes } from '../form-platforms/routes.js';
import { renderOperations, renderRoutes } from '../render/routes.js';
import { captureOperations, captureRoutes } from './routes.js';

/** Mounts the render, capture, authorize and form platform routes. */
export const capturesModule = routes((app, ctx) => {
  renderRoutes(app, ctx);
  captureRoutes(app, ctx);
  formPlatformRoutes(app, ctx);
});

/** The OpenAPI descriptors of everything {@link capturesModule} mounts. */
export const capturesOperations: Operation[] = [...renderOperations, ...captureOperations, ...formPlatformOperations];
