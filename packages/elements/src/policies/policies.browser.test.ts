// <svc-policies> in every engine. First against the reference server (test/policies-server.ts: an admin API token and
// a viewer's of the sandbox organisation, a policy, a data license, a clean room that spent ε 0.5, and an application
// whose newsletter two people granted today and one withdrew): revoking a policy with the confirm step, a clean room's
// budget and queries, the consent activity table, a viewer's read-only view and a viewer's change refused in the
// service's words. Then with a fetch double for what a real service will not do on cue (failures, 429).
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { PoliciesErrorDetail, SvcPoliciesChangeDetail } from './events.js';
import { SvcPolicies } from './policies.js';

interface Set {
  base_url: string;
  admin_token: string;
  viewer_token: string;
  policy_id: string;
  policy_title: string;
  license_id: string;
  clean_room_id: string;
  agreement_id: string;
  application_id: string;
}

const inner = <T extends HTMLElement = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const all = (el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(selector)];
const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const row = (el: SvcPolicies, id: string) => inner(el, `[data-key="row ${id}"]`);

function listen<T>(type: string) {
  const seen: T[] = [];
  const listener = (event: Event) => seen.push((event as CustomEvent<T>).detail);
  document.addEventListener(type, listener);
  return { seen, stop: () => document.removeEventListener(type, listener) };
}

/** A new set at the reference server (asked again while it starts). */
async function made(): Promise<Set> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const answer = await executeServerCommand<Set | { starting: true }, { origin: string }>('svc-policies-person', {
      origin: location.origin,
    });
    if (!('starting' in answer)) return answer;
  }
  throw new Error('the policies server did not start');
}

function drawable(): boolean {
  try {
    new Intl.NumberFormat(navigator.language);
    return true;
  } catch {
    return false;
  }
}

async function settled(el: SvcPolicies): Promise<void> {
  await waitUntil(() => el.status !== 'loading' && el.status !== 'idle', 'the element did not load', { timeout: 10_000 });
  expect(el.status, text(inner(el, '[part=status]'))).to.equal('ready');
}

