// <svc-governance> in every engine. First against the reference server (test/governance-server.ts: the sandbox
// organisation with three consent records, an admin API token and a viewer's, behind a relay that stands in for the
// console's own origin): disabling then enabling a module, the change in the change log, a settings change and the
// service's refusal of a bad one, the sandbox application's audit trail and Verify the chain, a trail altered on its
// way (Verify says where it breaks), and a viewer. Then with a fetch double for what a real service will not do on cue.
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { GovernanceErrorDetail, SvcGovernanceChangeDetail } from './events.js';
import { SvcGovernance } from './governance.js';

interface Console {
  base_url: string;
  admin_token: string;
  viewer_token: string;
  application_id: string;
}

const inner = <T extends HTMLElement = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const all = (el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(selector)];
const text = (node: Element | null) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const said = (el: Element) => text(inner(el, '[part=status]'));
const focused = (el: SvcGovernance) => el.shadowRoot!.activeElement as HTMLElement | null;
const press = (key: string) => executeServerCommand('svc-press', key);

/** Collects the events of `type` on the document until `stop()`. */
function listen<T>(type: string) {
  const seen: T[] = [];
  const listener = (event: Event) => seen.push((event as CustomEvent<T>).detail);
  document.addEventListener(type, listener);
  return { seen, stop: () => document.removeEventListener(type, listener) };
}

/** The reference server's console (asked again while it starts). */
async function service(): Promise<Console> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const answer = await executeServerCommand<Console | { starting: true }, { origin: string }>('svc-governance-person', {
      origin: location.origin,
    });
    if (!('starting' in answer)) return answer;
  }
  throw new Error('the governance server did not start');
}

async function mount(view: string, token: string, base: string, options: { readonly?: boolean; fetch?: typeof fetch } = {}) {
  const el = await fixture<SvcGovernance>(html`<svc-governance view=${view} trust-url=${base} ?readonly=${options.readonly}
    .accessToken=${token} .fetch=${options.fetch}></svc-governance>`);
  await waitUntil(() => el.status !== 'loading' && el.status !== 'idle', `the ${view} did not load`, { timeout: 10_000 });
  await el.updateComplete;
  return el;
}

/** Waits for Verify the chain's verdict, failing with what the element said when it has none. */
async function verified(el: SvcGovernance): Promise<void> {
  await waitUntil(() => el.verification || said(el).startsWith('The chain could not'), 'Verify said nothing', { timeout: 20_000 });
  expect(el.verification, said(el)).to.not.equal(undefined);
}

/**
 * What sticks out of `box` sideways: each element of `el` drawn beyond its inline edges, or whose text runs past its
 * own box.
 */
function outside(el: Element, box: Element): string[] {
  const { left, right } = box.getBoundingClientRect();
  // The live region is visually hidden (1 px, clipped): nothing a person sees or scrolls to.
  const out = (e: Element) => {
    const drawn = e.getBoundingClientRect();
    if (drawn.width <= 1) return false;
    // Text runs past its box (scrollWidth); a form control scrolls its own (a select's is its longest option in WebKit).
    const control = e.closest('input, select, textarea');
    const spills = !control && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1;
    return spills || drawn.left < left - 0.5 || drawn.right > right + 0.5;
  };
  return all(el, '*')
    .filter(out)
    .map((e) => `${e.tagName.toLowerCase()}[part=${e.getAttribute('part')}] ${e.scrollWidth}`);
}

const moduleRow = (el: Element, key: string) => inner(el, `[data-key="row ${key}"]`)!;

