// The published build of @svc/client: ESM (.js) and CommonJS (.cjs) of each entry, with declarations for both
// (.d.ts, .d.cts), code shared between entries in chunks so `@svc/client` and `@svc/client/oauth` hand out the same
// classes. The `svc` command line is built with them (ESM, Node only). `tsc -b` still type checks the sources.
import { rmSync } from 'node:fs';
import { defineConfig } from 'tsup';

const entry = {
  index: 'src/index.ts',
  schemas: 'src/schemas/index.ts',
  oauth: 'src/oauth/index.ts',
  credentials: 'src/credentials/index.ts',
};

rmSync(new URL('dist/', import.meta.url), { recursive: true, force: true });

export default defineConfig({
  entry: { ...entry, cli: 'src/cli/main.ts' },
  format: ['esm', 'cjs'],
  outDir: 'dist',
  // Fetch and Web Crypto only: the same files serve Node and browsers (no `node:` import outside the CLI).
  platform: 'neutral',
  target: 'es2022',
  // The CLI's `node:` imports stay as written (neutral leaves them unresolved, so they are named external).
  removeNodeProtocol: false,
  external: [/^node:/],
  splitting: true,
  sourcemap: true,
  dts: { entry, compilerOptions: { composite: false, incremental: false, declarationMap: false, emitDeclarationOnly: false } },
  silent: true,
});