describe('<svc-policies> against the reference server', function () {
  this.timeout(60_000); // the first test waits for the reference server to start
  afterEach(() => fixtureCleanup());

  it('lists the policy and the data license, and revokes the policy after confirming', async () => {
    const set = await made();
    const el = await fixture<SvcPolicies>(
      html`<svc-policies trust-url=${set.base_url} limit=100 .accessToken=${set.admin_token}></svc-policies>`,
    );
    await settled(el);
    await waitUntil(() => el.dataLicenses.length > 0, 'the data licenses did not load', { timeout: 10_000 });
    expect(text(row(el, set.license_id)))
      .to.contain(`Acme Research (${set.policy_title.slice(13, -1)})`)
      .and.contain('0 of 10 accesses');
    const policy = row(el, set.policy_id)!;
    expect(text(policy)).to.contain(set.policy_title).and.contain('Active').and.contain('Template: ');
    await expect(el).to.be.accessible();

    const changes = listen<SvcPoliciesChangeDetail>('svc-policies-change');
    inner(el, `[data-key="revoke ${set.policy_id}"]`)!.click();
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement?.getAttribute('part')).to.equal('confirm');
    inner(el, `[data-key="row ${set.policy_id}"] [part=confirm-button]`)!.click();
    await waitUntil(() => changes.seen.length === 1, 'no svc-policies-change', { timeout: 10_000 });
    changes.stop();
    expect(changes.seen[0]).to.deep.equal({ kind: 'policy', id: set.policy_id, status: 'revoked' });
    await el.updateComplete;
    expect(text(row(el, set.policy_id))).to.contain('Revoked');
    expect(inner(el, `[data-key="revoke ${set.policy_id}"]`)).to.equal(null);
    expect(text(inner(el, '[part=status]'))).to.equal(`Revoked: ${set.policy_title}.`);
  });

  it("shows a clean room's participants, the budget it has left and its queries", async () => {
    const set = await made();
    const el = await fixture<SvcPolicies>(
      html`<svc-policies view=clean_rooms limit=100 trust-url=${set.base_url} .accessToken=${set.admin_token}></svc-policies>`,
    );
    await settled(el);
    const room = el.cleanRooms.find((r) => r.id === set.clean_room_id)!;
    expect(room.privacy_budget.epsilon_spent).to.equal(0.5);
    const shown = row(el, set.clean_room_id)!;
    const { epsilon_remaining, epsilon_total } = room.privacy_budget;
    expect(text(shown.querySelector('[part=budget]'))).to.equal(`Privacy budget left: ε ${epsilon_remaining} of ${epsilon_total}`);
    expect(text(shown)).to.contain(set.agreement_id).and.contain(room.participants[0]!);
    (shown.querySelector('[part=toggle-queries]') as HTMLElement).click();
    await waitUntil(() => text(shown.querySelector('[part=queries]')).includes('count'), 'the queries did not load', { timeout: 10_000 });
    expect(text(shown.querySelector('[part=queries]'))).to.contain('count: completed');
    await expect(el).to.be.accessible();
  });

  it('shows the consent activity the service counted, as a table always there', async () => {
    const set = await made();
    const el = await fixture<SvcPolicies>(
      html`<svc-policies view=consent_activity limit=100 application-id=${set.application_id} trust-url=${set.base_url}
        .accessToken=${set.viewer_token}></svc-policies>`,
    );
    await settled(el);
    await waitUntil(() => el.consentActivity, 'the activity did not load', { timeout: 10_000 });
    await el.updateComplete;
    const activity = el.consentActivity!;
    const select = all(el, '[part=filters] select')[1] as HTMLSelectElement;
    expect(select.value).to.equal('newsletter');
    const table = inner(el, '[part=chart-table]')!;
    expect(text(table.querySelector('caption'))).to.contain('newsletter');
    expect(table.querySelectorAll('tbody tr').length).to.equal(30);
    const today = [...table.querySelectorAll('tbody tr')].find((tr) => text(tr.querySelector('th')) === activity.to)!;
    expect([...today.querySelectorAll('td')].map((td) => text(td))).to.deep.equal(['2', '0', '1']);
    expect(text(inner(el, '[part=totals]'))).to.equal('In total: 2 given, 0 refused, 1 withdrawn.');
    // uPlot formats numbers in the browser's language: where that is no language tag (WebKit under LANG=C says "C"),
    // it cannot draw, and the table alone says the numbers.
    if (drawable()) await waitUntil(() => inner(el, '[part=chart] canvas'), 'the chart was not drawn', { timeout: 10_000 });
    expect(inner(el, '[part=chart]')!.getAttribute('aria-hidden')).to.equal('true');

    select.value = 'research';
    select.dispatchEvent(new Event('change'));
    await el.updateComplete;
    const research = [...inner(el, '[part=chart-table]')!.querySelectorAll('tbody tr')].at(-1)!;
    expect([...research.querySelectorAll('td')].map((td) => text(td))).to.deep.equal(['0', '2', '0']);
    await expect(el).to.be.accessible();
  });

  it('shows a viewer no change controls with readonly, and says the service refused a viewer without it', async () => {
    const set = await made();
    const readonly = await fixture<SvcPolicies>(
      html`<svc-policies readonly limit=100 trust-url=${set.base_url} .accessToken=${set.viewer_token}></svc-policies>`,
    );
    await settled(readonly);
    await waitUntil(() => readonly.dataLicenses.length > 0, 'the data licenses did not load', { timeout: 10_000 });
    expect(row(readonly, set.policy_id)).to.not.equal(null);
    expect(all(readonly, '[part=revoke], [part=close]')).to.deep.equal([]);
    fixtureCleanup();

    const viewer = await fixture<SvcPolicies>(
      html`<svc-policies limit=100 trust-url=${set.base_url} .accessToken=${set.viewer_token}></svc-policies>`,
    );
    await settled(viewer);
    const errors = listen<PoliciesErrorDetail>('svc-error');
    inner(viewer, `[data-key="revoke ${set.policy_id}"]`)!.click();
    await viewer.updateComplete;
    inner(viewer, '[part=confirm-button]')!.click();
    await waitUntil(() => errors.seen.length === 1, 'no svc-error', { timeout: 10_000 });
    errors.stop();
    expect(errors.seen[0]!.code).to.equal('forbidden');
    await viewer.updateComplete;
    expect(text(inner(viewer, '[part=status]'))).to.equal(`Nothing was changed. The service said: ${errors.seen[0]!.message}`);
    expect(errors.seen[0]!.message).to.contain('write');
    expect(text(row(viewer, set.policy_id))).to.contain('Active');
    expect(viewer.shadowRoot!.activeElement?.getAttribute('data-key')).to.equal(`revoke ${set.policy_id}`);
  });
});

