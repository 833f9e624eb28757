// Browser bundles, built from the tsc output in each package's dist/ (the server's .tsc/), minified, with source
// maps. Add a bundle with one line in `bundles`. The script tag is three builds, in this order: the element chunks
// (code splitting), the loader that names them (`svc.js`), and the all-in-one module (`svc.mjs`).
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import { chunkManifest, chunksModule } from './scripts/size/sdk-chunks.mjs';
import { minifyCssLiterals } from './scripts/size/minify-css.mjs';
import { selfContained } from './scripts/size/self-contained.mjs';

/** @type {{input: string, file: string, name?: string}[]} */
const bundles = [
  { input: 'packages/server/.tsc/hosted/pages/app/decision-page.js', file: 'packages/server/dist/public/decision-page' },
  { input: 'packages/server/.tsc/hosted/playground/app/playground.js', file: 'packages/server/dist/public/playground' },
  { input: 'packages/server/.tsc/platform/oauth/app/oauth-page.js', file: 'packages/server/dist/public/oauth-page' },
  { input: 'packages/protocol/dist/index.js', file: 'packages/protocol/dist/browser/svc-protocol', name: 'SvcProtocol' },
  { input: 'packages/capture/dist/index.js', file: 'packages/capture/dist/browser/svc-capture', name: 'SvcCapture' },
  { input: 'packages/schemas/dist/esm/index.js', file: 'packages/schemas/dist/browser/svc-schemas' },
  { input: 'packages/elements/dist/decision/decision.js', file: 'packages/elements/dist/browser/svc-decision' },
  { input: 'packages/elements/dist/consent-field/consent-field.js', file: 'packages/elements/dist/browser/svc-consent-field' },
  { input: 'scripts/size/client-decisions-create.mjs', file: 'dist/size/decisions-create' },
  { input: 'scripts/size/decision-floor.mjs', file: 'dist/size/decision-floor' },
];

/** Where the server's `/sdk/v1/` comes from, and the chunk list the loader is built with. */
const SDK = 'packages/elements/dist/browser/sdk';
const MANIFEST = 'packages/elements/dist/sdk-chunks.json';

const chunked = { dir: SDK, format: 'es', entryFileNames: '[name]-[hash:6].js', chunkFileNames: '[name]-[hash:6].js', sourcemap: 'hidden' };

const plugins = (minify = {}) => [
  minifyCssLiterals(),
  nodeResolve({ browser: true, exportConditions: ['browser', 'import', 'default'] }),
  terser({ format: { comments: false }, compress: { passes: 2 }, ...minify }),
];

// What only the people's elements share (their list base), and what every element shares (Lit's core, the context
// consumer, the configuration; not the provider's context provider, nor a directive one element uses).
const PEOPLE = /[\\/]elements[\\/]dist[\\/]internal[\\/](access-token|ask-again)\.js$/;
const PEOPLE_LIST = /[\\/]elements[\\/]dist[\\/]internal[\\/]person-list(\.styles)?\.js$/;
const LIT =
  /[\\/]node_modules[\\/](@lit[\\/]reactive-element[\\/](css-tag|reactive-element)|lit-html[\\/]lit-html|lit-element[\\/]lit-element|lit[\\/]index|@lit[\\/]context[\\/]lib[\\/](context-request-event|controllers[\\/]context-consumer))\.js$|[\\/]elements[\\/]dist[\\/]internal[\\/]config\.js$/;

const PROVIDER =
  /[\\/]node_modules[\\/]@lit[\\/]context[\\/]lib[\\/](value-notifier|controllers[\\/]context-provider)\.js$|[\\/]elements[\\/]dist[\\/](sdk[\\/]provider|provider[\\/]provider\.(component|styles))\.js$/;

/** The file names of the chunks that are not Lit's and what every element shares, by chunk name. */
const NAMED = {
  'svc-people': 'svc-people',
  'svc-people-list': 'svc-people-list',
};

/** Chunks loaded on first use, named for what they hold: by a module each holds. */
const LAZY = [
  [/[\\/]elements[\\/]dist[\\/]receipts[\\/]check\.js$/, 'svc-receipts-check'],
  [/[\\/]elements[\\/]dist[\\/]evidence[\\/]check\.js$/, 'svc-evidence-check'],
  [/[\\/]elements[\\/]dist[\\/]governance[\\/]verify\.js$/, 'svc-audit-check'],
  [/[\\/]client[\\/]dist[\\/]esm[\\/]verify[\\/]timestamp\.js$/, 'svc-timestamp-check'],
  [/[\\/]node_modules[\\/]uplot[\\/]/, 'svc-uplot'],
  [/[\\/]elements[\\/]dist[\\/]internal[\\/]chart\.js$/, 'svc-chart'],
];

/** A chunk's file name: a named or lazy chunk's own, else Lit's (what every element shares). */
function chunkName(chunk) {
  if (NAMED[chunk.name]) return NAMED[chunk.name];
  const lazy = LAZY.find(([test]) => chunk.moduleIds.some((id) => test.test(id)));
  return lazy ? lazy[1] : 'svc-lit';
}

