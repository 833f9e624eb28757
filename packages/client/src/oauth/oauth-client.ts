// Sign-in for a single-page app, as a public OAuth client of the service: a pushed authorization request with PKCE
// S256, the redirect to the service's sign-in and consent pages, the callback (state, issuer and nonce checked),
// then tokens held in memory, refreshed shortly before they expire, and revoked at sign-out. Built on oauth4webapi,
// so it runs in browsers and in Node alike.
import * as oauth from 'oauth4webapi';
import { SvcConfigurationError } from '../lib/errors.js';
import type { FetchImplementation } from '../lib/options.js';
import { SvcOAuthError, SvcOAuthSignedOutError, SvcOAuthValidationError, toSvcError } from './errors.js';
import { clientOf, discover, issuerUrl, type ClientCredentials, type Issuer } from './issuer.js';
import { pendingStorage, savePendingSignIn, takePendingSignIn, type PendingStorage } from './pending-sign-in.js';
import { fetchUserInfo, refreshTokens, revokeToken, tokenSet, type TokenSet } from './tokens.js';

/** Options of {@link createOAuthClient}. */
export interface OAuthClientOptions {
  /** The service's base URL, which is its OpenID issuer, e.g. `https://svc.example` (http only on localhost). */
  issuer: string | URL;
  /** The public OAuth client's id (`oc_...`), registered with this page's redirect URI. */
  clientId: string;
  /** Where the service sends the person back, exactly as registered, e.g. `https://app.example/callback`. */
  redirectUri: string;
  /** Scopes to ask for, space-separated; default `openid email`. Add `offline_access` for a refresh token. */
  scope?: string;
  /**
   * Holds the PKCE verifier, state and nonce from the redirect to the callback; default the tab's
   * `sessionStorage`, which no other tab or origin reads and which the browser drops with the tab. Pass one
   * outside a browser. Tokens are never written to it.
   */
  storage?: PendingStorage;
  /** Sends the browser to the authorize URL; default `location.assign`. */
  navigate?: (url: string) => void;
  /** `fetch` to use; default the global `fetch`. */
  fetch?: FetchImplementation;
  /** Seconds before expiry at which `accessToken()` refreshes; default 60. */
  refreshLeewaySeconds?: number;
}

/** Per sign-in options. */
export interface SignInOptions {
  /** Scopes for this sign-in instead of the client's. */
  scope?: string;
  /** `consent` asks the person again (it is sent by itself when the scopes include `offline_access`, as OpenID requires). */
  prompt?: 'consent' | 'login';
  /** The email to start the sign-in page with. */
  loginHint?: string;
}

/** The signed-in person's session, as held in memory. */
export interface OAuthSession {
  /** The access token to send as `Authorization: Bearer`; prefer `accessToken()`, which refreshes it in time. */
  readonly accessToken: string;
  /** When the access token expires, in milliseconds since the epoch; undefined when the server did not say. */
  readonly expiresAt: number | undefined;
  /** The scopes granted. */
  readonly scope: readonly string[];
  /** The ID token as received (for an `id_token_hint`), when `openid` was granted. */
  readonly idToken: string | undefined;
  /** The ID token's validated claims: `sub` (the person's stable id); the email is in `userinfo()`. */
  readonly claims: oauth.IDToken | undefined;
  /** Whether a refresh token is held (the scopes included `offline_access`). */
  readonly canRefresh: boolean;
}

/** What the userinfo endpoint says of the person (`sub`, and `email`, `email_verified` with the `email` scope). */
export type UserInfo = oauth.UserInfoResponse;

/** A single-page app's OAuth client of the service. */
export interface OAuthClient {
  /** Starts a sign-in and sends the browser to the service's sign-in page (resolves just before navigating). */
  signIn(options?: SignInOptions): Promise<void>;
  /**
   * Pushes the authorization request and answers the URL to open (`client_id` and `request_uri` only); `signIn`
   * navigates to it. For a popup or an app that navigates by itself. The pending sign-in is stored first.
   */
  authorizationUrl(options?: SignInOptions): Promise<string>;
  /**
   * Completes the sign-in at the redirect URI: checks the state against the pending sign-in (used once), turns
   * the code into tokens with the PKCE verifier, checks the ID token's nonce, and keeps the tokens in memory.
   * Rejects with `SvcOAuthError` (`reason` `access_denied` when the person denied) or `SvcOAuthValidationError`.
   * Remove the code from the address bar afterwards (`history.replaceState`).
   */
  handleCallback(url?: string | URL): Promise<OAuthSession>;
  /** The current session, or undefined when signed out. */
  readonly session: OAuthSession | undefined;
  /**
   * The access token, refreshed first when it expires within the leeway. Rejects with `SvcOAuthSignedOutError`
   * when there is no session, or when it expired and cannot be refreshed. Fits `createClient({ getAccessToken })`.
   */
  accessToken(): Promise<string>;
  /** Refreshes now; concurrent calls share one request (the server rotates refresh tokens and refuses a reused one). */
  refresh(): Promise<OAuthSession>;
  /** Reads the person from the userinfo endpoint, checking that `sub` is the ID token's. */
  userinfo(): Promise<UserInfo>;
  /** Forgets the session and revokes its refresh and access tokens at the service. */
  signOut(): Promise<void>;
}

