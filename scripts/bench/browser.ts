// In-browser timings and leak checks of the elements, on loopback: the reference server started in-process on
// http://127.0.0.1:<port>, an organisation's page on http://localhost:<port2>, and each browser engine SVC_ENGINE
// names (comma-separated; default for this bench: all three, chromium,firefox,webkit): Chromium through
// Playwright, Firefox ESR through puppeteer-core over WebDriver BiDi, WebKitGTK's MiniBrowser through
// WebKitWebDriver (on an Xvfb screen it starts when DISPLAY is unset); scripts/engines.mjs finds the browsers and
// e2e/engines/driver.ts drives Firefox and WebKit. In every engine, one tab, timed inside the page:
//   1. script tag -> consent field rendered: the page inserts <script src=".../sdk/v1/svc.js"> and a field,
//      until the field shows its purpose checkboxes (script download from the HTTP cache after the first run,
//      parse, define, the render fetch, first render);
//   2. <svc-decision> connected -> svc-ready (the hosted frame loaded and said hello), and -> svc-error for a token the
//      service does not know (the hosted page says so at once, never the element's 8 s frame timeout);
//   3. form submit -> capture token written (the capture POST and the hidden input filled).
// Chromium only (they need CDP), when SVC_ENGINE includes chromium:
//   4. mount + unmount each element 1,000 times: heap growth after forced GC (CDP HeapProfiler.collectGarbage +
//      Runtime.getHeapUsage) and event listeners left on window and document (CDP DOMDebugger.getEventListeners),
//      which must be none.
// Median and p90 of BENCH_RUNS (20) after one warm-up, per engine; every run bounded by BENCH_RUN_TIMEOUT_MS in
// the page (and 10 s more on the Node side, for the navigation and the driver), the whole by
// BENCH_TOTAL_TIMEOUT_MS (420 s). Each engine's browser is launched once, used for its runs and closed. Prints one
// table with the engines side by side, their versions, then the leak checks. Not a test (it fails only when
// something breaks: a measurement that fails in an engine shows as "failed" and makes the exit status 1).
// Run: pnpm bench browser   (needs `pnpm run build`); one engine: SVC_ENGINE=webkit pnpm bench browser.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { CDPSession, Page } from 'playwright';
import { createCaptureFlow } from '../../e2e/pages/org-site.js';
import { paths, selectedEngines } from '../engines.mjs';
import { quantile, startBrowserBench } from './lib/browser-site.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const MOUNTS = Number(process.env.BENCH_MOUNTS ?? 1000);
const RUN_TIMEOUT_MS = Number(process.env.BENCH_RUN_TIMEOUT_MS ?? 15_000);
const TOTAL_TIMEOUT_MS = Number(process.env.BENCH_TOTAL_TIMEOUT_MS ?? 420_000);
const ENGINES = selectedEngines(process.env.SVC_ENGINE || 'all') as Array<'chromium' | 'firefox' | 'webkit'>;

/** Closes what is still open (browsers, WebKitWebDriver and its Xvfb, the server) when the total timeout fires. */
const cleanups = new Set<() => Promise<unknown>>();
/** Set when the total timeout fires: the bench stops where it is and prints nothing more. */
let gaveUp = false;
const total = setTimeout(() => {
  gaveUp = true;
  console.error(`browser bench: gave up after ${TOTAL_TIMEOUT_MS} ms`);
  const closing = Promise.allSettled([...cleanups].map((close) => close()));
  void Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 5_000))]).then(() => process.exit(1));
}, TOTAL_TIMEOUT_MS);
total.unref();

const median = (values: number[]) => quantile(values, 0.5);
const p90 = (values: number[]) => quantile(values, 0.9);
/** An error's first line, without webdriverio's wrapping of a script's own error. */
const message = (error: unknown) =>
  (error instanceof Error ? error.message : String(error))
    .split('\n')[0]!
    .replace(/^WebDriverError: (.*) when running "[^"]*" with method "\w+"$/, '$1');

