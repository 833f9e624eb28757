// <svc-data-requests> in every engine. First against the reference server (test/wtr-person-servers.mjs: a
// person signed in with data_requests:read and :write, with an access request the organisation extended): reading,
// filing a new request through the form and its confirm step, and seeing it listed with its due date. Then with a
// fetch double (the shapes @svc/schemas types) for what a real service will not do on cue: overdue, answered and
// refused requests, refused tokens, failures.
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { SvcDataRequests } from './data-requests.js';
import type { DataRequestRow, SvcDataRequestsFileDetail } from './events.js';

const TRUST = 'https://trust.svc.example';
const DAY = 86_400_000;
const longDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { dateStyle: 'long' });

const inner = <T extends HTMLElement = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const all = (el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(selector)];
const text = (node: Element | null) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const focused = (el: SvcDataRequests) => el.shadowRoot!.activeElement as HTMLElement | null;
const press = (key: string) => executeServerCommand('svc-press', key);

async function shown(el: SvcDataRequests): Promise<SvcDataRequests> {
  await waitUntil(() => el.status !== 'loading', 'the requests did not load');
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

/** Fills the new request form: the type's radio, the details, then "Continue"; resolves once the confirm step has focus. */
async function fill(el: SvcDataRequests, type: string, details: string): Promise<void> {
  inner(el, '[part=new]')!.click();
  await el.updateComplete;
  inner<HTMLInputElement>(el, `input[value=${type}]`)!.click();
  inner<HTMLTextAreaElement>(el, 'textarea')!.value = details;
  inner(el, '[part=form] button[type=submit]')!.click();
  await waitUntil(() => focused(el)?.getAttribute('part') === 'confirm', 'the confirm step did not take focus');
}

interface Person {
  base_url: string;
  access_token: string;
  organisation: { id: string; name: string };
  extended: string;
}

async function person(): Promise<Person> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const answer = await executeServerCommand<Person | { starting: true }, { origin: string }>('svc-data-requests-person', {
      origin: location.origin,
    });
    if (!('starting' in answer)) return answer;
  }
  throw new Error('the data requests server did not start');
}

describe('<svc-data-requests> against the reference server', function () {
  this.timeout(60_000);
  afterEach(() => fixtureCleanup());

  it('lists the extended request with its reason, files a new one through the confirm step, and lists it with its due date', async () => {
    const ada = await person();
    const el = await shown(
      await fixture<SvcDataRequests>(
        html`<svc-data-requests trust-url=${ada.base_url} .accessToken=${ada.access_token}></svc-data-requests>`,
      ),
    );
    expect(el.status).to.equal('ready');
    const extended = el.requests.find((r) => r.id === ada.extended)!;
    expect(text(inner(el, `[data-id="${ada.extended}"] [part=due]`))).to.equal(
      `Extended to ${longDate(extended.due_date)} because Records are spread over three systems`,
    );

    const filed = listen<SvcDataRequestsFileDetail>('svc-data-requests-file');
    await fill(el, 'erasure', 'My newsletter profile');
    expect(text(inner(el, '[part=confirm] p'))).to.equal(
      `Send “Delete my data” to ${ada.organisation.name}? They must answer within 30 days.`,
    );
    // Escape goes back to the form, with focus on "Continue"; nothing was sent.
    await press('Escape');
    await waitUntil(() => !inner(el, '[part=confirm]'));
    expect(focused(el)?.getAttribute('type')).to.equal('submit');
    expect(el.requests.length).to.equal(1);
    inner(el, '[part=form] button[type=submit]')!.click();
    await waitUntil(() => inner(el, '[part=confirm-button]'));
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => el.requests.length === 2, 'the new request was not listed');
    await el.updateComplete;
    filed.stop();

    const row = el.requests[0]!;
    expect([row.dsar_type, row.status, row.scope, row.organisation.id]).to.deep.equal([
      'erasure',
      'received',
      'My newsletter profile',
      ada.organisation.id,
    ]);
    expect(filed.seen.map((d) => d.data_request.id)).to.deep.equal([row.id]);
    const shownRow = inner(el, `[data-id="${row.id}"]`)!;
    expect(text(shownRow.querySelector('[part=due]'))).to.equal(`Answer due by ${longDate(row.due_date)}`);
    expect(Date.parse(row.due_date) - Date.parse(row.received_at)).to.equal(30 * DAY);
    expect(focused(el)).to.equal(shownRow);
    expect(text(inner(el, '[part=status]'))).to.equal(`Sent to ${ada.organisation.name}: Delete my data.`);

    // Read again from the service: the request is there.
    await el.refresh();
    expect(el.requests.map((r) => r.id)).to.include(row.id);
  });
});

