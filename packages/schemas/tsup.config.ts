// The published build of @svc/schemas' JavaScript; `tsc -b` type checks the sources and writes the ESM build's
// declarations (dist/types, one per module).
// - ESM (dist/esm): one file per source module, as tsc would write them, so a bundler keeps only the modules a page
//   reaches (`sideEffects: false`): a page that validates one answer does not carry every schema.
// - CommonJS (dist/cjs): the entry in one file, with its declarations (.d.cts) bundled.
// No `node:` import and nothing at load time but building the schemas: the same files serve Node and browsers.
import { readdirSync, rmSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

const modules = readdirSync(new URL('src/', import.meta.url))
  .filter((name) => name.endsWith('.ts') && !/\.test(-d)?\.ts$/.test(name))
  .map((name) => `src/${name}`);

for (const dir of ['dist/esm/', 'dist/cjs/']) rmSync(new URL(dir, import.meta.url), { recursive: true, force: true });

const common: Options = { platform: 'neutral', target: 'es2022', sourcemap: true, silent: true };

export default defineConfig([
  { ...common, entry: modules, format: ['esm'], bundle: false, outDir: 'dist/esm' },
  {
    ...common,
    entry: { index: 'src/index.ts' },
    format: ['cjs'],
    outDir: 'dist/cjs',
    dts: {
      entry: { index: 'src/index.ts' },
      compilerOptions: { composite: false, incremental: false, declarationMap: false, emitDeclarationOnly: false },
    },
  },
]);
