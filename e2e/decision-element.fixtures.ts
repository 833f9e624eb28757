// Fixtures for the <svc-decision> end-to-end suite, on top of e2e/fixtures.ts (the reference server `svc`): an
// organisation's site on its own loopback origin (http://localhost:<port>, registered as an allowed origin) whose
// pages load the element from the service's `/sdk/v1/svc.js` as a script tag, exactly as a customer would, and a
// third origin (http://127.0.0.1:<port>, never registered) that serves a frame forging protocol messages.
// Needs `pnpm run build` first (the server and the SDK bundle come from dist/).
import type { Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test as base, type Service } from './fixtures.js';
import { checkout } from './pages/checkout.js';

/** An event the host page saw on `document` (so it bubbled and was composed). */
export interface SeenEvent {
  type: string;
  detail: Record<string, unknown>;
  /** The element that dispatched it (`svc-decision`). */
  target: string;
}

/** The organisation's site. */
export interface ElementSite {
  /** `http://localhost:<port>`, an allowed origin of the sandbox application. */
  origin: string;
  /** `http://127.0.0.1:<port>` of the same server: an origin nobody registered. */
  thirdOrigin: string;
  /**
   * A checkout page with `<svc-decision token mode>` loaded from `/sdk/v1/svc.js`, recording every svc event in
   * `window.svcEvents`; with `forge`, it also embeds a third-origin frame that posts a forged `svc:complete`.
   */
  page(options: { token: string; mode?: 'embed' | 'popup' | 'redirect'; forge?: boolean }): string;
  /** A page on the site (`/back` shows `Svc.readRedirectResult()` as JSON in `#result`). */
  url(path: string): string;
}

// A frame on a third origin posting a well-formed svc:complete to its parent, exactly and with the wildcard.
const forgery = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ad</title></head><body><script>
  const params = new URLSearchParams(location.search);
  const message = (id) => ({ type: 'svc:complete', kind: 'consent', version: 2, ts: new Date().toISOString(), message_id: id,
    payload: { outcome: 'granted', exchange_token: 'f'.repeat(43), completed_at: new Date().toISOString() } });
  parent.postMessage(message(crypto.randomUUID()), params.get('target'));
  parent.postMessage(message(crypto.randomUUID()), '*');
  parent.postMessage({ forged: 2 }, params.get('target'));
</script></body></html>`;

const back = (service: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Back at the shop</title>
<script src="${service}/sdk/v1/svc.js"></script></head>
<body><h1>Back at the shop</h1><pre id="result"></pre>
<script>document.getElementById('result').textContent = JSON.stringify(Svc.readRedirectResult());</script></body></html>`;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return (server.address() as AddressInfo).port;
}

export const test = base.extend<{ events: (page: Page) => Promise<SeenEvent[]> }, { site: ElementSite }>({
  site: [
    async ({ svc }: { svc: Service }, use: (site: ElementSite) => Promise<void>) => {
      let origin = '';
      let thirdOrigin = '';
      const http = createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://site.invalid');
        let html: string;
        if (url.pathname === '/checkout') {
          const forge = url.searchParams.has('forge') ? `${thirdOrigin}/forge?target=${encodeURIComponent(origin)}` : null;
          html = checkout(svc.origin, url.searchParams.get('token') ?? '', url.searchParams.get('mode') ?? 'embed', forge);
        } else if (url.pathname === '/forge') {
          html = forgery;
        } else {
          html = back(svc.origin);
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(html);
      });
      const port = await listen(http);
      origin = `http://localhost:${port}`;
      thirdOrigin = `http://127.0.0.1:${port}`;
      const registered = await svc.api(`/api/v1/applications/${svc.server.sandbox.application_id}/allowed_origins`, {
        json: { allowed_origin: { origin } },
      });
      expect([200, 201]).toContain(registered.status);
      await use({
        origin,
        thirdOrigin,
        page: ({ token, mode = 'embed', forge = false }) =>
          `${origin}/checkout?${new URLSearchParams({ token, mode, ...(forge ? { forge: '1' } : {}) })}`,
        url: (path) => `${origin}${path}`,
      });
      await new Promise((resolve) => http.close(resolve));
    },
    { scope: 'worker' },
  ],

  events: async ({}, use) => {
    await use(async (page) => (await page.evaluate(() => (window as unknown as { svcEvents?: SeenEvent[] }).svcEvents)) ?? []);
  },
});

export { expect };
