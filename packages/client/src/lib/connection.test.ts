import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod/mini';
import { connect } from './connection.js';
import {
  SvcAbortError,
  SvcConfigurationError,
  SvcHttpError,
  SvcNetworkError,
  SvcNotFoundError,
  SvcRateLimitError,
  SvcResponseValidationError,
  SvcServerError,
  SvcTimeoutError,
  isSvcError,
} from './errors.js';
import type { SvcWarning } from './options.js';
import { closedPort, json, loopback } from '../testing/servers.test.helper.js';

const ok = z.object({ ok: z.literal(true) });
const token = 'test-token';

describe('connect: credentials', () => {
  it('sends an API token as a bearer token and nothing else', async () => {
    const server = await loopback((_req, res) => json(res, 200, { ok: true }));
    try {
      await connect({ baseUrl: server.url, apiToken: token }).request({ method: 'GET', path: '/api/v1/me', schema: ok });
      const { headers } = server.requests[0]!;
      assert.equal(headers.authorization, `Bearer ${token}`);
      assert.equal(headers['x-publishable-key'], undefined);
      assert.equal(headers['x-delegation-grant-id'], undefined);
      assert.equal(headers.accept, 'application/json');
    } finally {
      await server.close();
    }
  });

  it('sends an access token with a delegation grant beside it', async () => {
    const server = await loopback((_req, res) => json(res, 200, { ok: true }));
    try {
      const svc = connect({ baseUrl: `${server.url}/`, accessToken: 'at_1', delegationGrantId: 'dlg_dev_1' });
      assert.equal(svc.credential, 'bearer');
      assert.equal(svc.baseUrl, server.url);
      await svc.request({ method: 'GET', path: '/api/v1/me' });
      assert.equal(server.requests[0]?.headers.authorization, 'Bearer at_1');
      assert.equal(server.requests[0]?.headers['x-delegation-grant-id'], 'dlg_dev_1');
    } finally {
      await server.close();
    }
  });

  it('sends an agent token as a bearer token, without a delegation header (the token names its grant)', async () => {
    const server = await loopback((_req, res) => json(res, 200, { ok: true }));
    try {
      const svc = connect({ baseUrl: server.url, agentToken: 'ra_agent_0123456789abcdefghij' });
      assert.equal(svc.credential, 'bearer');
      await svc.request({ method: 'GET', path: '/api/v1/me' });
      assert.equal(server.requests[0]?.headers.authorization, 'Bearer ra_agent_0123456789abcdefghij');
      assert.equal(server.requests[0]?.headers['x-delegation-grant-id'], undefined);
    } finally {
      await server.close();
    }
  });

  it("sends a provider's access token with a delegation grant on every attempt", async () => {
    const server = await loopback((_req, res, attempt) =>
      attempt === 1 ? json(res, 503, { message: 'busy' }) : json(res, 200, { ok: true }),
    );
    try {
      let n = 0;
      const svc = connect({ baseUrl: server.url, getAccessToken: () => `at_${++n}`, delegationGrantId: 'dlg_dev_Ab12' });
      await svc.request({ method: 'GET', path: '/api/v1/me' });
      assert.deepEqual(
        server.requests.map((r) => [r.headers.authorization, r.headers['x-delegation-grant-id']]),
        [
          ['Bearer at_1', 'dlg_dev_Ab12'],
          ['Bearer at_2', 'dlg_dev_Ab12'],
        ],
      );
    } finally {
      await server.close();
    }
  });

  it('sends a publishable key as X-Publishable-Key and no Authorization', async () => {
    const server = await loopback((_req, res) => json(res, 200, { ok: true }));
    try {
      const svc = connect({ baseUrl: server.url, publishableKey: 'pk_test_abcdefgh' });
      assert.equal(svc.credential, 'publishable_key');
      await svc.request({ method: 'POST', path: '/api/v1/decisions', body: { a: 1 } });
      const received = server.requests[0]!;
      assert.equal(received.headers['x-publishable-key'], 'pk_test_abcdefgh');
      assert.equal(received.headers.authorization, undefined);
      assert.equal(received.headers['content-type'], 'application/json');
      assert.equal(received.body, '{"a":1}');
    } finally {
      await server.close();
    }
  });

  it('keeps a base URL path prefix and encodes the query', async () => {
    const server = await loopback((_req, res) => json(res, 200, { ok: true }));
    try {
      const svc = connect({ baseUrl: `${server.url}/svc`, apiToken: token });
      await svc.request({ method: 'GET', path: '/api/v1/flows', query: { limit: 2, cursor: 'a b&c', skipped: undefined } });
      assert.equal(server.requests[0]?.url, '/svc/api/v1/flows?limit=2&cursor=a+b%26c');
    } finally {
      await server.close();
    }
  });

  it('uses an injected fetch', async () => {
    const seen: string[] = [];
    const svc = connect({
      baseUrl: 'https://api.example.test',
      apiToken: token,
      fetch: async (url, init) => {
        seen.push(`${init.method} ${url}`);
        return new Response('{"ok":true}', { status: 200 });
      },
    });
    assert.deepEqual(await svc.request({ method: 'GET', path: '/api/v1/me', schema: ok }), { ok: true });
    assert.deepEqual(seen, ['GET https://api.example.test/api/v1/me']);
  });

  const refused: [string, unknown, RegExp][] = [
    [
      'no credential',
      { baseUrl: 'http://x.test' },
      /Pass one credential: apiToken, accessToken, getAccessToken, agentToken or publishableKey/,
    ],
    ['two credentials', { baseUrl: 'http://x.test', apiToken: 'a', publishableKey: 'pk_test_x' }, /not apiToken and publishableKey/],
    [
      'a delegation grant with a publishable key',
      { baseUrl: 'http://x.test', publishableKey: 'pk_test_x', delegationGrantId: 'dlg_dev_1' },
      /delegationGrantId needs a person's access token/,
    ],
    [
      'a delegation grant with an API token',
      { baseUrl: 'http://x.test', apiToken: 'a', delegationGrantId: 'dlg_dev_1' },
      /not with an API token/,
    ],
    [
      'a delegation grant with an agent token',
      { baseUrl: 'http://x.test', agentToken: 'ra_agent_abc', delegationGrantId: 'dlg_dev_1' },
      /not with an agent token/,
    ],
    [
      'a delegation grant id of another shape',
      { baseUrl: 'http://x.test', accessToken: 'at_1', delegationGrantId: 'agt_dev_1' },
      /must be a delegation grant id \(dlg_<region>_\.\.\.\)/,
    ],
    [
      'a delegation grant id of another shape with a provider',
      { baseUrl: 'http://x.test', getAccessToken: () => 'at_1', delegationGrantId: 'dlg_1' },
      /must be a delegation grant id/,
    ],
    [
      'an agent token without its prefix',
      { baseUrl: 'http://x.test', agentToken: 'at_1' },
      /agentToken must be an agent token \(ra_agent_\.\.\.\)/,
    ],
    [
      'an agent token beside an API token',
      { baseUrl: 'http://x.test', agentToken: 'ra_agent_abc', apiToken: 'a' },
      /not apiToken and agentToken/,
    ],
    ['a base URL that is no URL', { baseUrl: 'localhost:4010', apiToken: 'a' }, /baseUrl must be an http\(s\) URL/],
    ['a base URL with a query', { baseUrl: 'http://x.test/?a=1', apiToken: 'a' }, /without query/],
    ['a token with a newline', { baseUrl: 'http://x.test', apiToken: 'abc\n' }, /apiToken must be a non-empty string/],
    ['a negative timeout', { baseUrl: 'http://x.test', apiToken: 'a', timeoutMs: -1 }, /timeoutMs must be an integer of at least 1/],
  ];
  for (const [what, options, message] of refused) {
    it(`refuses ${what} at construction`, () => {
      assert.throws(
        () => connect(options as never),
        (err: unknown) => {
          assert.ok(err instanceof SvcConfigurationError);
          assert.equal(err.code, 'ERR_SVC_CONFIGURATION');
          assert.match(err.message, message);
          return true;
        },
      );
    });
  }
});

