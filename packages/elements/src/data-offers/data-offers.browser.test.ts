// <svc-data-offers> in every engine. First against the reference server (test/wtr-person-servers.mjs: a person signed
// in with data_offers:read and data_offers:write, who offered terms twice, the organisation countering the first, and
// who signed an agreement the organisation holds a licence under): accepting, declining after the confirm step,
// revoking a licence, each recorded at the service. Then with a fetch double (the shapes of `/api/v1/me/data_offers`
// and `/api/v1/me/data_licenses` as @svc/schemas types them) for the view's details and what a service will not do
// on cue.
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { DataLicenseRow, DataOfferRow, SvcDataOffersAnswerDetail } from './events.js';
import { SvcDataOffers } from './data-offers.js';

const TRUST = 'https://trust.svc.example';

const offer = (id: string, extra: Partial<DataOfferRow> = {}): DataOfferRow => ({
  id,
  status: 'countered',
  turn: 'person',
  answerable: true,
  organisation: { id: 'org_fit', name: 'Fit Labs' },
  application: { id: 'tp_fit', name: 'Fit app' },
  policy: { id: 'pol_1', template_id: 'data_offer', title: 'My steps', data_categories: ['steps', 'sleep_hours'] },
  terms: { price: { amount: 600, currency: 'EUR' }, months: 6, commercial_use: false },
  counter_count: 1,
  rounds: [
    { action: 'offer', by: 'person', terms: { price: { amount: 1000, currency: 'EUR' } }, message: null, at: '2026-03-01T10:00:00.000Z' },
    { action: 'counter', by: 'organisation', terms: null, message: 'We can do 6 euros.', at: '2026-03-02T10:00:00.000Z' },
  ],
  expires_at: '2026-03-08T10:00:00.000Z',
  offered_at: '2026-03-01T10:00:00.000Z',
  decided_at: null,
  decline_reason: null,
  created_at: '2026-03-01T10:00:00.000Z',
  updated_at: '2026-03-02T10:00:00.000Z',
  ...extra,
});

const license = (id: string, extra: Partial<DataLicenseRow> = {}): DataLicenseRow => ({
  id,
  status: 'active',
  revocable: true,
  organisation: { id: 'org_lab', name: 'Sleep Lab' },
  application: { id: 'tp_lab', name: 'Study portal' },
  agreement: { id: 'agr_1', title: 'Sleep study', signed_at: '2026-02-01T10:00:00.000Z' },
  terms: { purpose: 'research' },
  max_access_count: 3,
  access_count: 1,
  remaining_accesses: 2,
  last_accessed_at: '2026-02-10T10:00:00.000Z',
  revoked_at: null,
  created_at: '2026-02-01T10:00:00.000Z',
  ...extra,
});

interface Call {
  url: URL;
  method: string;
  authorization: string | null;
}

/** A fetch that answers each call with the next of `answers` (the last repeats), recording the calls. */
function api(answers: Response[]) {
  const calls: Call[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    calls.push({ url: new URL(String(input), location.href), method: init.method ?? 'GET', authorization: headers.get('authorization') });
    return answers[Math.min(calls.length - 1, answers.length - 1)]!.clone();
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const inner = <T extends HTMLElement = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const all = (el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(selector)];
const text = (node: Element | null) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const focused = (el: SvcDataOffers) => el.shadowRoot!.activeElement as HTMLElement | null;
const press = (key: string) => executeServerCommand('svc-press', key);

async function element(fetch: typeof globalThis.fetch, view?: string, token: string | null = 'tok_ada'): Promise<SvcDataOffers> {
  const el = await fixture<SvcDataOffers>(
    html`<svc-data-offers trust-url=${TRUST} view=${view ?? 'offers'} .fetch=${fetch} .accessToken=${token ?? undefined}></svc-data-offers>`,
  );
  await waitUntil(() => el.status !== 'loading', 'the list did not load');
  await el.updateComplete;
  return el;
}

function listen<T>(type: string) {
  const seen: T[] = [];
  const listener = (event: Event) => seen.push((event as CustomEvent<T>).detail);
  document.addEventListener(type, listener);
  return { seen, stop: () => document.removeEventListener(type, listener) };
}

interface Person {
  base_url: string;
  access_token: string;
  countered: string;
  waiting: string;
  license: string;
}

async function person(): Promise<Person> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const answer = await executeServerCommand<Person | { starting: true }, { origin: string }>('svc-data-offers-person', {
      origin: location.origin,
    });
    if (!('starting' in answer)) return answer;
  }
  throw new Error('the data offers server did not start');
}

