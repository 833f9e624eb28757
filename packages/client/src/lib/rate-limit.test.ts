// A 429 answer and its Retry-After, against a fake fetch on a mocked clock: which requests wait and go again, how
// long, and which fail at once with the wait for the caller to schedule.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { z } from 'zod/mini';
import { connect, type WriteOptions } from './connection.js';
import { SvcAbortError, SvcConfigurationError, SvcRateLimitError } from './errors.js';
import type { BaseClientOptions } from './options.js';
import { parseRetryAfter } from './retry.js';

const ok = z.object({ ok: z.literal(true) });
const START = Date.UTC(2026, 0, 1);

const tooMany = (retryAfter?: string) =>
  new Response(JSON.stringify({ message: 'Too many requests.', code: 'rate_limited' }), {
    status: 429,
    headers: { 'content-type': 'application/json', ...(retryAfter !== undefined && { 'retry-after': retryAfter }) },
  });
const fine = () => new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } });

/** A client whose fetch answers from `answers` in turn (the last one repeats) and notes the clock of each call. */
function service(answers: (() => Response)[], options: Partial<BaseClientOptions> = {}) {
  const calls: { at: number; method: string; key: string | undefined }[] = [];
  const svc = connect({
    baseUrl: 'https://api.example.test',
    apiToken: 'test-token',
    ...options,
    fetch: async (_url, init) => {
      const headers = init.headers as Record<string, string>;
      calls.push({ at: Date.now(), method: String(init.method), key: headers['idempotency-key'] });
      return answers[Math.min(calls.length, answers.length) - 1]!();
    },
  });
  return { svc, calls };
}

/** Lets the fetch, the body read and the next timer's scheduling happen. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** Runs a call to its end, moving the mocked clock on in 100 ms steps (bounded) while it waits. */
async function run<T>(call: Promise<T>): Promise<T> {
  let done = false;
  const ended = call.finally(() => {
    done = true;
  });
  ended.catch(() => {});
  for (let step = 0; step < 1_000 && !done; step++) {
    await settle();
    if (!done) mock.timers.tick(100);
  }
  return ended;
}

