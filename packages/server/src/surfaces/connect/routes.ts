// Connect: `/api/v1/accounts` (the caller's account and its users; API tokens), `/api/v1/connections` (a person and
// an application: the person's own with their access token, the account's with an API token), `/api/v1/device_links`
// (pairing a person's second device by a short code; the person's access token on both devices) and
// `/api/v1/trust_pairings` (what a claimed link made: the person's own, or the account's with an API token).
import { routes } from '../../infra/http/route.js';
import { accountRoutes } from './accounts-routes.js';
import { followConsents } from './connections.js';
import { connectionRoutes } from './connections-routes.js';
import { deviceLinkRoutes, trustPairingRoutes } from './devices-routes.js';

/** The Connect routes; connections follow consents from here on. */
export const connectRoutes = routes((app, ctx) => {
  followConsents(ctx);
  app.route('/', accountRoutes(ctx));
  app.route('/', connectionRoutes(ctx));
  app.route('/', deviceLinkRoutes(ctx));
  app.route('/', trustPairingRoutes(ctx));
});