async function live(ada: Person, view = 'offers'): Promise<SvcDataOffers> {
  const el = await fixture<SvcDataOffers>(
    html`<svc-data-offers trust-url=${ada.base_url} view=${view} .accessToken=${ada.access_token}></svc-data-offers>`,
  );
  await waitUntil(() => el.status !== 'loading', 'the list did not load', { timeout: 10_000 });
  expect(el.status, text(inner(el, '[part=status]'))).to.equal('ready');
  return el;
}

describe('<svc-data-offers> against the reference server', function () {
  this.timeout(60_000); // the first test waits for the reference server to start
  afterEach(() => fixtureCleanup());

  it("accepts the organisation's counter: the service records it, and the offer reads Agreed", async () => {
    const ada = await person();
    const el = await live(ada);
    expect(el.items.map((r) => r.id).sort()).to.deep.equal([ada.countered, ada.waiting].sort());
    expect(all(el, '[part=accept]')).to.have.length(1);
    await expect(el).to.be.accessible();
    const events = listen<SvcDataOffersAnswerDetail>('svc-data-offers-answer');
    inner(el, '[part=accept]')!.click();
    await waitUntil(() => events.seen.length === 1, 'no svc-data-offers-answer', { timeout: 10_000 });
    events.stop();
    expect([events.seen[0]!.action, events.seen[0]!.id, events.seen[0]!.data_offer!.status]).to.deep.equal([
      'accept',
      ada.countered,
      'accepted',
    ]);
    await el.refresh();
    const row = el.items.find((r) => r.id === ada.countered) as DataOfferRow;
    expect([row.status, row.answerable]).to.deep.equal(['accepted', false]);
  });

  it('declines after the confirm step, and revokes a licence after its own', async () => {
    const ada = await person();
    const el = await live(ada);
    inner(el, '[part=decline]')!.click();
    await el.updateComplete;
    const events = listen<SvcDataOffersAnswerDetail>('svc-data-offers-answer');
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => events.seen.length === 1, 'no decline', { timeout: 10_000 });
    expect(events.seen[0]!.data_offer!.status).to.equal('declined');

    const licenses = await live(ada, 'licenses');
    expect(licenses.items.map((r) => r.id)).to.deep.equal([ada.license]);
    inner(licenses, '[part=revoke]')!.click();
    await licenses.updateComplete;
    inner(licenses, '[part=confirm-button]')!.click();
    await waitUntil(() => events.seen.length === 2, 'no revoke', { timeout: 10_000 });
    events.stop();
    expect([events.seen[1]!.action, events.seen[1]!.data_license!.status]).to.deep.equal(['revoke', 'revoked']);
    await licenses.refresh();
    expect((licenses.items[0] as DataLicenseRow).status).to.equal('revoked');
  });
});