describe('connect: retries', () => {
  it('retries a GET that fails twice with 503, then returns the third answer', async () => {
    const server = await loopback((_req, res, attempt) =>
      attempt <= 2 ? json(res, 503, { message: 'busy' }) : json(res, 200, { ok: true }),
    );
    try {
      const svc = connect({ baseUrl: server.url, apiToken: token });
      assert.deepEqual(await svc.request({ method: 'GET', path: '/api/v1/me', schema: ok }), { ok: true });
      assert.equal(server.requests.length, 3);
    } finally {
      await server.close();
    }
  });

  it('gives up after maxRetries and throws the last server error', async () => {
    const server = await loopback((_req, res) => json(res, 502, { message: 'bad gateway', code: 'upstream' }));
    try {
      const svc = connect({ baseUrl: server.url, apiToken: token, maxRetries: 1 });
      await assert.rejects(svc.request({ method: 'DELETE', path: '/api/v1/api_tokens/x' }), (err: unknown) => {
        assert.ok(err instanceof SvcServerError);
        assert.equal(err.status, 502);
        assert.equal(err.reason, 'upstream');
        assert.equal(err.message, 'bad gateway');
        assert.equal(err.method, 'DELETE');
        assert.equal(err.path, '/api/v1/api_tokens/x');
        return true;
      });
      assert.equal(server.requests.length, 2);
    } finally {
      await server.close();
    }
  });

  it('never retries a POST without an idempotency key', async () => {
    const server = await loopback((_req, res, attempt) =>
      attempt === 1 ? json(res, 503, { message: 'busy' }) : json(res, 200, { ok: true }),
    );
    try {
      const svc = connect({ baseUrl: server.url, apiToken: token });
      await assert.rejects(svc.request({ method: 'POST', path: '/api/v1/decisions', body: {} }), SvcServerError);
      assert.equal(server.requests.length, 1);
    } finally {
      await server.close();
    }
  });

  it('retries a POST that carries an idempotency key, sending the same key each time', async () => {
    const server = await loopback((_req, res, attempt) =>
      attempt <= 2 ? json(res, 503, { message: 'busy' }) : json(res, 201, { ok: true }),
    );
    try {
      const svc = connect({ baseUrl: server.url, apiToken: token });
      const result = await svc.request({ method: 'POST', path: '/api/v1/decisions', body: {}, schema: ok }, { idempotencyKey: 'key-1' });
      assert.deepEqual(result, { ok: true });
      assert.deepEqual(
        server.requests.map((r) => r.headers['idempotency-key']),
        ['key-1', 'key-1', 'key-1'],
      );
    } finally {
      await server.close();
    }
  });

  it('waits as long as a 429 Retry-After says', async () => {
    const server = await loopback((_req, res, attempt) =>
      attempt === 1 ? json(res, 429, { message: 'slow down' }, { 'retry-after': '1' }) : json(res, 200, { ok: true }),
    );
    try {
      const started = Date.now();
      await connect({ baseUrl: server.url, apiToken: token }).request({ method: 'GET', path: '/api/v1/me', schema: ok });
      assert.ok(Date.now() - started >= 950, 'waited for Retry-After');
      assert.equal(server.requests.length, 2);
    } finally {
      await server.close();
    }
  });

  it('hands a 429 back with its Retry-After when retrying is not allowed', async () => {
    const server = await loopback((_req, res) => json(res, 429, { message: 'slow down' }, { 'retry-after': '120' }));
    try {
      const svc = connect({ baseUrl: server.url, apiToken: token });
      await assert.rejects(svc.request({ method: 'GET', path: '/api/v1/me' }), (err: unknown) => {
        assert.ok(err instanceof SvcRateLimitError);
        assert.equal(err.retryAfter, 120);
        return true;
      });
      assert.equal(server.requests.length, 1, 'a wait past the limit is not taken');
    } finally {
      await server.close();
    }
  });

  it('retries a dropped connection, then succeeds', async () => {
    const server = await loopback((_req, res, attempt) => {
      if (attempt === 1) res.socket?.destroy();
      else json(res, 200, { ok: true });
    });
    try {
      const svc = connect({ baseUrl: server.url, apiToken: token });
      assert.deepEqual(await svc.request({ method: 'GET', path: '/api/v1/me', schema: ok }), { ok: true });
      assert.equal(server.requests.length, 2);
    } finally {
      await server.close();
    }
  });
});

