#!/usr/bin/env node
// What each kind of organisation page downloads, and the bundles npm users get, in gzip -9 bytes (kB of 1,000
// bytes, as the peers' figures are), checked against the budgets: any budget exceeded, or a figure that could not
// be measured, makes the run exit 1. Run `pnpm build` first.
//
// The page figures are measured in real Chromium (CHROME_PATH, default /usr/bin/chromium): a reference server
// serves the script tag, plain HTML pages on another loopback origin use it as an organisation would, and the
// figure is the sum of gzip -9 of every response body the page fetched from `/sdk/v1/`. Budgets are not to be
// raised to make a run pass; `--budget <key>=<bytes>` sets one for a run, to see the gate fail.
// `--why` adds what each element bundle is made of (scripts/size/why.mjs); `--only <key>,<key>` keeps those rows.
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { failures, parseBudgets, table } from './size/gate.mjs';
import { measurePages } from './size/pages.mjs';

const KB = 1000;

/** What a page downloads: key, label, the elements on it, budget. */
const PAGES = [
  ['loader', 'script tag svc.js alone (the loader)', [], 3 * KB],
  // 17.2 kB since the field asks a 429 once more after its Retry-After (102 B of gzip; the rate limits need it), and
  // 41 B more since it says origin_not_allowed (with the service's message) rather than `network`; 129 B more since
  // the loader lists the people's nine elements and their shared chunks (tags and chunk files) that it loads lazily.
  ['form', 'form page: one <svc-consent-field> (loader + chunks)', ['svc-consent-field'], 17.49 * KB],
  // 21.36 kB measured: 138 B since the element says at once what is wrong (missing_token, a console warning while no
  // token is set; invalid_token; the hosted page's fatal svc:error ends the spinner; a hidden element waits for its
  // token) and drops its min-height once the decision is over, and 222 B since the loader lists the people's
  // elements and chunks that it loads lazily (thirteen elements now); 19 B since a fatal error after svc:ready
  // sets the `error` status and stops the deadline clock.
  ['decision', 'page with one <svc-decision> (loader + chunks)', ['svc-decision'], 21.5 * KB],
  ['both', 'page with both elements (loader + chunks)', ['svc-decision', 'svc-consent-field'], 34 * KB],
  // 25.05 kB measured: the inbox loads the people's token helpers (svc-people), never their list base; +20 B with
  // <svc-decision>'s error status after a fatal error.
  ['inbox', 'page with one <svc-inbox> (loader + chunks; its rows are <svc-decision> popups)', ['svc-inbox'], 25.19 * KB],
  // The people's pages (measured): each is the loader, its own chunk, svc-lit, the people's token helpers (0.65 kB)
  // and the list base the nine elements share (svc-people-list, 3.48 kB: token, calls, paging, states, the confirm
  // step, the shared styles), which a person's browser keeps from one trust-center page to the next.
  ['records', 'page with one <svc-records> (loader + chunks)', ['svc-records'], 13.39 * KB],
  ['data-requests', 'page with one <svc-data-requests> (loader + chunks)', ['svc-data-requests'], 14.98 * KB],
  ['credentials', 'page with one <svc-credentials> (loader + chunks)', ['svc-credentials'], 15.17 * KB],
  // With its grant form.
  ['delegations', 'page with one <svc-delegations> (loader + chunks)', ['svc-delegations'], 17.02 * KB],
  // The list only: the offline verifier (@svc/client's, with jose and the receipt schema; 18.56 kB) is a chunk
  // sharing nothing that the element imports on its first check.
  ['receipts', 'page with one <svc-receipts> (loader + chunks, before the first check)', ['svc-receipts'], 14.81 * KB],
  ['data-offers', 'page with one <svc-data-offers> (loader + chunks)', ['svc-data-offers'], 14.5 * KB],
  // Three views: agreements, multi-party, collaborations.
  ['agreements', 'page with one <svc-agreements> (loader + chunks)', ['svc-agreements'], 14.56 * KB],
  // Three views: connections, device links, trust pairings.
  ['connections', 'page with one <svc-connections> (loader + chunks)', ['svc-connections'], 15.26 * KB],
  // The vouch form and the trust scores view.
  ['vouches', 'page with one <svc-vouches> (loader + chunks)', ['svc-vouches'], 14.95 * KB],
  // Every page above grew by the loader's list of the six console elements and their chunks (+0.12 kB, 1.36 kB now).
  // The console's elements: each page the loader, its own chunk, svc-lit, the people's token helpers and list base.
  // A chart is drawn by uPlot (svc-uplot, 22 kB) and the chart's helpers (svc-chart), loaded only when shown.
  ['applications', 'page with one <svc-applications> (loader + chunks)', ['svc-applications'], 17.35 * KB],
  // Webhooks +144 B and agents +261 B since their charts read every page of their 14 days, not only the first 100 rows.
  ['webhooks', 'page with one <svc-webhooks> (loader + chunks, before its chart)', ['svc-webhooks'], 19.99 * KB],
  ['agents', 'page with one <svc-agents> (loader + chunks, before its chart)', ['svc-agents'], 17.98 * KB],
  ['policies', 'page with one <svc-policies> (loader + chunks, before its chart)', ['svc-policies'], 17.87 * KB],
  // The list only: the offline verifier (jose's, in svc-jose and svc-evidence-check) loads on the first check.
  ['evidence', 'page with one <svc-evidence> (loader + chunks, before the first check)', ['svc-evidence'], 16.61 * KB],
  // +5 B since it asks for the change log newest first.
  ['governance', 'page with one <svc-governance> (loader + chunks, before the first chain check)', ['svc-governance'], 17.72 * KB],
  ['snippet', 'form page with the snippet on its own controls', ['snippet']],
];

