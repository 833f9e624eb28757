import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { askService, CaptureError, holdSubmissions } from './index.js';

// The building blocks <svc-consent-field> shares with the capture helper.

describe('askService', () => {
  const answer = (status: number, body: string) => async () => new Response(body, { status });

  it('should resolve with the JSON body, sent without cookies or cache', async () => {
    let seen: RequestInit | undefined;
    const body = await askService(
      'https://svc.example/x',
      { method: 'GET' },
      {
        timeoutMs: 1000,
        fetch: async (_url, init) => {
          seen = init;
          return new Response('{"a":1}', { status: 200 });
        },
      },
    );
    expect(body).to.deep.equal({ a: 1 });
    expect(seen!.method).to.equal('GET');
    expect(seen!.credentials).to.equal('omit');
    expect(seen!.cache).to.equal('no-store');
  });

  it('should reject with http_<status> and the server message, naming the service otherwise', async () => {
    const own = await askService('https://svc.example/x', {}, { timeoutMs: 1000, fetch: answer(409, '{"message":"Taken"}') }).catch(
      (e: unknown) => e,
    );
    expect(own).to.be.instanceOf(CaptureError).and.include({ code: 'http_409', message: 'Taken', status: 409 });
    const bare = await askService('https://svc.example/x', {}, { timeoutMs: 1000, fetch: answer(503, '') }, 'The render service').catch(
      (e: unknown) => e,
    );
    expect((bare as CaptureError).message).to.equal('The render service answered HTTP 503.');
  });

  it('should reject with network, and with timeout after timeoutMs, aborting the request', async () => {
    const offline = await askService(
      'https://svc.example/x',
      {},
      { timeoutMs: 1000, fetch: () => Promise.reject(new TypeError('offline')) },
    ).catch((e: unknown) => e);
    expect((offline as CaptureError).code).to.equal('network');
    let signal: AbortSignal | undefined;
    const slow = await askService(
      'https://svc.example/x',
      {},
      {
        timeoutMs: 50,
        fetch: (_url, init) => {
          signal = init.signal!;
          return new Promise<Response>(() => {});
        },
      },
    ).catch((e: unknown) => e);
    expect((slow as CaptureError).code).to.equal('timeout');
    expect(signal!.aborted).to.equal(true);
  });

  it('should reject with the reason of the caller signal, aborting the request', async () => {
    const caller = new AbortController();
    let signal: AbortSignal | undefined;
    const asked = askService(
      'https://svc.example/x',
      {},
      {
        timeoutMs: 1000,
        signal: caller.signal,
        fetch: (_url, init) =>
          new Promise<Response>((_, reject) => {
            signal = init.signal!;
            signal.addEventListener('abort', () => reject(signal!.reason));
          }),
      },
    ).catch((e: unknown) => e);
    const reason = new Error('reloaded');
    caller.abort(reason);
    expect(await asked).to.equal(reason);
    expect(signal!.aborted).to.equal(true);
  });
});

