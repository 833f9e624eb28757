// In-browser timings and leak checks of the elements, on loopback, in real Chromium (Playwright): the reference
// server started in-process on http://127.0.0.1:<port>, an organisation's page on http://localhost:<port2>.
//   1. script tag -> consent field rendered: a fresh page inserts <script src=".../sdk/v1/svc.js"> and a field,
//      until the field shows its purpose checkboxes (script download from the HTTP cache after the first run,
//      parse, define, the render fetch, first render);
//   2. <svc-decision> connected -> svc-ready (the hosted frame loaded and said hello);
//   3. form submit -> capture token written (the capture POST and the hidden input filled);
//   4. mount + unmount each element 1,000 times: heap growth after forced GC (CDP HeapProfiler.collectGarbage +
//      Runtime.getHeapUsage) and event listeners left on window and document (CDP DOMDebugger.getEventListeners),
//      which must be none.
// Median of BENCH_RUNS (20) after one warm-up; every run bounded by BENCH_RUN_TIMEOUT_MS, the whole by
// BENCH_TOTAL_TIMEOUT_MS (240 s). Prints a table. Not a test (it fails only when something breaks).
// Run: pnpm bench browser   (needs `pnpm run build`).
import type { CDPSession, Page } from 'playwright';
import { createCaptureFlow } from '../../e2e/pages/org-site.js';
import { quantile, startBrowserBench } from './lib/browser-site.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const MOUNTS = Number(process.env.BENCH_MOUNTS ?? 1000);
const RUN_TIMEOUT_MS = Number(process.env.BENCH_RUN_TIMEOUT_MS ?? 15_000);
const TOTAL_TIMEOUT_MS = Number(process.env.BENCH_TOTAL_TIMEOUT_MS ?? 240_000);

const total = setTimeout(() => {
  console.error(`browser bench: gave up after ${TOTAL_TIMEOUT_MS} ms`);
  process.exit(1);
}, TOTAL_TIMEOUT_MS);
total.unref();

const median = (values: number[]) => quantile(values, 0.5);
const p90 = (values: number[]) => quantile(values, 0.9);

async function listenerCount(cdp: CDPSession, expression: 'window' | 'document'): Promise<number> {
  const { result } = await cdp.send('Runtime.evaluate', { expression });
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId!, depth: 0 });
  await cdp.send('Runtime.releaseObject', { objectId: result.objectId! });
  return listeners.length;
}

async function heapAfterGc(cdp: CDPSession): Promise<number> {
  for (let i = 0; i < 3; i += 1) await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize;
}