/** Bundles built by rollup: key, label, file, budget. */
const FILES = [
  ['decision-alone', '@svc/elements/decision bundled alone', 'packages/elements/dist/browser/svc-decision.js', 20 * KB],
  [
    'field-alone',
    '@svc/elements/consent-field with @svc/capture bundled alone',
    'packages/elements/dist/browser/svc-consent-field.js',
    16 * KB,
  ],
  ['svc-mjs', '/sdk/v1/svc.mjs (every element and the capture helper in one module)', 'packages/elements/dist/browser/sdk/svc.mjs'],
  ['protocol', '@svc/protocol (ESM, whole package)', 'packages/protocol/dist/browser/svc-protocol.js'],
  ['schemas', '@svc/schemas (ESM, every schema)', 'packages/schemas/dist/browser/svc-schemas.js'],
  ['client', '@svc/client: page importing only decisions.create', 'dist/size/decisions-create.js'],
  ['floor', 'floor: empty Lit element + @lit/context + protocol host path', 'dist/size/decision-floor.js'],
];

/** Peers' figures as measured elsewhere (gzip -9): reference rows. */
const PEERS = [
  ['peer: typeform embed', 12.3],
  ['peer: vanilla-cookieconsent (with its CSS)', 15.5],
  ['peer: Persona', 19.6],
  ['peer: Dropbox Sign embedded', 25.4],
  ['peer: a bare Lit element', 6.5],
];

const budgets = parseBudgets(
  process.argv.slice(2),
  [...PAGES, ...FILES].filter((row) => row.at(-1) > 0).map((row) => [row[0], row.at(-1)]),
);

// `--only <key>,<key>` measures and gates those rows alone: the gate's own test needs two pages, not every one.
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt < 0 ? undefined : new Set((process.argv[onlyAt + 1] ?? '').split(','));
const known = [...PAGES, ...FILES].map((row) => row[0]);
const unknown = only && [...only].filter((key) => !known.includes(key));
if (unknown?.length) throw new Error(`--only takes keys among ${known.join(', ')}; got ${unknown.join(', ')}`);
const pages = PAGES.filter(([key]) => !only || only.has(key));
const files = FILES.filter(([key]) => !only || only.has(key));

/** @type {{key: string, label: string, gzip?: number, detail?: string, budget?: number}[]} */
const rows = [];
let measured;
try {
  measured = await measurePages(pages.map(([key, , elements]) => ({ key, elements })));
} catch (error) {
  console.error(`The pages could not be measured in Chromium: ${error instanceof Error ? error.message : error}`);
}
for (const [key, label] of pages) {
  const page = measured?.get(key);
  rows.push({
    key,
    label,
    gzip: page?.gzip,
    detail: page ? `${page.files.length} file${page.files.length === 1 ? '' : 's'}` : 'not measured',
    budget: budgets.get(key),
  });
}
for (const [key, label, file] of files) {
  const gzip = existsSync(file) ? gzipSync(readFileSync(file), { level: 9 }).length : undefined;
  rows.push({ key, label, gzip, detail: gzip === undefined ? 'not built' : 'file', budget: budgets.get(key) });
}

console.log(table(rows, PEERS));
if (measured && process.argv.includes('--files')) {
  for (const [key, page] of measured) console.log(`\n${key}: ${page.files.map((f) => `${f.name} ${(f.gzip / KB).toFixed(2)}`).join(', ')}`);
}
if (process.argv.includes('--why')) {
  const { why } = await import('./size/why.mjs');
  await why('<svc-decision>', 'packages/elements/dist/decision/decision.js');
  await why('<svc-consent-field>', 'packages/elements/dist/consent-field/consent-field.js');
  console.log('\n(a package emptied also drops what only it imports: without @svc/protocol, zod goes too)');
}
const over = failures(rows);
if (over.length) {
  console.error(`\n${over.length} budget(s) not met:`);
  for (const line of over) console.error(`  ${line}`);
  process.exit(1);
}
