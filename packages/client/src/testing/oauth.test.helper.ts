// Test support for the OAuth suites: a person's browser in Node (cookies kept, redirects walked one at a time) that
// signs in and consents on the reference server's hosted pages, and approves a device's user code. A small copy of
// the server's own test support: packages do not import each other's sources.
import * as oauth from 'oauth4webapi';
import type { TestServer } from './servers.test.helper.js';

/** A browser of one person on the service's origin: keeps cookies, follows redirects only on `/oauth/…`. */
export class PersonBrowser {
  readonly #cookies = new Map<string, string>();

  constructor(readonly origin: string) {}

  /** One request with the browser's cookies, keeping the ones the answer sets; never follows a redirect. */
  async request(url: string, form?: Record<string, string>): Promise<Response> {
    const res = await fetch(new URL(url, this.origin), {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.#cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return res;
  }

  /** Follows redirects from `url` while they stay on the service's `/oauth/…` paths; answers the last response and URL. */
  async follow(url: string, form?: Record<string, string>): Promise<{ res: Response; url: string }> {
    let res = await this.request(url, form);
    let at = new URL(url, this.origin).href;
    for (let hops = 0; hops < 20 && res.status >= 300 && res.status < 400; hops += 1) {
      const next = new URL(res.headers.get('location')!, at);
      if (next.origin !== this.origin || !next.pathname.startsWith('/oauth/')) return { res, url: next.href };
      at = next.href;
      res = await this.request(at);
    }
    return { res, url: at };
  }

  /** Signs in as `email` and answers the consent screen from `url` on; answers where the service finally sends the browser. */
  async authorize(url: string, email: string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
    let { res, url: at } = await this.follow(url);
    for (let step = 0; step < 6; step += 1) {
      const page = new URL(at);
      const uid = /^\/oauth\/interaction\/([^/?]+)$/.exec(page.pathname)?.[1];
      if (page.origin !== this.origin || !uid) return page;
      const html = await res.text();
      const data = JSON.parse(/<script type="application\/json" id="svc-oauth-data">(.*?)<\/script>/s.exec(html)![1]!) as {
        step: string;
        sandbox_code: string | null;
      };
      const [path, form] =
        data.step === 'email'
          ? ['sign_in', { email }]
          : data.step === 'code'
            ? ['verify', { code: data.sandbox_code! }]
            : ['consent', { decision }];
      ({ res, url: at } = await this.follow(`/oauth/interaction/${uid}/${path}`, form as Record<string, string>));
    }
    throw new Error(`the authorization did not finish: ${at}`);
  }

  /** Answers a device's `userCode` at `verificationUriComplete` as `email` (confirm, sign in, then allow or deny). */
  async approveDevice(
    verificationUriComplete: string,
    userCode: string,
    email: string,
    decision: 'allow' | 'deny' = 'allow',
  ): Promise<void> {
    const html = await (await this.request(verificationUriComplete)).text();
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
    const action = /action="([^"]+)"/.exec(html)?.[1];
    if (!xsrf || !action) throw new Error(`not a device confirmation page: ${html.slice(0, 300)}`);
    const confirmed = await this.request(action, { xsrf, user_code: userCode, confirm: 'yes' });
    const done = await this.authorize(new URL(confirmed.headers.get('location')!, this.origin).href, email, decision);
    if (done.origin !== this.origin) throw new Error(`the device approval ended off the service: ${done.href}`);
  }
}

/** The sandbox's confidential client as oauth4webapi sees it. */
export interface SandboxOAuth {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  auth: oauth.ClientAuth;
  redirectUri: string;
}

/** Plain http is fine against the loopback test server. */
export const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** Discovers the server and answers its sandbox OAuth client (confidential, client_secret_basic). */
export async function sandboxOAuth(server: TestServer): Promise<SandboxOAuth> {
  const issuer = new URL(server.url);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
  const { oauth_client_id: id, oauth_client_secret: secret, oauth_redirect_uri: redirectUri } = server.sandbox;
  if (!id || !secret || !redirectUri) throw new Error('the sandbox has no OAuth client');
  return { as, client: { client_id: id }, auth: oauth.ClientSecretBasic(secret), redirectUri };
}

/** Signs `email` in with the sandbox client (PAR, PKCE, the hosted pages, the code grant); answers the tokens. */
export async function signInPerson(
  server: TestServer,
  email: string,
  scope = 'openid email offline_access',
): Promise<oauth.TokenEndpointResponse> {
  const { as, client, auth, redirectUri } = await sandboxOAuth(server);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const pushed = await oauth.pushedAuthorizationRequest(
    as,
    client,
    auth,
    {
      response_type: 'code',
      redirect_uri: redirectUri,
      scope,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...(scope.includes('offline_access') ? { prompt: 'consent' } : {}),
    },
    insecure,
  );
  const { request_uri } = await oauth.processPushedAuthorizationResponse(as, client, pushed);
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('request_uri', request_uri);
  const back = await new PersonBrowser(server.url).authorize(url.href, email);
  const params = oauth.validateAuthResponse(as, client, back, state);
  const res = await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, verifier, insecure);
  return oauth.processAuthorizationCodeResponse(as, client, res);
}

/** Registers a public OAuth client (PKCE, no secret) on the sandbox application; answers its id. */
export async function registerPublicClient(server: TestServer, redirectUris: string[], name = 'Test app'): Promise<string> {
  const res = await server.api(`/api/v1/applications/${server.sandbox.application_id}/oauth_clients`, {
    method: 'POST',
    json: { oauth_client: { name, client_type: 'public', redirect_uris: redirectUris } },
  });
  if (res.status !== 201) throw new Error(`could not register a public client: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { oauth_client: { client_id: string } }).oauth_client.client_id;
}
