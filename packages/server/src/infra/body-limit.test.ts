// The body limit decides from the framing: a declared length, a chunked body read as it streams, and no body at all
// for an HTTP/1 request that declares neither (which then is not read as a stream).
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { limitBody } from './body-limit.js';
import { ApiError } from './errors.js';

const LIMIT = 1024;
const app = new Hono();
app.onError((err, c) =>
  c.json({ code: err instanceof ApiError ? err.code : 'error' }, err instanceof ApiError ? (err.status as 413) : 500),
);
app.use('*', limitBody(LIMIT));
app.all('/echo', async (c) => c.json({ length: (await c.req.text()).length }));

let port = 0;
let close: () => void = () => undefined;
before(async () => {
  await new Promise<void>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => {
      port = (server.address() as AddressInfo).port;
      resolve();
    });
    close = () => server.close();
  });
});
after(() => close());

/** Sends a request over the wire; `chunks` go out with Transfer-Encoding: chunked unless a length is given. */
function send(method: string, chunks: string[], headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: '/echo', headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

test('a GET without a body passes over the wire', async () => {
  assert.deepEqual(await send('GET', []), { status: 200, body: '{"length":0}' });
});

test('a declared length over the limit is 413 before anything is read', async () => {
  const body = 'x'.repeat(LIMIT + 1);
  assert.equal((await send('POST', [body], { 'content-length': String(body.length) })).status, 413);
});

test('a chunked body is counted as it streams: under the limit passes, over it is 413', async () => {
  assert.deepEqual(await send('POST', ['x'.repeat(100), 'y'.repeat(100)]), { status: 200, body: '{"length":200}' });
  assert.equal((await send('POST', ['x'.repeat(LIMIT), 'y'.repeat(10)])).status, 413);
});

test('a Request made in process with a body and no length is still limited', async () => {
  const res = await app.request('/echo', { method: 'POST', body: 'x'.repeat(LIMIT + 1) });
  assert.equal(res.status, 413);
});