const TRUST = 'https://trust.svc.example';
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A fetch that answers each call with the next of `answers` (the last repeats), counting the calls. */
function api(answers: Response[]) {
  let calls = 0;
  const fetch = async () => answers[Math.min(calls++, answers.length - 1)]!.clone();
  return { fetch: fetch as typeof globalThis.fetch, calls: () => calls };
}

describe('<svc-policies> with a fetch double', () => {
  afterEach(() => fixtureCleanup());

  it('shows the error state with a retry when the service fails, and reads again on retry', async () => {
    const errors = listen<PoliciesErrorDetail>('svc-error');
    const { fetch } = api([json({ message: 'Internal server error.' }, 500), json({ clean_rooms: [], next_cursor: null })]);
    const el = await fixture<SvcPolicies>(
      html`<svc-policies view=clean_rooms trust-url=${TRUST} .fetch=${fetch} .accessToken=${'tok'}></svc-policies>`,
    );
    await waitUntil(() => el.status === 'error', 'no error state');
    expect(errors.seen.map((e) => [e.code, e.recoverable_via])).to.deep.equal([['http', 'retry']]);
    errors.stop();
    inner(el, '[part=retry]')!.click();
    await waitUntil(() => el.status === 'empty', 'no empty state');
  });

  it('signs out when the token is refused', async () => {
    const { fetch } = api([json({ message: 'The bearer token is not valid.', code: 'unauthorized' }, 401)]);
    const el = await fixture<SvcPolicies>(html`<svc-policies trust-url=${TRUST} .fetch=${fetch} .accessToken=${'tok'}></svc-policies>`);
    await waitUntil(() => el.status === 'signed-out', 'not signed out');
  });

  it('fits 375 px, right to left too, in every view', async () => {
    const room = {
      id: 'clr_us_narrow',
      agreement_id: 'agr_us_a_rather_long_agreement_identifier',
      participants: ['tp_dev_first_participant_application', 'tp_dev_second_participant_application'],
      status: 'active',
      created_at: '2026-03-01T10:00:00.000Z',
      expires_at: null,
      ended_at: null,
      home_country: 'US',
      min_cohort: 10,
      privacy_budget: { epsilon_total: 2, epsilon_spent: 0.5, epsilon_remaining: 1.5 },
    };
    const days = [{ date: '2026-03-02', purpose: 'newsletter_and_partner_offers', granted: 12, denied: 3, withdrawn: 1 }];
    const answer = (url: string) => {
      if (url.endsWith('/clean_rooms')) return json({ clean_rooms: [room], next_cursor: null });
      if (url.includes('/consent_activity'))
        return json({ consent_activity: { application_id: 'tp_a', from: '2026-03-01', to: '2026-03-30', days } });
      return json({ applications: [{ id: 'tp_a', name: 'A shop with a long name' }], next_cursor: null });
    };
    const fetch = (async (input: RequestInfo | URL) => answer(String(input))) as typeof globalThis.fetch;
    for (const dir of ['ltr', 'rtl']) {
      for (const view of ['clean_rooms', 'consent_activity']) {
        const box = await fixture<HTMLDivElement>(html`<div dir=${dir} style="inline-size: 375px">
          <svc-policies view=${view} trust-url=${TRUST} .fetch=${fetch} .accessToken=${'tok'}></svc-policies></div>`);
        const el = box.querySelector('svc-policies')!;
        await waitUntil(() => el.status === 'ready' && (view !== 'consent_activity' || el.consentActivity), `${view} did not load`);
        await el.updateComplete;
        const base = inner(el, '[part=base]')!;
        expect(base.scrollWidth, `${view} ${dir}`).to.be.at.most(base.clientWidth);
        expect(box.scrollWidth, `${view} ${dir}`).to.be.at.most(375);
        fixtureCleanup();
      }
    }
  });

  it('waits the Retry-After of a 429 and asks once more', async () => {
    const { fetch, calls } = api([
      json({ message: 'Too many requests.', code: 'rate_limited' }, 429, { 'retry-after': '1' }),
      json({ applications: [], next_cursor: null }),
    ]);
    const el = await fixture<SvcPolicies>(
      html`<svc-policies view=consent_activity trust-url=${TRUST} .fetch=${fetch} .accessToken=${'tok'}></svc-policies>`,
    );
    await waitUntil(() => el.status === 'empty', 'not read after the 429', { timeout: 4000 });
    expect(calls()).to.equal(2);
  });
});
