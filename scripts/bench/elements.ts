// Time from <svc-decision> connection to `svc-ready`, on loopback, in real Chromium (Playwright): the reference
// server on http://127.0.0.1:<port>, an organisation's page on http://localhost:<port2> that loaded the element from
// the server's /sdk/v1/svc.js. Each run appends a new element for a fresh decision (so the hosted page, its
// bundle and the API round trips are all in it) and removes it once ready. One warm-up run, then BENCH_RUNS
// (default 20) measured ones; each run is bounded by BENCH_RUN_TIMEOUT_MS (default 15000).
// Run: pnpm bench elements   (needs `pnpm run build`: the SDK bundle and the hosted page bundle come from dist/).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright';
import { startServer } from '@svc/server';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const RUN_TIMEOUT_MS = Number(process.env.BENCH_RUN_TIMEOUT_MS ?? 15_000);

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-elements-'));
  const server = await startServer({ port: 0, host: '127.0.0.1', dataDir });
  const service = new URL(server.url).origin;
  const api = async (path: string, json: unknown) => {
    const res = await fetch(server.url + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.sandbox.api_token}`, 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { decision: { session_token: string } };
  };

  const site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench</title>
<script src="${service}/sdk/v1/svc.js"></script></head><body><main id="slot"></main></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://localhost:${(site.address() as AddressInfo).port}`;
  await api(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, { allowed_origin: { origin } });

  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(origin);
    const once = async (): Promise<number> => {
      const { decision } = await api('/api/v1/decisions', {
        kind: 'consent', subject_ref: server.sandbox.flow_id, delivery_mode: 'embed', embed_origin: origin,
      });
      return page.evaluate(
        ([token, timeout]) =>
          new Promise<number>((resolve, reject) => {
            const el = document.createElement('svc-decision');
            el.setAttribute('token', token);
            const timer = setTimeout(() => reject(new Error('no svc-ready')), timeout);
            el.addEventListener('svc-ready', () => {
              const ms = performance.now() - start;
              clearTimeout(timer);
              el.remove();
              resolve(ms);
            }, { once: true });
            const start = performance.now();
            document.getElementById('slot')!.append(el);
          }),
        [decision.session_token, RUN_TIMEOUT_MS] as const,
      );
    };
    const cold = await once();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i += 1) times.push(await once());
    times.sort((a, b) => a - b);
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    console.log(`<svc-decision> connection -> svc-ready, loopback, Chromium ${browser.version()}, Node ${process.version}`);
    console.log(`  first (cold caches): ${ms(cold)}`);
    console.log(`  median of ${RUNS}:        ${ms(quantile(times, 0.5))}   (min ${ms(times[0]!)}, p90 ${ms(quantile(times, 0.9))}, max ${ms(times.at(-1)!)})`);
  } finally {
    await browser.close();
    site.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
