// Both elements under a strict Content-Security-Policy on an organisation's page (its own loopback origin): no
// 'unsafe-inline', no 'unsafe-eval', scripts only from the page's own origin (a self-hosted copy of svc.js) or only
// with the page's nonce. The decision is completed in the embed, the consent field is captured and committed, and
// the browser reports no violation (a `securitypolicyviolation` listener from the first script, and the console).
import type { Page } from '@playwright/test';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { grantConsent } from './examples.fixtures.js';
import { expect, test as base } from './fixtures.js';
import { createCaptureFlow } from './pages/org-site.js';
import { sdkCopy } from './sdk-copy.js';

/** The policy of the `self` page: exactly the issue's three directives plus what the service needs. */
// #region self-policy
export function selfPolicy(service: string): string {
  return `default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self' ${service}; frame-src ${service}`;
}
// #endregion

/** The policy of the nonce page: only scripts carrying the page's nonce run. */
// #region nonce-policy
const NONCE = 'abc';

export function noncePolicy(service: string): string {
  return `default-src 'self'; script-src 'nonce-${NONCE}'; style-src 'self'; connect-src 'self' ${service}; frame-src ${service}; base-uri 'none'; object-src 'none'`;
}
// #endregion

interface Site {
  origin: string;
  commits: { status: number; channel?: string }[];
  exchanges: { status: number; purposes_granted?: string[] }[];
}

// The first script of the `self` page, external: it records violations before anything else runs.
const RECORDER = `window.cspViolations = [];
document.addEventListener('securitypolicyviolation', function (e) { window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI); });`;

// The page's own script: ask the backend for a decision, show it, hand the result back.
const APP = `(async function () {
  var element = document.querySelector('svc-decision');
  var created = await (await fetch('/api/decision', { method: 'POST' })).json();
  element.addEventListener('svc-complete', async function (event) {
    var answer = await fetch('/api/exchange', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session_token: created.session_token, exchange_token: event.detail.exchange_token }) });
    document.getElementById('decision-result').textContent = answer.ok ? 'verified' : 'not verified';
  });
  element.token = created.session_token;
})();`;

function page(service: string, publishableKey: string, flowId: string, nonce: boolean): string {
  const n = nonce ? ` nonce="${NONCE}"` : '';
  const recorder = nonce ? `<script${n}>${RECORDER}</script>` : '<script src="/recorder.js"></script>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Strict checkout</title>
<link rel="stylesheet" href="/site.css">
${recorder}
<script src="/vendor/svc.js"${n} defer></script>
<script src="/app.js"${n} defer></script>
</head>
<body>
<main>
<h1>Strict checkout</h1>
<h2>Confirm</h2>
<svc-decision trust-url="${service}"></svc-decision>
<p id="decision-result" role="status"></p>
<h2>Newsletter</h2>
<form action="/signup" method="post">
<label for="email">Email address</label>
<input id="email" name="email" type="email" required data-svc-subject="email">
<svc-consent-field name="consent" flow="${flowId}" publishable-key="${publishableKey}" base-url="${service}"></svc-consent-field>
<button type="submit">Sign up</button>
</form>
</main>
</body>
</html>`;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const test = base.extend<object, { site: Site }>({
  site: [
    async ({ svc }, use) => {
      const { sandbox } = svc.server;
      const service = svc.origin;
      const flowId = await createCaptureFlow(svc.server.url, sandbox.api_token, 'Strict newsletter');
      const site: Site = { origin: '', commits: [], exchanges: [] };
      const api = (path: string, json: unknown) =>
        fetch(`${service}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${sandbox.api_token}`, 'content-type': 'application/json' },
          body: JSON.stringify(json),
        });
      const http = createServer((req, res) => {
        void (async () => {
          const url = new URL(req.url ?? '/', 'http://site.invalid');
          const nonce = url.searchParams.get('policy') === 'nonce';
          const policy = nonce ? noncePolicy(service) : selfPolicy(service);
          const send = (type: string, text: string, status = 200) =>
            res
              .writeHead(status, {
                'content-type': `${type}; charset=utf-8`,
                'cache-control': 'no-store',
                'content-security-policy': policy,
              })
              .end(text);
          if (url.pathname === '/checkout.html') return send('text/html', page(service, sandbox.publishable_key, flowId, nonce));
          if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();
          if (url.pathname === '/recorder.js') return send('text/javascript', RECORDER);
          if (url.pathname === '/app.js') return send('text/javascript', APP);
          // The self-hosted copy of the script tag and its chunks, as a site with script-src 'self' keeps it.
          const copy = url.pathname.startsWith('/vendor/') ? sdkCopy(url.pathname.slice('/vendor/'.length)) : undefined;
          if (copy) return send('text/javascript', copy.toString('utf8'));
          if (url.pathname === '/site.css')
            return send('text/css', 'body { font: 16px system-ui, sans-serif; } svc-decision { display: block; max-width: 32rem; }');
          if (req.method === 'POST' && url.pathname === '/api/decision') {
            const created = await api('/api/v1/decisions', {
              kind: 'consent',
              subject_ref: sandbox.flow_id,
              delivery_mode: 'embed',
              embed_origin: site.origin,
            });
            const json = (await created.json()) as { decision: { session_token: string } };
            return send('application/json', JSON.stringify({ session_token: json.decision.session_token }), created.status);
          }
          if (req.method === 'POST' && url.pathname === '/api/exchange') {
            const { session_token, exchange_token } = JSON.parse(await body(req)) as Record<string, string>;
            const answer = await api(`/api/v1/decisions/${session_token}/exchange`, { exchange_token });
            const json = (await answer.json()) as { claims?: { purposes_granted?: string[] } };
            site.exchanges.push({ status: answer.status, purposes_granted: json.claims?.purposes_granted });
            return send('application/json', '{}', answer.ok ? 200 : 400);
          }
          if (req.method === 'POST' && url.pathname === '/signup') {
            const form = new URLSearchParams(await body(req));
            const answer = await api(`/api/v1/decisions/${form.get('svc_capture_token')}/authorize`, {
              subject: { email: form.get('email') },
            });
            const json = (await answer.json()) as { decision?: { channel: string } };
            site.commits.push({ status: answer.status, channel: json.decision?.channel });
            return send(
              'text/html',
              `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Thanks</title></head><body><main><h1 id="outcome">${answer.ok ? 'recorded' : 'not recorded'}</h1></main></body></html>`,
            );
          }
          return send('text/plain', 'not found', 404);
        })().catch((error: unknown) => res.writeHead(500).end(String(error)));
      });
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      site.origin = `http://localhost:${(http.address() as AddressInfo).port}`;
      const registered = await svc.api(`/api/v1/applications/${sandbox.application_id}/allowed_origins`, {
        json: { allowed_origin: { origin: site.origin } },
      });
      expect([200, 201]).toContain(registered.status);
      await use(site);
      await new Promise((resolve) => http.close(resolve));
    },
    { scope: 'worker' },
  ],
});

