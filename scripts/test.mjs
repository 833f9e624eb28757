#!/usr/bin/env node
// Runs every test runner (the formatter check, the scripts' types, node unit tests, the packed packages, @web/test-runner in Chromium, Firefox ESR and WebKitGTK,
// Playwright e2e in Chromium and the e2e/engines/ subset in Firefox ESR and WebKitGTK), then prints one closing line
// `N passed, N failed` summed over all of them.
// Usage: node scripts/test.mjs [format|types|unit|packages|browser|e2e]...
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { selectedEngines } from './engines.mjs';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, '.test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

function find(dir, test) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : find(path, test);
    return test(entry.name) ? [relative(root, path)] : [];
  });
}

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

function readCounts(file, status) {
  if (!existsSync(file)) return { passed: 0, failed: status === 0 ? 0 : 1, skipped: 0 };
  const counts = JSON.parse(readFileSync(file, 'utf8'));
  // A runner that exits non-zero with every test passing still failed (a crash, a load error).
  if (status !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
}

const runners = {
  // The formatter (Biome, biome.json) over the sources: a file it would print differently fails, and `pnpm format`
  // writes it.
  format() {
    const status = run(join(root, 'node_modules', '.bin', 'biome'), ['format', '--max-diagnostics=20', '.']);
    return { passed: status === 0 ? 1 : 0, failed: status === 0 ? 0 : 1, skipped: 0 };
  },
  // The types of what the package builds do not cover: the repository's scripts and tests, and the example site the
  // docs quote (scripts/tsconfig.json). The packages' own types are checked by their build (tsc -b).
  types() {
    const status = run('pnpm', ['exec', 'tsc', '-p', 'scripts/tsconfig.json']);
    return { passed: status === 0 ? 1 : 0, failed: status === 0 ? 0 : 1, skipped: 0 };
  },
  unit() {
    const files = [
      ...find(join(root, 'packages'), (n) => n.endsWith('.test.ts') && !n.endsWith('.browser.test.ts')),
      ...find(join(root, 'scripts'), (n) => n.endsWith('.test.ts')),
    ];
    if (files.length === 0) return { passed: 0, failed: 0, skipped: 0 };
    const file = join(out, 'unit.json');
    // SVC_TEST_CONCURRENCY=N runs N files at once; unset, one fewer than the cores but at least two: a file spends
    // much of its time starting (loading the sources through tsx) or waiting on its server, so two share two cores.
    const concurrency = [`--test-concurrency=${process.env.SVC_TEST_CONCURRENCY || Math.max(2, availableParallelism() - 1)}`];
    const status = run(process.execPath, [
      '--conditions=source',
      '--import',
      'tsx',
      '--test',
      ...concurrency,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/count-reporter.mjs',
      `--test-reporter-destination=${file}`,
      ...files,
    ]);
    return readCounts(file, status);
  },
  // The packed tarballs of @svc/client and @svc/server: publint, attw, and installed into a scratch project
  // (scripts/packages/). Needs `pnpm run build`.
  packages() {
    const files = find(join(root, 'scripts', 'packages'), (n) => n.endsWith('.test.mjs'));
    if (files.length === 0) return { passed: 0, failed: 0, skipped: 0 };
    const file = join(out, 'packages.json');
    const status = run(process.execPath, [
      '--test',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/count-reporter.mjs',
      `--test-reporter-destination=${file}`,
      ...files,
    ]);
    return readCounts(file, status);
  },
  browser() {
    if (find(join(root, 'packages'), (n) => n.endsWith('.browser.test.ts')).length === 0) {
      return { passed: 0, failed: 0, skipped: 0 };
    }
    // One run per engine (SVC_ENGINE, default all three), so each engine's count and time is its own line.
    const total = { passed: 0, failed: 0, skipped: 0 };
    for (const engine of selectedEngines(process.env.SVC_ENGINE || 'all')) {
      const file = join(out, `browser-${engine}.json`);
      const started = Date.now();
      const status = run('pnpm', ['exec', 'wtr', '--config', 'web-test-runner.config.mjs'], { SVC_WTR_COUNTS: file, SVC_ENGINE: engine });
      const counts = readCounts(file, status);
      console.log(
        `== browser (${engine}): ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped in ${Math.round((Date.now() - started) / 1000)} s ==`,
      );
      for (const key of Object.keys(total)) total[key] += counts[key];
    }
    return total;
  },
  e2e() {
    if (find(join(root, 'e2e'), (n) => n.endsWith('.spec.ts')).length === 0) return { passed: 0, failed: 0, skipped: 0 };
    const file = join(out, 'e2e.json');
    const status = run('pnpm', ['exec', 'playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: file });
    const stats = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).stats : { expected: 0, flaky: 0, unexpected: 0, skipped: 0 };
    const counts = { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
    // A crash, a load error: Playwright exits non-zero with nothing counted failed.
    if (status !== 0 && counts.failed === 0) counts.failed = 1;
    console.log(`== e2e (chromium, Playwright): ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped ==`);
    // The subset of e2e/engines/ in the other engines SVC_ENGINE names (default both), one count line each.
    for (const engine of selectedEngines(process.env.SVC_ENGINE || 'all').filter((name) => name !== 'chromium')) {
      const file = join(out, `e2e-${engine}.json`);
      const started = Date.now();
      const engineStatus = run(
        process.execPath,
        [
          '--import',
          'tsx',
          '--test',
          '--test-reporter=spec',
          '--test-reporter-destination=stdout',
          '--test-reporter=./scripts/count-reporter.mjs',
          `--test-reporter-destination=${file}`,
          ...find(join(root, 'e2e', 'engines'), (n) => n.endsWith('.test.ts')),
        ],
        { SVC_ENGINE: engine },
      );
      const engineCounts = readCounts(file, engineStatus);
      console.log(
        `== e2e (${engine}): ${engineCounts.passed} passed, ${engineCounts.failed} failed, ${engineCounts.skipped} skipped in ${Math.round((Date.now() - started) / 1000)} s ==`,
      );
      for (const key of Object.keys(counts)) counts[key] += engineCounts[key];
    }
    return counts;
  },
};

const selected = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(runners);
const total = { passed: 0, failed: 0, skipped: 0 };
for (const name of selected) {
  const runner = runners[name];
  if (!runner) throw new Error(`unknown runner ${name}; use ${Object.keys(runners).join(', ')}`);
  console.log(`\n== ${name} tests ==`);
  const counts = runner();
  console.log(`== ${name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped ==`);
  for (const key of Object.keys(total)) total[key] += counts[key];
}
if (total.skipped) console.log(`${total.skipped} skipped`);
console.log(`${total.passed} passed, ${total.failed} failed`);
process.exit(total.failed === 0 ? 0 : 1);
