// createOAuthClient in Node against a real reference server, as a public client: PAR + PKCE, the hosted pages
// walked by a person's browser, the callback's checks, refresh (rotated, shared by concurrent callers), userinfo,
// sign-out's revocation, and its use as createClient's getAccessToken. The same helper runs in Chromium in
// oauth-client.browser.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from '../lib/client.js';
import { SvcConfigurationError, SvcPermissionError } from '../lib/errors.js';
import { PersonBrowser, registerPublicClient } from '../testing/oauth.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { SvcOAuthError, SvcOAuthSignedOutError, SvcOAuthValidationError } from './errors.js';
import { createOAuthClient, type OAuthClientOptions } from './oauth-client.js';
import { pendingKey, type PendingStorage } from './pending-sign-in.js';

const redirectUri = 'http://localhost:5173/callback';

/** sessionStorage's stand-in, visible to the test. */
class MemoryStorage implements PendingStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

describe('createOAuthClient (Node, real server)', () => {
  let server: TestServer;
  let clientId: string;

  before(async () => {
    server = await startTestServer();
    clientId = await registerPublicClient(server, [redirectUri], 'Single-page app');
  });
  after(() => server.dispose());

  /** A fetch that records the refresh tokens the token endpoint hands out (the helper never shows them). */
  const tokenSpy = (seen: string[]) => async (url: string, init: RequestInit) => {
    const res = await fetch(url, init);
    if (new URL(url).pathname === '/oauth/token' && res.ok)
      seen.push(((await res.clone().json()) as { refresh_token: string }).refresh_token);
    return res;
  };

  /** A helper whose `signIn` records the URL instead of navigating. */
  function app(options: Partial<OAuthClientOptions> = {}) {
    const storage = new MemoryStorage();
    const visited: string[] = [];
    const auth = createOAuthClient({
      issuer: server.url,
      clientId,
      redirectUri,
      scope: 'openid email offline_access',
      storage,
      navigate: (url) => visited.push(url),
      ...options,
    });
    return { auth, storage, visited };
  }

  /** signIn, the person on the hosted pages, then the callback: the signed-in helper. */
  async function signedIn(email = 'ada@example.com', options: Partial<OAuthClientOptions> = {}) {
    const made = app(options);
    await made.auth.signIn();
    const back = await new PersonBrowser(server.url).authorize(made.visited[0]!, email);
    const session = await made.auth.handleCallback(back);
    return { ...made, session, back };
  }

  it('signs in with PAR (client_id and request_uri only on the front channel) and keeps the tokens in memory only', async () => {
    const { auth, storage, visited, session, back } = await signedIn('Ada@Example.com');
    const authorize = new URL(visited[0]!);
    assert.equal(authorize.origin + authorize.pathname, `${server.url}/oauth/authorize`);
    assert.deepEqual([...authorize.searchParams.keys()].sort(), ['client_id', 'request_uri']);
    assert.equal(back.origin + back.pathname, redirectUri);
    assert.match(session.accessToken, /\S{20,}/);
    assert.equal(session.canRefresh, true);
    assert.deepEqual([...session.scope].sort(), ['email', 'offline_access', 'openid']);
    assert.match(String(session.claims?.sub), /^prs_/);
    assert.ok(session.expiresAt! > Date.now() + 50 * 60_000);
    assert.equal(storage.items.size, 0, 'the pending sign-in is used once and removed');
    assert.equal(auth.session?.accessToken, session.accessToken);

    const info = await auth.userinfo();
    assert.equal(info.sub, session.claims?.sub);
    assert.equal(info.email, 'ada@example.com');
  });

  it("is the access token provider of createClient: /api/v1/me answers the person; an organisation's endpoint refuses them", async () => {
    const { auth, session } = await signedIn('grace@example.com');
    const svc = createClient({ baseUrl: server.url, getAccessToken: () => auth.accessToken() });
    const me = await svc.me();
    assert.equal(me.kind, 'person');
    if (me.kind !== 'person') return;
    assert.deepEqual(me.person, { id: session.claims?.sub, email: 'grace@example.com' });
    assert.equal(me.client.client_id, clientId);
    await assert.rejects(
      svc.flows.list().page(),
      (err: unknown) => err instanceof SvcPermissionError && err.reason === 'person_token_not_allowed',
    );
  });

  it('refreshes within the leeway before expiry, sharing one request between concurrent callers (the refresh token rotates)', async () => {
    // A leeway longer than the token's life makes every accessToken() call refresh.
    const { auth, session } = await signedIn('linus@example.com', { refreshLeewaySeconds: 7200 });
    const [a, b, c] = await Promise.all([auth.accessToken(), auth.accessToken(), auth.refresh()]);
    assert.notEqual(a, session.accessToken);
    assert.equal(a, b);
    assert.equal(c.accessToken, a);
    // A reused refresh token would have ended the grant: the next refresh working shows only one was sent.
    const again = await auth.refresh();
    assert.notEqual(again.accessToken, a);
    assert.equal(again.claims?.sub, session.claims?.sub, 'the claims stay across refreshes');
    const me = await createClient({ baseUrl: server.url, accessToken: again.accessToken }).me();
    assert.equal(me.kind, 'person');
  });

  it('signs out: both tokens revoked at the service, the session forgotten', async () => {
    const refreshTokens: string[] = [];
    const { auth, session } = await signedIn('barbara@example.com', { fetch: tokenSpy(refreshTokens) });
    await auth.signOut();
    assert.equal(auth.session, undefined);
    await assert.rejects(auth.accessToken(), SvcOAuthSignedOutError);
    const res = await fetch(`${server.url}/api/v1/me`, { headers: { authorization: `Bearer ${session.accessToken}` } });
    assert.equal(res.status, 401);
    const reused = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, grant_type: 'refresh_token', refresh_token: refreshTokens[0]! }),
    });
    assert.equal(((await reused.json()) as { error: string }).error, 'invalid_grant');
  });

  it('ends the session when the refresh token is refused, with SvcOAuthSignedOutError; a revoked access token is invalid_token', async () => {
    // Revoked behind the helper's back, as another tab's sign-out or an administrator would.
    const refreshTokens: string[] = [];
    const { auth, session } = await signedIn('edsger@example.com', { fetch: tokenSpy(refreshTokens) });
    const revoke = (token: string) =>
      fetch(`${server.url}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: clientId, token }),
      });
    assert.equal((await revoke(session.accessToken)).status, 200);
    await assert.rejects(
      auth.userinfo(),
      (err: unknown) => err instanceof SvcOAuthError && err.reason === 'invalid_token' && err.status === 401,
    );

    assert.equal((await revoke(refreshTokens[0]!)).status, 200);
    await assert.rejects(auth.refresh(), (err: unknown) => err instanceof SvcOAuthSignedOutError && err.reason === 'invalid_grant');
    assert.equal(auth.session, undefined);
    await assert.rejects(auth.accessToken(), SvcOAuthSignedOutError);
  });

  it('refuses a callback whose state is not the pending sign-in, and one with no pending sign-in', async () => {
    const { auth, visited } = app();
    await auth.signIn();
    const back = await new PersonBrowser(server.url).authorize(visited[0]!, 'ada@example.com');
    back.searchParams.set('state', 'forged');
    await assert.rejects(
      auth.handleCallback(back),
      (err: unknown) => err instanceof SvcOAuthValidationError && err.reason === 'state_mismatch',
    );
    // The pending sign-in was used up by that attempt: the genuine callback is refused too.
    await assert.rejects(
      auth.handleCallback(back),
      (err: unknown) => err instanceof SvcOAuthValidationError && err.reason === 'no_pending_sign_in',
    );
    assert.equal(auth.session, undefined);
  });

  it("refuses an ID token whose nonce is not the sign-in's", async () => {
    const { auth, storage, visited } = app();
    await auth.signIn();
    const key = pendingKey(clientId);
    storage.setItem(key, JSON.stringify({ ...JSON.parse(storage.getItem(key)!), nonce: 'another-nonce' }));
    const back = await new PersonBrowser(server.url).authorize(visited[0]!, 'ada@example.com');
    await assert.rejects(
      auth.handleCallback(back),
      (err: unknown) => err instanceof SvcOAuthValidationError && err.reason === 'nonce_mismatch',
    );
    assert.equal(auth.session, undefined);
  });

  it('reports a denial as SvcOAuthError access_denied', async () => {
    const { auth, visited } = app({ scope: 'openid' });
    await auth.signIn();
    const back = await new PersonBrowser(server.url).authorize(visited[0]!, 'ada@example.com', 'deny');
    await assert.rejects(auth.handleCallback(back), (err: unknown) => err instanceof SvcOAuthError && err.reason === 'access_denied');
  });

  it('reports a redirect URI the client did not register as the server refused it, before any navigation', async () => {
    const { auth, visited } = app({ redirectUri: 'http://localhost:5173/elsewhere' });
    await assert.rejects(
      auth.signIn(),
      (err: unknown) => err instanceof SvcOAuthError && err.reason === 'invalid_request' && /redirect_uri/.test(err.message),
    );
    assert.equal(visited.length, 0);
  });

  it('allows plain http only on loopback, and needs storage outside a browser', async () => {
    assert.throws(() => createOAuthClient({ issuer: 'http://svc.example', clientId, redirectUri }), SvcConfigurationError);
    assert.throws(() => createOAuthClient({ issuer: 'ftp://127.0.0.1', clientId, redirectUri }), SvcConfigurationError);
    const noStorage = createOAuthClient({ issuer: server.url, clientId, redirectUri, navigate: () => {} });
    await assert.rejects(noStorage.signIn(), (err: unknown) => err instanceof SvcConfigurationError && /sessionStorage/.test(err.message));
  });
});
