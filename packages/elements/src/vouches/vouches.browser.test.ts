// <svc-vouches> in every engine. First against the reference server (test/wtr-person-servers.mjs: a person signed in
// with vouches:read and vouches:write, for whom a friend vouched): reading, vouching for a peer, a refused id said at
// the field, withdrawing with the confirm step, and the trust scores view through token-url. Then with a fetch double
// (the shapes of `/api/v1/me/vouches` as @svc/schemas types them) for what a real service will not do on cue.
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { SvcVouchesChangeDetail, VouchesErrorDetail, VouchRow } from './events.js';
import { SvcVouches } from './vouches.js';

const TRUST = 'https://trust.svc.example';

const vouch = (id: string, extra: Partial<VouchRow> = {}): VouchRow => ({
  id,
  direction: 'given',
  organisation: { id: 'acct_club', name: 'Climbing club' },
  counterpart: { type: 'person', id: 'prs_us_sam', name: null },
  statement: 'Sam belays safely.',
  status: 'active',
  created_at: '2026-03-01T10:00:00.000Z',
  revoked_at: null,
  ...extra,
});

interface Call {
  url: URL;
  method: string;
  body: unknown;
}

/** A fetch that answers each call with the next of `answers` (the last repeats), recording the calls. */
function api(answers: (Response | ((call: Call) => Response))[]) {
  const calls: Call[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call: Call = {
      url: new URL(String(input), location.href),
      method: init.method ?? 'GET',
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return typeof answer === 'function' ? answer(call) : answer.clone();
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const page = (rows: VouchRow[]) => json({ vouches: rows, next_cursor: null });

const inner = <T extends HTMLElement = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const all = (el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(selector)];
const text = (node: Element | null) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const focused = (el: SvcVouches) => el.shadowRoot!.activeElement as HTMLElement | null;
const press = (key: string) => executeServerCommand('svc-press', key);

/** Collects the events of `type` on the document until `stop()`. */
function listen<T>(type: string) {
  const seen: T[] = [];
  const listener = (event: Event) => seen.push((event as CustomEvent<T>).detail);
  document.addEventListener(type, listener);
  return { seen, stop: () => document.removeEventListener(type, listener) };
}

/** Opens the form, types `id`, and submits it. */
async function vouchFor(el: SvcVouches, id: string): Promise<void> {
  if (!inner(el, '[part=form]')) {
    inner(el, '[part=new]')!.click();
    await el.updateComplete;
  }
  const input = inner<HTMLInputElement>(el, '[part=form] input')!;
  input.value = id;
  inner(el, '[part=submit]')!.click();
}

interface Person {
  base_url: string;
  access_token: string;
  id: string;
  friend: string;
  peer: string;
  agent: string;
}

/** A new person, vouched for by a friend, at the reference server (asked again while it starts). */
async function person(): Promise<Person> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const answer = await executeServerCommand<Person | { starting: true }, { origin: string }>('svc-vouches-person', {
      origin: location.origin,
    });
    if (!('starting' in answer)) return answer;
  }
  throw new Error('the vouches server did not start');
}

describe('<svc-vouches> against the reference server', function () {
  this.timeout(60_000); // the first test waits for the reference server to start
  afterEach(() => fixtureCleanup());

  it('lists the vouch received; vouches for a peer; says at the field that one cannot vouch for oneself; withdraws after confirming', async () => {
    const ada = await person();
    const el = await fixture<SvcVouches>(html`<svc-vouches trust-url=${ada.base_url} .accessToken=${ada.access_token}></svc-vouches>`);
    await waitUntil(() => el.status !== 'loading', 'the vouches did not load', { timeout: 10_000 });
    expect(el.status, text(inner(el, '[part=status]'))).to.equal('ready');
    expect(el.vouches.map((v) => [v.direction, v.counterpart.id])).to.deep.equal([['received', ada.friend]]);
    expect(text(inner(el, '[part=heading]'))).to.equal(`${ada.friend} vouches for you`);
    expect(text(inner(el, '[part=statement]'))).to.equal('“We worked together.”');
    expect(inner(el, '[part=withdraw]')).to.equal(null);
    await expect(el).to.be.accessible();

    const changes = listen<SvcVouchesChangeDetail>('svc-vouches-change');
    await vouchFor(el, ada.peer);
    await waitUntil(() => changes.seen.length === 1, 'no svc-vouches-change', { timeout: 10_000 });
    expect(changes.seen[0]!.action).to.equal('vouch');
    expect(changes.seen[0]!.vouch.counterpart).to.deep.equal({ type: 'person', id: ada.peer, name: null });
    await el.updateComplete;
    expect(text(inner(el, '[part=heading]'))).to.equal(`You vouch for ${ada.peer}`);
    expect(focused(el)?.dataset.key).to.equal(`row ${changes.seen[0]!.vouch_id}`);

    await vouchFor(el, ada.id);
    await waitUntil(() => inner(el, '[part=field-error]'), 'the refusal was not said at the field', { timeout: 10_000 });
    const input = inner<HTMLInputElement>(el, '[part=form] input')!;
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(input.getAttribute('aria-describedby')).to.contain(inner(el, '[part=field-error]')!.id);
    expect(focused(el)).to.equal(input);
    await expect(el).to.be.accessible();

    inner(el, '[part=withdraw]')!.click();
    await el.updateComplete;
    expect(focused(el)?.getAttribute('part')).to.equal('confirm');
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => changes.seen.length === 2, 'no second svc-vouches-change', { timeout: 10_000 });
    changes.stop();
    expect(changes.seen[1]!.action).to.equal('revoke');
    expect(changes.seen[1]!.vouch.status).to.equal('revoked');
    await el.updateComplete;
    expect(text(inner(el, '[part=meta]'))).to.match(/^Withdrawn · /);
    await el.refresh();
    expect(el.vouches.find((v) => v.id === changes.seen[1]!.vouch_id)?.status).to.equal('revoked');
  });

  it('shows the trust score through token-url: the person id to share, and each factor in plain words', async () => {
    const ada = await person();
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), location.href);
      if (url.pathname !== '/session/token') return globalThis.fetch(input, init);
      return json({ access_token: ada.access_token, expires_in: 600 });
    };
    const el = await fixture<SvcVouches>(
      html`<svc-vouches view=trust_scores trust-url=${ada.base_url} token-url="/session/token" .fetch=${fetch}></svc-vouches>`,
    );
    await waitUntil(() => el.status === 'ready', 'the scores did not load', { timeout: 10_000 });
    expect(el.trustScores.map((s) => s.subject_id)).to.deep.equal([ada.id]);
    expect(text(inner(el, '[part=subject]'))).to.contain(ada.id);
    const factors = all(el, '[part=factor]').map(text);
    expect(factors).to.include('People who vouch for you now: 5 points each, up to 20. Yours: 1, so +5 points.');
    expect(inner(el, '[part=new]')).to.equal(null);
    await expect(el).to.be.accessible();
  });
});

