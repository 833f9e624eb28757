// Fixtures for the delegated-authority end-to-end suite, on top of e2e/fixtures.ts (the reference server `svc`): an
// organisation's web application ("Travel planner") on its own loopback origin (http://localhost:<port>, an allowed
// origin of the sandbox application) with its own confidential OAuth client, run by the site's backend with
// oauth4webapi as an application's server would run it. A person signs in through the service's hosted pages
// (PAR, PKCE S256, state and nonce checked on the callback, the ID token verified); the backend keeps their tokens,
// as a confidential client does. The site's approval page shows an agent's escalation to its principal in
// `<svc-decision>` (the script tag from the service's /sdk/v1/svc.js), under the site's own Content-Security-Policy,
// and its backend confirms the outcome with the service before it believes it.
// Needs `pnpm run build` first (the server and the SDK bundle come from dist/).
import type { Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import * as oauth from 'oauth4webapi';
import { expect, listen, readJson, test as base, type Service } from './fixtures.js';

export { problems } from './fixtures.js';

/** A person signed in at the site: what its backend holds after the code exchange. */
export interface SignedInPerson {
  accessToken: string;
  /** `prs_...`, from `/api/v1/me` called with the access token. */
  personId: string;
  email: string;
  /** The `sub` of the verified ID token. */
  sub: string;
}

/** What the site's backend got when it confirmed an approval with the service (`POST /api/v1/decisions/{token}/exchange`). */
export interface Confirmation {
  escalationId: string;
  sessionToken: string;
  status: number;
  outcome: string | undefined;
  recordId: string | undefined;
}

/** An event `<svc-decision>` dispatched, as the approval page's listener on `document` recorded it. */
export interface SeenEvent {
  type: string;
  detail: Record<string, unknown>;
  target: string;
}

/** The organisation's site. */
export interface TravelSite {
  /** `http://localhost:<port>`. */
  origin: string;
  /** The site's OAuth client (confidential, authorization code), registered by the organisation with its API token. */
  clientId: string;
  /** The name the hosted sign-in and consent pages show. */
  clientName: string;
  /** A page of the site. */
  url(path: string): string;
  /** The person the last finished sign-in was for (the backend's session), if any. */
  signedIn(): SignedInPerson | undefined;
  /** The approval page of an escalation: the backend opens an embedded approval decision for it and shows it. */
  approvalPage(escalationId: string): string;
  /** Every confirmation the backend asked the service for, in order. */
  confirmations: Confirmation[];
}

/** The site's own policy: scripts from itself and the service only, nothing inline, frames from the service only. */
export function sitePolicy(service: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${service}`,
    "style-src 'self'",
    `connect-src 'self' ${service}`,
    `frame-src ${service}`,
    "img-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

const EVENTS = ['svc-ready', 'svc-state', 'svc-complete', 'svc-cancel', 'svc-error', 'svc-deadline'];

// The first script of every page: violations of the page's policy, recorded before anything else runs.
const CSP_RECORDER = `window.cspViolations = [];
document.addEventListener('securitypolicyviolation', function (e) { window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI); });`;

// The approval page's script: records the element's events and hands svc-complete's exchange token to the backend,
// which confirms with the service; the page shows only what the backend confirmed.
const APPROVAL_APP = `(function () {
  window.svcEvents = [];
  var element = document.querySelector('svc-decision');
  ${JSON.stringify(EVENTS)}.forEach(function (type) {
    document.addEventListener(type, function (event) { svcEvents.push({ type: type, detail: event.detail, target: event.target.localName }); });
  });
  element.addEventListener('svc-complete', async function (event) {
    var answer = await fetch('/api/confirm', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ escalation_id: element.dataset.escalation, session_token: element.token, exchange_token: event.detail.exchange_token }) });
    var body = await answer.json();
    document.getElementById('result').textContent = answer.ok ? 'Confirmed by the service: ' + body.outcome : 'Not confirmed';
  });
})();`;

const escape = (value: string) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function shell(title: string, body: string, scripts: string[] = []): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escape(title)}</title>
<script src="/csp-recorder.js"></script>
${scripts.map((src) => `<script src="${escape(src)}" defer></script>`).join('\n')}
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

const cookieOf = (req: IncomingMessage, name: string) =>
  (req.headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim().split('='))
    .find(([k]) => k === name)?.[1];

/** Starts the site for `svc`: registers its origin and its OAuth client with the sandbox API token. */
async function startSite(svc: Service): Promise<TravelSite & { close(): Promise<void> }> {
  const service = svc.server.url;
  const insecure = { [oauth.allowInsecureRequests]: true } as const;
  const clientName = 'Travel planner';
  const pending = new Map<string, { verifier: string; state: string; nonce: string }>();
  const sessions = new Map<string, SignedInPerson>();
  const approvals = new Map<string, { escalationId: string; sessionToken: string }>();
  const confirmations: Confirmation[] = [];
  let last: SignedInPerson | undefined;
  let origin = '';
  let as: oauth.AuthorizationServer | undefined;
  let client: oauth.Client = { client_id: '' };
  let auth: oauth.ClientAuth = oauth.None();
  const redirectUri = () => `${origin}/callback`;
  const issuer = async () => {
    as ??= await oauth.processDiscoveryResponse(new URL(service), await oauth.discoveryRequest(new URL(service), insecure));
    return as;
  };

  const http = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://site.invalid');
      const html = (status: number, page: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'content-security-policy': sitePolicy(svc.origin),
          ...headers,
        });
        res.end(page);
      };
      const script = (body: string) => {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
        res.end(body);
      };
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const person = () => sessions.get(cookieOf(req, 'travel_session') ?? '');

      if (url.pathname === '/csp-recorder.js') return script(CSP_RECORDER);
      if (url.pathname === '/approval.js') return script(APPROVAL_APP);
      if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();

      if (req.method === 'GET' && url.pathname === '/') {
        const who = person();
        return html(
          200,
          shell(
            clientName,
            who
              ? `<h1>${clientName}</h1><p id="who">Signed in as ${escape(who.email)}</p>`
              : `<h1>${clientName}</h1><p>Plan trips with an AI agent that books and pays within the limits you set.</p><p><a href="/sign-in">Sign in</a></p>`,
          ),
        );
      }

      // The backend pushes the authorization request (PAR, PKCE) and sends the browser to the service.
      if (req.method === 'GET' && url.pathname === '/sign-in') {
        const server = await issuer();
        const verifier = oauth.generateRandomCodeVerifier();
        const state = oauth.generateRandomState();
        const nonce = oauth.generateRandomNonce();
        const par = await oauth.processPushedAuthorizationResponse(
          server,
          client,
          await oauth.pushedAuthorizationRequest(
            server,
            client,
            auth,
            {
              redirect_uri: redirectUri(),
              scope: 'openid email',
              response_type: 'code',
              state,
              nonce,
              code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
              code_challenge_method: 'S256',
            },
            insecure,
          ),
        );
        const id = randomBytes(16).toString('hex');
        pending.set(id, { verifier, state, nonce });
        const target = new URL(server.authorization_endpoint!);
        target.searchParams.set('client_id', client.client_id);
        target.searchParams.set('request_uri', par.request_uri);
        res.writeHead(303, { location: target.href, 'set-cookie': `travel_pending=${id}; Path=/; HttpOnly; SameSite=Lax` });
        return res.end();
      }

      // The callback: state, iss and the code checked, the ID token verified, the person read with the access token.
      if (req.method === 'GET' && url.pathname === '/callback') {
        const started = pending.get(cookieOf(req, 'travel_pending') ?? '');
        if (!started) return html(400, shell(clientName, '<h1>Sign-in did not start here</h1>'));
        pending.delete(cookieOf(req, 'travel_pending')!);
        const server = await issuer();
        try {
          const params = oauth.validateAuthResponse(server, client, new URL(url.pathname + url.search, origin), started.state);
          const tokens = await oauth.processAuthorizationCodeResponse(
            server,
            client,
            await oauth.authorizationCodeGrantRequest(server, client, auth, params, redirectUri(), started.verifier, insecure),
            { expectedNonce: started.nonce, requireIdToken: true },
          );
          const claims = oauth.getValidatedIdTokenClaims(tokens)!;
          const me = await fetch(`${service}/api/v1/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
          const body = (await me.json()) as { person: { id: string; email: string } };
          const signed: SignedInPerson = {
            accessToken: tokens.access_token,
            personId: body.person.id,
            email: body.person.email,
            sub: claims.sub,
          };
          const id = randomBytes(16).toString('hex');
          sessions.set(id, signed);
          last = signed;
          res.writeHead(303, { location: '/', 'set-cookie': `travel_session=${id}; Path=/; HttpOnly; SameSite=Lax` });
          return res.end();
        } catch (error) {
          return html(400, shell(clientName, `<h1>Sign-in did not finish</h1><p role="alert">${escape(String(error))}</p>`));
        }
      }

      // The approval page: only for the escalation's principal. The backend reads the escalation with the API token,
      // opens an embedded approval decision for it bound to this site's origin (the first answer to any decision of
      // the escalation decides it), and puts it in <svc-decision>. The escalation's own decision is a redirect-mode
      // one with no embed origin: embedded, its page has no origin to post svc-ready or svc-complete to.
      const approval = /^\/approvals\/(esc_[A-Za-z0-9_]+)$/.exec(url.pathname);
      if (req.method === 'GET' && approval) {
        const who = person();
        const escalation = await svc.api<{ escalation: { principal_id: string; status: string } }>(
          `/api/v1/oap/escalations/${approval[1]}`,
        );
        if (!who || escalation.status !== 200 || escalation.body.escalation.principal_id !== who.personId) {
          return html(403, shell(clientName, '<h1>Not yours to decide</h1>'));
        }
        const decision = await svc.createDecision({
          kind: 'approval',
          subject_ref: approval[1],
          delivery_mode: 'embed',
          embed_origin: origin,
        });
        approvals.set(decision.session_token, { escalationId: approval[1]!, sessionToken: decision.session_token });
        return html(
          200,
          shell(
            `${clientName} · Your agent asks`,
            `<h1>Your agent asks for your approval</h1>
<svc-decision token="${escape(decision.session_token)}" data-escalation="${escape(approval[1]!)}"></svc-decision>
<p id="result" role="status"></p>`,
            [`${service}/sdk/v1/svc.js`, '/approval.js'],
          ),
        );
      }

      // What the page's svc-complete proves nothing by itself: the backend exchanges the token with the service.
      if (req.method === 'POST' && url.pathname === '/api/confirm') {
        const body = await readJson(req);
        const known = approvals.get(body.session_token ?? '');
        if (!known || known.escalationId !== body.escalation_id) return json(404, { message: 'unknown approval' });
        const exchanged = await svc.api<{ outcome: string; record_id?: string }>(`/api/v1/decisions/${known.sessionToken}/exchange`, {
          json: { exchange_token: body.exchange_token },
        });
        confirmations.push({ ...known, status: exchanged.status, outcome: exchanged.body.outcome, recordId: exchanged.body.record_id });
        return json(exchanged.status === 200 ? 200 : 502, { outcome: exchanged.body.outcome });
      }

      return html(404, shell(clientName, '<h1>Not found</h1>'));
    })().catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  const port = await listen(http);
  origin = `http://localhost:${port}`;
  const registered = await svc.api(`/api/v1/applications/${svc.server.sandbox.application_id}/allowed_origins`, {
    json: { allowed_origin: { origin } },
  });
  expect([200, 201]).toContain(registered.status);
  const created = await svc.api<{ oauth_client: { client_id: string; client_secret: string } }>(
    `/api/v1/applications/${svc.server.sandbox.application_id}/oauth_clients`,
    {
      json: {
        oauth_client: {
          name: clientName,
          client_type: 'confidential',
          redirect_uris: [`${origin}/callback`],
          grant_types: ['authorization_code'],
        },
      },
    },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  client = { client_id: created.body.oauth_client.client_id };
  auth = oauth.ClientSecretBasic(created.body.oauth_client.client_secret);

  return {
    origin,
    clientId: client.client_id,
    clientName,
    url: (path) => `${origin}${path}`,
    signedIn: () => last,
    approvalPage: (escalationId) => `${origin}/approvals/${escalationId}`,
    confirmations,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

export const test = base.extend<{ events: (page: Page) => Promise<SeenEvent[]> }, { travel: TravelSite }>({
  travel: [
    async ({ svc }, use) => {
      const site = await startSite(svc);
      await use(site);
      await site.close();
    },
    { scope: 'worker' },
  ],

  events: async ({}, use) => {
    await use(async (page) => (await page.evaluate(() => (window as unknown as { svcEvents?: SeenEvent[] }).svcEvents)) ?? []);
  },
});

export { expect };