describe('<svc-data-offers>', () => {
  afterEach(() => fixtureCleanup());

  it('without a token says to sign in and asks nothing', async () => {
    const { fetch, calls } = api([json({ data_offers: [], next_cursor: null })]);
    const el = await element(fetch, 'offers', null);
    expect(el.status).to.equal('idle');
    expect(calls).to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it('says each offer in plain words: who, where it stands, the data, the terms, their note; buttons only where the person may answer', async () => {
    const waiting = offer('dof_2', { status: 'offered', turn: 'organisation', answerable: false });
    const { fetch, calls } = api([json({ data_offers: [offer('dof_1'), waiting], next_cursor: null })]);
    const el = await element(fetch);
    expect(calls.map((c) => [c.method, c.url.href, c.authorization])).to.deep.equal([
      ['GET', `${TRUST}/api/v1/me/data_offers`, 'Bearer tok_ada'],
    ]);
    const [first, second] = all(el, '[part=offer]');
    expect(text(first!.querySelector('[part=organisation]'))).to.equal('Fit Labs');
    expect(text(first!.querySelector('[part=meta]'))).to.match(
      /^They answered with their own terms: your answer is awaited\. · Answer by .*2026/,
    );
    expect(text(first!.querySelector('[part=categories]'))).to.equal('Your data: steps and sleep hours');
    const terms = [...first!.querySelectorAll('[part=terms] li')].map(text);
    expect(terms[0]).to.match(/^Price: .*6[.,]00/);
    expect(terms.slice(1)).to.deep.equal(['For 6 months', 'No commercial use']);
    expect(text(first!.querySelector('[part=note]'))).to.equal('Their note: “We can do 6 euros.”');
    expect(first!.querySelector('[part=accept]')!.getAttribute('aria-label')).to.equal('Accept the terms of Fit Labs');
    expect(second!.querySelector('[part=accept], [part=decline]')).to.equal(null);
    expect(text(second!.querySelector('[part=meta]'))).to.match(/^You made this offer: waiting for their answer\./);
    await expect(el).to.be.accessible();
  });

  it('says each licence: how often it was used, under which agreement; revoke asks first, Escape cancels with focus back', async () => {
    const { fetch, calls } = api([
      json({
        data_licenses: [
          license('dlic_1'),
          license('dlic_2', { status: 'revoked', revocable: false, revoked_at: '2026-02-20T10:00:00.000Z' }),
        ],
        next_cursor: null,
      }),
    ]);
    const el = await element(fetch, 'licenses');
    expect(calls[0]!.url.pathname).to.equal('/api/v1/me/data_licenses');
    const [first, second] = all(el, '[part=license]');
    expect(text(first!.querySelector('[part=categories]'))).to.equal('Used 1 of 3 times allowed (2 left).');
    expect(text(first!.querySelector('[part=note]'))).to.match(/^Under “Sleep study”, which you signed .*2026$/);
    expect([...first!.querySelectorAll('[part=terms] li')].map(text)).to.deep.equal(['For: research']);
    expect(text(second!.querySelector('[part=meta]'))).to.match(/^Revoked · Revoked .*2026/);
    expect(second!.querySelector('[part=revoke]')).to.equal(null);
    const trigger = inner(el, '[part=revoke]')!;
    trigger.focus();
    await press('Enter');
    await el.updateComplete;
    const confirm = inner(el, '[part=confirm]')!;
    expect(focused(el)).to.equal(confirm);
    expect(text(confirm.querySelector('p'))).to.equal(
      'Revoke the licence of Sleep Lab? They may not use your data under it any more; this cannot be undone.',
    );
    await expect(el).to.be.accessible();
    await press('Escape');
    await el.updateComplete;
    expect(inner(el, '[part=confirm]')).to.equal(null);
    expect(focused(el)).to.equal(inner(el, '[part=revoke]'));
    expect(text(inner(el, '[part=status]'))).to.equal('Nothing was changed.');
    expect(calls).to.have.length(1);
  });

  it('accepts at once with the bearer token, updates the row in place and announces it; focus stays on the row', async () => {
    const accepted = offer('dof_1', { status: 'accepted', turn: null, answerable: false, decided_at: '2026-03-03T10:00:00.000Z' });
    const { fetch, calls } = api([json({ data_offers: [offer('dof_1')], next_cursor: null }), json({ data_offer: accepted })]);
    const el = await element(fetch);
    const events = listen<SvcDataOffersAnswerDetail>('svc-data-offers-answer');
    inner(el, '[part=accept]')!.click();
    await waitUntil(() => events.seen.length === 1);
    events.stop();
    expect(calls.slice(1).map((c) => [c.method, c.url.href, c.authorization])).to.deep.equal([
      ['POST', `${TRUST}/api/v1/me/data_offers/dof_1/accept`, 'Bearer tok_ada'],
    ]);
    expect(events.seen[0]).to.deep.equal({ action: 'accept', id: 'dof_1', data_offer: accepted });
    await el.updateComplete;
    expect(text(inner(el, '[part=meta]'))).to.match(/^Agreed\. · Decided /);
    expect(inner(el, '[part=accept]')).to.equal(null);
    expect(text(inner(el, '[part=status]'))).to.equal('You accepted the terms of Fit Labs.');
    expect(focused(el)).to.equal(inner(el, '[part=offer]'));
  });

  it('a refused answer (409) changes nothing, says so, fires svc-error and puts focus back on the button', async () => {
    const { fetch } = api([
      json({ data_offers: [offer('dof_1')], next_cursor: null }),
      json({ message: 'A data offer cannot go from declined to accepted (declined is final).', code: 'illegal_transition' }, 409),
    ]);
    const el = await element(fetch);
    const errors = listen<{ code: string }>('svc-error');
    inner(el, '[part=accept]')!.click();
    await waitUntil(() => errors.seen.length === 1);
    errors.stop();
    expect(errors.seen[0]!.code).to.equal('http');
    await el.updateComplete;
    expect(text(inner(el, '[part=status]'))).to.equal('Nothing was changed: the service could not be reached or refused. Try again.');
    expect(focused(el)).to.equal(inner(el, '[part=accept]'));
    expect((el.items[0] as DataOfferRow).status).to.equal('countered');
  });

  it('says empty per view, and a token without the scope is an error with svc-error forbidden', async () => {
    const empty = await element(api([json({ data_licenses: [], next_cursor: null })]).fetch, 'licenses');
    expect(empty.status).to.equal('empty');
    expect(text(inner(empty, '[part=base]'))).to.contain('No organisation holds a licence over your data.');
    const errors = listen<{ code: string }>('svc-error');
    const el = await element(
      api([json({ message: 'This access token lacks the data_offers:read scope.', code: 'insufficient_scope' }, 403)]).fetch,
    );
    errors.stop();
    expect(el.status).to.equal('error');
    expect(errors.seen.map((e) => e.code)).to.deep.equal(['forbidden']);
  });
});