describe('connect: failures without an HTTP answer', () => {
  it('throws SvcNetworkError when nothing listens, after the retries', async () => {
    const port = await closedPort();
    const svc = connect({ baseUrl: `http://127.0.0.1:${port}`, apiToken: token, maxRetries: 1 });
    await assert.rejects(svc.request({ method: 'GET', path: '/api/v1/me' }), (err: unknown) => {
      assert.ok(err instanceof SvcNetworkError);
      assert.equal(err.code, 'ERR_SVC_NETWORK');
      assert.match(err.message, /GET \/api\/v1\/me got no response: .*ECONNREFUSED/);
      assert.ok(err.cause instanceof Error);
      return true;
    });
  });

  it('throws SvcTimeoutError when the server does not answer within timeoutMs', async () => {
    const server = await loopback(() => {
      // never answers
    });
    try {
      const svc = connect({ baseUrl: server.url, apiToken: token, timeoutMs: 5_000 });
      const started = Date.now();
      await assert.rejects(svc.request({ method: 'GET', path: '/api/v1/me' }, { timeoutMs: 150 }), (err: unknown) => {
        assert.ok(err instanceof SvcTimeoutError);
        assert.equal(err.message, 'GET /api/v1/me did not finish within 150 ms.');
        return true;
      });
      assert.ok(Date.now() - started < 2_000);
    } finally {
      await server.close();
    }
  });

  it('counts backoff waits against the timeout', async () => {
    const server = await loopback((_req, res) => json(res, 503, { message: 'busy' }, { 'retry-after': '2' }));
    try {
      const svc = connect({ baseUrl: server.url, apiToken: token, timeoutMs: 500 });
      // The 2 s wait would outlast the deadline, so the 503 comes back at once instead of a timeout.
      await assert.rejects(svc.request({ method: 'GET', path: '/api/v1/me' }), SvcServerError);
      assert.equal(server.requests.length, 1);
    } finally {
      await server.close();
    }
  });

  it('throws SvcAbortError with the reason when the caller aborts mid-request', async () => {
    const server = await loopback(() => {
      // never answers
    });
    try {
      const controller = new AbortController();
      const svc = connect({ baseUrl: server.url, apiToken: token });
      const pending = svc.request({ method: 'GET', path: '/api/v1/me' }, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error('user left')), 50);
      await assert.rejects(pending, (err: unknown) => {
        assert.ok(err instanceof SvcAbortError);
        assert.equal((err.cause as Error).message, 'user left');
        return true;
      });
    } finally {
      await server.close();
    }
  });

  it('aborts during a backoff wait', async () => {
    const server = await loopback((_req, res) => json(res, 503, { message: 'busy' }, { 'retry-after': '5' }));
    try {
      const svc = connect({ baseUrl: server.url, apiToken: token });
      const started = Date.now();
      await assert.rejects(svc.request({ method: 'GET', path: '/api/v1/me' }, { signal: AbortSignal.timeout(200) }), SvcAbortError);
      assert.ok(Date.now() - started < 2_000);
      assert.equal(server.requests.length, 1);
    } finally {
      await server.close();
    }
  });

  it('sends nothing when the signal is already aborted', async () => {
    let called = false;
    const svc = connect({ baseUrl: 'http://x.test', apiToken: token, fetch: async () => ((called = true), new Response()) });
    await assert.rejects(svc.request({ method: 'GET', path: '/a' }, { signal: AbortSignal.abort() }), SvcAbortError);
    assert.equal(called, false);
  });
});

