import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Hono } from 'hono';
import type { Env, ServerContext } from '../lib/context.js';
import { createSdkRoutes, SDK_CACHE_CONTROL } from './routes.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-sdk-'));
writeFileSync(join(dir, 'svc.iife.js'), 'var Svc=function(){return{}}();\n//# sourceMappingURL=svc.iife.js.map\n');
writeFileSync(join(dir, 'svc.iife.js.map'), '{"version":3,"file":"svc.iife.js","mappings":""}');
writeFileSync(join(dir, 'svc.js'), 'export{};\n//# sourceMappingURL=svc.js.map\n');
writeFileSync(join(dir, 'svc.js.map'), '{"version":3,"file":"svc.js","mappings":""}');

function app(from = dir) {
  const hono = new Hono<Env>();
  createSdkRoutes(from)(hono, {} as ServerContext);
  return hono;
}

describe('SDK routes', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the IIFE at /sdk/v1/svc.js with long-cache headers, naming its served source map', async () => {
    const res = await app().request('/sdk/v1/svc.js');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), SDK_CACHE_CONTROL);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.match(res.headers.get('etag') ?? '', /^"[A-Za-z0-9_-]{27}"$/);
    assert.equal(await res.text(), 'var Svc=function(){return{}}();\n//# sourceMappingURL=svc.js.map\n');
  });

  it('serves the ESM build at /sdk/v1/svc.mjs and both source maps as JSON', async () => {
    const esm = await app().request('/sdk/v1/svc.mjs');
    assert.equal(esm.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(await esm.text(), 'export{};\n//# sourceMappingURL=svc.mjs.map\n');
    for (const [path, file] of [['/sdk/v1/svc.js.map', 'svc.iife.js'], ['/sdk/v1/svc.mjs.map', 'svc.js']]) {
      const res = await app().request(path!);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(((await res.json()) as { file: string }).file, file);
    }
  });

  it('answers 304 to a current ETag, and serves a rebuilt bundle with a new one', async () => {
    const sdk = app();
    const first = await sdk.request('/sdk/v1/svc.js');
    const etag = first.headers.get('etag')!;
    const again = await sdk.request('/sdk/v1/svc.js', { headers: { 'if-none-match': `W/${etag}` } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
    writeFileSync(join(dir, 'svc.iife.js'), 'var Svc={v:2};\n//# sourceMappingURL=svc.iife.js.map\n');
    utimesSync(join(dir, 'svc.iife.js'), new Date(), new Date(Date.now() + 5000));
    const rebuilt = await sdk.request('/sdk/v1/svc.js', { headers: { 'if-none-match': etag } });
    assert.equal(rebuilt.status, 200);
    assert.notEqual(rebuilt.headers.get('etag'), etag);
    assert.match(await rebuilt.text(), /v:2/);
  });

  it('is 404 for other names and, saying so, for a bundle not built yet', async () => {
    for (const path of ['/sdk/v1/other.js', '/sdk/v1/svc.iife.js', '/sdk/v1/..%2Fpackage.json']) {
      assert.equal((await app().request(path)).status, 404, path);
    }
    const res = await app(join(dir, 'missing')).request('/sdk/v1/svc.js');
    assert.equal(res.status, 404);
    assert.match(((await res.json()) as { message: string }).message, /not built yet: run pnpm run build/);
  });
});
