import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { askService, CaptureError, holdSubmissions } from './index.js';

// The building blocks <svc-consent-field> shares with the capture helper.

describe('askService', () => {
  const answer = (status: number, body: string) => async () => new Response(body, { status });

  it('should resolve with the JSON body, sent without cookies or cache', async () => {
    let seen: RequestInit | undefined;
    const body = await askService('https://svc.example/x', { method: 'GET' }, {
      timeoutMs: 1000,
      fetch: async (_url, init) => {
        seen = init;
        return new Response('{"a":1}', { status: 200 });
      },
    });
    expect(body).to.deep.equal({ a: 1 });
    expect(seen!.method).to.equal('GET');
    expect(seen!.credentials).to.equal('omit');
    expect(seen!.cache).to.equal('no-store');
  });

  it('should reject with http_<status> and the server message, naming the service otherwise', async () => {
    const own = await askService('https://svc.example/x', {}, { timeoutMs: 1000, fetch: answer(409, '{"message":"Taken"}') }).catch((e: unknown) => e);
    expect(own).to.be.instanceOf(CaptureError).and.include({ code: 'http_409', message: 'Taken', status: 409 });
    const bare = await askService('https://svc.example/x', {}, { timeoutMs: 1000, fetch: answer(503, '') }, 'The render service').catch((e: unknown) => e);
    expect((bare as CaptureError).message).to.equal('The render service answered HTTP 503.');
  });

  it('should reject with network, and with timeout after timeoutMs, aborting the request', async () => {
    const offline = await askService('https://svc.example/x', {}, { timeoutMs: 1000, fetch: () => Promise.reject(new TypeError('offline')) }).catch((e: unknown) => e);
    expect((offline as CaptureError).code).to.equal('network');
    let signal: AbortSignal | undefined;
    const slow = await askService('https://svc.example/x', {}, {
      timeoutMs: 50,
      fetch: (_url, init) => {
        signal = init.signal!;
        return new Promise<Response>(() => {});
      },
    }).catch((e: unknown) => e);
    expect((slow as CaptureError).code).to.equal('timeout');
    expect(signal!.aborted).to.equal(true);
  });

  it('should reject with the reason of the caller signal, aborting the request', async () => {
    const caller = new AbortController();
    let signal: AbortSignal | undefined;
    const asked = askService('https://svc.example/x', {}, {
      timeoutMs: 1000,
      signal: caller.signal,
      fetch: (_url, init) => new Promise<Response>((_, reject) => {
        signal = init.signal!;
        signal.addEventListener('abort', () => reject(signal!.reason));
      }),
    }).catch((e: unknown) => e);
    const reason = new Error('reloaded');
    caller.abort(reason);
    expect(await asked).to.equal(reason);
    expect(signal!.aborted).to.equal(true);
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