async function main(): Promise<void> {
  // The organisation's pages: an empty one (the script is inserted by the measurement) and one with the script.
  const bench = await startBrowserBench('browser', (path) => path.startsWith('/loaded'));
  const { browser, service, sandbox, origin, newDecision } = bench;
  const flowId = await createCaptureFlow(bench.serviceUrl, sandbox.api_token, 'Bench newsletter');
  const rows: string[][] = [];
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  const timed = async (label: string, once: (page: Page) => Promise<number>) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    if (process.env.BENCH_DEBUG) page.on('console', (m) => console.log('  page:', m.text()));
    await once(page); // warm-up: the first visit fills the HTTP cache
    const times: number[] = [];
    for (let i = 0; i < RUNS; i += 1) times.push(await once(page));
    rows.push([label, ms(median(times)), ms(Math.min(...times)), ms(p90(times)), ms(Math.max(...times))]);
    await context.close();
  };

  try {
    // 1. script tag -> consent field rendered
    await timed('script tag -> consent field rendered', async (page) => {
      await page.goto(`${origin}/empty`);
      return page.evaluate(([src, flow, key, base, timeout]) => new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the field never rendered')), timeout);
        const start = performance.now();
        const field = document.createElement('svc-consent-field');
        field.setAttribute('flow', flow);
        field.setAttribute('publishable-key', key);
        field.setAttribute('base-url', base);
        const form = document.createElement('form');
        form.append(field);
        document.getElementById('slot')!.append(form);
        const script = document.createElement('script');
        script.src = src;
        document.head.append(script);
        // Once defined, watch the shadow tree (no polling: a busy loop would starve the script's own tasks).
        void customElements.whenDefined('svc-consent-field').then(() => {
          const root = field.shadowRoot!;
          const observer = new MutationObserver(() => {
            if (!root.querySelector('input[type=checkbox]')) return;
            observer.disconnect();
            clearTimeout(timer);
            resolve(performance.now() - start);
          });
          observer.observe(root, { childList: true, subtree: true });
        });
      }), [`${service}/sdk/v1/svc.js`, flowId, sandbox.publishable_key, service, RUN_TIMEOUT_MS] as const);
    });

    // 2. <svc-decision> connected -> svc-ready
    await timed('<svc-decision> connected -> svc-ready', async (page) => {
      if (!page.url().includes('/loaded')) await page.goto(`${origin}/loaded`);
      const token = await newDecision();
      return page.evaluate(([t, timeout]) => new Promise<number>((resolve, reject) => {
        const el = document.createElement('svc-decision');
        el.setAttribute('token', t);
        const timer = setTimeout(() => reject(new Error('no svc-ready')), timeout);
        el.addEventListener('svc-ready', () => {
          const elapsed = performance.now() - start;
          clearTimeout(timer);
          el.remove();
          resolve(elapsed);
        }, { once: true });
        const start = performance.now();
        document.getElementById('slot')!.append(el);
      }), [token, RUN_TIMEOUT_MS] as const);
    });

    // 3. form submit -> capture token written
    await timed('form submit -> capture token written', async (page) => {
      await page.goto(`${origin}/loaded`);
      return page.evaluate(([flow, key, base, timeout]) => new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no capture token')), timeout);
        const form = document.createElement('form');
        form.innerHTML = '<input name="email" value="bench@example.com" data-svc-subject="email">';
        const field = document.createElement('svc-consent-field');
        field.setAttribute('name', 'consent');
        field.setAttribute('flow', flow);
        field.setAttribute('publishable-key', key);
        field.setAttribute('base-url', base);
        form.append(field);
        form.addEventListener('submit', (event) => event.preventDefault()); // stay on the page
        document.getElementById('slot')!.append(form);
        let start = 0;
        form.addEventListener('svc-capture', () => {
          const written = (form.querySelector('input[name=svc_capture_token]') as HTMLInputElement | null)?.value ?? '';
          if (written === '') return reject(new Error('svc-capture without a token in the form'));
          clearTimeout(timer);
          resolve(performance.now() - start);
        });
        // The script tag defines the field once its chunk arrives; its shadow root exists from then on.
        void customElements.whenDefined('svc-consent-field').then(() => {
          const root = field.shadowRoot!;
          const observer = new MutationObserver(() => {
            const box = root.querySelector('input[type=checkbox]:not([disabled])') as HTMLInputElement | null;
            if (!box || start !== 0) return;
            observer.disconnect();
            box.click();
            start = performance.now();
            form.requestSubmit();
          });
          observer.observe(root, { childList: true, subtree: true });
        });
      }), [flowId, sandbox.publishable_key, service, RUN_TIMEOUT_MS] as const);
    });

    // 4. mount + unmount 1,000 times each
    const leaks: string[][] = [];
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/loaded`);
    // Both elements defined up front (the script tag loads each on first use), so every cycle measures the same thing.
    await page.evaluate(() => (window as unknown as { Svc: { load(...parts: string[]): Promise<unknown> } }).Svc.load('svc-decision', 'svc-consent-field'));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Runtime.enable');
    await cdp.send('HeapProfiler.enable');
    const token = await newDecision();
    const cycle = (tag: string, count: number) => page.evaluate(async ([name, n, flow, key, base, t]) => {
      const slot = document.getElementById('slot')!;
      for (let i = 0; i < n; i += 1) {
        const el = document.createElement(name) as HTMLElement & { updateComplete?: Promise<unknown> };
        if (name === 'svc-consent-field') {
          el.setAttribute('flow', flow);
          el.setAttribute('publishable-key', key);
          el.setAttribute('base-url', base);
          const form = document.createElement('form');
          form.append(el);
          slot.append(form);
          await el.updateComplete;
          form.remove();
        } else {
          el.setAttribute('token', t);
          slot.append(el);
          await el.updateComplete;
          el.remove();
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 200)); // let aborted fetches and frames settle
    }, [tag, count, flowId, sandbox.publishable_key, service, token] as const);
    // The probe sees listeners when there are some: one <svc-decision> mounted listens for its frame's messages.
    await page.evaluate((t) => {
      const el = document.createElement('svc-decision');
      el.id = 'probe';
      el.setAttribute('token', t);
      document.getElementById('slot')!.append(el);
    }, token);
    const probe = await listenerCount(cdp, 'window');
    await page.evaluate(() => document.getElementById('probe')!.remove());
    for (const tag of ['svc-consent-field', 'svc-decision']) {
      await cycle(tag, 50); // warm-up: lazy one-time state (style sheets, templates) is not a leak
      const heapBefore = await heapAfterGc(cdp);
      const windowBefore = await listenerCount(cdp, 'window');
      const documentBefore = await listenerCount(cdp, 'document');
      const start = Date.now();
      await cycle(tag, MOUNTS);
      const elapsed = Date.now() - start;
      const heapAfter = await heapAfterGc(cdp);
      const leftover = (await listenerCount(cdp, 'window')) - windowBefore + (await listenerCount(cdp, 'document')) - documentBefore;
      leaks.push([`<${tag}> x${MOUNTS}`, `${((heapAfter - heapBefore) / 1024).toFixed(1)} KiB`, `${leftover}`,
        `${windowBefore} / ${documentBefore}`, `${elapsed} ms`]);
    }
    await context.close();

    console.log(`Elements in Chromium ${browser.version()} on loopback, Node ${process.version}; median of ${RUNS} after one warm-up`);
    const table = (head: string[], body: string[][]) => {
      const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
      const line = (r: string[]) => `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
      console.log(line(head));
      console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
      for (const r of body) console.log(line(r));
    };
    table(['timing', 'median', 'min', 'p90', 'max'], rows);
    console.log('');
    table(['mount + unmount', 'heap growth after GC', 'leftover listeners', 'listeners before (window / document)', 'time'], leaks);
    console.log(`(probe: ${probe} window listener(s) while one <svc-decision> is mounted, so the count is live)`);
    const leaked = leaks.filter((r) => r[2] !== '0');
    if (leaked.length) {
      console.error(`listeners left behind: ${leaked.map((r) => r[0]).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    await bench.close();
  }
}

await main();
