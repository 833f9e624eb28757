// The harness the in-browser benchmarks share: the reference server in-process on http://127.0.0.1:<port>, an
// organisation's page on http://localhost:<port2> (a different origin, allowed by the sandbox application), and
// Debian's Chromium (or CHROME_PATH) through Playwright, launched as the test configs launch it (unless a bench
// asks for no Chromium: `{ chromium: false }`).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright';
import { startServer } from '@svc/server';

/** A running server, organisation site and browser; `close()` stops all three and removes the data directory. */
export interface BrowserBench {
  /** Chromium (Playwright); throws when the bench was started with `{ chromium: false }`. */
  readonly browser: Browser;
  /** The reference server's origin, where `/sdk/v1/svc.js` is served. */
  service: string;
  /** The reference server's base URL (the API lives under it). */
  serviceUrl: string;
  sandbox: Awaited<ReturnType<typeof startServer>>['sandbox'];
  /** The organisation site's origin. */
  origin: string;
  /** POSTs JSON to the API with the sandbox API token and returns the answer's JSON (throws on a non-2xx). */
  post<T>(path: string, json: unknown): Promise<T>;
  /** A fresh embed decision for the sandbox's consent flow, shown on the organisation site; its session token. */
  newDecision(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the server, the organisation site and Chromium (unless `chromium` is false). The site answers every path
 * with an empty page (a `main#slot`); paths for which `withScript` is true also load the script tag from the server.
 */
export async function startBrowserBench(
  name: string,
  withScript: (path: string) => boolean,
  { chromium: launchChromium = true }: { chromium?: boolean } = {},
): Promise<BrowserBench> {
  const dataDir = mkdtempSync(join(tmpdir(), `svc-bench-${name}-`));
  // Request limits off: the runs load the same pages and fields from one address far faster than any visitor would.
  const server = await startServer({ port: 0, host: '127.0.0.1', dataDir, rateLimits: false });
  const service = new URL(server.url).origin;
  const { sandbox } = server;
  const post = async <T>(path: string, json: unknown): Promise<T> => {
    const res = await fetch(server.url + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.api_token}`, 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };

  const site = createServer((req, res) => {
    const script = withScript(req.url ?? '/') ? `<script src="${service}/sdk/v1/svc.js"></script>` : '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench</title>
${script}</head><body><main id="slot"></main></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://localhost:${(site.address() as AddressInfo).port}`;
  await post(`/api/v1/applications/${sandbox.application_id}/allowed_origins`, { allowed_origin: { origin } });

  const browser = launchChromium
    ? await chromium.launch({
        executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
        args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      })
    : undefined;
  return {
    get browser() {
      if (!browser) throw new Error(`bench ${name}: Chromium was not launched (started with { chromium: false })`);
      return browser;
    },
    service,
    serviceUrl: server.url,
    sandbox,
    origin,
    post,
    newDecision: async () =>
      (
        await post<{ decision: { session_token: string } }>('/api/v1/decisions', {
          kind: 'consent',
          subject_ref: sandbox.flow_id,
          delivery_mode: 'embed',
          embed_origin: origin,
        })
      ).decision.session_token,
    async close() {
      await browser?.close();
      site.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The value at quantile `q` (0..1) of `values`. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
