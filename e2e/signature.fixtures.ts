// Fixtures for the signature-request end-to-end suite, on top of e2e/fixtures.ts (the reference server `svc`): an
// organisation's letting site on its own loopback origin (http://localhost:<port>, registered as an allowed origin of
// the sandbox application) whose signing page shows one party's signing session in `<svc-decision>` (the script tag
// from the service's /sdk/v1/svc.js), embedded or as a popup, under the site's own Content-Security-Policy; its
// backend confirms each outcome with the service (the exchange) before the page shows it. And a webhook receiver on
// loopback that keeps every request as it arrived, for the spec to verify with `verifyWebhook`.
// Needs `pnpm run build` first (the server and the SDK bundle come from dist/).
import type { BrowserContext, Page } from '@playwright/test';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { expect, listen, readJson, test as base, type Service } from './fixtures.js';

/** An event `<svc-decision>` dispatched, as the signing page's listener on `document` recorded it. */
export interface SeenEvent {
  type: string;
  detail: Record<string, unknown>;
  target: string;
}

/** What the site's backend got when it confirmed an outcome with the service (`POST /api/v1/decisions/{token}/exchange`). */
export interface Confirmation {
  sessionToken: string;
  status: number;
  outcome: string | undefined;
  claims: Record<string, unknown> | undefined;
}

/** The organisation's site. */
export interface LettingSite {
  /** `http://localhost:<port>`. */
  origin: string;
  /** The signing page of one party's session, showing `<svc-decision token mode>`. */
  signingPage(sessionToken: string, mode: 'embed' | 'popup'): string;
  /** Every confirmation the backend asked the service for, in order. */
  confirmations: Confirmation[];
}

/** One request the webhook receiver got, as it arrived. */
export interface HookRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 answering 200 to everything and keeping what it received. */
export interface HookReceiver {
  url: string;
  received: HookRequest[];
  close(): Promise<void>;
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

// The signing page's script: records the element's events and hands svc-complete's exchange token to the backend,
// which confirms with the service; the page shows only what the backend confirmed.
const SIGNING_APP = `(function () {
  window.svcEvents = [];
  var element = document.querySelector('svc-decision');
  ${JSON.stringify(EVENTS)}.forEach(function (type) {
    document.addEventListener(type, function (event) { svcEvents.push({ type: type, detail: event.detail, target: event.target.localName }); });
  });
  element.addEventListener('svc-complete', async function (event) {
    var answer = await fetch('/api/confirm', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session_token: element.token, exchange_token: event.detail.exchange_token }) });
    var body = await answer.json();
    document.getElementById('result').textContent = answer.ok ? 'Confirmed by the service: ' + body.outcome : 'Not confirmed';
  });
})();`;

const escape = (value: string) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function signingHtml(service: string, token: string, mode: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Lindenstraße Lettings · Sign your tenancy</title>
<script src="${escape(service)}/sdk/v1/svc.js" defer></script>
<script src="/signing.js" defer></script>
</head>
<body>
<main>
<h1>Sign your tenancy agreement</h1>
<svc-decision token="${escape(token)}" mode="${escape(mode)}"></svc-decision>
<p id="result" role="status"></p>
</main>
</body>
</html>`;
}

/** Starts the site for `svc` and registers its origin with the sandbox API token. */
async function startSite(svc: Service): Promise<LettingSite & { close(): Promise<void> }> {
  const confirmations: Confirmation[] = [];
  const http = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://site.invalid');
      if (url.pathname === '/signing.js') {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
        return res.end(SIGNING_APP);
      }
      if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();
      if (req.method === 'GET' && url.pathname === '/sign') {
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'content-security-policy': sitePolicy(svc.origin),
        });
        return res.end(signingHtml(svc.origin, url.searchParams.get('token') ?? '', url.searchParams.get('mode') ?? 'embed'));
      }
      // What the page's svc-complete proves nothing by itself: the backend exchanges the token with the service.
      if (req.method === 'POST' && url.pathname === '/api/confirm') {
        const body = await readJson(req);
        const exchanged = await svc.api<{ outcome: string; claims: Record<string, unknown> }>(
          `/api/v1/decisions/${encodeURIComponent(body.session_token ?? '')}/exchange`,
          { json: { exchange_token: body.exchange_token } },
        );
        confirmations.push({
          sessionToken: body.session_token ?? '',
          status: exchanged.status,
          outcome: exchanged.body.outcome,
          claims: exchanged.body.claims,
        });
        res.writeHead(exchanged.status === 200 ? 200 : 502, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ outcome: exchanged.body.outcome }));
      }
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    })().catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  const port = await listen(http);
  const origin = `http://localhost:${port}`;
  const registered = await svc.api(`/api/v1/applications/${svc.server.sandbox.application_id}/allowed_origins`, {
    json: { allowed_origin: { origin } },
  });
  expect([200, 201]).toContain(registered.status);
  return {
    origin,
    signingPage: (token, mode) => `${origin}/sign?${new URLSearchParams({ token, mode })}`,
    confirmations,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

/** Starts a webhook receiver on 127.0.0.1. */
export async function startHookReceiver(): Promise<HookReceiver> {
  const received: HookRequest[] = [];
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  const port = await listen(http);
  return {
    url: `http://127.0.0.1:${port}/hooks/svc`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

// Recorded in every document of the context (the site's page, the service's frame and its popups) before any of its
// own scripts run: violations of that document's policy.
const CSP_RECORDER = `window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', function (e) { window.__cspViolations.push(location.origin + ' ' + e.violatedDirective + ' ' + e.blockedURI); });`;

/** Records policy violations in every document the context opens from now on. */
export async function recordViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: CSP_RECORDER });
}

/** The policy violations recorded in every frame of `page` so far. */
export async function violations(page: Page): Promise<string[]> {
  const all: string[] = [];
  for (const frame of page.frames()) {
    all.push(...(await frame.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? ['no recorder'])));
  }
  return all;
}

/** Console errors, page errors and CSP reports of every page of the context (popups too) and their frames, as they happen. */
export function problems(context: BrowserContext): string[] {
  const seen: string[] = [];
  context.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy|Refused to/i.test(m.text()))
      seen.push(`${m.location().url} ${m.type()}: ${m.text()}`);
  });
  context.on('weberror', (e) => seen.push(`pageerror: ${e.error().message}`));
  return seen;
}

export const test = base.extend<{ events: (page: Page) => Promise<SeenEvent[]> }, { lettings: LettingSite }>({
  lettings: [
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