const DEFAULT_SCOPE = 'openid email';

const scopes = (scope: string): string[] => scope.split(' ').filter(Boolean);

const toSession = (tokens: TokenSet): OAuthSession =>
  Object.freeze({
    accessToken: tokens.accessToken,
    expiresAt: tokens.expiresAt,
    scope: tokens.scope,
    idToken: tokens.idToken,
    claims: tokens.claims,
    canRefresh: tokens.refreshToken !== undefined,
  });

/**
 * Creates the OAuth client of a single-page app: a public client (no secret; PKCE S256 proves the code is
 * this tab's) that pushes every authorization request (PAR), as the service requires. Tokens stay in memory, so
 * a reload signs the person out unless the app signs in again (the service's own session makes that quick);
 * only the short-lived verifier, state and nonce wait in sessionStorage across the redirect.
 *
 * @example
 * ```ts
 * import { createClient } from '@svc/client';
 * import { createOAuthClient } from '@svc/client/oauth';
 *
 * const auth = createOAuthClient({ issuer: 'https://svc.example', clientId: 'oc_...', redirectUri: `${location.origin}/callback` });
 * if (location.pathname === '/callback') {
 *   await auth.handleCallback();
 *   history.replaceState(null, '', '/');
 * } else if (!auth.session) {
 *   await auth.signIn();
 * }
 * const me = await auth.userinfo();
 * const svc = createClient({ baseUrl: 'https://svc.example', getAccessToken: () => auth.accessToken() });
 * ```
 */
