// What a bundle is made of, for `pnpm size --why`: bundles an entry of the tsc output again with esbuild (minified,
// tree-shaken, browser conditions, as rollup does) and reports, per library and per package, the minified bytes
// kept and the gzip -9 bytes the bundle loses without it. A library found under more than one directory is
// flagged: each must be paid once. esbuild's output is about 1 kB gzip larger than rollup + terser's, so the
// figures explain `pnpm size`, they do not replace it.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';

/** Groups of modules, by path. Later groups are only tried when no earlier one matched. */
const GROUPS = [
  ['lit', /node_modules\/.*\/(lit|lit-html|lit-element|@lit\/reactive-element)\//],
  ['@lit/context', /node_modules\/.*\/@lit\/context\//],
  ['zod', /node_modules\/.*\/zod\//],
  ['@svc/protocol', /packages\/protocol\//],
  ['@svc/capture', /packages\/capture\//],
  ['@svc/schemas', /packages\/schemas\//],
  ['@svc/elements', /packages\/elements\//],
];
const groupOf = (path) => GROUPS.find(([, re]) => re.test(path.replaceAll('\\', '/')))?.[0] ?? 'other';

// The directory a library file was installed in (one per copy): `.../node_modules/<name>/` of the innermost name.
const copyOf = (path) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];

async function bundle(entry, empty) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    metafile: true,
    outfile: 'why.js',
    conditions: ['browser'],
    logLevel: 'silent',
    // A group is left out by emptying its modules; an importer then reads undefined, which esbuild accepts.
    plugins: empty
      ? [
          {
            name: 'empty',
            setup: (b) => b.onLoad({ filter: /.*/ }, (a) => (groupOf(a.path) === empty ? { contents: '', loader: 'js' } : undefined)),
          },
        ]
      : [],
  });
  const code = result.outputFiles.find((f) => f.path.endsWith('.js')).contents;
  return { gzip: gzipSync(code, { level: 9 }).length, inputs: Object.values(result.metafile.outputs)[0].inputs };
}

/** Prints the make-up of `entry` under `label`. */
export async function why(label, entry) {
  const whole = await bundle(entry);
  const minified = new Map();
  const copies = new Map();
  for (const [path, { bytesInOutput }] of Object.entries(whole.inputs)) {
    const group = groupOf(path);
    minified.set(group, (minified.get(group) ?? 0) + bytesInOutput);
    const dir = copyOf(path);
    if (dir && bytesInOutput > 0) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(dir)[1];
      if (!copies.has(name)) copies.set(name, new Set());
      copies.get(name).add(dir);
    }
  }
  console.log(`\n${label} (${entry}): esbuild ${(whole.gzip / 1000).toFixed(1)} kB gzip -9`);
  console.log('  group          minified   gzip without it');
  for (const [group, bytes] of [...minified].sort((a, b) => b[1] - a[1])) {
    // Emptying a package also drops what only it imports (zod goes with @svc/protocol): the libraries come first.
    // The entry's own package cannot be left out; everything else can.
    const saved = groupOf(entry) === group ? '(entry)' : `-${whole.gzip - (await bundle(entry, group)).gzip}`;
    console.log(`  ${group.padEnd(14)} ${String(bytes).padStart(8)}   ${saved}`);
  }
  const duplicated = [...copies].filter(([, dirs]) => dirs.size > 1);
  for (const [name, dirs] of duplicated) console.log(`  DUPLICATE ${name}: ${[...dirs].join(', ')}`);
  if (duplicated.length === 0) console.log('  every library is bundled once');
}
