#!/usr/bin/env node
// Prints the minified and gzip -9 size of each browser bundle (run `pnpm build` first) beside the peers the README
// names, and enforces the budgets: a bundle over its budget, or a budgeted bundle that was not built,
// makes the run exit 1. The budgets are gzip -9 bytes of the minified bundle, in kB of 1,000 bytes as the peers'
// figures are; they are not to be raised to make a run pass. `pnpm size --why` adds what each budgeted bundle is
// made of (scripts/size/why.mjs).
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const KB = 1000;

/** label, bundle file, optional budget in gzip -9 bytes */
const bundles = [
  ['<svc-decision> with Lit and the protocol', 'packages/elements/dist/browser/svc-decision.js', 15 * KB],
  ['<svc-consent-field> with the capture helper', 'packages/elements/dist/browser/svc-consent-field.js', 15 * KB],
  ['script tag /sdk/v1/svc.js (every element + capture)', 'packages/elements/dist/browser/svc.iife.js', 22 * KB],
  ['@svc/protocol (ESM, whole package)', 'packages/protocol/dist/browser/svc-protocol.js'],
  ['@svc/capture (IIFE, whole package)', 'packages/capture/dist/browser/svc-capture.iife.js'],
  ['@svc/client: page importing only decisions.create', 'dist/size/decisions-create.js'],
  ['floor: empty Lit element + @lit/context + protocol host path', 'dist/size/decision-floor.js'],
];

/** Peers' figures as the README gives them (gzip -9, measured elsewhere): reference rows, not measured here. */
const peers = [
  ['peer: typeform embed', 12.3],
  ['peer: Persona', 19.6],
  ['peer: Dropbox Sign embedded', 25.4],
  ['peer: vanilla-cookieconsent (with its CSS)', 15.5],
  ['peer: a bare Lit element', 6.5],
];

const kb = (n) => `${(n / KB).toFixed(1)} kB`;
const rows = [];
const failures = [];
for (const [label, file, budget] of bundles) {
  if (!existsSync(file)) {
    rows.push([label, 'not built', '', budget ? `<= ${kb(budget)}` : '', budget ? 'MISSING' : '']);
    if (budget) failures.push(`${label}: ${file} not built (run pnpm build)`);
    continue;
  }
  const code = readFileSync(file);
  const gzip = gzipSync(code, { level: 9 }).length;
  let verdict = '';
  if (budget) {
    verdict = gzip <= budget ? 'ok' : `OVER by ${kb(gzip - budget)}`;
    if (gzip > budget) failures.push(`${label}: ${kb(gzip)} gzip, budget ${kb(budget)} (over by ${gzip - budget} B)`);
  }
  rows.push([label, kb(code.length), kb(gzip), budget ? `<= ${kb(budget)}` : '', verdict]);
}
rows.push(['', '', '', '', '']);
for (const [label, gzip] of peers) rows.push([label, '', `${gzip.toFixed(1)} kB`, '', 'given']);

const header = ['bundle', 'minified', 'gzip -9', 'budget', ''];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) => r.map((c, i) => (i === 1 || i === 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  ').trimEnd());
for (const r of rows) console.log(r.every((c) => c === '') ? '' : line(r));
if (process.argv.includes('--why')) {
  // What each budgeted bundle is made of, from its tsc entry (see scripts/size/why.mjs).
  const { why } = await import('./size/why.mjs');
  await why('<svc-decision>', 'packages/elements/dist/decision/decision.js');
  await why('<svc-consent-field>', 'packages/elements/dist/consent-field/consent-field.js');
  await why('script tag', 'packages/elements/dist/svc.js');
  console.log('\n(a package emptied also drops what only it imports: without @svc/protocol, zod goes too)');
}
if (failures.length) {
  console.error(`\n${failures.length} budget(s) not met:`);
  for (const f of failures) console.error(`  ${f}`);
  process.exit(1);
}
