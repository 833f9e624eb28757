// The playground's "Sign in with the service": the sandbox's confidential OAuth client, run by this server with
// oauth4webapi (an independent OpenID client) as an application's backend would run it. It pushes the request
// (PAR) with PKCE S256, sends the browser to the hosted sign-in and consent pages, and on the callback checks state
// and nonce, exchanges the code, verifies the ID token against the JWKS, and calls userinfo and `/api/v1/me` with
// the access token; the person can then refresh and revoke. Tokens stay on this server, in memory, per browser.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import type { Env, ServerContext } from '../../infra/context.js';
import { escapeHtml } from '../pages/render.js';
import { PLAYGROUND_CALLBACK } from '../../platform/oauth/sandbox.js';

/** What the page needs of the playground's own helpers. */
export interface PlaygroundPages {
  sameOriginForm: MiddlewareHandler<Env>;
  result(c: Context<Env>, status: 200 | 400, title: string, body: string): Response;
}

interface Pending {
  verifier: string;
  nonce: string;
  at: number;
}

interface Signed {
  tokens: oauth.TokenEndpointResponse;
  sub: string;
}

const PENDING_MS = 10 * 60_000;
const COOKIE = 'svc_playground_oauth';

/** The section of the playground page that starts a sign-in. */
export const OAUTH_SECTION = `<section aria-labelledby="oauth-heading">
<h2 id="oauth-heading">Sign in with the service: OAuth 2.0 and OpenID Connect</h2>
<p>The sandbox's OAuth client pushes an authorization request (PAR) with PKCE, you sign in and consent on the
service's hosted pages, and this server receives the code, verifies the ID token against the JWKS and calls the API
with the access token.</p>
<form method="post" action="/playground/oauth/start"><button type="submit">Sign in with the service</button></form>
</section>`;