describe('<svc-governance> against the reference server', function () {
  this.timeout(60_000); // the first test waits for the reference server to start
  // The verifier (jose, @svc/client) is loaded on the first press; here once, before the clock of any test runs.
  before(() => import('./verify.js'));
  afterEach(() => fixtureCleanup());

  it('disables a module after the confirm step, enables it again, and the change log says who did it, from what to what', async () => {
    const svc = await service();
    const el = await mount('modules', svc.admin_token, svc.base_url);
    expect(el.status, said(el)).to.equal('ready');
    expect(all(el, '[part=module]')).to.have.length(6);
    expect(text(moduleRow(el, 'comply'))).to.match(/^Comply .* Enabled since /);
    await expect(el).to.be.accessible();

    const changes = listen<SvcGovernanceChangeDetail>('svc-governance-change');
    moduleRow(el, 'comply').querySelector<HTMLElement>('[part=disable]')!.click();
    await el.updateComplete;
    expect(focused(el)?.getAttribute('part')).to.equal('confirm');
    await press('Escape');
    await el.updateComplete;
    expect(inner(el, '[part=confirm]')).to.equal(null);
    expect(said(el)).to.equal('Nothing was changed.');
    expect(focused(el)?.dataset.key).to.equal('disable comply');
    focused(el)!.click();
    await el.updateComplete;
    expect(text(inner(el, '[part=confirm] p'))).to.match(/^Disable Comply\? /);
    expect(changes.seen).to.deep.equal([]);
    el.shadowRoot!.querySelector<HTMLElement>('[part=confirm-button]')!.click();
    await waitUntil(() => changes.seen.length === 1, 'no svc-governance-change', { timeout: 10_000 });
    expect(changes.seen[0]).to.deep.equal({ kind: 'module', key: 'comply', enabled: false });
    await el.updateComplete;
    expect(text(moduleRow(el, 'comply'))).to.match(/Disabled since /);
    expect(said(el)).to.equal('Comply is disabled.');
    expect(focused(el)?.dataset.key).to.equal('enable comply');

    focused(el)!.click();
    await waitUntil(() => changes.seen.length === 2, 'no second svc-governance-change', { timeout: 10_000 });
    changes.stop();
    expect(changes.seen[1]).to.deep.equal({ kind: 'module', key: 'comply', enabled: true });
    await el.updateComplete;
    expect(text(moduleRow(el, 'comply'))).to.match(/Enabled since /);

    const log = await mount('governance', svc.admin_token, svc.base_url);
    const entries = all(log, '[part=change]').map(text);
    // Newest first: the enabling, then the disabling before it.
    const disabled = entries.find((e) => e.startsWith('Module disabled'));
    expect(disabled).to.match(/, by API token api_token_\S+ Comply: from enabled to disabled$/);
    expect(entries.at(0)).to.match(/^Module enabled .* Comply: from disabled to enabled$/);
    await expect(log).to.be.accessible();
  });

  it('changes a governance setting, which shows first in the change log; a value the service refuses is said in its words', async () => {
    const svc = await service();
    // A log longer than its first page (20): the latest change must still be shown.
    for (let i = 0; i < 21; i += 1) {
      const answer = await fetch(`${svc.base_url}/api/v1/governance`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${svc.admin_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ governance: { dsar_due_days: 20 + (i % 2) } }),
      });
      expect(answer.status).to.equal(200);
    }
    const el = await mount('governance', svc.admin_token, svc.base_url);
    await waitUntil(() => el.governance, 'the settings did not load', { timeout: 10_000 });
    const before = el.governance!.dsar_due_days;
    const after = before === 45 ? 46 : 45;
    expect(text(inner(el, '[part=settings]'))).to.contain(`Days a data subject request is due in${before}`);
    inner(el, '[part=edit]')!.click();
    await el.updateComplete;
    expect(focused(el)?.id).to.equal('svc-governance-api_token_approvals_required');
    await expect(el).to.be.accessible();

    const input = inner<HTMLInputElement>(el, '#svc-governance-dsar_due_days')!;
    input.value = '500';
    inner(el, '[part=save]')!.click();
    await waitUntil(() => inner(el, '[part=form-error]'), 'the refusal was not said', { timeout: 10_000 });
    expect(text(inner(el, '[part=form-error]'))).to.match(/^Nothing was changed: .*\S/);
    expect(focused(el)?.getAttribute('part')).to.equal('form-error');

    const changes = listen<SvcGovernanceChangeDetail>('svc-governance-change');
    inner<HTMLInputElement>(el, '#svc-governance-dsar_due_days')!.value = String(after);
    inner(el, '[part=save]')!.click();
    await waitUntil(() => changes.seen.length === 1, 'no svc-governance-change', { timeout: 10_000 });
    changes.stop();
    expect(changes.seen[0]).to.deep.equal({ kind: 'governance', settings: ['dsar_due_days'] });
    await waitUntil(() => said(el) === 'One setting changed.', said(el), { timeout: 10_000 });
    expect(el.governance!.dsar_due_days).to.equal(after);
    expect(inner(el, '[part=form]')).to.equal(null);
    expect(focused(el)?.dataset.key).to.equal('edit');
    const latest = all(el, '[part=change]').map(text).at(0);
    expect(latest).to.match(new RegExp(`^Settings changed .* Days a data subject request is due in: from ${before} to ${after}$`));
  });

  it("lists the sandbox application's audit trail and says its chain verifies", async () => {
    const svc = await service();
    const el = await mount('audit', svc.admin_token, svc.base_url);
    expect(el.status, said(el)).to.equal('ready');
    await waitUntil(() => inner(el, 'select'), 'no application select', { timeout: 10_000 });
    const select = inner<HTMLSelectElement>(el, 'select')!;
    expect(select.labels?.[0]?.textContent).to.equal('Application');
    expect(select.value).to.equal(svc.application_id);
    const events = all(el, '[part=event]');
    expect(events.length).to.be.greaterThan(2);
    expect(text(events[0]!)).to.match(/^#1 consent\.granted /);
    await expect(el).to.be.accessible();

    inner(el, '[part=verify]')!.click();
    await verified(el);
    expect(el.verification!.ok, JSON.stringify(el.verification)).to.equal(true);
    await el.updateComplete;
    expect(text(inner(el, '[part~=verdict]'))).to.match(/^The chain of \d+ events verifies/);
    expect(said(el)).to.equal(text(inner(el, '[part~=verdict]')));
  });

  it('says where the chain breaks when one event was altered on its way', async () => {
    const svc = await service();
    const altering: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      if (!new URL(String(input)).pathname.endsWith('/audit/events')) return answer;
      const body = (await answer.json()) as { audit_events: { sequence: number; data: Record<string, unknown> }[] };
      for (const event of body.audit_events) if (event.sequence === 2) event.data = { ...event.data, decision: 'denied' };
      return new Response(JSON.stringify(body), { status: answer.status, headers: { 'content-type': 'application/json' } });
    };
    const el = await mount('audit', svc.admin_token, svc.base_url, { fetch: altering });
    inner(el, '[part=verify]')!.click();
    await verified(el);
    await el.updateComplete;
    expect(el.verification).to.include({ ok: false, sequence: 2, reason: 'hash_mismatch' });
    expect(text(inner(el, '[part~=verdict]'))).to.equal('The chain breaks at event 2: its data was changed after it was recorded.');
    expect(all(el, '[part~=broken]').map((e) => text(e).split(' ')[0])).to.deep.equal(['#2']);
  });

  it('a viewer verifies but sees no change controls when readonly, and their change is refused in the service’s words', async () => {
    const svc = await service();
    const audit = await mount('audit', svc.viewer_token, svc.base_url, { readonly: true });
    inner(audit, '[part=verify]')!.click();
    await verified(audit);
    expect(audit.verification!.ok).to.equal(true);

    const modules = await mount('modules', svc.viewer_token, svc.base_url, { readonly: true });
    expect(all(modules, '[part=module]')).to.have.length(6);
    expect(all(modules, 'button')).to.deep.equal([]);
    const settings = await mount('governance', svc.viewer_token, svc.base_url, { readonly: true });
    await waitUntil(() => settings.governance, 'the settings did not load', { timeout: 10_000 });
    expect(inner(settings, '[part=edit]')).to.equal(null);
    // Nothing that changes anything ("Show more" of a long log pages it).
    expect(all(settings, 'button:not([part=more]), input, select')).to.deep.equal([]);

    const errors = listen<GovernanceErrorDetail>('svc-error');
    const open = await mount('modules', svc.viewer_token, svc.base_url);
    moduleRow(open, 'verify').querySelector<HTMLElement>('[part=disable]')!.click();
    await open.updateComplete;
    inner(open, '[part=confirm-button]')!.click();
    await waitUntil(() => inner(open, '[part=refusal]'), 'the refusal was not shown', { timeout: 10_000 });
    errors.stop();
    expect(text(inner(open, '[part=refusal]'))).to.equal('Nothing was changed: This API token lacks the "admin" permission.');
    expect(errors.seen.map((e) => e.code)).to.deep.equal(['forbidden']);
    expect(text(moduleRow(open, 'verify'))).to.match(/Enabled since /);
    expect(focused(open)?.dataset.key).to.equal('disable verify');
  });
});

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const MODULE = {
  id: 'comply',
  key: 'comply',
  name: 'Comply',
  description: 'Transfer register, residency posture, modules, governance, evidence packages and clean rooms.',
  enabled: true,
  enabled_at: '2026-01-01T00:00:00.000Z',
  disabled_at: null,
  surfaces: [],
};
const SETTINGS = {
  api_token_approvals_required: 0,
  default_retention_days: null,
  allowed_countries: ['US', 'DE'],
  dsar_due_days: 30,
  clean_room_min_cohort: 10,
  clean_room_epsilon_budget: 10,
  clean_room_require_noise: false,
  default_meeting_template: 'flw_dev_a_rather_long_flow_identifier_that_must_wrap_0123456789',
  updated_at: '2026-02-01T00:00:00.000Z',
  updated_by: 'account_user:usr_a_rather_long_account_user_identifier_0123456789',
};
const CHANGE = {
  id: 'gch_1',
  type: 'governance.updated',
  changes: { allowed_countries: { from: null, to: ['US', 'DE'] } },
  actor: { kind: 'account_user', id: 'usr_a_rather_long_account_user_identifier_0123456789' },
  created_at: '2026-02-01T00:00:00.000Z',
};