function consoleProblems(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy|Refused to/i.test(m.text())) seen.push(m.text());
  });
  page.on('pageerror', (e) => seen.push(`pageerror: ${e.message}`));
  return seen;
}

const violations = (page: Page) => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

for (const policy of ['self', 'nonce'] as const) {
  test(`both elements render and work under ${policy === 'self' ? "script-src 'self'" : `script-src 'nonce-${NONCE}'`}, with no violation`, async ({
    page,
    site,
  }) => {
    const problems = consoleProblems(page);
    const response = await page.goto(`${site.origin}/checkout.html${policy === 'nonce' ? '?policy=nonce' : ''}`);
    const header = response!.headers()['content-security-policy']!;
    expect(header).not.toContain('unsafe');
    if (policy === 'self') expect(header).toContain("default-src 'self'; script-src 'self'; style-src 'self'");
    else expect(header).toContain(`script-src 'nonce-${NONCE}'`);

    // The decision, completed in the embed; the backend exchanges what the page hands it.
    const frame = page.frameLocator('svc-decision iframe');
    await grantConsent(frame);
    await expect(page.locator('#decision-result')).toHaveText('verified');
    expect(site.exchanges.at(-1)).toEqual({ status: 200, purposes_granted: ['newsletter'] });

    // The consent field rendered with its own styles (constructable stylesheets: style-src 'self' suffices).
    const field = page.locator('svc-consent-field');
    await expect(page.getByRole('checkbox', { name: 'Email newsletter' })).toBeVisible();
    const styled = await field.evaluate(
      (el) => (el.shadowRoot?.adoptedStyleSheets.length ?? 0) > 0 || (el.shadowRoot?.querySelectorAll('style').length ?? 0) > 0,
    );
    expect(styled).toBe(true);
    expect(await violations(page)).toEqual([]);

    await page.getByLabel('Email address').fill('ada@example.com');
    await page.getByRole('checkbox', { name: 'Email newsletter' }).check();
    const before = await violations(page);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.locator('#outcome')).toHaveText('recorded');
    expect(site.commits.at(-1)).toEqual({ status: 200, channel: 'embedded_field' });
    expect(before).toEqual([]);
    expect(problems).toEqual([]);
  });
}

test('a script without the nonce is blocked on the nonce page (the policy is really enforced)', async ({ page, site }) => {
  await page.goto(`${site.origin}/checkout.html?policy=nonce`);
  await expect(page.getByRole('checkbox', { name: 'Email newsletter' })).toBeVisible();
  const blocked = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        document.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), { once: true });
        const s = document.createElement('script');
        s.src = '/app.js';
        document.head.append(s);
      }),
  );
  expect(blocked).toBe('script-src-elem');
});