async function rateLimitError(call: Promise<unknown>): Promise<SvcRateLimitError> {
  const error = await run(call).then(
    () => assert.fail('the call succeeded'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof SvcRateLimitError, String(error));
  return error;
}

describe('connect: a 429 and its Retry-After', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: START }));
  afterEach(() => mock.timers.reset());

  it('waits the Retry-After of seconds (RFC 9110 §10.2.3) and sends a GET once more, which succeeds', async () => {
    const { svc, calls } = service([() => tooMany('1'), fine]);
    assert.deepEqual(await run(svc.request({ method: 'GET', path: '/api/v1/me', schema: ok })), { ok: true });
    assert.deepEqual(
      calls.map((c) => c.at - START),
      [0, 1000],
    );
  });

  it('waits until a Retry-After given as an HTTP date', async () => {
    const at = new Date(START + 3000).toUTCString();
    const { svc, calls } = service([() => tooMany(at), fine]);
    await run(svc.request({ method: 'PUT', path: '/api/v1/things/1', body: {} }));
    assert.deepEqual(
      calls.map((c) => c.at - START),
      [0, 3000],
    );
  });

  for (const method of ['GET', 'PUT', 'DELETE'] as const) {
    it(`retries an idempotent ${method} (RFC 9110 §9.2.2)`, async () => {
      const { svc, calls } = service([() => tooMany('1'), fine]);
      await run(svc.request({ method, path: '/api/v1/things/1' }));
      assert.equal(calls.length, 2);
    });
  }

  it('retries a POST that carries an Idempotency-Key, with the same key', async () => {
    const { svc, calls } = service([() => tooMany('2'), fine]);
    await run(svc.request({ method: 'POST', path: '/api/v1/decisions', body: {} }, { idempotencyKey: 'key-1' }));
    assert.deepEqual(
      calls.map((c) => [c.at - START, c.key]),
      [
        [0, 'key-1'],
        [2000, 'key-1'],
      ],
    );
  });

  it('never retries a POST without an Idempotency-Key; its error carries retryAfter in seconds', async () => {
    const { svc, calls } = service([() => tooMany('7'), fine]);
    const error = await rateLimitError(svc.request({ method: 'POST', path: '/api/v1/decisions', body: {} }));
    assert.equal(error.retryAfter, 7);
    assert.equal(error.status, 429);
    assert.equal(error.reason, 'rate_limited');
    assert.equal(error.code, 'ERR_SVC_RATE_LIMIT');
    assert.equal(calls.length, 1);
  });

  it('fails at once, without waiting, when the Retry-After would outlast the call’s timeout', async () => {
    const { svc, calls } = service([() => tooMany('5'), fine], { timeoutMs: 4000 });
    const error = await rateLimitError(svc.request({ method: 'GET', path: '/api/v1/me' }));
    assert.equal(error.retryAfter, 5, 'the caller can schedule the call itself');
    assert.equal(calls.length, 1);
    assert.equal(Date.now(), START, 'no time passed');
  });

  it('counts the time already spent against the timeout', async () => {
    // 2 s spent on the first wait leaves 1 s of 3.5 s after the second answer: a second wait of 2 s is not taken.
    const { svc, calls } = service([() => tooMany('2'), () => tooMany('2'), fine], { timeoutMs: 3500 });
    const error = await rateLimitError(svc.request({ method: 'GET', path: '/api/v1/me' }));
    assert.equal(error.retryAfter, 2);
    assert.deepEqual(
      calls.map((c) => c.at - START),
      [0, 2000],
    );
  });

  it('fails at once when the Retry-After exceeds maxRetryAfterMs, of the client or of the call', async () => {
    const client = service([() => tooMany('3'), fine], { maxRetryAfterMs: 2000 });
    assert.equal((await rateLimitError(client.svc.request({ method: 'GET', path: '/a' }))).retryAfter, 3);
    assert.equal(client.calls.length, 1);

    const call = service([() => tooMany('3'), fine]);
    const options: WriteOptions = { maxRetryAfterMs: 2999 };
    assert.equal((await rateLimitError(call.svc.request({ method: 'GET', path: '/a' }, options))).retryAfter, 3);
    assert.equal(call.calls.length, 1);
    assert.equal(Date.now(), START);
  });

  it('bounds only what Retry-After asks: a 503 without one is still retried after its backoff', async () => {
    const busy = () => new Response('{"message":"busy"}', { status: 503 });
    const { svc, calls } = service([busy, fine], { maxRetryAfterMs: 0 });
    assert.deepEqual(await run(svc.request({ method: 'GET', path: '/a', schema: ok })), { ok: true });
    assert.equal(calls.length, 2);
  });

  it('waits at most 60 s by default', async () => {
    const { svc, calls } = service([() => tooMany('61'), fine], { timeoutMs: 600_000 });
    assert.equal((await rateLimitError(svc.request({ method: 'GET', path: '/a' }))).retryAfter, 61);
    assert.equal(calls.length, 1);
  });

  it('gives up after maxRetries, with the last 429', async () => {
    const { svc, calls } = service([() => tooMany('1')], { maxRetries: 2 });
    const error = await rateLimitError(svc.request({ method: 'GET', path: '/a' }));
    assert.equal(error.retryAfter, 1);
    assert.deepEqual(
      calls.map((c) => c.at - START),
      [0, 1000, 2000],
    );
  });

  it('rejects with SvcAbortError as soon as the signal aborts during the wait, and sends nothing more', async () => {
    const { svc, calls } = service([() => tooMany('20'), fine]);
    const controller = new AbortController();
    const pending = svc.request({ method: 'GET', path: '/a' }, { signal: controller.signal });
    pending.catch(() => {});
    await settle();
    mock.timers.tick(1000);
    controller.abort(new Error('user left'));
    const error = await pending.then(
      () => assert.fail('the call succeeded'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof SvcAbortError);
    assert.equal((error.cause as Error).message, 'user left');
    mock.timers.tick(60_000);
    await settle();
    assert.equal(calls.length, 1);
  });

  it('refuses a maxRetryAfterMs that is not a whole number of at least 0', () => {
    for (const bad of [-1, 1.5, Number.NaN]) {
      assert.throws(
        () => connect({ baseUrl: 'https://x.test', apiToken: 'a', maxRetryAfterMs: bad }),
        (e: unknown) => e instanceof SvcConfigurationError && /maxRetryAfterMs must be an integer of at least 0/.test(e.message),
      );
    }
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and an HTTP date, and nothing else', () => {
    const now = Date.UTC(2026, 0, 1);
    assert.equal(parseRetryAfter('120', now), 120);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now), 10);
    assert.equal(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now), 0, 'a date in the past means now');
    for (const bad of [null, '', 'soon', '-5', '1.5']) assert.equal(parseRetryAfter(bad, now), undefined, String(bad));
  });
});
