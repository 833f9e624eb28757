// Consent captured in the organisation's own form: the render endpoint (consent field), captures (field and
// snippet), committing a capture token (authorize), and form platform connections with their signed webhook.
import { routes } from '../../infra/http/route.js';
import { formPlatformRoutes } from '../form-platforms/routes.js';
import { renderRoutes } from '../render/routes.js';
import { captureRoutes } from './routes.js';

/** Mounts the render, capture, authorize and form platform routes. */
export const capturesModule = routes((app, ctx) => {
  renderRoutes(app, ctx);
  captureRoutes(app, ctx);
  formPlatformRoutes(app, ctx);
});
