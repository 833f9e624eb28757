// Country-aware addressing: a `421 wrong_country` answer re-issued once at the resource's home cell.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from './client.js';
import { connect } from './connection.js';
import {
  SvcConfigurationError,
  SvcHttpError,
  SvcTimeoutError,
  SvcWrongCountryError,
  isSvcError,
  type WrongCountryRefusal,
} from './errors.js';
import type { FetchImplementation, MisdirectedInfo } from './options.js';
import { json, loopback, startTestCells, type Loopback, type TestCells } from '../testing/servers.test.helper.js';

const US = 'https://us.api.example.test';
const DE = 'https://de.api.example.test';
const wrong = (home: string) => ({
  message: `This resource is served from its home country, ${home}. Re-issue the request there.`,
  code: 'wrong_country',
  home_country: home,
});
const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const cellsOf = (list: [string, string][]) => ({
  country: 'US',
  countries: list.map(([country, base_url]) => ({ country, base_url, trust_url: base_url })),
});

interface Sent {
  url: string;
  init: RequestInit;
}

/** A fake fetch answering by the URL's origin and path; records every request. */
function fakeFetch(answers: Record<string, (n: number) => Response | Promise<Response>>): FetchImplementation & { sent: Sent[] } {
  const sent: Sent[] = [];
  const counts = new Map<string, number>();
  const fetch = async (url: string, init: RequestInit) => {
    // A snapshot: the client reuses one headers object across attempts.
    sent.push({ url, init: { ...init, headers: { ...(init.headers as Record<string, string>) } } });
    const { origin, pathname } = new URL(url);
    const key = Object.keys(answers).find((k) => k === `${origin}${pathname}` || k === origin);
    if (!key) throw new TypeError(`fetch failed: nothing answers ${url}`);
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    return answers[key]!(n);
  };
  return Object.assign(fetch, { sent });
}

async function refusal(promise: Promise<unknown>, expected: WrongCountryRefusal, message?: RegExp): Promise<SvcWrongCountryError> {
  let caught: unknown;
  await assert.rejects(promise, (err: unknown) => {
    caught = err;
    return true;
  });
  assert.ok(caught instanceof SvcWrongCountryError, String(caught));
  assert.ok(isSvcError(caught));
  assert.equal(caught.code, 'ERR_SVC_WRONG_COUNTRY');
  assert.equal(caught.status, 421);
  assert.equal(caught.reason, 'wrong_country');
  assert.equal(caught.refusal, expected);
  if (message) assert.match(caught.message, message);
  return caught;
}

