// <svc-records> in every engine. First against the reference server (test/wtr-person-servers.mjs: a person signed in
// with records:read and records:write, whose consents the sandbox organisation recorded): reading, withdrawing one
// purpose and all of a record, token-url. Then with a fetch double (the shapes of
// `/api/v1/me/consent_records` as @svc/schemas types them) for what a real service will not do on cue: 429s,
// failures, refused tokens, expiring token URLs, and the details of the view.
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { RecordRow, SvcRecordsWithdrawDetail } from '../events/svc-records-withdraw.js';
import { SvcRecords } from './records.js';

const TRUST = 'https://trust.svc.example';
const LIST = `${TRUST}/api/v1/me/consent_records`;

const record = (id: string, extra: Partial<RecordRow> = {}): RecordRow => ({
  id,
  status: 'fulfilled',
  recorded_at: '2026-03-01T10:00:00.000Z',
  captured_at: '2026-03-01T10:00:00.000Z',
  expires_at: '2027-03-01T10:00:00.000Z',
  flow_id: 'flw_news',
  organisation: { id: 'org_daily', name: 'Daily News' },
  application: { id: 'tp_news', name: 'News app' },
  title: 'Newsletter and analytics',
  purposes: [
    { key: 'newsletter', label: 'Weekly newsletter', outcome: 'granted', basis: 'consent', withdrawable: true },
    { key: 'analytics', label: 'Reading statistics', outcome: 'granted', basis: 'consent', withdrawable: true },
    { key: 'billing', label: 'Billing', outcome: 'noticed', basis: 'contract', withdrawable: false },
  ],
  receipt_id: id,
  withdrawal_method: `${TRUST}/withdraw/${id}`,
  ...extra,
});

/** `record` after the service withdrew `keys`. */
const withdrawn = (row: RecordRow, keys: string[]): RecordRow => {
  const purposes = row.purposes.map((p) => (keys.includes(p.key) ? { ...p, outcome: 'revoked' as const, withdrawable: false } : p));
  return { ...row, purposes, status: purposes.some((p) => p.outcome === 'granted') ? 'fulfilled' : 'revoked' };
};

interface Call {
  url: URL;
  method: string;
  authorization: string | null;
  accept: string | null;
  credentials: RequestCredentials | undefined;
  body: unknown;
}

type Answer = Response | ((call: Call) => Response) | Error;

