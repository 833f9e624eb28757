// Reusable Playwright fixtures: a real reference server (temporary data directory, test clock on) and an
// organisation's host site on a DIFFERENT loopback origin that embeds the hosted pages and records every message
// it receives. The service runs on http://127.0.0.1:<port>, the host site on http://localhost:<port2>, so the two
// are cross-origin exactly as in production. Needs `pnpm run build` first (it imports the built @svc/server).
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import type { IncomingMessage } from 'node:http';
import { startServer, type RunningServer } from '@svc/server';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The reference server under test, with helpers that call its API with the sandbox admin token. */
export interface Service {
  server: RunningServer;
  /** `http://127.0.0.1:<port>`, the origin every frame message must come from. */
  origin: string;
  /** Calls the API (JSON in and out) with the sandbox admin token. */
  api<T = Record<string, unknown>>(path: string, init?: { method?: string; json?: unknown }): Promise<{ status: number; body: T }>;
  /** Creates a decision through `POST /api/v1/decisions`, expecting 201. */
  createDecision(request: Record<string, unknown>): Promise<Decision>;
  /** Moves the server's test clock. */
  advance(seconds: number): Promise<void>;
  /** The current value of a `/metrics` series (the name with dots, as the server counts it). */
  metric(name: string, labels?: Record<string, string>): Promise<number>;
}

/** What `POST /api/v1/decisions` returns (the fields the tests use). */
export interface Decision {
  session_token: string;
  url: string;
  embed_url: string;
  status: string;
  kind: string;
  deadline_at: string;
}

/** One `message` event the host page received, as recorded by its listener. */
export interface Received {
  origin: string;
  /** Whether `event.source` was the embedded frame (or the popup) the page opened. */
  fromFrame: boolean;
  data: { type: string; kind: string; version: number; payload: Record<string, unknown>; ts: string; message_id: string };
}

/** The organisation's site: serves host pages that embed or open the hosted decision pages. */
export interface HostSite {
  /** `http://localhost:<port2>`: registered as an allowed origin of the sandbox application. */
  origin: string;
  /** The same server reached as `http://127.0.0.1:<port2>`: a different origin that is NOT allowed. */
  strangerOrigin: string;
  /** A page embedding `embedUrl` in an iframe (`#svc`) that records messages in `window.svcMessages`. */
  embedPage(embedUrl: string, origin?: string): string;
  /** A page with a button (`Open`) that opens `url` in a popup and records its messages. */
  popupPage(url: string, origin?: string): string;
  /** A plain page the redirect mode comes back to, e.g. `/back`. */
  url(path: string): string;
}

const recorder = (serviceOrigin: string, frameExpr: string) => `
window.svcMessages = [];
window.svcServiceOrigin = ${JSON.stringify(serviceOrigin)};
window.addEventListener('message', (event) => {
  window.svcMessages.push({ origin: event.origin, fromFrame: event.source === (${frameExpr}), data: event.data });
});
window.svcCancel = (kind, reason) => {
  const target = ${frameExpr};
  target.postMessage({ type: 'svc:cancel', kind, version: 2, payload: { reason, cancelled_by: 'host' },
    ts: new Date().toISOString(), message_id: crypto.randomUUID() }, window.svcServiceOrigin);
};`;

function hostHtml(title: string, head: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><script>${head}</script></head>
<body><h1>${title}</h1>${body}</body></html>`;
}

/** Starts `server` on a free loopback port of `host` and answers the port. */
export async function listen(server: Server, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  return (server.address() as AddressInfo).port;
}

export const test = base.extend<{ messages: (page: Page) => Promise<Received[]> }, { svc: Service; host: HostSite }>({
  svc: [
    async ({}, use) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
      const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, clock: true });
      const token = server.sandbox.api_token;
      const api: Service['api'] = async (path, init = {}) => {
        const res = await fetch(server.url + path, {
          method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
          headers: { authorization: `Bearer ${token}`, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
          ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
        });
        const text = await res.text();
        return { status: res.status, body: (text ? JSON.parse(text) : {}) as never };
      };
      await use({
        server,
        origin: new URL(server.url).origin,
        api,
        async createDecision(request) {
          const res = await api<{ decision: Decision }>('/api/v1/decisions', { json: request });
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          return res.body.decision;
        },
        async advance(seconds) {
          expect((await api('/api/v1/test_clock/advance', { json: { seconds } })).status).toBe(200);
        },
        async metric(name, labels = {}) {
          const text = await (await fetch(`${server.url}/metrics`)).text();
          const series = `${name.replace(/[^a-zA-Z0-9_:]/g, '_')}${
            Object.keys(labels).length
              ? `{${Object.entries(labels)
                  .sort()
                  .map(([k, v]) => `${k}="${v}"`)
                  .join(',')}}`
              : ''
          }`;
          const line = text.split('\n').find((l) => l.startsWith(`${series} `));
          return line ? Number(line.slice(series.length + 1)) : 0;
        },
      });
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],

  host: [
    async ({ svc }, use) => {
      const http = createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://host.invalid');
        const src = url.searchParams.get('src') ?? '';
        let html: string;
        if (url.pathname === '/embed.html') {
          html = hostHtml(
            'Shop checkout',
            recorder(svc.origin, "document.getElementById('svc') && document.getElementById('svc').contentWindow"),
            `<iframe id="svc" title="Consent" src="${src.replace(/"/g, '&quot;')}" style="width: 480px; height: 560px; border: 1px solid #ccc"></iframe>`,
          );
        } else if (url.pathname === '/popup.html') {
          html = hostHtml(
            'Shop checkout',
            `${recorder(svc.origin, 'window.svcPopup')}
window.svcOpen = () => { window.svcPopup = window.open(${JSON.stringify(src)}, 'svc', 'width=520,height=720'); };`,
            '<button type="button" onclick="svcOpen()">Open</button>',
          );
        } else {
          html = hostHtml(`Host page ${url.pathname}`, '', `<p id="location">${url.pathname}${url.search.replace(/</g, '&lt;')}</p>`);
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(html);
      });
      const port = await listen(http, '127.0.0.1');
      const origin = `http://localhost:${port}`;
      const registered = await svc.api(`/api/v1/applications/${svc.server.sandbox.application_id}/allowed_origins`, {
        json: { allowed_origin: { origin } },
      });
      expect([200, 201]).toContain(registered.status);
      const at = (path: string, o = origin) => `${o}${path}`;
      await use({
        origin,
        strangerOrigin: `http://127.0.0.1:${port}`,
        embedPage: (embedUrl, o) => at(`/embed.html?src=${encodeURIComponent(embedUrl)}`, o),
        popupPage: (pageUrl, o) => at(`/popup.html?src=${encodeURIComponent(pageUrl)}`, o),
        url: (path) => at(path),
      });
      await new Promise((resolve) => http.close(resolve));
    },
    { scope: 'worker' },
  ],

  messages: async ({}, use) => {
    await use(async (page) => (await page.evaluate(() => (window as unknown as { svcMessages: Received[] }).svcMessages)) ?? []);
  },
});

