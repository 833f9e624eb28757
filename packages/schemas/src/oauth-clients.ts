import { z } from 'zod/mini';
import { dateTime, listOf } from './common.js';

/** The grants an OAuth client may be allowed: code, refresh, device authorization (RFC 8628), token exchange (RFC 8693). */
export const oauthGrantType = z.enum([
  'authorization_code',
  'refresh_token',
  'urn:ietf:params:oauth:grant-type:device_code',
  'urn:ietf:params:oauth:grant-type:token-exchange',
]);

/** How the provider signs a client's ID tokens: ES256 (the default) or RS256 (OpenID Connect Core 1.0 section 15.1). */
export const idTokenSigningAlg = z.enum(['ES256', 'RS256']);

/**
 * An OAuth client of an application. `confidential` clients authenticate at the token endpoint with their secret
 * (`client_secret_basic` or `client_secret_post`); `public` ones (single-page apps, the command line) with PKCE alone.
 * `client_secret` is present only in the answers of create and rotate.
 */
export const oauthClient = z.object({
  client_id: z.string(),
  application_id: z.string(),
  name: z.string(),
  client_type: z.enum(['confidential', 'public']),
  token_endpoint_auth_method: z.enum(['client_secret_basic', 'client_secret_post', 'none']),
  redirect_uris: z.array(z.string()),
  grant_types: z.array(oauthGrantType),
  id_token_signed_response_alg: idTokenSigningAlg,
  client_secret: z.optional(z.string()),
  created_at: dateTime(),
  secret_rotated_at: z.nullable(dateTime()),
});
export type OAuthClient = z.infer<typeof oauthClient>;

/**
 * `POST /api/v1/applications/{id}/oauth_clients`. `redirect_uris` are full URLs, registered independently of the
 * allowed origins (https, or http on localhost and 127.0.0.1 for development applications; a custom scheme for
 * native apps), each exactly as it parses (no whitespace, control characters or wildcards). The auth method follows
 * the type unless given: `client_secret_basic` or `none`. ID tokens are signed ES256 unless RS256 is asked for.
 */
export const createOAuthClientRequest = z.strictObject({
  oauth_client: z.strictObject({
    name: z.string().check(z.minLength(1), z.maxLength(200)),
    client_type: z.enum(['confidential', 'public']),
    token_endpoint_auth_method: z.optional(z.enum(['client_secret_basic', 'client_secret_post', 'none'])),
    redirect_uris: z.array(z.string().check(z.minLength(1), z.maxLength(2000))).check(z.maxLength(20)),
    grant_types: z.optional(z.array(oauthGrantType).check(z.minLength(1))),
    id_token_signed_response_alg: z.optional(idTokenSigningAlg),
  }),
});
export type CreateOAuthClientRequest = z.input<typeof createOAuthClientRequest>;

/** `{oauth_client}` envelope. */
export const oauthClientEnvelope = z.object({ oauth_client: oauthClient });
/** `{oauth_clients: [...], next_cursor}`. */
export const oauthClientList = listOf('oauth_clients', oauthClient);