describe('connect: a 421 wrong_country answer (fake fetch)', () => {
  it('re-issues the call once at the configured home country and returns its answer', async () => {
    const fetch = fakeFetch({ [US]: () => answer(421, wrong('DE')), [DE]: () => answer(200, { id: 'cr_de_1' }) });
    const svc = connect({ baseUrl: US, apiToken: 'tok', fetch, countries: { de: `${DE}/` } });
    assert.deepEqual(await svc.request({ method: 'GET', path: '/api/v1/consent_records/cr_de_1', query: { expand: 'events' } }), {
      id: 'cr_de_1',
    });
    assert.deepEqual(
      fetch.sent.map((s) => s.url),
      [`${US}/api/v1/consent_records/cr_de_1?expand=events`, `${DE}/api/v1/consent_records/cr_de_1?expand=events`],
    );
    // Every call goes to the base URL first: nothing is remembered.
    await svc.request({ method: 'GET', path: '/api/v1/consent_records/cr_de_1' });
    assert.deepEqual(
      fetch.sent.slice(2).map((s) => new URL(s.url).origin),
      [US, DE],
    );
  });

  it('re-sends the body, the headers, the credential and the idempotency key of a POST', async () => {
    const fetch = fakeFetch({ [US]: () => answer(421, wrong('DE')), [DE]: () => answer(201, { ok: true }) });
    let n = 0;
    const svc = connect({ baseUrl: US, getAccessToken: () => `at_${++n}`, fetch, countries: { DE } });
    await svc.request(
      {
        method: 'POST',
        path: '/api/v1/consent_records/cr_de_1/withdraw',
        body: { purposes: ['news'] },
        headers: { 'X-Svc-Render-Proof': 'proof' },
      },
      { idempotencyKey: 'idem-1' },
    );
    assert.equal(fetch.sent.length, 2);
    const [first, second] = fetch.sent.map((s) => s.init);
    for (const init of [first!, second!]) {
      assert.equal(init.method, 'POST');
      assert.equal(init.body, '{"purposes":["news"]}');
      const headers = init.headers as Record<string, string>;
      assert.equal(headers['idempotency-key'], 'idem-1');
      assert.equal(headers['content-type'], 'application/json');
      assert.equal(headers['x-svc-render-proof'], 'proof');
    }
    // A token provider is asked per attempt, as for a retry.
    assert.deepEqual(
      [first, second].map((i) => (i!.headers as Record<string, string>).authorization),
      ['Bearer at_1', 'Bearer at_2'],
    );
  });

  it('never re-issues a call twice: a 421 from the home cell fails with SvcWrongCountryError', async () => {
    const fetch = fakeFetch({ [US]: () => answer(421, wrong('DE')), [DE]: () => answer(421, wrong('FR')) });
    const svc = connect({ baseUrl: US, apiToken: 'tok', fetch, countries: { DE, FR: 'https://fr.api.example.test' } });
    const err = await refusal(svc.request({ method: 'GET', path: '/api/v1/consent_records/cr_de_1' }), 'second_hop', /never twice/);
    assert.equal(err.homeCountry, 'FR');
    assert.equal(err.from, DE);
    assert.equal(fetch.sent.length, 2);
  });

  it('does not go back to a cell that names itself as the home country', async () => {
    const fetch = fakeFetch({ [US]: () => answer(421, wrong('US')) });
    const svc = connect({ baseUrl: US, apiToken: 'tok', fetch, countries: { US } });
    await refusal(svc.request({ method: 'GET', path: '/api/v1/x' }), 'second_hop');
    assert.equal(fetch.sent.length, 1);
  });

  it('asks onMisdirected first, and fails when it returns false', async () => {
    const fetch = fakeFetch({ [US]: () => answer(421, wrong('DE')), [DE]: () => answer(200, { ok: true }) });
    const seen: MisdirectedInfo[] = [];
    const svc = connect({
      baseUrl: US,
      apiToken: 'tok',
      fetch,
      countries: { DE },
      onMisdirected: (info) => (seen.push(info), info.method === 'GET'),
    });
    assert.deepEqual(await svc.request({ method: 'GET', path: '/api/v1/a' }), { ok: true });
    const err = await refusal(svc.request({ method: 'DELETE', path: '/api/v1/b' }), 'refused', /onMisdirected refused/);
    assert.equal(err.to, DE);
    assert.deepEqual(seen, [
      { from: US, to: DE, homeCountry: 'DE', method: 'GET', path: '/api/v1/a' },
      { from: US, to: DE, homeCountry: 'DE', method: 'DELETE', path: '/api/v1/b' },
    ]);
    assert.deepEqual(
      fetch.sent.map((s) => new URL(s.url).origin),
      [US, DE, US],
    );
  });

  it('never goes to a country neither configured nor discovered, naming it', async () => {
    const fetch = fakeFetch({ [US]: () => answer(421, wrong('FR')) });
    const svc = connect({ baseUrl: US, apiToken: 'tok', fetch, countries: { DE }, discoverCountries: false });
    const err = await refusal(
      svc.request({ method: 'GET', path: '/api/v1/x' }),
      'unknown_country',
      /homed in FR, whose base URL is neither in countries \(discoverCountries is false\)/,
    );
    assert.equal(err.homeCountry, 'FR');
    assert.equal(err.to, undefined);
    assert.equal(fetch.sent.length, 1);
  });

  it('ignores a home country that is not a country code, and a 421 that is not wrong_country', async () => {
    const odd = fakeFetch({ [US]: () => answer(421, wrong('__proto__')) });
    await refusal(connect({ baseUrl: US, apiToken: 'tok', fetch: odd }).request({ method: 'GET', path: '/x' }), 'unknown_country');
    assert.equal(odd.sent.length, 1);
    const proxy = fakeFetch({ [US]: () => answer(421, { message: 'Misdirected Request' }) });
    await assert.rejects(
      connect({ baseUrl: US, apiToken: 'tok', fetch: proxy, countries: { DE } }).request({ method: 'GET', path: '/x' }),
      (err: unknown) => err instanceof SvcHttpError && err.status === 421,
    );
  });

  it('discovers the home cell from GET /api/v1/countries of the base URL, once per connection', async () => {
    const fetch = fakeFetch({
      [`${US}/api/v1/countries`]: () =>
        answer(
          200,
          cellsOf([
            ['US', US],
            ['DE', `${DE}/`],
          ]),
        ),
      [US]: () => answer(421, wrong('DE')),
      [DE]: () => answer(200, { ok: true }),
    });
    const svc = connect({ baseUrl: US, publishableKey: 'pk_test_abc', fetch });
    await svc.request({ method: 'POST', path: '/api/v1/captures', body: {} });
    await svc.request({ method: 'POST', path: '/api/v1/captures', body: {} });
    assert.deepEqual(
      fetch.sent.map((s) => `${s.init.method} ${s.url}`),
      [
        `POST ${US}/api/v1/captures`,
        `GET ${US}/api/v1/countries`,
        `POST ${DE}/api/v1/captures`,
        `POST ${US}/api/v1/captures`,
        `POST ${DE}/api/v1/captures`,
      ],
    );
    // The list is asked with the credential only, never with the call's own headers.
    const asked = fetch.sent[1]!.init.headers as Record<string, string>;
    assert.equal(asked['x-publishable-key'], 'pk_test_abc');
    assert.equal(asked['content-type'], undefined);
  });

  it('prefers a configured country to the service list, and discovers only what is not configured', async () => {
    const fetch = fakeFetch({
      [`${US}/api/v1/countries`]: () => answer(200, cellsOf([['DE', 'https://elsewhere.example.test']])),
      [US]: () => answer(421, wrong('DE')),
      [DE]: () => answer(200, { ok: true }),
    });
    await connect({ baseUrl: US, apiToken: 'tok', fetch, countries: { DE } }).request({ method: 'GET', path: '/x' });
    assert.deepEqual(
      fetch.sent.map((s) => s.url),
      [`${US}/x`, `${DE}/x`],
    );
  });

  it('refuses a country the service does not list, and a cell in clear text under an https base URL', async () => {
    const fetch = fakeFetch({
      [`${US}/api/v1/countries`]: () =>
        answer(
          200,
          cellsOf([
            ['US', US],
            ['DE', 'http://de.api.example.test'],
            ['FR', 'javascript:alert(1)'],
          ]),
        ),
      [US]: (n) => answer(421, wrong(n === 1 ? 'DE' : n === 2 ? 'FR' : 'IT')),
    });
    const svc = connect({ baseUrl: US, apiToken: 'tok', fetch });
    for (const home of ['DE', 'FR', 'IT']) {
      const err = await refusal(
        svc.request({ method: 'GET', path: '/x' }),
        'unknown_country',
        new RegExp(`homed in ${home}, whose base URL is neither in countries nor in GET ${US}/api/v1/countries`),
      );
      assert.equal(err.homeCountry, home);
    }
    assert.ok(fetch.sent.every((s) => new URL(s.url).origin === US));
  });

  it('fails with discovery_failed when the service list cannot be read, and asks again next time', async () => {
    const fetch = fakeFetch({
      [`${US}/api/v1/countries`]: (n) =>
        n === 1 ? answer(403, { message: 'nope', code: 'insufficient_permissions' }) : answer(200, cellsOf([['DE', DE]])),
      [US]: () => answer(421, wrong('DE')),
      [DE]: () => answer(200, { ok: true }),
    });
    const svc = connect({ baseUrl: US, apiToken: 'tok', fetch });
    const err = await refusal(
      svc.request({ method: 'GET', path: '/x' }),
      'discovery_failed',
      /GET https:\/\/us\.api\.example\.test\/api\/v1\/countries failed: nope/,
    );
    assert.equal((err.cause as { status?: number }).status, 403);
    assert.deepEqual(await svc.request({ method: 'GET', path: '/x' }), { ok: true });
  });

  it('counts the re-issued call within the call timeout', async () => {
    const fetch = fakeFetch({
      [US]: () => answer(421, wrong('DE')),
      [DE]: () => new Promise<Response>(() => {}),
    });
    const hanging: FetchImplementation = (url, init) =>
      new Promise((resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal!.reason));
        fetch(url, init).then(resolve, reject);
      });
    const started = Date.now();
    await assert.rejects(
      connect({ baseUrl: US, apiToken: 'tok', fetch: hanging, countries: { DE }, timeoutMs: 150 }).request({ method: 'GET', path: '/x' }),
      SvcTimeoutError,
    );
    assert.ok(Date.now() - started < 1000);
  });

  it('retries a failure of the home cell there, like any retryable failure', async () => {
    const fetch = fakeFetch({
      [US]: () => answer(421, wrong('DE')),
      [DE]: (n) => (n === 1 ? answer(503, { message: 'busy' }) : answer(200, { ok: true })),
    });
    await connect({ baseUrl: US, apiToken: 'tok', fetch, countries: { DE }, maxRetries: 1 }).request({ method: 'GET', path: '/x' });
    assert.deepEqual(
      fetch.sent.map((s) => new URL(s.url).origin),
      [US, DE, DE],
    );
  });

  const refused: [string, unknown, RegExp][] = [
    ['a country that is not a code', { countries: { Germany: DE } }, /countries: "Germany" is not an ISO 3166-1 alpha-2 country code/],
    ['a country base URL with a query', { countries: { DE: `${DE}/?a=1` } }, /countries\.DE must be an http\(s\) URL without query/],
    ['a country base URL that is no URL', { countries: { DE: 'de.example' } }, /countries\.DE must be an http\(s\) URL/],
    ['a hook that is not a function', { onMisdirected: true }, /onMisdirected must be a function/],
  ];
  for (const [what, options, message] of refused) {
    it(`refuses ${what} at construction`, () => {
      assert.throws(
        () => connect({ baseUrl: US, apiToken: 'tok', ...(options as object) }),
        (err: unknown) => err instanceof SvcConfigurationError && message.test(err.message),
      );
    });
  }
});

