// The `getAccessToken` credential with a fake fetch: asked before every attempt, its token sent as the bearer,
// its failures reported as the client's errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createClient } from './client.js';
import { connect } from './connection.js';
import { SvcAbortError, SvcAuthenticationError, SvcConfigurationError, SvcTimeoutError, SvcTokenProviderError } from './errors.js';
import { SvcOAuthSignedOutError } from '../oauth/errors.js';

const baseUrl = 'https://api.example.test';
const meBody = {
  kind: 'person',
  account: { id: 'acct_1', name: 'Shop', created_at: '2026-01-01T00:00:00.000Z' },
  person: { id: 'prs_1', email: 'ada@example.com' },
  client: { client_id: 'oc_1', name: 'App', application_id: 'tp_dev_1' },
  scopes: ['openid'],
};

/** A fetch that answers each call with the next of `answers` (status, body) and records the Authorization sent. */
function fakeFetch(answers: [number, unknown][]) {
  const sent: (string | null)[] = [];
  const fetch = async (_url: string, init: RequestInit) => {
    sent.push(new Headers(init.headers).get('authorization'));
    const [status, body] = answers[Math.min(sent.length - 1, answers.length - 1)]!;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, sent };
}

describe('createClient({ getAccessToken })', () => {
  it('asks the provider before every request and sends what it returns', async () => {
    const { fetch, sent } = fakeFetch([[200, meBody]]);
    let calls = 0;
    const svc = createClient({ baseUrl, fetch, getAccessToken: async () => `at_${++calls}` });
    assert.equal(svc.credential, 'bearer');
    const me = await svc.me();
    assert.equal(me.kind, 'person');
    await svc.me();
    assert.deepEqual(sent, ['Bearer at_1', 'Bearer at_2']);
  });

  it('asks again before each retry, so a token refreshed meanwhile is the one sent', async () => {
    const { fetch, sent } = fakeFetch([
      [503, { message: 'busy' }],
      [200, { ok: true }],
    ]);
    let calls = 0;
    const svc = connect({ baseUrl, fetch, getAccessToken: () => `at_${++calls}`, maxRetries: 1 });
    await svc.request({ method: 'GET', path: '/api/v1/me' });
    assert.deepEqual(sent, ['Bearer at_1', 'Bearer at_2']);
  });

  it('gives the provider a signal that aborts with the call', async () => {
    let seen: AbortSignal | undefined;
    const controller = new AbortController();
    const svc = connect({
      baseUrl,
      fetch: fakeFetch([[200, {}]]).fetch,
      getAccessToken: ({ signal }) => {
        seen = signal;
        return new Promise<string>(() => controller.abort(new Error('user left')));
      },
    });
    await assert.rejects(svc.request({ method: 'GET', path: '/api/v1/me' }, { signal: controller.signal }), SvcAbortError);
    assert.equal(seen?.aborted, true);
  });

  it('ends a provider that never answers with the call timeout', async () => {
    const svc = connect({
      baseUrl,
      fetch: fakeFetch([[200, {}]]).fetch,
      timeoutMs: 50,
      getAccessToken: () => new Promise<string>(() => {}),
    });
    await assert.rejects(svc.request({ method: 'GET', path: '/api/v1/me' }), SvcTimeoutError);
  });

  it("passes the provider's own SvcError through (a signed-out session says so itself)", async () => {
    const { fetch, sent } = fakeFetch([[200, {}]]);
    const svc = connect({ baseUrl, fetch, getAccessToken: () => Promise.reject(new SvcOAuthSignedOutError('Not signed in.')) });
    await assert.rejects(svc.request({ method: 'GET', path: '/api/v1/me' }), (err: unknown) => {
      assert.ok(err instanceof SvcOAuthSignedOutError);
      assert.equal(err.code, 'ERR_SVC_OAUTH_SIGNED_OUT');
      return true;
    });
    assert.equal(sent.length, 0, 'nothing is sent without a token');
  });

  it('wraps any other failure of the provider in SvcTokenProviderError, naming the request', async () => {
    const cause = new Error('refresh endpoint unreachable');
    const svc = connect({
      baseUrl,
      fetch: fakeFetch([[200, {}]]).fetch,
      getAccessToken: () => {
        throw cause;
      },
    });
    await assert.rejects(svc.request({ method: 'GET', path: '/api/v1/me' }), (err: unknown) => {
      assert.ok(err instanceof SvcTokenProviderError);
      assert.equal(err.code, 'ERR_SVC_TOKEN_PROVIDER');
      assert.equal(err.cause, cause);
      assert.equal(err.path, '/api/v1/me');
      assert.match(err.message, /getAccessToken failed before GET \/api\/v1\/me: refresh endpoint unreachable/);
      return true;
    });
  });

  for (const [what, value] of [
    ['an empty string', ''],
    ['a token with a newline', 'at_1\n'],
    ['undefined', undefined],
  ] as const) {
    it(`refuses ${what} from the provider without sending it`, async () => {
      const { fetch, sent } = fakeFetch([[200, {}]]);
      const svc = connect({ baseUrl, fetch, getAccessToken: () => value as unknown as string });
      await assert.rejects(svc.request({ method: 'GET', path: '/api/v1/me' }), SvcTokenProviderError);
      assert.equal(sent.length, 0);
    });
  }

  it('hands a 401 back as SvcAuthenticationError without asking the provider again', async () => {
    const { fetch } = fakeFetch([[401, { message: 'The access token is not valid.', code: 'invalid_token' }]]);
    let calls = 0;
    const svc = connect({ baseUrl, fetch, getAccessToken: () => `at_${++calls}` });
    await assert.rejects(svc.request({ method: 'GET', path: '/api/v1/me' }), SvcAuthenticationError);
    assert.equal(calls, 1);
  });

  it('refuses a provider beside another credential, or one that is not a function', () => {
    assert.throws(
      () => connect({ baseUrl, accessToken: 'at', getAccessToken: () => 'x' } as never),
      (err: unknown) => err instanceof SvcConfigurationError && /not accessToken and getAccessToken/.test(err.message),
    );
    assert.throws(
      () => connect({ baseUrl, getAccessToken: 'at_1' } as never),
      (err: unknown) => err instanceof SvcConfigurationError && /getAccessToken must be a function/.test(err.message),
    );
  });
});
