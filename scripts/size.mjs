#!/usr/bin/env node
// Prints the minified and gzip size of each browser bundle (run `pnpm build` first). A figure, not a test;
// a bundle with a budget fails the run when it grows past it.
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/** label, bundle file, optional budget in gzip bytes */
const bundles = [
  ['@svc/protocol (ESM)', 'packages/protocol/dist/browser/svc-protocol.js'],
  ['@svc/protocol (IIFE)', 'packages/protocol/dist/browser/svc-protocol.iife.js'],
  ['<svc-decision> with Lit and the protocol', 'packages/elements/dist/browser/svc-decision.js'],
  ['<svc-consent-field> with the capture helper', 'packages/elements/dist/browser/svc-consent-field.js'],
  ['script tag /sdk/v1/svc.js (every element + capture)', 'packages/elements/dist/browser/svc.iife.js'],
  ['@svc/capture (IIFE)', 'packages/capture/dist/browser/svc-capture.iife.js'],
  ['@svc/client: page importing only decisions.create', 'packages/client/dist/browser/decisions-create.js'],
];

const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
const rows = [];
let over = 0;
for (const [label, file, budget] of bundles) {
  if (!existsSync(file)) {
    rows.push([label, 'not built', '', '']);
    continue;
  }
  const code = readFileSync(file);
  const gzip = gzipSync(code, { level: 9 }).length;
  const verdict = budget ? (gzip <= budget ? `<= ${kb(budget)}` : `OVER ${kb(budget)}`) : '';
  if (budget && gzip > budget) over++;
  rows.push([label, kb(code.length), kb(gzip), verdict]);
}

const header = ['bundle', 'minified', 'gzip -9', 'budget'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of rows) console.log(line(r));
if (over) {
  console.error(`${over} bundle(s) over budget`);
  process.exit(1);
}
