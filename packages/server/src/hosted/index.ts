// What a person's browser opens: the hosted decision pages and the playground at `/` (the script-tag SDK's files
// are their own module, hosted/sdk).
import { routes } from '../infra/http/route.js';
import { pageRoutes } from './pages/routes.js';
import { playgroundRoutes } from './playground/routes.js';

/** Mounts the hosted pages and the playground. */
export const hostedRoutes = routes((app, ctx) => {
  pageRoutes(app, ctx);
  playgroundRoutes(app, ctx);
});