/** What a measurement needs of a tab: the driver's Tab (Firefox, WebKit) has it; a Playwright page is adapted. */
interface TabLike {
  goto(url: string): Promise<void>;
  /** Runs `fn` (self-contained: it is sent as its source) in the page with serialisable arguments; awaits it. */
  evaluate<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>, ...args: A): Promise<R>;
}

/** A Playwright page as a TabLike: the call goes as a string expression, as the driver sends it. */
const playwrightTab = (page: Page): TabLike => ({
  async goto(url) {
    await page.goto(url);
  },
  evaluate: (fn, ...args) => page.evaluate(`(${fn.toString()})(...${JSON.stringify(args)})`) as never,
});

/** One engine's tab, the engine's version for the table, and how to close its browser. */
interface EngineSession {
  tab: TabLike;
  version: string;
  close(): Promise<void>;
}

/** The first line a program prints, or '' when it cannot run. */
async function firstLine(file: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(file, args, { timeout: 10_000 });
    return stdout.split('\n')[0]!.trim();
  } catch {
    return '';
  }
}

/**
 * The version of the browser behind a driver tab. The user agent is all the tab shows, and it is reduced: Firefox's
 * says `Firefox/153.0` for 153.x, WebKit's a frozen `AppleWebKit/605.1.15`. So the exact build comes from the
 * browser itself where it is cheap to ask (`firefox --version`; for WebKitGTK the Debian package that ships the
 * MiniBrowser), the user agent otherwise.
 */
async function driverVersion(engine: 'firefox' | 'webkit', userAgent: string): Promise<string> {
  if (engine === 'firefox') {
    const line = await firstLine(paths.firefox, ['--version']); // "Mozilla Firefox 153.7.0esr"
    return `${line.match(/Firefox [\w.]+/)?.[0] ?? `Firefox ${userAgent.match(/Firefox\/([\w.]+)/)?.[1] ?? '?'}`} (puppeteer-core, WebDriver BiDi)`;
  }
  const owner = (await firstLine('dpkg', ['-S', paths.webkitBrowser])).split(':')[0]; // "libwebkit2gtk-4.1-0:amd64: /usr/…"
  const version = owner ? (await firstLine('dpkg-query', ['-W', '-f', '${Version}', owner])).replace(/-[^-]*$/, '') : '';
  return `${version ? `WebKitGTK ${version}` : `WebKitGTK (user agent AppleWebKit/${userAgent.match(/AppleWebKit\/([\w.]+)/)?.[1] ?? '?'})`} MiniBrowser (WebKitWebDriver)`;
}

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

/** `promise`, or a rejection naming `what` after `ms`. */
function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer from the browser in ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Prints a Markdown table, the first column left-aligned and the others right-aligned. */
function table(head: string[], body: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of body) console.log(line(r));
}

