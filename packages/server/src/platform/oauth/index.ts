// The OpenID provider as one route module, and what other modules need of it.
export { oauthClientRoutes } from './clients.js';
export { OAUTH_SCOPES } from './published.js';
export { oauthProvider, oauthRoutes } from './routes.js';
