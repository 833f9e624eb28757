// Time from <svc-decision> connection to `svc-ready`, on loopback, in real Chromium (Playwright): the reference
// server on http://127.0.0.1:<port>, an organisation's page on http://localhost:<port2> that loaded the element from
// the server's /sdk/v1/svc.js. Each run appends a new element for a fresh decision (so the hosted page, its
// bundle and the API round trips are all in it) and removes it once ready. One warm-up run, then BENCH_RUNS
// (default 20) measured ones; each run is bounded by BENCH_RUN_TIMEOUT_MS (default 15000).
// Run: pnpm bench elements   (needs `pnpm run build`: the SDK bundle and the hosted page bundle come from dist/).
import { quantile, startBrowserBench } from './lib/browser-site.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const RUN_TIMEOUT_MS = Number(process.env.BENCH_RUN_TIMEOUT_MS ?? 15_000);

async function main(): Promise<void> {
  const bench = await startBrowserBench('elements', () => true);
  const { browser, origin } = bench;
  try {
    const page = await browser.newPage();
    await page.goto(origin);
    const once = async (): Promise<number> => {
      const token = await bench.newDecision();
      return page.evaluate(
        ([token, timeout]) =>
          new Promise<number>((resolve, reject) => {
            const el = document.createElement('svc-decision');
            el.setAttribute('token', token);
            const timer = setTimeout(() => reject(new Error('no svc-ready')), timeout);
            el.addEventListener(
              'svc-ready',
              () => {
                const ms = performance.now() - start;
                clearTimeout(timer);
                el.remove();
                resolve(ms);
              },
              { once: true },
            );
            const start = performance.now();
            document.getElementById('slot')!.append(el);
          }),
        [token, RUN_TIMEOUT_MS] as const,
      );
    };
    const cold = await once();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i += 1) times.push(await once());
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    console.log(`<svc-decision> connection -> svc-ready, loopback, Chromium ${browser.version()}, Node ${process.version}`);
    console.log(`  first (cold caches): ${ms(cold)}`);
    console.log(
      `  median of ${RUNS}:        ${ms(quantile(times, 0.5))}   (min ${ms(Math.min(...times))}, p90 ${ms(quantile(times, 0.9))}, max ${ms(Math.max(...times))})`,
    );
  } finally {
    await bench.close();
  }
}

await main();
