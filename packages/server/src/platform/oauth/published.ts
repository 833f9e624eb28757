// What the rest of the service names of the OpenID provider (its scopes, its key set's path) without loading it:
// oidc-provider and its Koa stack load with the provider itself, on the first request that needs it (./routes.ts).

/**
 * Every scope the provider grants: OpenID's, the two an API token may also hold as permissions, and `inbox:read` (the
 * person's Trust Inbox, what every organisation asks of them: only a person can allow an application to read it).
 */
export const OAUTH_SCOPES = [
  'openid',
  'profile',
  'email',
  'offline_access',
  'audit:verify',
  'disclosures:write',
  'inbox:read',
  'records:read',
  'records:write',
  'data_requests:read',
  'data_requests:write',
  'delegations:read',
  'delegations:write',
  'credentials:read',
  'credentials:write',
  'agreements:read',
  'agreements:write',
  'connections:read',
  'connections:write',
  'receipts:read',
  'vouches:read',
  'vouches:write',
  'data_offers:read',
  'data_offers:write',
] as const;
/** Where the provider publishes the public keys of every key it signs with (its JWKS). */
export const PROVIDER_JWKS_PATH = '/oauth/jwks';