/** A fetch that answers each call with the next of `answers` (the last repeats), recording the calls. */
function api(answers: Answer[]) {
  const calls: Call[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    const call: Call = {
      url: new URL(String(input), location.href),
      method: init.method ?? 'GET',
      authorization: headers.get('authorization'),
      accept: headers.get('accept'),
      credentials: init.credentials,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    if (answer instanceof Error) throw answer;
    return typeof answer === 'function' ? answer(call) : answer.clone();
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const page = (rows: RecordRow[], next: string | null = null) => json({ consent_records: rows, next_cursor: next });
/** The service's answer to a withdrawal of the purposes the call names. */
const withdrawal = (row: RecordRow) => (call: Call) =>
  json({ consent_record: withdrawn(row, (call.body as { purposes: string[] }).purposes) });

const inner = <T extends HTMLElement = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const all = (el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(selector)];
const text = (node: Element | null) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const focused = (el: SvcRecords) => el.shadowRoot!.activeElement as HTMLElement | null;
const press = (key: string) => executeServerCommand('svc-press', key);

async function records(fetch: typeof globalThis.fetch, token: string | null = 'tok_ada'): Promise<SvcRecords> {
  const el = await fixture<SvcRecords>(
    html`<svc-records trust-url=${TRUST} .fetch=${fetch} .accessToken=${token ?? undefined}></svc-records>`,
  );
  await waitUntil(() => el.status !== 'loading', 'the records did not load');
  await el.updateComplete;
  return el;
}

/** Collects the events of `type` on the document until `stop()`. */
function listen<T>(type: string) {
  const seen: T[] = [];
  const listener = (event: Event) => seen.push((event as CustomEvent<T>).detail);
  document.addEventListener(type, listener);
  return { seen, stop: () => document.removeEventListener(type, listener) };
}

interface Person {
  base_url: string;
  access_token: string;
  records: string[];
}

/** A new person with two consent records at the reference server, and their access token (asked again while it starts). */
async function person(): Promise<Person> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const answer = await executeServerCommand<Person | { starting: true }, { origin: string }>('svc-records-person', {
      origin: location.origin,
    });
    if (!('starting' in answer)) return answer;
  }
  throw new Error('the records server did not start');
}

describe('<svc-records> against the reference server', function () {
  this.timeout(60_000); // the first test waits for the reference server to start
  afterEach(() => fixtureCleanup());

  it("lists the person's records; withdrawing one purpose changes it at the service, and the row in place", async () => {
    const ada = await person();
    const el = await fixture<SvcRecords>(html`<svc-records trust-url=${ada.base_url} .accessToken=${ada.access_token}></svc-records>`);
    await waitUntil(() => el.status !== 'loading', 'the records did not load', { timeout: 10_000 });
    expect(el.status, text(inner(el, '[part=status]'))).to.equal('ready');
    expect(el.records.map((r) => r.id).sort()).to.deep.equal([...ada.records].sort());
    const first = inner(el, '[part=record]')!;
    expect(text(first.querySelector('[part=title]'))).to.equal('Newsletter and research');
    const labels = [...first.querySelectorAll('[part=purpose-label]')].map(text);
    expect(labels).to.include.members(['Email newsletter', 'Research panel', 'Product analytics']);
    await expect(el).to.be.accessible();

    const events = listen<SvcRecordsWithdrawDetail>('svc-records-withdraw');
    first.querySelector<HTMLElement>('[aria-label="Withdraw: Email newsletter"]')!.click();
    await el.updateComplete;
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => events.seen.length === 1, 'no svc-records-withdraw', { timeout: 10_000 });
    events.stop();
    const id = el.records[0]!.id;
    expect(events.seen[0]!.record_id).to.equal(id);
    expect(events.seen[0]!.purposes).to.deep.equal(['newsletter']);
    const outcome = (row: RecordRow, key: string) => row.purposes.find((p) => p.key === key)!.outcome;
    expect(outcome(events.seen[0]!.consent_record, 'newsletter')).to.equal('revoked');
    expect(outcome(events.seen[0]!.consent_record, 'research')).to.equal('granted');
    await el.updateComplete;
    expect(first.querySelector('[aria-label="Withdraw: Email newsletter"]')).to.equal(null);
    expect(text(inner(el, '[part=status]'))).to.match(/^Withdrawn from .+: Email newsletter\.$/);
    // The service holds it: read again, the same.
    await el.refresh();
    expect(outcome(el.records.find((r) => r.id === id)!, 'newsletter')).to.equal('revoked');
  });

  it('withdraws all of a record through token-url (asked once for the read and the withdrawal), and the record reads Withdrawn', async () => {
    const ada = await person();
    const asked: string[] = [];
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), location.href);
      if (url.pathname !== '/session/token') return globalThis.fetch(input, init);
      asked.push(`${init?.method} ${init?.credentials}`);
      return json({ access_token: ada.access_token, expires_in: 600 });
    };
    const el = await fixture<SvcRecords>(
      html`<svc-records trust-url=${ada.base_url} token-url="/session/token" .fetch=${fetch}></svc-records>`,
    );
    await waitUntil(() => el.status === 'ready', 'the records did not load', { timeout: 10_000 });
    const events = listen<SvcRecordsWithdrawDetail>('svc-records-withdraw');
    inner(el, '[part=withdraw-all]')!.click();
    await el.updateComplete;
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => events.seen.length === 1, 'no svc-records-withdraw', { timeout: 10_000 });
    events.stop();
    expect(asked).to.deep.equal(['POST same-origin']);
    expect(events.seen[0]!.purposes).to.have.members(['newsletter', 'research', 'analytics']);
    expect(events.seen[0]!.consent_record.purposes.filter((p) => p.withdrawable)).to.deep.equal([]);
    await el.updateComplete;
    const first = inner(el, '[part=record]')!;
    expect(text(first.querySelector('[part=meta]'))).to.match(/^Withdrawn · /);
    expect(first.querySelector('[part=withdraw], [part=withdraw-all]')).to.equal(null);
    expect(all(el, '[part=record]')[1]!.querySelector('[part=withdraw-all]')).to.not.equal(null);
  });
});

