#!/usr/bin/env node
// The Subresource Integrity values of the script tag as built: the loader's `integrity` and an import map whose
// `integrity` entries make the browser check every chunk the loader imports. `pnpm sri` prints them for a service
// origin (`--origin`, default https://svc.example); `--write` puts them into the release block of docs/script-tag.md, which a
// test keeps equal to the build.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SDK = `${root}packages/elements/dist/browser/sdk/`;
const RELEASE_DOC = `${root}docs/script-tag.md`;
const START = '<!-- sri: written by `pnpm sri --write` from the build -->';
const END = '<!-- /sri -->';

const integrity = (file) =>
  `sha384-${createHash('sha384')
    .update(readFileSync(SDK + file))
    .digest('base64')}`;

/** The loader's integrity and the import map of every chunk, with the service at `origin`. */
export function sdkIntegrity(origin = 'https://svc.example') {
  const chunks = readdirSync(SDK)
    .filter((name) => /^svc-[\w-]+\.js$/.test(name))
    .sort();
  return {
    loader: integrity('svc.js'),
    importMap: { integrity: Object.fromEntries(chunks.map((name) => [`${origin}/sdk/v1/${name}`, integrity(name)])) },
  };
}

/** The release block for the current build. */
export function releaseBlock() {
  const { loader, importMap } = sdkIntegrity();
  return [
    START,
    '```html',
    `<script type="importmap">${JSON.stringify(importMap, null, 2)}</script>`,
    `<script src="https://svc.example/sdk/v1/svc.js" integrity="${loader}" crossorigin="anonymous" defer></script>`,
    '```',
    END,
  ].join('\n');
}

/** The release block as written in docs/script-tag.md, or undefined when it has none. */
export function writtenBlock(readme = readFileSync(RELEASE_DOC, 'utf8')) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END, start);
  return start < 0 || end < 0 ? undefined : readme.slice(start, end + END.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--write')) {
    const readme = readFileSync(RELEASE_DOC, 'utf8');
    const written = writtenBlock(readme);
    if (!written) throw new Error(`docs/script-tag.md has no release block (${START} ... ${END})`);
    writeFileSync(RELEASE_DOC, readme.replace(written, releaseBlock()));
    console.log('docs/script-tag.md: release block written');
  } else {
    const at = process.argv.indexOf('--origin');
    const { loader, importMap } = sdkIntegrity(at > 0 ? process.argv[at + 1] : undefined);
    console.log(`svc.js integrity: ${loader}\n\nimport map:\n${JSON.stringify(importMap, null, 2)}`);
  }
}
