// Tokens as the OAuth helpers hold them, and the grants they share (refresh, revocation): the single-page app
// helper keeps a TokenSet in memory, the command line in its credentials file.
import * as oauth from 'oauth4webapi';
import { toSvcError } from './errors.js';
import { clientOf, type ClientCredentials, type Issuer } from './issuer.js';

/** What a token response gave, with the expiry made absolute. */
export interface TokenSet {
  /** The access token (opaque). */
  readonly accessToken: string;
  /** The refresh token, when `offline_access` was granted. */
  readonly refreshToken: string | undefined;
  /** The ID token as received, when `openid` was granted. */
  readonly idToken: string | undefined;
  /** The ID token's claims, validated by oauth4webapi (`sub`, `email`, ...). */
  readonly claims: oauth.IDToken | undefined;
  /** When the access token expires, in milliseconds since the epoch; undefined when the server did not say. */
  readonly expiresAt: number | undefined;
  /** The scopes granted. */
  readonly scope: readonly string[];
}

/**
 * A TokenSet from a processed token response. A refresh answer may leave out the refresh token (it was not
 * rotated), the ID token or the scope: those of `previous` stay.
 */
export function tokenSet(response: oauth.TokenEndpointResponse, previous?: TokenSet, now = Date.now()): TokenSet {
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token ?? previous?.refreshToken,
    idToken: response.id_token ?? previous?.idToken,
    claims: oauth.getValidatedIdTokenClaims(response) ?? previous?.claims,
    expiresAt: typeof response.expires_in === 'number' ? now + response.expires_in * 1000 : undefined,
    scope: response.scope !== undefined ? response.scope.split(' ').filter(Boolean) : (previous?.scope ?? []),
  };
}

/** Exchanges `refreshToken` for new tokens. The server rotates a public client's refresh token: keep the new one. */
export async function refreshTokens(
  issuer: Issuer,
  credentials: ClientCredentials,
  refreshToken: string,
): Promise<oauth.TokenEndpointResponse> {
  const { client, auth } = clientOf(credentials);
  try {
    const res = await oauth.refreshTokenGrantRequest(issuer.as, client, auth, refreshToken, issuer.options);
    return await oauth.processRefreshTokenResponse(issuer.as, client, res);
  } catch (err) {
    throw toSvcError(err, 'the refresh token request');
  }
}

/** Revokes `token` (RFC 7009); an unknown or already revoked token is no error. */
export async function revokeToken(
  issuer: Issuer,
  credentials: ClientCredentials,
  token: string,
  hint: 'refresh_token' | 'access_token',
): Promise<void> {
  const { client, auth } = clientOf(credentials);
  try {
    const res = await oauth.revocationRequest(issuer.as, client, auth, token, {
      ...issuer.options,
      additionalParameters: { token_type_hint: hint },
    });
    await oauth.processRevocationResponse(res);
  } catch (err) {
    throw toSvcError(err, 'the revocation request');
  }
}

/** Reads the person from the userinfo endpoint; `expectedSubject` (the ID token's `sub`) must match when given. */
export async function fetchUserInfo(
  issuer: Issuer,
  credentials: ClientCredentials,
  accessToken: string,
  expectedSubject?: string,
): Promise<oauth.UserInfoResponse> {
  const { client } = clientOf(credentials);
  try {
    const res = await oauth.userInfoRequest(issuer.as, client, accessToken, issuer.options);
    return await oauth.processUserInfoResponse(issuer.as, client, expectedSubject ?? oauth.skipSubjectCheck, res);
  } catch (err) {
    throw toSvcError(err, 'the userinfo request');
  }
}