// The Fetch standard itself re-sends a request that drew a 421 once, on a new connection, before handing the
// answer over (Node's fetch does; a server sees the misdirected request twice). So these tests count the client's
// own calls through a recording fetch, and read what each server received last.
describe('connect: a 421 wrong_country answer between two HTTP servers', () => {
  let us: Loopback;
  let de: Loopback;
  const calls: string[] = [];
  const recording: FetchImplementation = (url, init) => {
    calls.push(`${init.method} ${url}`);
    return globalThis.fetch(url, init);
  };
  before(async () => {
    de = await loopback((req, res) =>
      req.url.startsWith('/api/v1/loop') ? json(res, 421, wrong('US')) : json(res, 201, { ok: true }, { 'svc-country': 'DE' }),
    );
    us = await loopback((req, res) =>
      req.url === '/api/v1/countries'
        ? json(
            res,
            200,
            cellsOf([
              ['US', us.url],
              ['DE', de.url],
            ]),
          )
        : json(res, 421, wrong('DE')),
    );
  });
  after(async () => {
    await us.close();
    await de.close();
  });

  it('re-issues a POST at the discovered home cell with the same credential, body and idempotency key', async () => {
    let headers: Headers | undefined;
    calls.length = 0;
    const svc = connect({ baseUrl: us.url, apiToken: 'tok', countries: {}, fetch: recording });
    const body = await svc.request(
      {
        method: 'POST',
        path: '/api/v1/consent_records',
        body: { subject: { email: 'a@example.com' } },
        onResponse: (r) => (headers = r.headers),
      },
      { idempotencyKey: 'k-1' },
    );
    assert.deepEqual(body, { ok: true });
    assert.equal(headers?.get('svc-country'), 'DE');
    assert.deepEqual(calls, [
      `POST ${us.url}/api/v1/consent_records`,
      `GET ${us.url}/api/v1/countries`,
      `POST ${de.url}/api/v1/consent_records`,
    ]);
    assert.equal(us.requests.at(-1)?.url, '/api/v1/countries');
    const received = de.requests.at(-1);
    assert.equal(received?.method, 'POST');
    assert.equal(received?.url, '/api/v1/consent_records');
    assert.equal(received?.body, '{"subject":{"email":"a@example.com"}}');
    assert.equal(received?.headers.authorization, 'Bearer tok');
    assert.equal(received?.headers['idempotency-key'], 'k-1');
    assert.equal(received?.headers['content-type'], 'application/json');
  });

  it('stops when the home cell answers 421 again', async () => {
    calls.length = 0;
    const svc = connect({ baseUrl: us.url, apiToken: 'tok', countries: { DE: de.url }, fetch: recording });
    const err = await refusal(svc.request({ method: 'GET', path: '/api/v1/loop' }), 'second_hop');
    assert.equal(err.homeCountry, 'US');
    assert.deepEqual(calls, [`GET ${us.url}/api/v1/loop`, `GET ${de.url}/api/v1/loop`]);
  });
});