async function main(): Promise<void> {
  // The organisation's pages: an empty one (the script is inserted by the measurement) and one with the script.
  const bench = await startBrowserBench('browser', (path) => path.startsWith('/loaded'), { chromium: ENGINES.includes('chromium') });
  cleanups.add(() => bench.close());
  const { service, sandbox, origin, newDecision } = bench;
  const flowId = await createCaptureFlow(bench.serviceUrl, sandbox.api_token, 'Bench newsletter');

  /** Launches `engine`'s browser with one tab. */
  const openEngine = async (engine: (typeof ENGINES)[number]): Promise<EngineSession> => {
    if (engine === 'chromium') {
      const context = await bench.browser.newContext();
      const page = await context.newPage();
      if (process.env.BENCH_DEBUG) page.on('console', (m) => console.log('  page:', m.text()));
      // The browser itself is the harness's: bench.close() closes it after the leak checks.
      return { tab: playwrightTab(page), version: `Chromium ${bench.browser.version()} (Playwright)`, close: () => context.close() };
    }
    // Loaded on demand, so a Chromium-only run needs neither puppeteer-core nor webdriverio.
    const { openTab } = await import('../../e2e/engines/driver.js');
    const tab = await openTab(engine);
    try {
      await tab.goto(`${origin}/empty`);
      const version = await driverVersion(engine, await tab.evaluate(() => navigator.userAgent));
      return { tab, version, close: () => tab.close() };
    } catch (error) {
      await tab.close();
      throw error;
    }
  };

  /** `<svc-decision>` for the token `tokenOf` answers, timed from its insertion to its first `event`. */
  const decisionUntil = (label: string, event: string, tokenOf: () => Promise<string>) => ({
    label,
    async once(tab: TabLike) {
      if (!(await tab.evaluate(() => location.pathname.startsWith('/loaded')))) await tab.goto(`${origin}/loaded`);
      const token = await tokenOf();
      return tab.evaluate(
        (t: string, name: string, timeout: number) =>
          new Promise<number>((resolve, reject) => {
            const el = document.createElement('svc-decision');
            el.setAttribute('token', t);
            const timer = setTimeout(() => reject(new Error(`no ${name}`)), timeout);
            el.addEventListener(
              name,
              () => {
                const elapsed = performance.now() - start;
                clearTimeout(timer);
                el.remove();
                resolve(elapsed);
              },
              { once: true },
            );
            const start = performance.now();
            document.getElementById('slot')!.append(el);
          }),
        token,
        event,
        RUN_TIMEOUT_MS,
      );
    },
  });

  // The measurements, one path for every engine: each run answers milliseconds measured inside the page.
  const measurements: Array<{ label: string; once: (tab: TabLike) => Promise<number> }> = [
    {
      label: 'script tag -> consent field rendered',
      async once(tab) {
        await tab.goto(`${origin}/empty`);
        return tab.evaluate(
          (src: string, flow: string, key: string, base: string, timeout: number) =>
            new Promise<number>((resolve, reject) => {
              const start = performance.now();
              const field = document.createElement('svc-consent-field');
              const timer = setTimeout(
                () =>
                  reject(
                    new Error(
                      `the field never rendered (${
                        customElements.get('svc-consent-field')
                          ? `defined, ${field.shadowRoot?.querySelectorAll('input[type=checkbox]').length ?? 'no shadow root, no'} checkbox(es)`
                          : 'never defined'
                      })`,
                    ),
                  ),
                timeout,
              );
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
            }),
          `${service}/sdk/v1/svc.js`,
          flowId,
          sandbox.publishable_key,
          service,
          RUN_TIMEOUT_MS,
        );
      },
    },
    decisionUntil('<svc-decision> connected -> svc-ready', 'svc-ready', newDecision),
    // A developer's mistake answered at once: the hosted page says the token is unknown, no 8 s frame timeout.
    decisionUntil('<svc-decision> unknown token -> svc-error', 'svc-error', async () => `dts_${'u'.repeat(43)}`),
    {
      label: 'form submit -> capture token written',
      async once(tab) {
        await tab.goto(`${origin}/loaded`);
        return tab.evaluate(
          (flow: string, key: string, base: string, timeout: number) =>
            new Promise<number>((resolve, reject) => {
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
            }),
          flowId,
          sandbox.publishable_key,
          service,
          RUN_TIMEOUT_MS,
        );
      },
    },
  ];

  const timed = async (tab: TabLike, label: string, once: (tab: TabLike) => Promise<number>) => {
    const run = () => {
      if (gaveUp) throw new Error('gave up');
      return bounded(once(tab), RUN_TIMEOUT_MS + 10_000, label);
    };
    await run(); // warm-up: the first visit fills the HTTP cache
    const times: number[] = [];
    for (let i = 0; i < RUNS; i += 1) times.push(await run());
    return `${median(times).toFixed(1)} ms (p90 ${p90(times).toFixed(1)})`;
  };

  try {
    // 1-3 in each engine, one engine at a time (the others closed or not yet launched).
    const columns: string[][] = [];
    const versions: string[] = [];
    const failures: string[] = [];
    for (const engine of ENGINES) {
      if (gaveUp) return;
      const started = Date.now();
      let session: EngineSession;
      try {
        session = await bounded(openEngine(engine), 60_000, `launching ${engine}`);
      } catch (error) {
        failures.push(`${engine}: could not start: ${message(error)}`);
        versions.push(`${engine}: did not start`);
        columns.push(measurements.map(() => 'not run'));
        continue;
      }
      const close = () => session.close();
      cleanups.add(close);
      const cells: string[] = [];
      try {
        for (const { label, once } of measurements) {
          try {
            cells.push(await timed(session.tab, label, once));
          } catch (error) {
            cells.push('failed');
            failures.push(`${engine}, ${label}: ${message(error)}`);
          }
        }
      } finally {
        cleanups.delete(close);
        await session.close().catch((error: unknown) => failures.push(`${engine}: closing: ${message(error)}`));
      }
      columns.push(cells);
      versions.push(`${engine} = ${session.version}`);
      if (process.env.BENCH_DEBUG) console.log(`  ${engine}: ${Date.now() - started} ms`);
    }

    if (gaveUp) return;
    console.log(`Elements on loopback, Node ${process.version}; median (and p90) of ${RUNS} runs after one warm-up, per engine`);
    table(
      ['measurement', ...ENGINES],
      measurements.map(({ label }, row) => [label, ...columns.map((cells) => cells[row]!)]),
    );
    console.log(`Engines: ${versions.join('; ')}`);
    if (ENGINES.some((engine) => engine !== 'chromium')) {
      console.log('(Firefox and WebKit give performance.now() in whole milliseconds to a page that is not cross-origin isolated)');
    }
    for (const failure of failures) console.error(`failed: ${failure}`);
    if (failures.length) process.exitCode = 1;
    console.log('');

    // 4. mount + unmount 1,000 times each: CDP, so Chromium only
    if (!ENGINES.includes('chromium')) {
      console.log('Leak checks (mount + unmount): skipped, they need CDP (Chromium only) and SVC_ENGINE has no chromium');
      return;
    }
    console.log(`Leak checks in Chromium ${bench.browser.version()} only (heap after forced GC and event listeners come from CDP)`);
    const leaks: string[][] = [];
    const context = await bench.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/loaded`);
    // Both elements defined up front (the script tag loads each on first use), so every cycle measures the same thing.
    await page.evaluate(() =>
      (window as unknown as { Svc: { load(...parts: string[]): Promise<unknown> } }).Svc.load('svc-decision', 'svc-consent-field'),
    );
    const cdp = await context.newCDPSession(page);
    await cdp.send('Runtime.enable');
    await cdp.send('HeapProfiler.enable');
    const token = await newDecision();
    const cycle = (tag: string, count: number) =>
      page.evaluate(
        async ([name, n, flow, key, base, t]) => {
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
        },
        [tag, count, flowId, sandbox.publishable_key, service, token] as const,
      );
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
      leaks.push([
        `<${tag}> x${MOUNTS}`,
        `${((heapAfter - heapBefore) / 1024).toFixed(1)} KiB`,
        `${leftover}`,
        `${windowBefore} / ${documentBefore}`,
        `${elapsed} ms`,
      ]);
    }
    await context.close();

    table(['mount + unmount', 'heap growth after GC', 'leftover listeners', 'listeners before (window / document)', 'time'], leaks);
    console.log(`(probe: ${probe} window listener(s) while one <svc-decision> is mounted, so the count is live)`);
    const leaked = leaks.filter((r) => r[2] !== '0');
    if (leaked.length) {
      console.error(`listeners left behind: ${leaked.map((r) => r[0]).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    cleanups.clear();
    await bench.close();
  }
}

// After the total timeout, what fails as the browsers close is no news: the timeout's handler exits with 1.
await main().catch((error: unknown) => {
  if (!gaveUp) throw error;
});