describe('askService and country cells', () => {
  const US = 'https://us.svc.example';
  const DE = 'https://de.svc.example';
  const wrong = (home: string) =>
    new Response(JSON.stringify({ message: `Served from ${home}.`, code: 'wrong_country', home_country: home }), { status: 421 });
  const cells = (...list: [string, string][]) =>
    new Response(
      JSON.stringify({ country: 'US', countries: list.map(([country, base_url]) => ({ country, base_url, trust_url: base_url })) }),
    );

  /** A stand-in for the cells: `answers` by origin, plus the US cell's list; records every request. */
  function service(answers: Record<string, () => Response | Promise<Response>>, listing = () => cells(['US', US], ['DE', DE])) {
    const seen: { url: string; init: RequestInit }[] = [];
    const fetch = async (url: string, init: RequestInit) => {
      seen.push({ url, init });
      return url === `${US}/api/v1/countries` ? listing() : answers[new URL(url).origin]!();
    };
    return { seen, fetch };
  }
  const post: RequestInit = {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-publishable-key': 'pk_test_1', 'x-svc-render-proof': 'proof' },
    body: '{"a":1}',
  };

  it('should re-issue a request answered 421 once at the home cell that the same service lists, with its headers and body', async () => {
    const svc = service({ [US]: () => wrong('DE'), [DE]: () => new Response('{"capture":{}}', { status: 201 }) });
    const body = await askService(`${US}/api/v1/captures?x=1`, post, { timeoutMs: 1000, fetch: svc.fetch });
    expect(body).to.deep.equal({ capture: {} });
    expect(svc.seen.map((s) => `${s.init.method ?? 'GET'} ${s.url}`)).to.deep.equal([
      `POST ${US}/api/v1/captures?x=1`,
      `GET ${US}/api/v1/countries`,
      `POST ${DE}/api/v1/captures?x=1`,
    ]);
    const [, listed, reissued] = svc.seen;
    expect(listed!.init.headers).to.include({ 'x-publishable-key': 'pk_test_1' });
    expect(listed!.init.body).to.equal(undefined);
    expect(reissued!.init.headers).to.deep.equal(post.headers);
    expect(reissued!.init.body).to.equal('{"a":1}');
    expect(reissued!.init.credentials).to.equal('omit');
  });

  it('should never re-issue twice: a 421 from the home cell is the answer', async () => {
    const svc = service({ [US]: () => wrong('DE'), [DE]: () => wrong('US') });
    const error = await askService(`${US}/api/v1/captures`, post, { timeoutMs: 1000, fetch: svc.fetch }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(CaptureError).and.include({ code: 'http_421', status: 421 });
    expect((error as CaptureError).body).to.include({ home_country: 'US' });
    expect(svc.seen.map((s) => new URL(s.url).origin)).to.deep.equal([US, US, DE]);
  });

  it('should go to no host that the service does not list: a country it does not list leaves the 421', async () => {
    const svc = service({ [US]: () => wrong('FR') });
    const error = await askService(`${US}/api/v1/flows/flw_1/render`, {}, { timeoutMs: 1000, fetch: svc.fetch }).catch((e: unknown) => e);
    expect(error).to.include({ code: 'http_421' });
    expect(svc.seen.map((s) => s.url)).to.deep.equal([`${US}/api/v1/flows/flw_1/render`, `${US}/api/v1/countries`]);
  });

  it('should count the re-issued request within timeoutMs', async () => {
    const svc = service({ [US]: () => wrong('DE'), [DE]: () => new Promise<Response>(() => {}) });
    const error = await askService(`${US}/api/v1/captures`, post, { timeoutMs: 100, fetch: svc.fetch }).catch((e: unknown) => e);
    expect(error).to.include({ code: 'timeout' });
    expect(svc.seen.at(-1)!.init.signal!.aborted).to.equal(true);
  });
});

describe('holdSubmissions', () => {
  it('should hold a submission while the work runs, drop a second one, then submit once with the submitter', async () => {
    const form = await fixture<HTMLFormElement>(html`<form><button name="go" value="yes">Go</button></form>`);
    const seen: (string | null)[] = [];
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      seen.push(new FormData(form, event.submitter).get('go') as string | null);
    });
    let runs = 0;
    const stop = holdSubmissions(form, () => {
      runs++;
      return aTimeout(50);
    });
    form.requestSubmit(form.querySelector('button'));
    form.requestSubmit();
    expect(seen).to.deep.equal([]);
    await waitUntil(() => seen.length === 1);
    await aTimeout(50);
    expect(seen).to.deep.equal(['yes']);
    expect(runs).to.equal(1);
    stop();
  });

  it('should let a submission through untouched when the work returns nothing, and stop holding when told', async () => {
    const form = await fixture<HTMLFormElement>(html`<form></form>`);
    let seen = 0;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      seen++;
    });
    let hold = false;
    const stop = holdSubmissions(form, () => (hold ? new Promise(() => {}) : undefined));
    form.requestSubmit();
    expect(seen).to.equal(1);
    stop();
    hold = true;
    form.requestSubmit();
    expect(seen).to.equal(2);
  });
});