describe('connect: responses', () => {
  it('names each field of a response that does not match the schema', async () => {
    const server = await loopback((_req, res) => json(res, 200, { test_clock: { now: 'yesterday' } }));
    try {
      const schema = z.object({ test_clock: z.object({ now: z.iso.datetime(), offset_seconds: z.number() }) });
      const svc = connect({ baseUrl: server.url, apiToken: token });
      await assert.rejects(svc.request({ method: 'GET', path: '/clock', schema }), (err: unknown) => {
        assert.ok(err instanceof SvcResponseValidationError);
        assert.equal(err.status, 200);
        assert.deepEqual(err.errors, [
          { path: 'test_clock.now', code: 'invalid_format', message: 'not a valid datetime' },
          { path: 'test_clock.offset_seconds', code: 'invalid_type', message: 'missing (expected number)' },
        ]);
        assert.match(err.message, /GET \/clock answered with a body that does not match its schema: test_clock\.now: not a valid datetime/);
        return true;
      });
    } finally {
      await server.close();
    }
  });

  it('refuses additional properties where the schema is strict', async () => {
    const server = await loopback((_req, res) => json(res, 200, { ok: true, extra: 1 }));
    try {
      const svc = connect({ baseUrl: server.url, apiToken: token });
      await assert.rejects(svc.request({ method: 'GET', path: '/x', schema: z.strictObject({ ok: z.boolean() }) }), (err: unknown) => {
        assert.ok(err instanceof SvcResponseValidationError);
        assert.deepEqual(err.errors, [{ path: '(body)', code: 'unrecognized_keys', message: 'unexpected field extra' }]);
        return true;
      });
    } finally {
      await server.close();
    }
  });

  it('reports a body that is not JSON', async () => {
    const server = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>');
    });
    try {
      await assert.rejects(
        connect({ baseUrl: server.url, apiToken: token }).request({ method: 'GET', path: '/x', schema: ok }),
        (err: unknown) => err instanceof SvcResponseValidationError && err.errors[0]?.code === 'invalid_json',
      );
    } finally {
      await server.close();
    }
  });

  it('returns undefined for an empty 204 without a schema', async () => {
    const server = await loopback((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    try {
      assert.equal(await connect({ baseUrl: server.url, apiToken: token }).request({ method: 'DELETE', path: '/x' }), undefined);
    } finally {
      await server.close();
    }
  });

  it('carries home_country from an error body', async () => {
    const server = await loopback((_req, res) =>
      json(res, 404, { message: 'Homed elsewhere.', code: 'wrong_country', home_country: 'DE' }),
    );
    try {
      await assert.rejects(
        connect({ baseUrl: server.url, apiToken: token }).request({ method: 'GET', path: '/api/v1/flows/flw_eu_1' }),
        (err: unknown) => {
          assert.ok(err instanceof SvcNotFoundError);
          assert.equal(err.homeCountry, 'DE');
          assert.equal(err.reason, 'wrong_country');
          return true;
        },
      );
    } finally {
      await server.close();
    }
  });

  it('words an error without a JSON body from its status line, and maps other statuses to SvcHttpError', async () => {
    const server = await loopback((_req, res) => {
      res.writeHead(409, 'Conflict', { 'content-type': 'text/plain' });
      res.end('nope');
    });
    try {
      await assert.rejects(connect({ baseUrl: server.url, apiToken: token }).request({ method: 'PUT', path: '/x' }), (err: unknown) => {
        assert.ok(isSvcError(err));
        assert.equal(err.code, 'ERR_SVC_HTTP');
        assert.ok(err instanceof SvcHttpError);
        assert.equal(err.message, 'PUT /x answered 409 Conflict.');
        return true;
      });
    } finally {
      await server.close();
    }
  });

  it('warns once per path about a deprecated endpoint, naming the successor', async () => {
    const server = await loopback((_req, res) =>
      json(
        res,
        200,
        { ok: true },
        {
          deprecation: '@1767225600',
          sunset: 'Thu, 01 Jan 2032 00:00:00 GMT',
          link: '<https://docs.example/>; rel="deprecation", </api/v1/decisions>; rel="successor-version"',
        },
      ),
    );
    try {
      const warnings: SvcWarning[] = [];
      const svc = connect({ baseUrl: server.url, apiToken: token, onWarning: (w) => warnings.push(w) });
      await svc.request({ method: 'POST', path: '/api/v1/consent_sessions', body: {} });
      await svc.request({ method: 'POST', path: '/api/v1/consent_sessions', body: {} });
      await svc.request({ method: 'GET', path: '/api/v1/consent_sessions/dts_1' });
      assert.deepEqual(
        warnings.map((w) => w.path),
        ['/api/v1/consent_sessions', '/api/v1/consent_sessions/dts_1'],
      );
      assert.deepEqual(warnings[0], {
        code: 'SVC_DEPRECATED_ENDPOINT',
        message:
          'svc: POST /api/v1/consent_sessions is deprecated; it stops working after Thu, 01 Jan 2032 00:00:00 GMT; use /api/v1/decisions instead.',
        path: '/api/v1/consent_sessions',
        sunset: 'Thu, 01 Jan 2032 00:00:00 GMT',
        successor: '/api/v1/decisions',
      });
    } finally {
      await server.close();
    }
  });
});