export function createOAuthClient(options: OAuthClientOptions): OAuthClient {
  const issuer = issuerUrl(options.issuer);
  if (typeof options.clientId !== 'string' || !options.clientId) throw new SvcConfigurationError('clientId must be the OAuth client id.');
  try {
    new URL(options.redirectUri);
  } catch {
    throw new SvcConfigurationError(`redirectUri must be an absolute URL: ${String(options.redirectUri)}`);
  }
  const leewayMs = (options.refreshLeewaySeconds ?? 60) * 1000;
  if (!(leewayMs >= 0)) throw new SvcConfigurationError('refreshLeewaySeconds must be a number of at least 0.');
  const credentials: ClientCredentials = { clientId: options.clientId };
  const { client, auth } = clientOf(credentials);

  let metadata: Promise<Issuer> | undefined;
  // Discovered once; a failure is not kept, so the next call tries again.
  const server = () =>
    (metadata ??= discover(issuer, options.fetch).catch((err: unknown) => {
      metadata = undefined;
      throw err;
    }));

  let tokens: TokenSet | undefined;
  // Bumped whenever the session is replaced or ended, so a refresh that was under way then cannot bring it back.
  let generation = 0;
  let refreshing: Promise<OAuthSession> | undefined;

  const setTokens = (next: TokenSet | undefined) => {
    tokens = next;
    generation += 1;
    refreshing = undefined;
  };

  async function authorizationUrl(signIn: SignInOptions = {}): Promise<string> {
    const storage = pendingStorage(options.storage);
    const { as, options: requestOptions } = await server();
    const scope = signIn.scope ?? options.scope ?? DEFAULT_SCOPE;
    const pending = {
      state: oauth.generateRandomState(),
      nonce: oauth.generateRandomNonce(),
      verifier: oauth.generateRandomCodeVerifier(),
      redirectUri: options.redirectUri,
      scope,
    };
    const prompt = signIn.prompt ?? (scopes(scope).includes('offline_access') ? 'consent' : undefined);
    const parameters: Record<string, string> = {
      response_type: 'code',
      redirect_uri: pending.redirectUri,
      scope,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      ...(prompt ? { prompt } : {}),
      ...(signIn.loginHint ? { login_hint: signIn.loginHint } : {}),
    };
    let requestUri: string;
    try {
      const res = await oauth.pushedAuthorizationRequest(as, client, auth, parameters, requestOptions);
      ({ request_uri: requestUri } = await oauth.processPushedAuthorizationResponse(as, client, res));
    } catch (err) {
      throw toSvcError(err, 'the pushed authorization request');
    }
    savePendingSignIn(storage, options.clientId, pending);
    // With PAR the front channel carries only the client and the pushed request's reference.
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set('client_id', options.clientId);
    url.searchParams.set('request_uri', requestUri);
    return url.href;
  }

  async function refresh(): Promise<OAuthSession> {
    if (refreshing) return refreshing;
    const current = tokens;
    if (!current) throw new SvcOAuthSignedOutError('Not signed in.');
    if (!current.refreshToken) throw new SvcOAuthSignedOutError('This session has no refresh token (ask for offline_access).');
    const started = generation;
    const run = (async () => {
      try {
        const response = await refreshTokens(await server(), credentials, current.refreshToken!);
        if (generation !== started) throw new SvcOAuthSignedOutError('The session ended while it was being refreshed.');
        setTokens(tokenSet(response, current));
        return toSession(tokens!);
      } catch (err) {
        // The refresh token was refused (revoked, expired, reused): the session is over.
        if (err instanceof SvcOAuthError && err.reason === 'invalid_grant' && generation === started) {
          setTokens(undefined);
          throw new SvcOAuthSignedOutError(`The session ended: ${err.message}`, { status: err.status, reason: err.reason, cause: err });
        }
        throw err;
      } finally {
        if (generation === started) refreshing = undefined;
      }
    })();
    refreshing = run;
    return run;
  }

  async function accessToken(): Promise<string> {
    const current = tokens;
    if (!current) throw new SvcOAuthSignedOutError('Not signed in.');
    const now = Date.now();
    if (current.expiresAt === undefined || now < current.expiresAt - leewayMs) return current.accessToken;
    if (current.refreshToken) return (await refresh()).accessToken;
    if (now < current.expiresAt) return current.accessToken;
    throw new SvcOAuthSignedOutError('The access token expired and there is no refresh token: sign in again.');
  }

  return {
    async signIn(signIn) {
      const location = (globalThis as { location?: Location }).location;
      const navigate = options.navigate ?? (location && ((to: string) => location.assign(to)));
      if (!navigate) throw new SvcConfigurationError('There is no location to navigate: pass `navigate`, or use authorizationUrl().');
      navigate(await authorizationUrl(signIn));
    },

    authorizationUrl,

    async handleCallback(url) {
      const storage = pendingStorage(options.storage);
      const href = url ?? (globalThis as { location?: Location }).location?.href;
      if (href === undefined) throw new SvcConfigurationError('handleCallback needs the callback URL here (there is no location).');
      const at = new URL(href);
      const pending = takePendingSignIn(storage, options.clientId);
      if (!pending)
        throw new SvcOAuthValidationError('No sign-in is pending in this tab for this callback (it was used, or started elsewhere).', {
          reason: 'no_pending_sign_in',
        });
      // Checked here first to name the failure; oauth4webapi checks it again with the issuer (`iss`).
      if (at.searchParams.get('state') !== pending.state) {
        throw new SvcOAuthValidationError('The callback does not belong to the sign-in this tab started (state mismatch).', {
          reason: 'state_mismatch',
        });
      }
      const { as, options: requestOptions } = await server();
      try {
        const params = oauth.validateAuthResponse(as, client, at.searchParams, pending.state);
        const res = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          auth,
          params,
          pending.redirectUri,
          pending.verifier,
          requestOptions,
        );
        const response = await oauth.processAuthorizationCodeResponse(as, client, res, {
          expectedNonce: pending.nonce,
          requireIdToken: scopes(pending.scope).includes('openid'),
        });
        setTokens(tokenSet(response));
      } catch (err) {
        throw toSvcError(err, 'the sign-in callback');
      }
      return toSession(tokens!);
    },

    get session() {
      return tokens && toSession(tokens);
    },

    accessToken,

    refresh,

    async userinfo() {
      const token = await accessToken();
      return fetchUserInfo(await server(), credentials, token, tokens?.claims?.sub);
    },

    async signOut() {
      const current = tokens;
      setTokens(undefined);
      if (!current) return;
      const found = await server();
      // The refresh token first: it is what outlives the page.
      if (current.refreshToken) await revokeToken(found, credentials, current.refreshToken, 'refresh_token');
      await revokeToken(found, credentials, current.accessToken, 'access_token');
    },
  };
}
