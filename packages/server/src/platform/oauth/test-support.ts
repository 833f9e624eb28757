// What the OAuth tests share: a person's browser (cookies kept, redirects walked one by one) that signs in and
// consents on the hosted pages, and an independent client (oauth4webapi) pointed at the server.
import { request as httpRequest } from 'node:http';
import * as oauth from 'oauth4webapi';
import type { TestServer } from '../../testing.js';

/**
 * `fetch` from another loopback address (`127.0.0.2`, …: all of 127/8 is the loopback on Linux), so the server sees
 * another client address. Never follows a redirect.
 */
export function fetchFrom(
  localAddress: string,
  url: string | URL,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) for (const one of [value ?? []].flat()) headers.append(name, one);
        const status = res.statusCode ?? 500;
        resolve(new Response([204, 304].includes(status) ? null : Buffer.concat(chunks), { status, headers }));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** A browser of one person: keeps cookies per name, follows redirects on the server's own origin only. */
export class Browser {
  readonly #cookies = new Map<string, string>();

  /** `localAddress`: the loopback address the browser connects from (default: the system's choice, 127.0.0.1). */
  constructor(
    readonly origin: string,
    readonly localAddress?: string,
  ) {}

  /** One request with the browser's cookies, keeping the ones the answer sets; never follows a redirect. */
  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const request = {
      method: init.method ?? (init.form || init.json !== undefined ? 'POST' : 'GET'),
      headers: {
        cookie: [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
    };
    const target = new URL(url, this.origin);
    const res = this.localAddress
      ? await fetchFrom(this.localAddress, target, request)
      : await fetch(target, { ...request, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.#cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return res;
  }

  /**
   * Follows redirects from `url` while they stay on the provider's own paths (`/oauth/…`); answers the last response
   * and where it was, or where the redirect pointed when it leaves them (a client's redirect URI).
   */
  async follow(url: string, init?: { method?: string; form?: Record<string, string> }): Promise<{ res: Response; url: string }> {
    let res = await this.request(url, init);
    let at = new URL(url, this.origin).href;
    for (let hops = 0; hops < 20 && res.status >= 300 && res.status < 400; hops += 1) {
      const next = new URL(res.headers.get('location')!, at);
      if (next.origin !== this.origin || !next.pathname.startsWith('/oauth/')) return { res, url: next.href };
      at = next.href;
      res = await this.request(at);
    }
    return { res, url: at };
  }

  /**
   * Walks an authorization from `url` (the authorize URL or a device page's redirect) through sign-in with `email`
   * and the consent screen (allow or deny), and answers where the provider finally redirects off the server.
   */
  async authorize(url: string, email: string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
    let { res, url: at } = await this.follow(url);
    for (let step = 0; step < 8; step += 1) {
      const here = new URL(at);
      if (here.origin !== this.origin || !here.pathname.startsWith('/oauth/')) return here;
      const html = await res.text();
      // The provider's own self-submitting form (it ends the session of another person signed in): submit it.
      const form = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(html);
      if (form && new URL(form[1]!, at).pathname.startsWith('/oauth/')) {
        const fields = Object.fromEntries(
          [...form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1]!, m[2]!]),
        );
        ({ res, url: at } = await this.follow(new URL(form[1]!, at).href, { form: fields }));
        continue;
      }
      if (!here.pathname.startsWith('/oauth/interaction/')) return here;
      const uid = /^\/oauth\/interaction\/([^/?]+)$/.exec(here.pathname)?.[1];
      if (!uid) throw new Error(`not an interaction page: ${at} (${res.status}) ${html.slice(0, 300)}`);
      const data = JSON.parse(/<script type="application\/json" id="svc-oauth-data">(.*?)<\/script>/s.exec(html)![1]!) as {
        step: string;
        sandbox_code: string | null;
      };
      if (data.step === 'email') ({ res, url: at } = await this.follow(`/oauth/interaction/${uid}/sign_in`, { form: { email } }));
      else if (data.step === 'code')
        ({ res, url: at } = await this.follow(`/oauth/interaction/${uid}/verify`, { form: { code: data.sandbox_code! } }));
      else ({ res, url: at } = await this.follow(`/oauth/interaction/${uid}/consent`, { form: { decision } }));
    }
    throw new Error(`the authorization did not finish: ${at}`);
  }
}

/** The independent client's view of the server, with plain http allowed (loopback). */
export async function discover(base: string): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(base);
  const res = await oauth.discoveryRequest(issuer, { [oauth.allowInsecureRequests]: true });
  return oauth.processDiscoveryResponse(issuer, res);
}

export const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** A pushed authorization request of the sandbox's client (PKCE S256): the authorize URL to open, and its verifier. */
export async function pushedAuthorization(
  server: Pick<TestServer, 'url' | 'sandbox'>,
  scope = 'openid',
): Promise<{ url: string; verifier: string }> {
  const as = await discover(server.url);
  const client = { client_id: server.sandbox.oauth_client_id! };
  const verifier = oauth.generateRandomCodeVerifier();
  const par = await oauth.processPushedAuthorizationResponse(
    as,
    client,
    await oauth.pushedAuthorizationRequest(
      as,
      client,
      oauth.ClientSecretBasic(server.sandbox.oauth_client_secret!),
      {
        redirect_uri: server.sandbox.oauth_redirect_uri!,
        scope,
        response_type: 'code',
        state: 's',
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      },
      insecure,
    ),
  );
  return { url: `${as.authorization_endpoint}?client_id=${client.client_id}&request_uri=${encodeURIComponent(par.request_uri)}`, verifier };
}

/**
 * A person's access token from the sandbox's OAuth client (PAR, PKCE, the hosted sign-in and consent pages), for the
 * person signing in as `email` in `browser` (which keeps the provider's session).
 */
export async function personAccessToken(
  server: Pick<TestServer, 'url' | 'sandbox'>,
  email = 'ada@example.com',
  scope = 'openid',
  browser = new Browser(server.url),
): Promise<string> {
  const as = await discover(server.url);
  const client = { client_id: server.sandbox.oauth_client_id! };
  // A public client (the service's own, first-party) has no secret.
  const secret = server.sandbox.oauth_client_secret;
  const auth = secret ? oauth.ClientSecretBasic(secret) : oauth.None();
  const redirectUri = server.sandbox.oauth_redirect_uri!;
  const verifier = oauth.generateRandomCodeVerifier();
  const par = await oauth.processPushedAuthorizationResponse(
    as,
    client,
    await oauth.pushedAuthorizationRequest(
      as,
      client,
      auth,
      {
        redirect_uri: redirectUri,
        scope,
        response_type: 'code',
        state: 's',
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      },
      insecure,
    ),
  );
  const back = await browser.authorize(
    `${as.authorization_endpoint}?client_id=${client.client_id}&request_uri=${encodeURIComponent(par.request_uri)}`,
    email,
  );
  const params = oauth.validateAuthResponse(as, client, back, 's');
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, verifier, insecure),
  );
  return tokens.access_token;
}
