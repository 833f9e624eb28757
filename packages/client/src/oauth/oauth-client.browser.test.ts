// @svc/client/oauth in every engine against the reference server (started by test/wtr-sandbox-plugin.mjs with a public
// OAuth client whose redirect URI is on this page's origin). Discovery, the pushed request, the token exchange
// with its state and nonce checks, userinfo, refresh and revocation all run in this page, across origins. Only the
// person's part runs elsewhere: the plugin signs in on the hosted pages in a second tab of the same browser
// (Playwright drives it, since a page cannot script another origin's page) and hands back the callback URL, which
// a real app would receive as a navigation.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { SvcOAuthError, SvcOAuthSignedOutError, SvcOAuthValidationError, createOAuthClient, type OAuthClient } from './index.js';
import { createClient } from '../lib/client.js';
import { pendingKey } from './pending-sign-in.js';

interface Sandbox {
  base_url: string;
  oauth_client_id: string;
  oauth_redirect_uri: string;
}

/** The person's part: sign in as `email` and answer the consent screen; the URL the service sends the tab back to. */
const authorize = (url: string, email: string, decision: 'allow' | 'deny' = 'allow') =>
  executeServerCommand<string, { url: string; email: string; decision: string }>('svc-oauth-authorize', { url, email, decision });

async function rejection<T extends Error>(promise: Promise<unknown>, type: abstract new (...args: never[]) => T): Promise<T> {
  try {
    await promise;
  } catch (err) {
    expect(err, String(err)).to.be.instanceOf(type);
    return err as T;
  }
  throw new Error(`expected ${type.name}, but the call succeeded`);
}

describe('@svc/client/oauth in the browser', function () {
  this.timeout(60_000); // the first test waits for the reference server; each sign-in walks three pages
  let sandbox: Sandbox;

  before(async () => {
    sandbox = (await (await fetch('/__svc__/sandbox.json')).json()) as Sandbox;
    expect(new URL(sandbox.oauth_redirect_uri).origin).to.equal(location.origin);
  });
  afterEach(() => sessionStorage.clear());

  /** A helper whose signIn hands the authorize URL to the test instead of leaving this page. */
  function app(options: { scope?: string; refreshLeewaySeconds?: number } = {}) {
    const visited: string[] = [];
    const auth = createOAuthClient({
      issuer: sandbox.base_url,
      clientId: sandbox.oauth_client_id,
      redirectUri: sandbox.oauth_redirect_uri,
      scope: 'openid email offline_access',
      navigate: (url) => visited.push(url),
      ...options,
    });
    return { auth, visited };
  }

  async function signedIn(email: string, options?: Parameters<typeof app>[0]): Promise<OAuthClient> {
    const { auth, visited } = app(options);
    await auth.signIn();
    await auth.handleCallback(await authorize(visited[0]!, email));
    return auth;
  }

  it('signs in through PAR + PKCE, checks the callback and keeps the tokens in memory, never in Web Storage', async () => {
    const { auth, visited } = app();
    await auth.signIn();
    const authorizeUrl = new URL(visited[0]!);
    expect(authorizeUrl.origin).to.equal(sandbox.base_url);
    expect([...authorizeUrl.searchParams.keys()].sort()).to.deep.equal(['client_id', 'request_uri']);
    // Across the redirect only the verifier, state and nonce wait, in this tab's sessionStorage.
    const pending = JSON.parse(sessionStorage.getItem(pendingKey(sandbox.oauth_client_id))!) as Record<string, string>;
    expect(Object.keys(pending).sort()).to.deep.equal(['nonce', 'redirectUri', 'scope', 'state', 'verifier']);

    const callback = new URL(await authorize(visited[0]!, 'ada@example.com'));
    expect(callback.origin + callback.pathname).to.equal(sandbox.oauth_redirect_uri);
    expect(callback.searchParams.get('state')).to.equal(pending.state);

    const session = await auth.handleCallback(callback);
    expect(session.claims?.sub).to.match(/^prs_/);
    expect(session.canRefresh).to.equal(true);
    expect(sessionStorage.getItem(pendingKey(sandbox.oauth_client_id))).to.equal(null);
    const stored = [...Object.values(sessionStorage), ...Object.values(localStorage)].join('\n');
    expect(stored).not.to.contain(session.accessToken);

    const info = await auth.userinfo();
    expect(info.sub).to.equal(session.claims?.sub);
    expect(info.email).to.equal('ada@example.com');
  });

  it('refreshes before expiry (one request for concurrent callers), then signs out, revoking at the service', async () => {
    const auth = await signedIn('grace@example.com', { refreshLeewaySeconds: 7200 });
    const first = auth.session!.accessToken;
    const [a, b] = await Promise.all([auth.accessToken(), auth.accessToken()]);
    expect(a).not.to.equal(first);
    expect(b).to.equal(a);
    expect((await auth.userinfo()).email).to.equal('grace@example.com');

    const last = auth.session!.accessToken;
    await auth.signOut();
    expect(auth.session).to.equal(undefined);
    await rejection(auth.accessToken(), SvcOAuthSignedOutError);
    const res = await fetch(`${sandbox.base_url}/oauth/userinfo`, { headers: { authorization: `Bearer ${last}` } });
    expect(res.status).to.equal(401);
  });

  it('refuses a callback of another sign-in (state) and an ID token minted for another nonce', async () => {
    const first = app();
    await first.auth.signIn();
    const stale = await authorize(first.visited[0]!, 'ada@example.com');
    await first.auth.signIn(); // a newer sign-in replaces the pending one: the older callback's state is not its
    const state = await rejection(first.auth.handleCallback(stale), SvcOAuthValidationError);
    expect(state.reason).to.equal('state_mismatch');

    const second = app();
    await second.auth.signIn();
    const key = pendingKey(sandbox.oauth_client_id);
    sessionStorage.setItem(key, JSON.stringify({ ...JSON.parse(sessionStorage.getItem(key)!), nonce: 'not-the-one-sent' }));
    const nonce = await rejection(
      second.auth.handleCallback(await authorize(second.visited[0]!, 'ada@example.com')),
      SvcOAuthValidationError,
    );
    expect(nonce.reason).to.equal('nonce_mismatch');
    expect(second.auth.session).to.equal(undefined);
  });

  it("calls the REST API as the person from this page: createClient with the helper's token provider", async () => {
    const auth = await signedIn('linus@example.com');
    const svc = createClient({ baseUrl: sandbox.base_url, getAccessToken: () => auth.accessToken() });
    const me = await svc.me();
    expect(me.kind).to.equal('person');
    expect(me.kind === 'person' && me.person.email).to.equal('linus@example.com');
    expect(me.kind === 'person' && me.client.client_id).to.equal(sandbox.oauth_client_id);
    await auth.signOut();
  });

  it('reports the person denying as SvcOAuthError access_denied', async () => {
    const { auth, visited } = app({ scope: 'openid email offline_access' });
    await auth.signIn();
    const err = await rejection(auth.handleCallback(await authorize(visited[0]!, 'ada@example.com', 'deny')), SvcOAuthError);
    expect(err.reason).to.equal('access_denied');
  });
});