export default [
  // The script tag's element chunks, under content-hashed names: one per element, and Lit with what the elements
  // share in one chunk, `svc-lit`, loaded once.
  {
    input: {
      'svc-provider': 'packages/elements/dist/sdk/provider.js',
      'svc-decision': 'packages/elements/dist/sdk/decision.js',
      'svc-consent-field': 'packages/elements/dist/sdk/consent-field.js',
      'svc-inbox': 'packages/elements/dist/sdk/inbox.js',
      'svc-records': 'packages/elements/dist/sdk/records.js',
      'svc-connections': 'packages/elements/dist/sdk/connections.js',
      'svc-data-requests': 'packages/elements/dist/sdk/data-requests.js',
      'svc-delegations': 'packages/elements/dist/sdk/delegations.js',
      'svc-receipts': 'packages/elements/dist/sdk/receipts.js',
      'svc-agreements': 'packages/elements/dist/sdk/agreements.js',
      'svc-credentials': 'packages/elements/dist/sdk/credentials.js',
      'svc-vouches': 'packages/elements/dist/sdk/vouches.js',
      'svc-data-offers': 'packages/elements/dist/sdk/data-offers.js',
      'svc-applications': 'packages/elements/dist/sdk/applications.js',
      'svc-webhooks': 'packages/elements/dist/sdk/webhooks.js',
      'svc-agents': 'packages/elements/dist/sdk/agents.js',
      'svc-policies': 'packages/elements/dist/sdk/policies.js',
      'svc-evidence': 'packages/elements/dist/sdk/evidence.js',
      'svc-governance': 'packages/elements/dist/sdk/governance.js',
    },
    // The offline verifiers (<svc-receipts>' of receipts, <svc-evidence>'s of evidence packages, <svc-governance>'s of
    // the audit chain: jose and @svc/client's checks) are imported on a first check, each a chunk sharing nothing: what
    // they share with <svc-decision> (the client's errors, say) would otherwise move to a chunk every decision loads.
    plugins: [
      selfContained(/[\\/]elements[\\/]dist[\\/](receipts[\\/]check|evidence[\\/]check|governance[\\/]verify)\.js$/, {
        lazy: /[\\/]client[\\/]dist[\\/]esm[\\/]verify[\\/]timestamp\.js$/,
      }),
      ...plugins(),
      chunkManifest({ dir: SDK, manifest: MANIFEST, clean: true }),
    ],
    // What the elements share (Lit, the context consumer, the configuration) is one chunk: a smaller one costs a request.
    // What only the people's elements share (their list base: access token, asking again after a 429, paging, styles) is its own chunk, so the
    // decision's and the consent field's pages never download it.
    output: {
      ...chunked,
      manualChunks: (id) => {
        if (PEOPLE.test(id)) return 'svc-people';
        // The list base the people's nine elements share (not <svc-inbox>, which needs only their token helpers).
        if (PEOPLE_LIST.test(id)) return 'svc-people-list';
        // Named too, or the people's base (which imports Lit) would pull Lit into svc-people for every page.
        if (LIT.test(id)) return 'svc-lit';
        // Only <svc-provider> provides a context: with its entry in the same manual chunk, that code stays in the
        // provider's chunk, off every other page.
        if (PROVIDER.test(id)) return 'svc-provider';
        return undefined;
      },
      chunkFileNames: (chunk) => `${chunkName(chunk)}-[hash:6].js`,
      experimentalMinChunkSize: 4000,
    },
  },
  // The snippet's chunk on its own: it needs no Lit, and what it shares with the consent field is small enough to
  // carry twice rather than cost the form page a request (a page rarely has both).
  {
    input: { 'svc-capture': 'packages/elements/dist/sdk/capture.js' },
    plugins: [...plugins(), chunkManifest({ dir: SDK, manifest: MANIFEST })],
    output: chunked,
  },
  // The loader: a classic script (IIFE) that sets `window.Svc` itself, so it works as `type="module"` too. Every page
  // downloads it, so it is minified a step further: its functions use no `this`, `arguments` or `new`, so terser may
  // write them as arrows (ES2020 output; the loader needs ES2021 already).
  {
    input: 'packages/elements/dist/sdk/loader.js',
    plugins: [chunksModule(MANIFEST), ...plugins({ ecma: 2020, compress: { passes: 2, unsafe_arrows: true } })],
    output: { file: `${SDK}/svc.js`, format: 'iife', strict: false, sourcemap: 'hidden' },
  },
  // Every element and the capture helper in one ES module, for `import { ... } from '/sdk/v1/svc.mjs'`.
  {
    input: 'packages/elements/dist/svc.js',
    plugins: plugins(),
    // One file: <svc-receipts>'s verifier, a lazy chunk for the script tag, is inlined here.
    output: { file: `${SDK}/svc.mjs`, format: 'es', sourcemap: 'hidden', inlineDynamicImports: true },
  },
  ...bundles.map(({ input, file, name }) => ({
    input,
    plugins: plugins(),
    output: [
      { file: `${file}.js`, format: 'es', sourcemap: true },
      ...(name ? [{ file: `${file}.iife.js`, format: 'iife', name, sourcemap: true }] : []),
    ],
  })),
];
