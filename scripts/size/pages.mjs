// Measures what organisation pages download from the script tag, in real Chromium: a reference server with its
// sandbox, plain HTML pages on another loopback origin that load `/sdk/v1/svc.js` as a customer's page would, and
// for each page the gzip -9 size of every response body it fetched from `/sdk/v1/`. Each page gets a fresh
// browser context, so nothing comes from a cache.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright';

const ARGS = ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** The HTML of a page with `elements` on it ('snippet': a form with its own consent checkbox). */
function html(service, sandbox, elements, token) {
  const body = elements.map((element) => {
    if (element === 'svc-decision') return `<svc-decision token="${token}"></svc-decision>`;
    if (element === 'svc-inbox') return '<svc-inbox></svc-inbox>';
    if (element === 'svc-records') return '<svc-records></svc-records>';
    if (element === 'svc-data-requests') return '<svc-data-requests></svc-data-requests>';
    if (element === 'svc-credentials') return '<svc-credentials></svc-credentials>';
    if (element === 'svc-delegations') return '<svc-delegations></svc-delegations>';
    if (element === 'svc-agreements') return '<svc-agreements></svc-agreements>';
    // Every other people's element (<svc-vouches>, …) is an empty tag of its own name, as these are.
    if (element !== 'svc-consent-field' && element !== 'snippet') return `<${element}></${element}>`;
    const control =
      element === 'snippet'
        ? '<label><input type="checkbox" name="news" data-svc-purpose="newsletter"> Send me the newsletter</label>'
        : '<svc-consent-field name="consent"></svc-consent-field>';
    const flow = sandbox.capture_flow_id;
    const form = element === 'snippet' ? ` data-svc-flow="${flow}" data-svc-publishable-key="${sandbox.publishable_key}"` : '';
    const field = control.replace('<svc-consent-field', `<svc-consent-field flow="${flow}" publishable-key="${sandbox.publishable_key}"`);
    return `<form action="/signup" method="post"${form}><label>Email <input name="email" type="email"></label>${field}<button>Sign up</button></form>`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Size</title>
<script src="${service}/sdk/v1/svc.js" defer></script></head><body><main>${body.join('\n')}</main></body></html>`;
}

/**
 * Loads each page and returns, per key, the gzip -9 bytes fetched from `/sdk/v1/` in all and file by file.
 * @param {{key: string, elements: string[]}[]} pages
 */
export async function measurePages(pages) {
  const { startServer } = await import('../../packages/server/dist/index.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-size-'));
  const server = await startServer({ port: 0, dataDir });
  const site = createServer((req, res) => {
    const page = pages.find((p) => req.url === `/${p.key}.html`);
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.html);
  });
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ARGS });
  try {
    await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${site.address().port}`;
    const { sandbox, url: service } = server;
    const api = async (path, body) => {
      const res = await fetch(service + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${sandbox.api_token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    await api(`/api/v1/applications/${sandbox.application_id}/allowed_origins`, { allowed_origin: { origin } });
    for (const page of pages) {
      const token = page.elements.includes('svc-decision')
        ? (await api('/api/v1/decisions', { kind: 'consent', subject_ref: sandbox.flow_id, delivery_mode: 'embed', embed_origin: origin }))
            .decision.session_token
        : undefined;
      page.html = html(service, sandbox, page.elements, token);
    }

    const results = new Map();
    for (const page of pages) {
      const context = await browser.newContext();
      const tab = await context.newPage();
      const fetched = [];
      tab.on('response', (response) => {
        if (response.url().startsWith(`${service}/sdk/v1/`)) fetched.push(response);
      });
      // The snippet's chunk defines nothing: its arrival is what the page waits for.
      const snippet = page.elements.includes('snippet') && tab.waitForResponse((r) => r.url().includes('/sdk/v1/svc-capture-'));
      await tab.goto(`${origin}/${page.key}.html`);
      const tags = page.elements.filter((e) => e !== 'snippet');
      await tab.waitForFunction((names) => names.every((name) => customElements.get(name)), tags);
      await snippet;
      await tab.waitForLoadState('networkidle');
      const files = [];
      for (const response of fetched) {
        const name = new URL(response.url()).pathname.split('/').pop();
        files.push({ name, gzip: gzipSync(await response.body(), { level: 9 }).length });
      }
      results.set(page.key, { gzip: files.reduce((sum, f) => sum + f.gzip, 0), files });
      await context.close();
    }
    return results;
  } finally {
    await browser.close();
    await new Promise((resolve) => site.close(resolve));
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
