import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Hono } from 'hono';
import type { Env, ServerContext } from '../../infra/context.js';
import { CHUNK_CACHE_CONTROL, createSdkRoutes, SDK_CACHE_CONTROL } from './routes.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-sdk-'));
const files: Record<string, string> = {
  'svc.js': '!function(){window.Svc={}}();',
  'svc.js.map': '{"version":3,"file":"svc.js","mappings":""}',
  'svc.mjs': 'export{};',
  'svc-decision-Ab_1-z.js': 'import"./svc-lit-Qq9x0A.js";export{};',
  'svc-decision-Ab_1-z.js.map': '{"version":3,"file":"svc-decision-Ab_1-z.js","mappings":""}',
  'svc-lit-Qq9x0A.js': 'export{};',
  'other.js': 'alert(1)',
};
for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);

function app(from = dir) {
  const hono = new Hono<Env>();
  hono.route('/', createSdkRoutes(from)({} as ServerContext));
  return hono;
}

describe('SDK routes', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the loader at /sdk/v1/svc.js as built, with a short cache, an ETag and its source map named in a header', async () => {
    const res = await app().request('/sdk/v1/svc.js');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), SDK_CACHE_CONTROL);
    assert.equal(SDK_CACHE_CONTROL, 'public, max-age=300');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.equal(res.headers.get('sourcemap'), 'svc.js.map');
    assert.match(res.headers.get('etag') ?? '', /^"[A-Za-z0-9_-]{27}"$/);
    assert.equal(await res.text(), files['svc.js']);
  });

  it('serves content-hashed chunks as immutable, and the all-in-one module with the short cache', async () => {
    const chunk = await app().request('/sdk/v1/svc-decision-Ab_1-z.js');
    assert.equal(chunk.status, 200);
    assert.equal(chunk.headers.get('cache-control'), CHUNK_CACHE_CONTROL);
    assert.match(CHUNK_CACHE_CONTROL, /max-age=31536000, immutable/);
    assert.equal(chunk.headers.get('access-control-allow-origin'), '*');
    assert.equal(await chunk.text(), files['svc-decision-Ab_1-z.js']);
    const esm = await app().request('/sdk/v1/svc.mjs');
    assert.equal(esm.headers.get('cache-control'), SDK_CACHE_CONTROL);
    assert.equal(await esm.text(), 'export{};');
  });

  it('serves source maps as JSON, with the cache of the file they map', async () => {
    for (const [path, cache] of [
      ['/sdk/v1/svc.js.map', SDK_CACHE_CONTROL],
      ['/sdk/v1/svc-decision-Ab_1-z.js.map', CHUNK_CACHE_CONTROL],
    ] as const) {
      const res = await app().request(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(res.headers.get('cache-control'), cache);
      assert.equal(res.headers.get('sourcemap'), null);
      assert.equal(((await res.json()) as { version: number }).version, 3);
    }
  });

  it('answers 304 to a current ETag, and serves a rebuilt loader with a new one', async () => {
    const sdk = app();
    const first = await sdk.request('/sdk/v1/svc.js');
    const etag = first.headers.get('etag')!;
    const again = await sdk.request('/sdk/v1/svc.js', { headers: { 'if-none-match': `"other", W/${etag}` } });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('cache-control'), SDK_CACHE_CONTROL);
    assert.equal(await again.text(), '');
    writeFileSync(join(dir, 'svc.js'), '!function(){window.Svc={v:2}}();');
    utimesSync(join(dir, 'svc.js'), new Date(), new Date(Date.now() + 5000));
    const rebuilt = await sdk.request('/sdk/v1/svc.js', { headers: { 'if-none-match': etag } });
    assert.equal(rebuilt.status, 200);
    assert.notEqual(rebuilt.headers.get('etag'), etag);
    assert.match(await rebuilt.text(), /v:2/);
  });

  it('is 404 for names that are not SDK files, and says when the SDK is not built yet', async () => {
    for (const path of [
      '/sdk/v1/other.js',
      '/sdk/v1/svc-missing-x.js',
      '/sdk/v1/..%2Fpackage.json',
      '/sdk/v1/.svc.js',
      '/sdk/v1/svc.js%00.map',
      '/sdk/v2/svc.js',
    ]) {
      const res = await app().request(path);
      assert.equal(res.status, 404, path);
    }
    const res = await app(join(dir, 'missing')).request('/sdk/v1/svc.js');
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(((await res.json()) as { message: string }).message, /not built yet: run pnpm run build/);
  });
});