describe('<svc-governance> with a fetch double', () => {
  afterEach(() => fixtureCleanup());

  it('shows the error state with a retry after a 500, and fires svc-error', async () => {
    const errors = listen<GovernanceErrorDetail>('svc-error');
    let calls = 0;
    const fetch = (async () => {
      calls += 1;
      return calls === 1
        ? json({ message: 'Internal server error.', code: 'internal_error' }, 500)
        : json({ modules: [], next_cursor: null });
    }) as typeof globalThis.fetch;
    const el = await mount('modules', 'tok', 'https://svc.example', { fetch });
    errors.stop();
    expect(el.status).to.equal('error');
    expect(errors.seen.map((e) => [e.code, e.message])).to.deep.equal([['http', 'Internal server error.']]);
    inner(el, '[part=retry]')!.click();
    await waitUntil(() => el.status === 'empty', 'the retry did not read again');
    expect(text(inner(el, '[part=base]'))).to.contain('This account has no modules.');
  });

  it('asks again after a 429 with a short Retry-After', async () => {
    let calls = 0;
    const fetch = (async () => {
      calls += 1;
      if (calls === 1) return json({ message: 'Slow down.', code: 'rate_limited' }, 429, { 'retry-after': '0' });
      return json({ modules: [MODULE], next_cursor: null });
    }) as typeof globalThis.fetch;
    const el = await mount('modules', 'tok', 'https://svc.example', { fetch });
    expect(el.status).to.equal('ready');
    expect(calls).to.equal(2);
    expect(text(inner(el, '[part=heading]'))).to.equal('Comply');
  });

  it('fits 375 px with the settings form open, right to left too', async () => {
    const fetch = (async (input: RequestInfo | URL) => {
      const path = new URL(String(input)).pathname;
      if (path.endsWith('/governance')) return json({ governance: SETTINGS });
      return json({ governance_changes: [CHANGE], next_cursor: null });
    }) as typeof globalThis.fetch;
    for (const dir of ['ltr', 'rtl']) {
      const box = await fixture<HTMLDivElement>(html`<div dir=${dir} style="inline-size: 375px"></div>`);
      const el = document.createElement('svc-governance');
      Object.assign(el, { trustUrl: 'https://svc.example', accessToken: 'tok', fetch });
      box.append(el);
      await waitUntil(() => el.status === 'ready' && el.governance, 'the settings did not load');
      inner(el, '[part=edit]')!.click();
      await el.updateComplete;
      expect(inner(el, '[part=form]')).to.not.equal(null);
      expect(outside(el, box), dir).to.deep.equal([]);
      await expect(el).to.be.accessible();
      fixtureCleanup();
    }
  });

  it('fits 375 px in the audit view, with a long application name and a verdict', async () => {
    const app = { id: 'tp_dev_a_rather_long_application_identifier', name: 'The organisation’s rather long application name' };
    const fetch = (async (input: RequestInfo | URL) => {
      const path = new URL(String(input)).pathname;
      if (path.endsWith('/applications')) return json({ applications: [app], next_cursor: null });
      return json({ [path.endsWith('/anchors') ? 'anchors' : 'audit_events']: [], next_cursor: null });
    }) as typeof globalThis.fetch;
    const box = await fixture<HTMLDivElement>(html`<div style="inline-size: 375px"></div>`);
    const el = document.createElement('svc-governance');
    Object.assign(el, { view: 'audit', trustUrl: 'https://svc.example', accessToken: 'tok', fetch });
    box.append(el);
    await waitUntil(() => el.status === 'empty' && inner(el, 'select'), 'the audit view did not load');
    inner(el, '[part=verify]')!.click();
    await waitUntil(() => el.verification, 'Verify said nothing');
    await el.updateComplete;
    expect(text(inner(el, '[part~=verdict]'))).to.equal('There are no events to verify yet.');
    expect(outside(el, box)).to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it('signs out when the token is refused', async () => {
    const fetch = (async () => json({ message: 'The bearer token is not valid.', code: 'unauthorized' }, 401)) as typeof globalThis.fetch;
    const el = await mount('governance', 'tok', 'https://svc.example', { fetch });
    expect(el.status).to.equal('signed-out');
    expect(text(inner(el, '[part=base]'))).to.contain('Sign in to the console');
  });

  it('says plainly when the trail cannot be read to verify it', async () => {
    let reads = 0;
    const fetch = (async (input: RequestInfo | URL) => {
      const path = new URL(String(input)).pathname;
      if (path.endsWith('/applications')) return json({ applications: [{ id: 'tp_dev_a', name: 'Shop' }], next_cursor: null });
      reads += 1;
      return reads === 1 ? json({ audit_events: [], next_cursor: null }) : json({ message: 'Slow down.', code: 'rate_limited' }, 503);
    }) as typeof globalThis.fetch;
    const el = await mount('audit', 'tok', 'https://svc.example', { fetch });
    const errors = listen<GovernanceErrorDetail>('svc-error');
    expect(el.status).to.equal('empty');
    expect(text(inner(el, 'select option'))).to.equal('Shop (tp_dev_a)');
    inner(el, '[part=verify]')!.click();
    await waitUntil(() => said(el).startsWith('The chain could not be read'), said(el));
    errors.stop();
    expect(said(el)).to.equal('The chain could not be read to verify it: Slow down.');
    expect(errors.seen.map((e) => [e.code, e.message])).to.deep.equal([['http', 'Slow down.']]);
    expect(el.verification).to.equal(undefined);
  });
});
