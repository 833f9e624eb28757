// docs/script-tag.md publishes the Subresource Integrity values of the script tag as built; they must be the build's.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { releaseBlock, sdkIntegrity, writtenBlock } from './sri.mjs';

const sdk = new URL('../packages/elements/dist/browser/sdk/', import.meta.url);

describe('pnpm sri', () => {
  it('gives the loader the sha384 of its bytes, and the import map every chunk the loader names, under the origin', () => {
    const { loader, importMap } = sdkIntegrity('https://svc.example');
    assert.equal(
      loader,
      `sha384-${createHash('sha384')
        .update(readFileSync(new URL('svc.js', sdk)))
        .digest('base64')}`,
    );
    const named = [...readFileSync(new URL('svc.js', sdk), 'utf8').matchAll(/"(svc-[\w-]+\.js)"/g)].map(
      (m) => `https://svc.example/sdk/v1/${m[1]}`,
    );
    assert.ok(named.length >= 4, 'the loader names its chunks');
    for (const url of named) assert.match(importMap.integrity[url] ?? '', /^sha384-[A-Za-z0-9+/]{64}$/, url);
  });

  it('docs/script-tag.md publishes the values of this build (run pnpm sri --write after a change to the elements)', () => {
    assert.equal(writtenBlock(), releaseBlock());
  });
});
