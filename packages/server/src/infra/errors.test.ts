// Every error body the server sends is `{message, code}` (plus `errors`/`home_country` where they apply); an error's
// `cause` stays on the server, for its logs, and never reaches the client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { startTestServer, type TestServer } from '../testing.js';
import { ApiError, badRequest, notFound, onError, onNotFound, unprocessable } from './errors.js';
import { jsonBody } from './validate.js';

const BODY_KEYS = new Set(['message', 'code', 'errors', 'home_country']);

/** Asserts the error body's shape and returns its code. */
async function errorBody(res: Response, status: number): Promise<{ message: string; code: string; [key: string]: unknown }> {
  assert.equal(res.status, status, `${res.url}: ${res.status}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  const body = (await res.json()) as { message: string; code: string };
  assert.equal(typeof body.message, 'string', JSON.stringify(body));
  assert.ok(body.message.length > 0);
  assert.match(body.code, /^[a-z][a-z0-9_]*$/, JSON.stringify(body));
  for (const key of Object.keys(body)) assert.ok(BODY_KEYS.has(key), `unexpected key ${key} in ${JSON.stringify(body)}`);
  return body;
}

describe('ApiError', () => {
  it('carries a stable code by status when the thrower names none', () => {
    const cases: [number, string][] = [
      [400, 'bad_request'],
      [401, 'unauthorized'],
      [403, 'forbidden'],
      [404, 'not_found'],
      [409, 'conflict'],
      [410, 'gone'],
      [413, 'payload_too_large'],
      [422, 'validation_failed'],
      [429, 'rate_limited'],
      [500, 'internal_error'],
      [502, 'bad_gateway'],
      [503, 'unavailable'],
    ];
    for (const [status, code] of cases) {
      assert.equal(new ApiError(status as never, 'x').code, code, `status ${status}`);
      assert.equal(new ApiError(status as never, 'x').toBody().code, code);
    }
    assert.equal(new ApiError(418 as never, 'x').code, 'http_error');
  });

  it('keeps the positional form and takes an options object with a cause', () => {
    const positional = new ApiError(421, 'elsewhere', 'wrong_country', undefined, 'DE');
    assert.deepEqual(positional.toBody(), { message: 'elsewhere', code: 'wrong_country', home_country: 'DE' });
    const origin = new SyntaxError('secret parser detail');
    const errors = [{ path: 'a', code: 'b', message: 'c' }];
    const wrapped = new ApiError(422, 'Invalid.', { code: 'shape', errors, cause: origin });
    assert.equal(wrapped.cause, origin);
    assert.equal(wrapped.code, 'shape');
    assert.deepEqual(wrapped.toBody(), { message: 'Invalid.', code: 'shape', errors });
    assert.equal(JSON.stringify(wrapped).includes('secret'), false);
    assert.equal(badRequest('m', 'malformed_json', undefined, { cause: origin }).cause, origin);
    assert.equal(unprocessable('m', undefined, undefined, { cause: origin }).cause, origin);
    assert.equal(unprocessable('m').code, 'validation_failed');
    assert.equal(notFound().code, 'not_found');
  });
});

describe('error responses of the error handlers', () => {
  // A small app with the server's handlers, for the paths no route of the product reaches on purpose.
  let caught: Error | undefined;
  const app = new Hono();
  app.onError((err, c) => {
    caught = err;
    return onError(err, c);
  });
  app.notFound(onNotFound);
  app.get('/crash', () => {
    throw new Error('secret internal detail');
  });
  app.get('/http', () => {
    throw new HTTPException(400, { message: 'Malformed thing.' });
  });
  app.get('/too-large', () => {
    throw new HTTPException(413);
  });
  app.get('/wrapped', () => {
    throw new ApiError(502, 'The upstream failed.', { code: 'upstream_failed', cause: new Error('secret upstream detail') });
  });
  app.post('/json', jsonBody(), (c) => c.json({ ok: true }));

  it('answers an unexpected error with a 500 that leaks nothing', async () => {
    const original = console.error;
    console.error = () => {};
    try {
      const res = await app.request('/crash');
      const body = await errorBody(res, 500);
      assert.equal(body.code, 'internal_error');
      assert.equal(JSON.stringify(body).includes('secret'), false);
    } finally {
      console.error = original;
    }
  });

  it('gives an HTTPException a code by its status', async () => {
    assert.equal((await errorBody(await app.request('/http'), 400)).code, 'bad_request');
    assert.equal((await errorBody(await app.request('/too-large'), 413)).code, 'payload_too_large');
  });

  it('sends a wrapped error without its cause', async () => {
    const body = await errorBody(await app.request('/wrapped'), 502);
    assert.equal(body.code, 'upstream_failed');
    assert.equal(JSON.stringify(body).includes('secret'), false);
    assert.ok(caught instanceof ApiError && caught.cause instanceof Error);
  });

  it('keeps the parse error as the cause of a malformed-JSON 400', async () => {
    const res = await app.request('/json', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
    assert.equal((await errorBody(res, 400)).code, 'malformed_json');
    assert.ok(caught instanceof ApiError && caught.cause instanceof SyntaxError, String(caught));
  });

  it('answers an unknown route with not_found', async () => {
    assert.equal((await errorBody(await app.request('/nowhere'), 404)).code, 'not_found');
  });
});

describe('error bodies of the server', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.dispose());

  const raw = (path: string, init?: RequestInit) => fetch(server.url + path, init);

  it('401 without a credential', async () => {
    assert.equal((await errorBody(await raw('/api/v1/flows'), 401)).code, 'unauthorized');
  });

  it('401 at the agent gateway, with its challenge', async () => {
    const res = await raw('/mcp/v1/agent');
    assert.ok(res.headers.get('www-authenticate'));
    await errorBody(res, 401);
  });

  it('400 for malformed JSON and a wrong content type', async () => {
    const post = (body: string, type: string) =>
      server.api('/api/v1/api_tokens', { method: 'POST', body, headers: { 'content-type': type } });
    assert.equal((await errorBody(await post('{"api_token":', 'application/json'), 400)).code, 'malformed_json');
    assert.equal((await errorBody(await post('name=x', 'text/plain'), 400)).code, 'unsupported_content_type');
  });

  it('422 naming the fields', async () => {
    const body = await errorBody(await server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name: 7 } } }), 422);
    assert.ok(Array.isArray(body.errors) && body.errors.length > 0);
  });

  it('404 for an unknown resource, an unknown route, a missing SDK file and a missing asset', async () => {
    assert.equal((await errorBody(await server.api('/api/v1/consent_records/cr_missing'), 404)).code, 'not_found');
    assert.equal((await errorBody(await server.api('/api/v1/no_such_thing'), 404)).code, 'not_found');
    const sdk = await raw('/sdk/v1/no-such-file.js');
    assert.equal(sdk.headers.get('cache-control'), 'no-store');
    assert.equal((await errorBody(sdk, 404)).code, 'not_found');
    assert.equal((await errorBody(await raw('/assets/no-such-asset.js'), 404)).code, 'not_found');
  });

  it('413 for a body above the limit', async () => {
    const res = await server.api('/api/v1/api_tokens', {
      method: 'POST',
      body: 'x'.repeat(2 * 1024 * 1024),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal((await errorBody(res, 413)).code, 'payload_too_large');
  });
});
