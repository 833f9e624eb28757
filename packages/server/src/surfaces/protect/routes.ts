// Protect over HTTP: `/api/v1/policy_templates` (the static catalogue), `/api/v1/policies`, `/api/v1/data_requests`,
// `/api/v1/data_licenses`, `/api/v1/data_offers`, `/api/v1/portability_transfers`. API tokens act for the
// organisation (`read` to look, `write` to change); a person's access token acts for the person on what is theirs
// (their policies, requests, offers and transfers); publishable keys, agent tokens and delegates are refused.
// Another account's resource, or another person's, is a 404 as if it did not exist.
import { routes } from '../../infra/http/route.js';
import { dataLicenseRoutes } from './data-licenses-routes.js';
import { dataOfferRoutes } from './data-offers-routes.js';
import { dataRequestRoutes } from './data-requests-routes.js';
import { policyRoutes } from './policies-routes.js';
import { portabilityRoutes } from './portability-routes.js';

/** Every Protect route. */
export const protectRoutes = routes((app, ctx) => {
  app.route('/', policyRoutes(ctx));
  app.route('/', dataRequestRoutes(ctx));
  app.route('/', dataLicenseRoutes(ctx));
  app.route('/', dataOfferRoutes(ctx));
  app.route('/', portabilityRoutes(ctx));
});