const request = (id: string, extra: Partial<DataRequestRow> = {}): DataRequestRow => ({
  id,
  organisation: { id: 'acct_daily', name: 'Daily News' },
  dsar_type: 'access',
  scope: null,
  status: 'received',
  received_at: '2027-02-10T10:00:00.000Z',
  due_date: '2027-03-12T10:00:00.000Z',
  overdue: false,
  extended: false,
  original_due_date: '2027-03-12T10:00:00.000Z',
  extended_at: null,
  extension_reason: null,
  started_at: null,
  completed_at: null,
  completion_note: null,
  rejected_at: null,
  rejection_reason: null,
  export_url: null,
  ...extra,
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const organisations = [{ id: 'acct_daily', name: 'Daily News' }];

/** A fetch that answers each call with the next of `answers` (the last repeats), recording URL and method. */
function api(answers: (Response | Error)[]) {
  const calls: { url: string; method: string }[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(input), method: init.method ?? 'GET' });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    if (answer instanceof Error) throw answer;
    return answer.clone();
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

async function element(fetch: typeof globalThis.fetch, token: string | null = 'tok_ada'): Promise<SvcDataRequests> {
  return shown(
    await fixture<SvcDataRequests>(
      html`<svc-data-requests trust-url=${TRUST} .fetch=${fetch} .accessToken=${token ?? undefined}></svc-data-requests>`,
    ),
  );
}

describe('<svc-data-requests> in every state', () => {
  afterEach(() => fixtureCleanup());

  it('says in plain words where each request stands: due, overdue by N days, answered with its export, refused', async () => {
    const overdueSince = new Date(Date.now() - 3 * DAY - 3_600_000).toISOString();
    const rows = [
      request('dsar_due'),
      request('dsar_late', { overdue: true, due_date: overdueSince, status: 'in_progress' }),
      request('dsar_done', {
        status: 'completed',
        completed_at: '2027-03-01T10:00:00.000Z',
        export_url: `${TRUST}/api/v1/me/data_requests/dsar_done/export`,
      }),
      request('dsar_no', {
        dsar_type: 'erasure',
        status: 'rejected',
        rejected_at: '2027-03-02T10:00:00.000Z',
        rejection_reason: 'We hold no such data.',
      }),
    ];
    const el = await element(api([json({ data_requests: rows, next_cursor: null, organisations })]).fetch);
    const due = all(el, '[part=due]').map(text);
    expect(due).to.deep.equal([
      'Answer due by 12 March 2027',
      'Overdue by 3 days',
      'Answered 1 March 2027',
      'Refused 2 March 2027: We hold no such data.',
    ]);
    expect(all(el, '[part=meta]').map(text)[1]).to.equal('Being worked on · Sent 10 February 2027');
    expect(all(el, '[part=download]').length).to.equal(1);
    expect(text(inner(el, '[part=status]'))).to.equal('4 requests.');
  });

  it('is empty with a way to file, signed out without a token or with a refused one, and an error with a retry', async () => {
    const empty = await element(api([json({ data_requests: [], next_cursor: null, organisations })]).fetch);
    expect(empty.status).to.equal('empty');
    expect(inner(empty, '[part=new]')).to.exist;
    fixtureCleanup();
    expect((await element(api([]).fetch, null)).status).to.equal('idle');
    fixtureCleanup();
    const errors = listen<{ code: string }>('svc-error');
    expect((await element(api([json({ message: 'expired' }, 401)]).fetch)).status).to.equal('signed-out');
    fixtureCleanup();
    const { fetch, calls } = api([
      new TypeError('offline'),
      json({ data_requests: [request('dsar_1')], next_cursor: null, organisations }),
    ]);
    const failing = await element(fetch);
    expect(failing.status).to.equal('error');
    inner(failing, '[part=retry]')!.click();
    await waitUntil(() => failing.status === 'ready');
    errors.stop();
    expect(errors.seen.map((e) => e.code)).to.deep.equal(['unauthorized', 'network']);
    expect(calls.length).to.equal(2);
  });

  it('keeps the form when filing fails: nothing is listed, the live region says so, focus returns to "Continue"', async () => {
    const { fetch, calls } = api([
      json({ data_requests: [], next_cursor: null, organisations }),
      json({ message: 'No such organisation.', code: 'not_found' }, 404),
    ]);
    const el = await element(fetch);
    const errors = listen<{ code: string }>('svc-error');
    await fill(el, 'access', '');
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => !inner(el, '[part=confirm]'));
    errors.stop();
    expect(el.requests.length).to.equal(0);
    expect(errors.seen.map((e) => e.code)).to.deep.equal(['not_found']);
    expect(text(inner(el, '[part=status]'))).to.match(/^Nothing was sent/);
    expect(focused(el)?.getAttribute('type')).to.equal('submit');
    expect(calls.map((c) => c.method)).to.deep.equal(['GET', 'POST']);
    // Cancel closes the form and gives focus back to "New request".
    inner(el, '[part=form] [part=cancel-button]')!.click();
    await waitUntil(() => focused(el)?.getAttribute('part') === 'new');
  });
});