describe('<svc-vouches>', () => {
  afterEach(() => fixtureCleanup());

  async function vouches(fetch: typeof globalThis.fetch, token: string | null = 'tok_ada'): Promise<SvcVouches> {
    const el = await fixture<SvcVouches>(
      html`<svc-vouches trust-url=${TRUST} .fetch=${fetch} .accessToken=${token ?? undefined}></svc-vouches>`,
    );
    await waitUntil(() => el.status !== 'loading', 'the vouches did not load');
    await el.updateComplete;
    return el;
  }

  it('without a token says to sign in and asks nothing', async () => {
    const { fetch, calls } = api([page([])]);
    const el = await vouches(fetch, null);
    expect(el.status).to.equal('idle');
    expect(text(inner(el, '[part=base]'))).to.contain('Sign in to see who vouches for you');
    expect(calls).to.deep.equal([]);
  });

  it('checks the id before asking: not an id is said at the field, tied to it, and nothing is sent', async () => {
    const { fetch, calls } = api([page([])]);
    const el = await vouches(fetch);
    expect(el.status).to.equal('empty');
    await vouchFor(el, 'sam@example.com');
    await el.updateComplete;
    const input = inner<HTMLInputElement>(el, '[part=form] input')!;
    expect(text(inner(el, '[part=field-error]'))).to.equal('Enter an id that starts with prs_ (a person) or agt_ (an agent).');
    expect(input.getAttribute('aria-describedby')?.split(' ')).to.include('svc-vouches-vouchee-error');
    expect(focused(el)).to.equal(input);
    expect(calls.length).to.equal(1);
    await expect(el).to.be.accessible();
  });

  it('a vouch the service cannot record says so, fires svc-error and puts focus back on Vouch', async () => {
    const { fetch } = api([page([]), json({ message: 'Internal server error.', code: 'internal_error' }, 500)]);
    const el = await vouches(fetch);
    const errors = listen<VouchesErrorDetail>('svc-error');
    await vouchFor(el, 'prs_us_sam');
    await waitUntil(() => errors.seen.length === 1, 'no svc-error');
    errors.stop();
    expect(errors.seen[0]!.code).to.equal('http');
    await el.updateComplete;
    expect(text(inner(el, '[part=status]'))).to.match(/^Nothing was changed/);
    expect(focused(el)?.getAttribute('part')).to.equal('submit');
  });

  it('Escape cancels the withdrawal: nothing is sent and focus goes back to its button', async () => {
    const { fetch, calls } = api([page([vouch('vch_1'), vouch('vch_2', { direction: 'received' })])]);
    const el = await vouches(fetch);
    expect(all(el, '[part=withdraw]').length).to.equal(1, 'only a vouch the person gave can be withdrawn');
    const button = inner(el, '[part=withdraw]')!;
    expect(button.getAttribute('aria-label')).to.equal('Withdraw your vouch for prs_us_sam');
    button.click();
    await el.updateComplete;
    expect(text(inner(el, '[part=confirm] p'))).to.contain('Withdraw your vouch for prs_us_sam at Climbing club?');
    await press('Escape');
    await el.updateComplete;
    expect(inner(el, '[part=confirm]')).to.equal(null);
    expect(focused(el)).to.equal(inner(el, '[part=withdraw]'));
    expect(calls.length).to.equal(1);
  });

  it('a second vouch for the same person says they already had it, and lists it once', async () => {
    const given = vouch('vch_1');
    const { fetch, calls } = api([page([given]), json({ vouch: given })]);
    const el = await vouches(fetch);
    await vouchFor(el, 'prs_us_sam');
    await waitUntil(() => calls.length === 2 && !inner(el, '[part=form]'), 'the vouch was not sent');
    expect(calls[1]!.body).to.deep.equal({ vouchee_id: 'prs_us_sam' });
    expect(el.vouches.length).to.equal(1);
    expect(text(inner(el, '[part=status]'))).to.equal('You already vouch for prs_us_sam at Climbing club.');
  });
});
