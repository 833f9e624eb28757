// The published build of @svc/client's JavaScript; `tsc -b` type checks the sources and writes the ESM build's
// declarations (dist/types, one per module).
// - ESM (dist/esm): one file per source module, as tsc would write them, so a bundler drops every module a page does
//   not reach (`sideEffects: false`); the `svc` command line (dist/esm/cli/main.js) is built with them.
// - CommonJS (dist/cjs): one file per entry, with what the entries share in chunks (so that `@svc/client` and
//   `@svc/client/oauth` hand out the same classes), and its declarations (.d.cts) bundled per entry.
// Fetch and Web Crypto only: the same files serve Node and browsers (no `node:` import outside the command line).
import { rmSync } from 'node:fs';
import { buildSync } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

const entries = {
  index: 'src/index.ts',
  'schemas/index': 'src/schemas/index.ts',
  'oauth/index': 'src/oauth/index.ts',
  'credentials/index': 'src/credentials/index.ts',
};
const cli = 'src/cli/main.ts';

// The source modules the entries and the command line reach: the ESM build's files, and nothing else.
const { metafile } = buildSync({
  entryPoints: [...Object.values(entries), cli],
  bundle: true,
  write: false,
  outdir: 'unused',
  metafile: true,
  platform: 'node',
  packages: 'external',
  logLevel: 'silent',
});
const modules = Object.keys(metafile.inputs).filter((path) => path.startsWith('src/'));

for (const dir of ['dist/esm/', 'dist/cjs/']) rmSync(new URL(dir, import.meta.url), { recursive: true, force: true });

/** `dist/cjs/index.cjs`, `dist/cjs/schemas.cjs`, ... */
const cjsEntries = Object.fromEntries(Object.entries(entries).map(([name, file]) => [name.replace('/index', ''), file]));

const common: Options = {
  platform: 'neutral',
  target: 'es2022',
  // The command line's `node:` imports stay as written.
  removeNodeProtocol: false,
  external: [/^node:/],
  sourcemap: true,
  silent: true,
};

export default defineConfig([
  { ...common, entry: modules, format: ['esm'], bundle: false, outDir: 'dist/esm' },
  {
    ...common,
    entry: cjsEntries,
    format: ['cjs'],
    splitting: true,
    outDir: 'dist/cjs',
    dts: {
      entry: cjsEntries,
      compilerOptions: { composite: false, incremental: false, declarationMap: false, emitDeclarationOnly: false },
    },
  },
]);
