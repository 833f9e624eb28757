// Builds the workspace, step by step, saying what it does. With --if-stale it builds nothing when no source,
// configuration or lockfile changed since the last complete build (what `pnpm start`, `pnpm svc` and `pnpm test` use).
//   node scripts/build.mjs            every step
//   node scripts/build.mjs --if-stale every step, or nothing when the last build is current
//   node scripts/build.mjs --check    builds nothing; exits 1 when the last build is not current
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = join(root, 'node_modules/.cache/svc-build.json');

const steps = [
  { what: 'types and ES modules of every package (tsc -b)', command: ['pnpm', 'exec', 'tsc', '-b'] },
  {
    what: 'Node bundles of @svc/schemas, @svc/client and @svc/server (tsup)',
    command: ['pnpm', '--filter', '@svc/schemas', '--filter', '@svc/client', '--filter', '@svc/server', 'run', 'build'],
  },
  {
    what: 'browser bundles: the script tag, the elements, the hosted pages (rollup)',
    command: ['pnpm', 'exec', 'rollup', '-c', '--silent'],
  },
];

/**
 * What a build produces that `pnpm start`, `pnpm svc`, `pnpm size` and `pnpm test` read: at least one file of each
 * step per package, so an output deleted since the last build (a `dist/` removed by hand) makes it stale.
 */
const outputs = [
  'packages/protocol/dist/index.js',
  'packages/capture/dist/index.js',
  'packages/server/dist/bin.js',
  'packages/server/dist/index.cjs',
  'packages/server/dist/index.d.ts',
  'packages/client/dist/esm/cli/main.js',
  'packages/client/dist/cjs/index.cjs',
  'packages/schemas/dist/cjs/index.cjs',
  'packages/elements/dist/browser/sdk/svc.js',
  'packages/elements/dist/browser/sdk/svc.mjs',
  'packages/elements/dist/browser/svc-decision.js',
  'packages/elements/dist/browser/svc-consent-field.js',
  'packages/protocol/dist/browser/svc-protocol.js',
  'packages/capture/dist/browser/svc-capture.js',
  'packages/schemas/dist/browser/svc-schemas.js',
  'packages/server/dist/public/decision-page.js',
  'packages/server/dist/public/playground.js',
  'packages/server/dist/public/oauth-page.js',
  'dist/size/decisions-create.js',
  'dist/size/decision-floor.js',
];

/** A fingerprint of every input of the build: each tracked or new source file's path, size and modification time. */
function fingerprint() {
  const listed = spawnSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (listed.status !== 0) return null; // not a git checkout: always build
  const input =
    /^(packages\/[^/]+\/(src\/|package\.json$|tsconfig[^/]*\.json$|tsup\.config\.ts$)|tsconfig[^/]*\.json$|rollup\.config\.mjs$|pnpm-lock\.yaml$|scripts\/size\/)/;
  const hash = createHash('sha256');
  for (const path of listed.stdout
    .split('\n')
    .filter((p) => input.test(p))
    .sort()) {
    const stat = statSync(join(root, path), { throwIfNoEntry: false });
    hash.update(`${path}\0${stat ? `${stat.size}:${stat.mtimeMs}` : 'gone'}\n`);
  }
  return hash.digest('hex');
}

function current(print) {
  try {
    return (
      print !== null && JSON.parse(readFileSync(stampFile, 'utf8')).fingerprint === print && outputs.every((o) => existsSync(join(root, o)))
    );
  } catch {
    return false;
  }
}

const ifStale = process.argv.includes('--if-stale');
const print = fingerprint();
if (process.argv.includes('--check')) {
  const fresh = current(print);
  console.log(fresh ? 'build: up to date' : 'build: stale (a source changed since the last build; run pnpm build)');
  process.exit(fresh ? 0 : 1);
}
if (ifStale && current(print)) {
  console.log('build: up to date (no source changed since the last build)');
} else {
  const started = performance.now();
  for (const [i, step] of steps.entries()) {
    const at = performance.now();
    console.log(`build ${i + 1}/${steps.length}: ${step.what} ...`);
    const run = spawnSync(step.command[0], step.command.slice(1), { cwd: root, stdio: 'inherit' });
    if (run.status !== 0) process.exit(run.status ?? 1);
    console.log(`build ${i + 1}/${steps.length}: done in ${((performance.now() - at) / 1000).toFixed(1)} s`);
  }
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, JSON.stringify({ fingerprint: print, built_at: new Date().toISOString() }));
  console.log(`build: complete in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