export { expect };

/** The messages of the given types, in the order received (drops the resize and deadline noise when asked). */
export function ofTypes(messages: Received[], ...types: string[]): Received[] {
  return messages.filter((m) => types.includes(m.data.type));
}

/** The WCAG rule sets every page is audited against. */
export const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Asserts axe finds no WCAG violation on the page; `label` names the state audited. */
export async function audit(page: Page, label: string): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(WCAG).analyze();
  expect(
    result.violations.map((v) => `${label}: ${v.id} (${v.impact}): ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`),
  ).toEqual([]);
}

/** Console errors, page errors and CSP reports of a page and its frames, as they happen. */
export function problems(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy|Refused to/i.test(m.text())) seen.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => seen.push(`pageerror: ${e.message}`));
  return seen;
}

/** A test site's JSON request body. */
export async function readJson(req: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, string>;
}

/** The standard consent path of the sandbox flow: intro, sign-in, code, review with the newsletter ticked. */
export async function grantConsent(ui: Page | ReturnType<Page['frameLocator']>, email = 'ada@example.com'): Promise<void> {
  await ui.getByRole('button', { name: 'Continue' }).click();
  await ui.getByLabel('Email address').fill(email);
  await ui.getByRole('button', { name: 'Continue' }).click();
  const code = (await ui.locator('.sandbox code').textContent())!;
  await ui.getByLabel('Code').fill(code);
  await ui.getByRole('button', { name: 'Verify' }).click();
  await ui.getByRole('checkbox', { name: /Email newsletter/ }).check();
  await ui.getByRole('button', { name: 'Agree' }).click();
}

/**
 * The addressee of a decision confirms it is them on its hosted page, as someone not signed in does: the code sent
 * to their address (the sandbox shows it on the page), then Verify.
 */
export async function confirmByCode(ui: Page | ReturnType<Page['frameLocator']>): Promise<void> {
  await ui.getByRole('button', { name: 'Email me a code' }).click();
  const code = (await ui.locator('.sandbox code').textContent())!;
  await ui.getByLabel('Code').fill(code);
  await ui.getByRole('button', { name: 'Verify' }).click();
}

/**
 * Signs `email` in on the trust URL in this browser as a person does: on their trust center's first page
 * (`/decisions`), through the service's own provider, and back there signed in.
 */
export async function signInOnTrustUrl(page: Page, svc: Service, email: string): Promise<void> {
  await page.goto(`${svc.origin}/decisions`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code').fill((await page.locator('svc-oauth-page .sandbox code').textContent())!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(`${svc.origin}/decisions`);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
}

let organisations = 0;

/**
 * Another organisation of the service (its own account, development application and read/write API token, all named
 * `name`), written straight into storage: the API has no signup.
 */
export function otherOrganisation(svc: Service, name: string): { token: string; accountId: string; applicationId: string } {
  const db = svc.server.context.db;
  const now = new Date().toISOString();
  const suffix = `e2e${(organisations += 1)}${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
  const token = createHash('sha256').update(`${svc.server.url} ${suffix}`).digest('base64url');
  const [accountId, applicationId] = [`acct_${suffix}`, `tp_dev_${suffix}`];
  db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(accountId, name, now);
  db.prepare(
    `INSERT INTO applications (id, account_id, name, environment, created_at, updated_at) VALUES (?, ?, ?, 'development', ?, ?)`,
  ).run(applicationId, accountId, name, now, now);
  db.prepare(
    `INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at) VALUES (?, ?, ?, '["read","write"]', ?, ?)`,
  ).run(`api_token_${suffix}`, accountId, `${name} e2e`, createHash('sha256').update(token).digest('hex'), now);
  return { token, accountId, applicationId };
}