describe('createClient against a reference server of two country cells', () => {
  let server: TestCells;
  before(async () => {
    server = await startTestCells(['US', 'DE']);
  });
  after(() => server.dispose());

  it("creates and reads a decision homed in DE through the US cell, by the service's list or by the sandbox's countries", async () => {
    const { US: us, DE: de } = server.cells;
    const { api_token: token, application_id: applicationId, flow_id: flowId } = server.first.sandbox;
    // The sandbox application's personal data lives in DE from now on: the US cell answers 421 to a new decision.
    await createClient({ baseUrl: us!.url, apiToken: token }).applications.update(applicationId, { home_country: 'DE' });
    const calls: string[] = [];
    const recording: FetchImplementation = (url, init) => {
      calls.push(`${init.method} ${url}`);
      return globalThis.fetch(url, init);
    };
    const created = await createClient({ baseUrl: us!.url, apiToken: token, fetch: recording }).decisions.create(
      { kind: 'consent', subject_ref: flowId!, delivery_mode: 'redirect' },
      { idempotencyKey: 'one-decision' },
    );
    assert.match(created.session_token, /^dts_de_/);
    assert.deepEqual(calls, [`POST ${us!.url}/api/v1/decisions`, `GET ${us!.url}/api/v1/countries`, `POST ${de!.url}/api/v1/decisions`]);

    const direct = createClient({ baseUrl: us!.url, apiToken: token, discoverCountries: false });
    await refusal(direct.decisions.get(created.session_token), 'unknown_country', /homed in DE/);

    const discovering = createClient({ baseUrl: us!.url, apiToken: token });
    assert.equal((await discovering.decisions.get(created.session_token)).session_token, created.session_token);

    const countries = Object.fromEntries(Object.entries(server.first.sandbox.countries!).map(([code, cell]) => [code, cell.base_url]));
    const configured = createClient({ baseUrl: us!.url, apiToken: token, countries, discoverCountries: false });
    assert.equal((await configured.decisions.get(created.session_token)).session_token, created.session_token);
  });
});
