/**
 * Sign-in with the service for single-page apps (and Node): `createOAuthClient` is a public OAuth client built
 * on oauth4webapi — pushed authorization requests, PKCE S256, state and nonce checks, tokens in memory only.
 * @module @svc/client/oauth
 */
export { createOAuthClient } from './oauth-client.js';
export type { OAuthClient, OAuthClientOptions, OAuthSession, SignInOptions, UserInfo } from './oauth-client.js';
export type { PendingStorage } from './pending-sign-in.js';
export { SvcOAuthError, SvcOAuthSignedOutError, SvcOAuthValidationError } from './errors.js';
export type { AnyOAuthError } from './errors.js';