/** Mounts `/playground/oauth/*`. */
export function playgroundOAuthRoutes(app: Hono<Env>, ctx: ServerContext, pages: PlaygroundPages): void {
  const pending = new Map<string, Pending>();
  const sessions = new Map<string, Signed>();
  let discovered: oauth.AuthorizationServer | undefined;
  // Plain http only where the server itself is served so (loopback); read per call, as the URL is known late.
  const insecure = () => ({ [oauth.allowInsecureRequests]: ctx.baseUrl.startsWith('http:') });

  const client = () => {
    // The secret lives only in sandbox.json, like the sandbox API token.
    const sandbox = JSON.parse(readFileSync(join(ctx.dataDir, 'sandbox.json'), 'utf8')) as {
      oauth_client_id: string;
      oauth_client_secret: string;
    };
    return { client: { client_id: sandbox.oauth_client_id }, auth: oauth.ClientSecretBasic(sandbox.oauth_client_secret) };
  };
  const server = async () => {
    const issuer = new URL(ctx.baseUrl);
    discovered ??= await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure()));
    return discovered;
  };
  const redirectUri = () => `${ctx.baseUrl}${PLAYGROUND_CALLBACK}`;
  const me = async (token: string) => {
    const res = await fetch(`${ctx.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const signed = (c: Context<Env>) => {
    const id = getCookie(c, COOKIE);
    return id ? sessions.get(id) : undefined;
  };

  app.post('/playground/oauth/start', pages.sameOriginForm, async (c) => {
    const as = await server();
    const { client: cl, auth } = client();
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const now = ctx.clock.now();
    for (const [key, value] of pending) if (now - value.at > PENDING_MS) pending.delete(key);
    pending.set(state, { verifier, nonce, at: now });
    const pushed = await oauth.processPushedAuthorizationResponse(
      as,
      cl,
      await oauth.pushedAuthorizationRequest(
        as,
        cl,
        auth,
        {
          redirect_uri: redirectUri(),
          response_type: 'code',
          scope: 'openid email offline_access',
          prompt: 'consent',
          state,
          nonce,
          code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
        },
        insecure(),
      ),
    );
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set('client_id', cl.client_id);
    url.searchParams.set('request_uri', pushed.request_uri);
    return c.redirect(url.href, 303);
  });

  app.get(PLAYGROUND_CALLBACK, async (c) => {
    const as = await server();
    const { client: cl, auth } = client();
    const state = c.req.query('state') ?? '';
    const started = pending.get(state);
    pending.delete(state);
    if (!started)
      return pages.result(
        c,
        400,
        'Sign-in did not finish',
        '<p role="alert">This sign-in was not started here, or it expired. Start again.</p>',
      );
    let signedIn: Signed;
    try {
      const params = oauth.validateAuthResponse(as, cl, new URL(c.req.url), state);
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        cl,
        await oauth.authorizationCodeGrantRequest(as, cl, auth, params, redirectUri(), started.verifier, insecure()),
        { expectedNonce: started.nonce, requireIdToken: true },
      );
      // oauth4webapi checks the ID token's claims; its signature is checked here, against the published JWKS.
      const { payload } = await jwtVerify(tokens.id_token!, ctx.keys.keySet, { issuer: as.issuer, audience: cl.client_id });
      signedIn = { tokens, sub: String(payload.sub) };
    } catch (error) {
      const message =
        error instanceof oauth.AuthorizationResponseError ? `${error.error}: ${error.error_description ?? ''}` : String(error);
      return pages.result(c, 400, 'Sign-in did not finish', `<p role="alert">${escapeHtml(message)}</p>`);
    }
    const id = randomBytes(24).toString('base64url');
    sessions.set(id, signedIn);
    setCookie(c, COOKIE, id, { httpOnly: true, sameSite: 'Lax', path: '/playground/oauth' });
    const info = await oauth.processUserInfoResponse(
      as,
      cl,
      signedIn.sub,
      await oauth.userInfoRequest(as, cl, signedIn.tokens.access_token, insecure()),
    );
    const who = await me(signedIn.tokens.access_token);
    return pages.result(
      c,
      200,
      'Signed in',
      `<p>The ID token's signature verified against <code>/.well-known/jwks.json</code>.</p>
<dl>
<dt>Subject (<code>sub</code>)</dt><dd id="oauth-sub">${escapeHtml(signedIn.sub)}</dd>
<dt>Email (userinfo)</dt><dd id="oauth-email">${escapeHtml(String(info.email ?? ''))}</dd>
<dt><code>/api/v1/me</code></dt><dd id="oauth-me">${who.status} ${escapeHtml(String(who.body.kind ?? ''))} ${escapeHtml(String(who.body.person?.email ?? ''))}</dd>
<dt>Scopes</dt><dd id="oauth-scope">${escapeHtml(signedIn.tokens.scope ?? '')}</dd>
<dt>Refresh token</dt><dd id="oauth-refresh">${signedIn.tokens.refresh_token ? 'issued' : 'none'}</dd>
</dl>
${actions}`,
    );
  });

  app.post('/playground/oauth/refresh', pages.sameOriginForm, async (c) => {
    const current = signed(c);
    if (!current?.tokens.refresh_token) return pages.result(c, 400, 'Not signed in', '<p role="alert">Sign in first.</p>');
    const as = await server();
    const { client: cl, auth } = client();
    try {
      current.tokens = await oauth.processRefreshTokenResponse(
        as,
        cl,
        await oauth.refreshTokenGrantRequest(as, cl, auth, current.tokens.refresh_token, insecure()),
      );
    } catch (error) {
      return pages.result(c, 400, 'Not refreshed', `<p role="alert">${escapeHtml(String(error))}</p>`);
    }
    const who = await me(current.tokens.access_token);
    return pages.result(
      c,
      200,
      'Refreshed',
      `<p>New tokens from the refresh grant.</p>
<dl><dt><code>/api/v1/me</code> with the new access token</dt><dd id="oauth-me">${who.status} ${escapeHtml(String(who.body.person?.email ?? ''))}</dd></dl>
${actions}`,
    );
  });

  app.post('/playground/oauth/revoke', pages.sameOriginForm, async (c) => {
    const current = signed(c);
    if (!current) return pages.result(c, 400, 'Not signed in', '<p role="alert">Sign in first.</p>');
    const as = await server();
    const { client: cl, auth } = client();
    for (const token of [current.tokens.access_token, current.tokens.refresh_token]) {
      if (token) await oauth.processRevocationResponse(await oauth.revocationRequest(as, cl, auth, token, insecure()));
    }
    sessions.delete(getCookie(c, COOKIE)!);
    const who = await me(current.tokens.access_token);
    return pages.result(
      c,
      200,
      'Revoked',
      `<p>Both tokens were revoked at <code>/oauth/revoke</code>.</p>
<dl><dt><code>/api/v1/me</code> with the revoked access token</dt><dd id="oauth-me">${who.status}</dd></dl>`,
    );
  });
}

const actions = `<form method="post" action="/playground/oauth/refresh"><button type="submit">Refresh the tokens</button></form>
<form method="post" action="/playground/oauth/revoke"><button type="submit">Revoke</button></form>`;
