// <svc-inbox> in every engine: the inbox answers come from a fetch double, the rows' decisions open the stand-in
// hosted page (test/fixtures/decisions) on another origin in real popups, as <svc-decision mode="popup"> does.
import { aTimeout, expect, fixture, fixtureCleanup, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { InboxRow } from '../events/svc-inbox-open.js';
import { SvcInbox } from './inbox.js';

const SERVICE = `http://127.0.0.1:${location.port}`;
const TRUST = `${SERVICE}/packages/elements/test/fixtures`;
const API = 'https://api.svc.example';

const row = (token: string, extra: Partial<InboxRow> = {}): InboxRow => ({
  kind: 'approval',
  status: 'pending',
  trigger: 'value',
  application_id: 'tp_dev_shop',
  application_name: 'Shop',
  title: `Pay the plumber (${token})`,
  summary: 'Errand agent, an AI agent, asks: above the value bound',
  session_token: token,
  url: `${TRUST}/decisions/${token}`,
  deadline_at: '2030-01-01T10:00:00.000Z',
  created_at: '2029-12-31T10:00:00.000Z',
  ...extra,
});

interface Call {
  url: URL;
  authorization: string | null;
}

/** A fetch that answers each call with the next of `answers` (the last repeats), recording the calls. */
function api(answers: (Response | (() => Response) | Error)[]) {
  const calls: Call[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: new URL(String(input)), authorization: new Headers(init?.headers).get('authorization') });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    if (answer instanceof Error) throw answer;
    return typeof answer === 'function' ? answer() : answer.clone();
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const page = (rows: InboxRow[], next: string | null = null) => json({ decisions: rows, next_cursor: next });

const part = (el: Element, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const titles = (el: SvcInbox) => [...el.shadowRoot!.querySelectorAll('[part~=title]')].map((d) => d.textContent);

async function inbox(fetch: typeof globalThis.fetch, attrs: { kind?: string; sort?: string } = {}, signedIn = true): Promise<SvcInbox> {
  const token = signedIn ? 'tok_ada' : undefined;
  const el = await fixture<SvcInbox>(html`<svc-inbox base-url=${API} trust-url=${TRUST} kind=${attrs.kind ?? ''} sort=${attrs.sort ?? ''}
    .fetch=${fetch} .accessToken=${token}></svc-inbox>`);
  await waitUntil(() => (el.status !== 'loading' && el.status !== 'idle') || !token, 'the inbox did not load');
  await el.updateComplete;
  return el;
}

async function audit(el: Element): Promise<void> {
  await expect(el).to.be.accessible();
}

describe('<svc-inbox>', () => {
  afterEach(() => {
    fixtureCleanup();
    SvcInbox.refreshDelayMs = 600;
  });

  it('without a token says to sign in and asks nothing', async () => {
    const { fetch, calls } = api([page([])]);
    const el = await inbox(fetch, {}, false);
    expect(el.status).to.equal('idle');
    expect(el.shadowRoot!.textContent).to.contain('Sign in to see what waits for you.');
    expect(calls).to.deep.equal([]);
    await audit(el);
  });

  it("lists the rows with the person's token and the filters, each a button that names the decision, axe-clean", async () => {
    const { fetch, calls } = api([page([row('dts_fixture_a'), row('dts_fixture_b', { kind: 'consent', trigger: null, summary: null })])]);
    const el = await inbox(fetch, { kind: 'approval', sort: 'newest' });
    expect(el.status).to.equal('ready');
    expect(el.matches(':state(ready)')).to.equal(true);
    expect(calls).to.have.length(1);
    expect(`${calls[0]!.url.origin}${calls[0]!.url.pathname}`).to.equal(`${API}/api/v1/inbox`);
    expect(Object.fromEntries(calls[0]!.url.searchParams)).to.deep.equal({ kind: 'approval', sort: 'newest' });
    expect(calls[0]!.authorization).to.equal('Bearer tok_ada');
    expect(titles(el)).to.deep.equal(['Pay the plumber (dts_fixture_a)', 'Pay the plumber (dts_fixture_b)']);
    const decisions = el.shadowRoot!.querySelectorAll('svc-decision');
    expect([...decisions].map((d) => [d.getAttribute('mode'), d.getAttribute('token'), d.getAttribute('trust-url')])).to.deep.equal([
      ['popup', 'dts_fixture_a', TRUST],
      ['popup', 'dts_fixture_b', TRUST],
    ]);
    const metas = [...el.shadowRoot!.querySelectorAll('[part~=meta]')].map((m) => m.textContent!);
    expect(metas[0]).to.match(/^Approval · Shop · trigger: value · answer by /);
    expect(metas[1]).to.match(/^Consent · Shop · answer by /);
    expect(part(el, 'status')!.textContent).to.equal('2 decisions wait for you.');
    expect(el.decisions.map((d) => d.session_token)).to.deep.equal(['dts_fixture_a', 'dts_fixture_b']);
    await audit(el);
  });

  it("keeps its own font on a serif page, and opens each row with a secondary (outlined) button in the pages' accent", async () => {
    document.body.style.fontFamily = 'serif';
    try {
      const el = await inbox(api([page([row('dts_fixture_a')])]).fetch);
      expect(getComputedStyle(el).fontFamily).to.match(/system-ui/);
      const decision = el.shadowRoot!.querySelector<HTMLElement & { updateComplete: Promise<unknown> }>('svc-decision')!;
      await decision.updateComplete;
      const button = getComputedStyle(decision.shadowRoot!.querySelector('[part~=button]')!);
      expect(button.backgroundColor).to.equal('rgba(0, 0, 0, 0)');
      expect(button.color).to.equal('rgb(47, 79, 181)');
      expect(button.fontFamily).to.match(/system-ui/);
    } finally {
      document.body.style.fontFamily = '';
    }
  });

  it('says plainly when nothing waits', async () => {
    const el = await inbox(api([page([])]).fetch);
    expect(el.status).to.equal('empty');
    expect(el.shadowRoot!.textContent).to.contain('Nothing waits for you.');
    await audit(el);
  });

  it('shows more on request, with the cursor the service gave', async () => {
    const { fetch, calls } = api([page([row('dts_fixture_a')], 'c1'), page([row('dts_fixture_b')])]);
    const el = await inbox(fetch);
    expect(part(el, 'status')!.textContent).to.equal('1 or more decisions wait for you.');
    part(el, 'more')!.click();
    await waitUntil(() => titles(el).length === 2);
    expect(calls[1]!.url.searchParams.get('cursor')).to.equal('c1');
    await el.updateComplete;
    expect(part(el, 'more')).to.equal(null);
  });

  it('asks getAccessToken before every request, and reloads when a filter changes', async () => {
    const { fetch, calls } = api([page([row('dts_fixture_a')])]);
    let asked = 0;
    const el = await fixture<SvcInbox>(
      html`<svc-inbox base-url=${API} .fetch=${fetch} .getAccessToken=${async () => `tok_${++asked}`}></svc-inbox>`,
    );
    await waitUntil(() => el.status === 'ready');
    el.trigger = 'scope';
    await waitUntil(() => calls.length === 2);
    expect(calls.map((c) => c.authorization)).to.deep.equal(['Bearer tok_1', 'Bearer tok_2']);
    expect(calls[1]!.url.searchParams.get('trigger')).to.equal('scope');
  });

  it('a refused token: signed out, with svc-error unauthorized; another failure: an error with a retry that works', async () => {
    const errors: Record<string, unknown>[] = [];
    const listener = (event: Event) => errors.push((event as CustomEvent).detail);
    document.addEventListener('svc-error', listener);
    const refused = api([json({ message: 'The bearer token is not valid.', code: 'unauthorized' }, 401)]);
    const signedOut = await fixture<SvcInbox>(html`<svc-inbox base-url=${API} .fetch=${refused.fetch} .accessToken=${'old'}></svc-inbox>`);
    await waitUntil(() => errors.length === 1);
    expect(errors[0]).to.deep.equal({
      code: 'unauthorized',
      message: 'The bearer token is not valid.',
      fatal: true,
      recoverable_via: 'sign_in',
    });
    await signedOut.updateComplete;
    expect(signedOut.status).to.equal('signed-out');
    expect(signedOut.shadowRoot!.textContent).to.contain('Sign in to see what waits for you.');

    const { fetch, calls } = api([new TypeError('Failed to fetch'), page([row('dts_fixture_a')])]);
    const el = await fixture<SvcInbox>(html`<svc-inbox base-url=${API} .fetch=${fetch} .accessToken=${'tok'}></svc-inbox>`);
    await waitUntil(() => errors.length === 2);
    document.removeEventListener('svc-error', listener);
    expect(errors[1]).to.include({ code: 'network', fatal: false, recoverable_via: 'retry' });
    await el.updateComplete;
    expect(el.status).to.equal('error');
    await audit(el);
    part(el, 'retry')!.click();
    await waitUntil(() => el.status === 'ready');
    expect(calls).to.have.length(2);
  });

  describe('when the service is busy (429)', () => {
    const tooMany = (retryAfter: string) => () =>
      new Response(JSON.stringify({ message: 'Too many requests.', code: 'rate_limited' }), {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
      });

    it('waits the Retry-After and asks once more, listing the rows without an error', async () => {
      const errors: unknown[] = [];
      const listener = (event: Event) => errors.push((event as CustomEvent).detail);
      document.addEventListener('svc-error', listener);
      const { fetch, calls } = api([tooMany('1'), page([row('dts_fixture_a')])]);
      const started = performance.now();
      const el = await fixture<SvcInbox>(html`<svc-inbox base-url=${API} .fetch=${fetch} .accessToken=${'tok'}></svc-inbox>`);
      await waitUntil(() => el.status === 'ready', 'the inbox did not load', { timeout: 4000 });
      document.removeEventListener('svc-error', listener);
      expect(errors).to.deep.equal([]);
      expect(calls).to.have.length(2);
      expect(performance.now() - started).to.be.above(950);
      expect(titles(el)).to.deep.equal(['Pay the plumber (dts_fixture_a)']);
    });

    it('shows its error state at once for a Retry-After over 10 s, and after a second 429', async () => {
      for (const [answers, asked] of [
        [[tooMany('11'), page([])], 1],
        [[tooMany('0'), tooMany('0'), page([])], 2],
      ] as const) {
        const { fetch, calls } = api([...answers]);
        const started = performance.now();
        const el = await fixture<SvcInbox>(html`<svc-inbox base-url=${API} .fetch=${fetch} .accessToken=${'tok'}></svc-inbox>`);
        await waitUntil(() => el.status === 'error', 'no error state');
        expect(calls).to.have.length(asked);
        expect(performance.now() - started).to.be.below(1000);
      }
    });
  });

  it('opens a row in a popup after svc-inbox-open; its svc-complete passes through and the list is read again', async () => {
    SvcInbox.refreshDelayMs = 50;
    const { fetch, calls } = api([page([row('dts_fixture_a')]), page([])]);
    const el = await inbox(fetch);
    const seen: string[] = [];
    const listener = (event: Event) =>
      seen.push(`${event.type}${(event as CustomEvent).detail?.session_token ? ` ${(event as CustomEvent).detail.session_token}` : ''}`);
    for (const type of ['svc-inbox-open', 'svc-complete']) document.addEventListener(type, listener);
    const open = window.open;
    let popup: Window | null = null;
    window.open = (...args: Parameters<typeof window.open>) => (popup = open.apply(window, args));
    try {
      const decision = el.shadowRoot!.querySelector('svc-decision')!;
      await decision.updateComplete;
      part(decision, 'button')!.click();
    } finally {
      window.open = open;
    }
    expect(popup).to.not.equal(null);
    await oneEvent(el.shadowRoot!.querySelector('svc-decision')!, 'svc-ready');
    popup!.postMessage(
      {
        fixture: 'send',
        type: 'svc:complete',
        payload: {
          outcome: 'granted',
          exchange_token: 'u'.repeat(43),
          completed_at: new Date().toISOString().replace(/\.\d{3}Z$/, '.000Z'),
        },
      },
      SERVICE,
    );
    await waitUntil(() => seen.includes('svc-complete'));
    await waitUntil(() => el.status === 'empty', 'the inbox read the list again');
    expect(seen).to.deep.equal(['svc-inbox-open dts_fixture_a', 'svc-complete']);
    expect(calls).to.have.length(2);
    for (const type of ['svc-inbox-open', 'svc-complete']) document.removeEventListener(type, listener);
    popup!.close();
  });

  it('keeps the popup shut when the page cancels svc-inbox-open', async () => {
    const el = await inbox(api([page([row('dts_fixture_a')])]).fetch);
    el.addEventListener('svc-inbox-open', (event) => event.preventDefault(), { once: true });
    const open = window.open;
    let opened = 0;
    window.open = () => {
      opened += 1;
      return null;
    };
    try {
      const decision = el.shadowRoot!.querySelector('svc-decision')!;
      await decision.updateComplete;
      part(decision, 'button')!.click();
      await aTimeout(50);
    } finally {
      window.open = open;
    }
    expect(opened).to.equal(0);
  });
});
