// Browser bundles, built from the tsc output in each package's dist/: an ESM module and an IIFE for a script
// tag, minified, with source maps. Add a bundle with one line in `bundles`.
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { minifyCssLiterals } from './scripts/size/minify-css.mjs';

/** @type {{input: string, file: string, name?: string}[]} */
const bundles = [
  { input: 'packages/server/dist/pages/app/decision-page.js', file: 'packages/server/dist/public/decision-page' },
  { input: 'packages/server/dist/playground/app/playground.js', file: 'packages/server/dist/public/playground' },
  { input: 'packages/protocol/dist/index.js', file: 'packages/protocol/dist/browser/svc-protocol', name: 'SvcProtocol' },
  { input: 'packages/capture/dist/index.js', file: 'packages/capture/dist/browser/svc-capture', name: 'SvcCapture' },
  { input: 'packages/elements/dist/svc.js', file: 'packages/elements/dist/browser/svc', name: 'Svc' },
  { input: 'packages/elements/dist/decision/decision.js', file: 'packages/elements/dist/browser/svc-decision' },
  { input: 'packages/elements/dist/consent-field/consent-field.js', file: 'packages/elements/dist/browser/svc-consent-field' },
  { input: 'scripts/size/client-decisions-create.mjs', file: 'dist/size/decisions-create' },
  { input: 'scripts/size/decision-floor.mjs', file: 'dist/size/decision-floor' },
];

const plugins = () => [
  minifyCssLiterals(),
  nodeResolve({ browser: true, exportConditions: ['browser', 'import', 'default'] }),
  terser({ format: { comments: false }, compress: { passes: 2 } }),
];

export default bundles.map(({ input, file, name }) => ({
  input,
  plugins: plugins(),
  output: [
    { file: `${file}.js`, format: 'es', sourcemap: true },
    ...(name ? [{ file: `${file}.iife.js`, format: 'iife', name, sourcemap: true }] : []),
  ],
}));
