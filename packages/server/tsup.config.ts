// The published build of @svc/server: ESM (.js) and CommonJS (.cjs) of the entry, with declarations for both
// (.d.ts, .d.cts), and the `svc-server` command (ESM). The hosted pages' bundles are rollup's (dist/public, built from
// tsc's output in .tsc/); the script-tag SDK is read from @svc/elements at run time.
import { readdirSync, rmSync } from 'node:fs';
import { defineConfig } from 'tsup';

// What a previous tsup build wrote; dist/public is rollup's.
const dist = new URL('dist/', import.meta.url);
for (const name of (() => {
  try {
    return readdirSync(dist);
  } catch {
    return [];
  }
})()) {
  if (name !== 'public') rmSync(new URL(name, dist), { recursive: true, force: true });
}

export default defineConfig({
  entry: { index: 'src/index.ts', bin: 'src/bin.ts' },
  format: ['esm', 'cjs'],
  outDir: 'dist',
  platform: 'node',
  target: 'node20',
  removeNodeProtocol: false,
  // `import.meta.url` in the CommonJS build (where the pages' bundles and the SDK are found).
  shims: true,
  splitting: true,
  sourcemap: true,
  dts: { entry: { index: 'src/index.ts' }, compilerOptions: { composite: false, incremental: false, declarationMap: false } },
  silent: true,
});