describe('<svc-records>', () => {
  afterEach(() => fixtureCleanup());

  it('without a token says to sign in and asks nothing', async () => {
    const { fetch, calls } = api([page([])]);
    const el = await records(fetch, null);
    expect(el.status).to.equal('idle');
    expect(text(el.shadowRoot!.querySelector('[part=base]'))).to.contain('Sign in to see your consent records.');
    expect(calls).to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it("shows each record from the API with the person's token: organisation, title, when, status, each purpose in plain words, axe-clean", async () => {
    const untitled = record('cr_2', { title: null, status: 'expired', expires_at: null, purposes: [record('x').purposes[2]!] });
    const { fetch, calls } = api([page([record('cr_1'), untitled])]);
    const el = await records(fetch);
    expect(el.status).to.equal('ready');
    expect(el.matches(':state(ready)')).to.equal(true);
    expect(calls.map((c) => [c.method, `${c.url.origin}${c.url.pathname}`, c.authorization, c.accept, c.credentials])).to.deep.equal([
      ['GET', LIST, 'Bearer tok_ada', 'application/json', 'omit'],
    ]);
    const [first, second] = all(el, '[part=record]');
    expect(text(first!.querySelector('[part=organisation]'))).to.equal('Daily News');
    expect(text(first!.querySelector('[part=title]'))).to.equal('Newsletter and analytics');
    expect(text(second!.querySelector('[part=title]'))).to.equal('News app');
    expect(text(first!.querySelector('[part=meta]'))).to.match(/^Active · Given .*2026.* · until .*2027/);
    expect(first!.querySelector('[part=meta] time')!.getAttribute('datetime')).to.equal('2026-03-01T10:00:00.000Z');
    expect(text(second!.querySelector('[part=meta]'))).to.match(/^Expired · Given .*2026$/);
    expect(
      [...first!.querySelectorAll('[part=purpose]')].map((p) => [
        text(p.querySelector('[part=purpose-label]')),
        text(p.querySelector('[part=outcome]')),
      ]),
    ).to.deep.equal([
      ['Weekly newsletter', 'You agreed.'],
      ['Reading statistics', 'You agreed.'],
      ['Billing', 'You were told about this.'],
    ]);
    // A button per purpose that can be withdrawn, named for it; "Withdraw all" only where something can be.
    expect([...first!.querySelectorAll('[part=withdraw]')].map((b) => b.getAttribute('aria-label'))).to.deep.equal([
      'Withdraw: Weekly newsletter',
      'Withdraw: Reading statistics',
    ]);
    expect(first!.querySelector('[part=withdraw-all]')!.getAttribute('aria-label')).to.equal('Withdraw all from Daily News');
    expect(second!.querySelector('[part=withdraw], [part=withdraw-all]')).to.equal(null);
    expect(text(inner(el, '[part=status]'))).to.equal('2 records.');
    expect(el.records.map((r) => r.id)).to.deep.equal(['cr_1', 'cr_2']);
    await expect(el).to.be.accessible();
  });

  it("keeps its own font on a serif page, with one filled button (the confirm step's) and the rest outlined", async () => {
    document.body.style.fontFamily = 'serif';
    try {
      const el = await records(api([page([record('cr_1')])]).fetch);
      expect(getComputedStyle(el).fontFamily).to.match(/system-ui/);
      expect(getComputedStyle(inner(el, '[part=withdraw]')!).backgroundColor).to.equal('rgba(0, 0, 0, 0)');
      expect(getComputedStyle(inner(el, '[part=withdraw]')!).color).to.equal('rgb(47, 79, 181)');
      inner(el, '[part=withdraw]')!.click();
      await el.updateComplete;
      expect(getComputedStyle(inner(el, '[part=confirm-button]')!).backgroundColor).to.equal('rgb(47, 79, 181)');
      expect(getComputedStyle(inner(el, '[part=cancel-button]')!).backgroundColor).to.equal('rgba(0, 0, 0, 0)');
    } finally {
      document.body.style.fontFamily = '';
    }
  });

  it('withdraws one purpose after the confirm step: exactly that body with the bearer token, the row updated in place, announced', async () => {
    const row = record('cr_1');
    const { fetch, calls } = api([page([row]), withdrawal(row)]);
    const el = await records(fetch);
    const events = listen<SvcRecordsWithdrawDetail>('svc-records-withdraw');
    all(el, '[part=withdraw]')[0]!.click();
    await el.updateComplete;
    const confirm = inner(el, '[part=confirm]')!;
    expect(focused(el)).to.equal(confirm);
    expect(confirm.getAttribute('role')).to.equal('group');
    const question = el.shadowRoot!.getElementById(confirm.getAttribute('aria-labelledby')!)!;
    expect(text(question)).to.equal('Withdraw “Weekly newsletter” from Daily News? They must stop from now on.');
    expect(calls).to.have.length(1);
    await expect(el).to.be.accessible();

    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => events.seen.length === 1, 'no svc-records-withdraw');
    events.stop();
    expect(calls.slice(1).map((c) => [c.method, c.url.href, c.authorization, c.body])).to.deep.equal([
      ['POST', `${LIST}/cr_1/withdraw`, 'Bearer tok_ada', { purposes: ['newsletter'] }],
    ]);
    expect(events.seen[0]).to.deep.equal({ record_id: 'cr_1', purposes: ['newsletter'], consent_record: withdrawn(row, ['newsletter']) });
    await el.updateComplete;
    expect(inner(el, '[part=confirm]')).to.equal(null);
    const outcomes = all(el, '[part=outcome]').map(text);
    expect(outcomes).to.deep.equal(['You withdrew your consent.', 'You agreed.', 'You were told about this.']);
    expect(all(el, '[part=withdraw]').map((b) => b.getAttribute('aria-label'))).to.deep.equal(['Withdraw: Reading statistics']);
    expect(text(inner(el, '[part=status]'))).to.equal('Withdrawn from Daily News: Weekly newsletter.');
    // The button is gone: focus is on its record, not lost to the page.
    expect(focused(el)).to.equal(inner(el, '[part=record]'));
    expect(el.records[0]!.purposes[0]!.outcome).to.equal('revoked');
  });

  it('withdraws all of a record: every purpose that can be withdrawn, and the record reads Withdrawn', async () => {
    const row = record('cr_1');
    const { fetch, calls } = api([page([row, record('cr_2')]), withdrawal(row)]);
    const el = await records(fetch);
    const events = listen<SvcRecordsWithdrawDetail>('svc-records-withdraw');
    inner(el, '[part=withdraw-all]')!.click();
    await el.updateComplete;
    expect(text(inner(el, '[part=confirm] p'))).to.equal(
      'Withdraw “Weekly newsletter” and “Reading statistics” from Daily News? They must stop from now on.',
    );
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => events.seen.length === 1);
    events.stop();
    expect(calls[1]!.body).to.deep.equal({ purposes: ['newsletter', 'analytics'] });
    expect(events.seen[0]!.purposes).to.deep.equal(['newsletter', 'analytics']);
    await el.updateComplete;
    const [first, second] = all(el, '[part=record]');
    expect(text(first!.querySelector('[part=meta]'))).to.match(/^Withdrawn · /);
    expect(first!.querySelector('[part=withdraw], [part=withdraw-all]')).to.equal(null);
    expect(second!.querySelectorAll('[part=withdraw]')).to.have.length(2);
    expect(text(inner(el, '[part=status]'))).to.equal('Withdrawn from Daily News: Weekly newsletter and Reading statistics.');
  });

  it('the confirm step traps nothing: Tab leaves it, and Escape cancels without a request, focus back on the button', async () => {
    const { fetch, calls } = api([page([record('cr_1')])]);
    // Something after the element to Tab to (never out of the page, where a key would reach the browser's own UI).
    const after = document.createElement('button');
    after.textContent = 'After';
    try {
      const el = await records(fetch);
      el.after(after);
      const trigger = all(el, '[part=withdraw]')[1]!;
      trigger.focus();
      await press('Enter');
      await el.updateComplete;
      expect(focused(el)).to.equal(inner(el, '[part=confirm]'));
      await press('Tab');
      expect(focused(el)).to.equal(inner(el, '[part=confirm-button]'));
      await press('Tab');
      expect(focused(el)).to.equal(inner(el, '[part=cancel-button]'));
      await press('Tab');
      expect(document.activeElement, 'Tab leaves the confirm step').to.equal(after);
      // Back into the step, then Escape.
      inner(el, '[part=cancel-button]')!.focus();
      await press('Escape');
      await el.updateComplete;
      expect(inner(el, '[part=confirm]')).to.equal(null);
      expect(focused(el)).to.equal(all(el, '[part=withdraw]')[1]);
      expect(text(inner(el, '[part=status]'))).to.equal('Nothing was withdrawn.');
      expect(calls).to.have.length(1);
    } finally {
      after.remove();
    }
  });

  it('works from the keyboard alone: Tab to Withdraw, Enter, Tab, Enter withdraws; Cancel puts focus back', async () => {
    const row = record('cr_1');
    const { fetch, calls } = api([page([row]), withdrawal(row)]);
    const before = document.createElement('button');
    before.textContent = 'Before';
    document.body.prepend(before);
    try {
      const el = await records(fetch);
      before.focus();
      await press('Tab');
      expect(focused(el)).to.equal(all(el, '[part=withdraw]')[0]);
      await press('Tab');
      await press('Enter');
      await el.updateComplete;
      expect(focused(el)).to.equal(inner(el, '[part=confirm]'));
      await press('Tab');
      await press('Tab');
      await press('Enter'); // Cancel
      await el.updateComplete;
      expect(focused(el)).to.equal(all(el, '[part=withdraw]')[1]);
      await press('Enter');
      await el.updateComplete;
      await press('Tab');
      expect(focused(el)).to.equal(inner(el, '[part=confirm-button]'));
      await press('Enter');
      await waitUntil(() => calls.length === 2);
      expect(calls[1]!.body).to.deep.equal({ purposes: ['analytics'] });
      await waitUntil(() => !inner(el, '[part=confirm]'));
      expect(all(el, '[part=outcome]').map(text)[1]).to.equal('You withdrew your consent.');
    } finally {
      before.remove();
    }
  });

  it('token-url: POSTed once (same-origin cookies, JSON) and its token reused until shortly before expiry, then asked again', async () => {
    const row = record('cr_1');
    let minted = 0;
    const realNow = Date.now;
    let offset = 0;
    Date.now = () => realNow.call(Date) + offset;
    try {
      const { fetch, calls } = api([
        (call) => (call.url.pathname === '/session/token' ? json({ access_token: `tok_${++minted}`, expires_in: 300 }) : page([row], 'c1')),
      ]);
      const el = await fixture<SvcRecords>(html`<svc-records trust-url=${TRUST} token-url="/session/token" .fetch=${fetch}></svc-records>`);
      await waitUntil(() => el.status === 'ready');
      expect(calls.map((c) => [c.method, c.url.href, c.credentials, c.accept, c.authorization])).to.deep.equal([
        ['POST', `${location.origin}/session/token`, 'same-origin', 'application/json', null],
        ['GET', LIST, 'omit', 'application/json', 'Bearer tok_1'],
      ]);
      offset = 200_000; // well within its five minutes
      inner(el, '[part=more]')!.click();
      await waitUntil(() => calls.length === 3);
      expect(calls[2]!.authorization).to.equal('Bearer tok_1');
      offset = 271_000; // within its last 30 s (a tenth of its life): asked again first
      await el.refresh();
      expect(calls.slice(3).map((c) => [c.method, c.url.pathname, c.authorization])).to.deep.equal([
        ['POST', '/session/token', null],
        ['GET', '/api/v1/me/consent_records', 'Bearer tok_2'],
      ]);
    } finally {
      Date.now = realNow;
    }
  });

  it("token-url: no session (401) is signed-out; another origin's URL is never asked", async () => {
    const errors = listen<Record<string, unknown>>('svc-error');
    const refused = api([json({ message: 'Sign in first.', code: 'unauthorized' }, 401)]);
    const el = await fixture<SvcRecords>(
      html`<svc-records trust-url=${TRUST} token-url="/session/token" .fetch=${refused.fetch}></svc-records>`,
    );
    await waitUntil(() => el.status === 'signed-out');
    expect(refused.calls).to.have.length(1);
    const foreign = api([json({ access_token: 'stolen', expires_in: 300 })]);
    const other = await fixture<SvcRecords>(
      html`<svc-records trust-url=${TRUST} token-url="https://elsewhere.example/token" .fetch=${foreign.fetch}></svc-records>`,
    );
    await waitUntil(() => other.status === 'error');
    errors.stop();
    expect(foreign.calls).to.deep.equal([]);
    expect(errors.seen.map((e) => e.code)).to.deep.equal(['unauthorized', 'invalid_configuration']);
  });

  it('a refused token (401): signed out, with svc-error unauthorized; getAccessToken is asked before every request and wins', async () => {
    const errors = listen<Record<string, unknown>>('svc-error');
    const refused = api([json({ message: 'The bearer token is not valid.', code: 'unauthorized' }, 401)]);
    const el = await records(refused.fetch, 'old');
    errors.stop();
    expect(el.status).to.equal('signed-out');
    expect(errors.seen).to.deep.equal([
      { code: 'unauthorized', message: 'The bearer token is not valid.', fatal: true, recoverable_via: 'sign_in' },
    ]);
    expect(text(inner(el, '[part=base]'))).to.contain('Sign in to see your consent records.');
    await expect(el).to.be.accessible();

    const { fetch, calls } = api([page([record('cr_1')], 'c1')]);
    let asked = 0;
    const fresh = await fixture<SvcRecords>(
      html`<svc-records trust-url=${TRUST} .fetch=${fetch} .accessToken=${'ignored'} .getAccessToken=${async () => `tok_${++asked}`}></svc-records>`,
    );
    await waitUntil(() => fresh.status === 'ready');
    inner(fresh, '[part=more]')!.click();
    await waitUntil(() => calls.length === 2);
    expect(calls.map((c) => c.authorization)).to.deep.equal(['Bearer tok_1', 'Bearer tok_2']);
    expect(calls[1]!.url.searchParams.get('cursor')).to.equal('c1');
  });

  it('shows more on request with the cursor the service gave, and says plainly when there is nothing', async () => {
    const { fetch, calls } = api([page([record('cr_1')], 'c1'), page([record('cr_2')])]);
    const el = await records(fetch);
    expect(text(inner(el, '[part=status]'))).to.equal('1 or more records.');
    inner(el, '[part=more]')!.click();
    await waitUntil(() => all(el, '[part=record]').length === 2);
    expect(calls[1]!.url.searchParams.get('cursor')).to.equal('c1');
    await el.updateComplete;
    expect(inner(el, '[part=more]')).to.equal(null);
    expect(text(inner(el, '[part=status]'))).to.equal('1 more shown.');

    const empty = await records(api([page([])]).fetch);
    expect(empty.status).to.equal('empty');
    expect(text(inner(empty, '[part=base]'))).to.contain('You have no consent records yet.');
    await expect(empty).to.be.accessible();
  });

  it('an error state with a retry that works', async () => {
    const errors = listen<Record<string, unknown>>('svc-error');
    const { fetch, calls } = api([
      new TypeError('Failed to fetch'),
      json({ message: 'Internal error.', code: 'internal' }, 500),
      page([record('cr_1')]),
    ]);
    const el = await records(fetch);
    expect(el.status).to.equal('error');
    expect(text(inner(el, '[part=base]'))).to.contain('Your consent records cannot be shown right now.');
    await expect(el).to.be.accessible();
    inner(el, '[part=retry]')!.click();
    await waitUntil(() => errors.seen.length === 2);
    await el.updateComplete;
    expect(el.status).to.equal('error');
    inner(el, '[part=retry]')!.click();
    await waitUntil(() => el.status === 'ready');
    errors.stop();
    expect(errors.seen.map((e) => [e.code, e.recoverable_via])).to.deep.equal([
      ['network', 'retry'],
      ['http', 'retry'],
    ]);
    expect(calls).to.have.length(3);
  });

  it('a failed withdrawal keeps the record as it was, says so, and gives focus back', async () => {
    const errors = listen<Record<string, unknown>>('svc-error');
    const { fetch } = api([page([record('cr_1')]), json({ message: 'Internal error.', code: 'internal' }, 500)]);
    const el = await records(fetch);
    all(el, '[part=withdraw]')[0]!.click();
    await el.updateComplete;
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => errors.seen.length === 1);
    errors.stop();
    await el.updateComplete;
    expect(el.status).to.equal('ready');
    expect(all(el, '[part=outcome]').map(text)[0]).to.equal('You agreed.');
    expect(text(inner(el, '[part=status]'))).to.match(/^Nothing was withdrawn/);
    expect(focused(el)).to.equal(all(el, '[part=withdraw]')[0]);
  });

  describe('when the service is busy (429)', () => {
    const tooMany = (retryAfter: string) => () =>
      json({ message: 'Too many requests.', code: 'rate_limited' }, 429, { 'retry-after': retryAfter });

    it('waits the Retry-After and asks once more, reading and withdrawing without an error', async () => {
      const errors = listen<unknown>('svc-error');
      const row = record('cr_1');
      const { fetch, calls } = api([tooMany('1'), page([row]), tooMany('1'), withdrawal(row)]);
      const started = performance.now();
      const el = await fixture<SvcRecords>(html`<svc-records trust-url=${TRUST} .fetch=${fetch} .accessToken=${'tok'}></svc-records>`);
      await waitUntil(() => el.status === 'ready', 'the records did not load', { timeout: 4000 });
      expect(performance.now() - started).to.be.above(950);
      all(el, '[part=withdraw]')[0]!.click();
      await el.updateComplete;
      inner(el, '[part=confirm-button]')!.click();
      await waitUntil(() => calls.length === 4 && !inner(el, '[part=confirm]'), 'the withdrawal was not asked again', { timeout: 4000 });
      errors.stop();
      expect(errors.seen).to.deep.equal([]);
      expect(calls.map((c) => c.method)).to.deep.equal(['GET', 'GET', 'POST', 'POST']);
      expect(calls[3]!.body).to.deep.equal({ purposes: ['newsletter'] });
      expect(all(el, '[part=outcome]').map(text)[0]).to.equal('You withdrew your consent.');
    });

    it('shows its error state at once for a Retry-After over 10 s', async () => {
      const { fetch, calls } = api([tooMany('11'), page([])]);
      const el = await records(fetch);
      expect(el.status).to.equal('error');
      expect(calls).to.have.length(1);
    });
  });

  it('mirrors for right-to-left and fits 375 px', async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div dir=rtl style="width: 375px"><svc-records trust-url=${TRUST}
      .fetch=${api([page([record('cr_1', { title: 'A title long enough to wrap on a narrow phone screen, as titles do' })])]).fetch}
      .accessToken=${'tok'}></svc-records></div>`);
    const el = wrapper.querySelector('svc-records')!;
    await waitUntil(() => el.status === 'ready');
    await el.updateComplete;
    expect(el.scrollWidth).to.be.at.most(375);
    const purpose = all(el, '[part=purpose]')[0]!;
    const label = purpose.querySelector<HTMLElement>('[part=purpose-label]')!.getBoundingClientRect();
    const button = purpose.querySelector<HTMLElement>('[part=withdraw]')!.getBoundingClientRect();
    expect(button.right, 'the button is on the left in RTL').to.be.at.most(label.left + 1);
  });
});
