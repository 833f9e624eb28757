// <svc-agents> in every engine. First against the reference server (test/agents-server.ts: the organisation's admin
// and viewer API tokens, an agent with a pinned manifest, a person's grant to it, an approved and a pending
// escalation of it): suspending and resuming the agent, revoking the grant after confirming, the escalations with
// their outcomes in the list and the chart's table, and a viewer: no controls with `readonly`, refused without.
// Then with a fetch double for what a real service will not do on cue (a failure, a 429, a 409, old escalations).
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { SvcAgents } from './agents.js';
import type { AgentRow, AgentsErrorDetail, EscalationRow, SvcAgentsChangeDetail } from './events.js';

interface Case {
  base_url: string;
  admin_token: string;
  viewer_token: string;
  principal: string;
  agent: string;
  agent_name: string;
  grant: string;
  approved: string;
  pending: string;
}

/** A new case at the reference server (asked again while it starts), with `escalations` more pending ones. */
async function newCase(escalations = 0): Promise<Case> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    let answer: Case | { starting: true };
    try {
      answer = await executeServerCommand<Case | { starting: true }, { origin: string; escalations: number }>('svc-agents-person', {
        origin: location.origin,
        escalations,
      });
    } catch {
      continue; // the command outlived its 20 s while the server started: that case goes to no one, ask for the next
    }
    if (!('starting' in answer)) return answer;
  }
  throw new Error('the agents server did not start');
}

const inner = <T extends HTMLElement = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const all = (el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(selector)];
const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const focused = (el: SvcAgents) => el.shadowRoot!.activeElement as HTMLElement | null;
const row = (el: SvcAgents, id: string) => inner(el, `[data-key="row ${id}"]`);
const today = () => new Date().toISOString().slice(0, 10);

/** Collects the events of `type` on the document until `stop()`. */
function listen<T>(type: string) {
  const seen: T[] = [];
  const listener = (event: Event) => seen.push((event as CustomEvent<T>).detail);
  document.addEventListener(type, listener);
  return { seen, stop: () => document.removeEventListener(type, listener) };
}

async function shown(view: string, one: Case, token: string, readonly = false): Promise<SvcAgents> {
  const el = await fixture<SvcAgents>(
    html`<svc-agents view=${view} limit=100 ?readonly=${readonly} trust-url=${one.base_url} .accessToken=${token}></svc-agents>`,
  );
  await waitUntil(() => el.status !== 'loading' && el.status !== 'idle', `the ${view} did not load`, { timeout: 10_000 });
  expect(el.status, text(inner(el, '[part=status]'))).to.equal('ready');
  return el;
}

/** The chart table's row for `day`: its cells by column heading. */
function tableRow(el: SvcAgents, day: string): Record<string, string> {
  const heads = all(el, '[part=chart-table] thead th').map(text);
  const tr = all(el, '[part=chart-table] tbody tr').find((r) => text(r.querySelector('th')) === day);
  const cells = tr ? [...tr.children].map(text) : [];
  return Object.fromEntries(heads.map((h, i) => [h, cells[i] ?? '']));
}

describe('<svc-agents> against the reference server', function () {
  this.timeout(60_000); // the first test waits for the reference server to start
  afterEach(() => fixtureCleanup());

  it('shows an agent with its manifest and trust score; suspends it and resumes it', async () => {
    const one = await newCase();
    const el = await shown('agent_identities', one, one.admin_token);
    await waitUntil(() => row(el, one.agent)?.querySelector('[part=trust-score]'), 'no trust score', { timeout: 10_000 });
    const agent = row(el, one.agent)!;
    expect(text(agent.querySelector('.name'))).to.equal(one.agent_name);
    expect(text(agent.querySelector('[part=badge]'))).to.equal('Active');
    expect(text(agent.querySelector('[part=trust-score]'))).to.match(/^Trust score \d+ of 100$/);
    expect(text(agent.querySelector('[part=manifests] li'))).to.match(/^Version 1: payments:write \(pinned .+\)$/);
    await expect(el).to.be.accessible();

    const changes = listen<SvcAgentsChangeDetail>('svc-agents-change');
    agent.querySelector<HTMLElement>('[part=suspend]')!.click();
    await waitUntil(() => changes.seen.length === 1, 'no svc-agents-change', { timeout: 10_000 });
    expect(changes.seen[0]).to.deep.equal({ kind: 'agent_identity', id: one.agent, action: 'suspend', status: 'suspended' });
    await el.updateComplete;
    expect(text(row(el, one.agent)!.querySelector('[part=badge]'))).to.equal('Suspended');
    expect(text(inner(el, '[part=status]'))).to.equal(`${one.agent_name} is now suspended.`);
    expect(focused(el)?.dataset.key).to.equal(`resume ${one.agent}`);

    focused(el)!.click();
    await waitUntil(() => changes.seen.length === 2, 'no second svc-agents-change', { timeout: 10_000 });
    changes.stop();
    expect(changes.seen[1]).to.deep.equal({ kind: 'agent_identity', id: one.agent, action: 'resume', status: 'active' });
    await el.refresh();
    expect(el.agents.find((a) => a.id === one.agent)?.status).to.equal('active');
  });

  it('revokes a grant after the confirm step, and it shows revoked', async () => {
    const one = await newCase();
    const el = await shown('application_agents', one, one.admin_token);
    await waitUntil(() => text(row(el, one.grant)?.querySelector('.name')).startsWith(one.agent_name), 'the agent was not named', {
      timeout: 10_000,
    });
    const grant = row(el, one.grant)!;
    expect(text(grant.querySelector('[part=meta]'))).to.contain(`for ${one.principal}`);
    expect(text(grant.querySelector('[part=scopes]'))).to.equal('Scopes: payments:write');
    expect([...grant.querySelectorAll('[part=bounds] li')].map(text)).to.include('Up to 100.00 EUR per action');
    expect(grant.querySelector('[part=suspend]')).to.equal(null); // suspending a grant is the person's own

    grant.querySelector<HTMLElement>('[part=revoke]')!.click();
    await el.updateComplete;
    expect(focused(el)?.getAttribute('part')).to.equal('confirm');
    await expect(el).to.be.accessible();
    const changes = listen<SvcAgentsChangeDetail>('svc-agents-change');
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => changes.seen.length === 1, 'no svc-agents-change', { timeout: 10_000 });
    changes.stop();
    expect(changes.seen[0]).to.deep.equal({ kind: 'delegation_grant', id: one.grant, action: 'revoke', status: 'revoked' });
    await el.updateComplete;
    expect(text(row(el, one.grant)!.querySelector('[part=badge]'))).to.equal('Revoked');
    expect(row(el, one.grant)!.querySelector('[part=revoke]')).to.equal(null);
    await el.refresh();
    expect(el.grants.find((g) => g.id === one.grant)?.status).to.equal('revoked');
  });

  it("shows the agent's escalations with their outcomes, counted in the chart's table", async () => {
    const one = await newCase();
    const el = await shown('authorities', one, one.admin_token);
    await waitUntil(() => text(row(el, one.approved)?.querySelector('.name')).startsWith(one.agent_name), 'the agent was not named', {
      timeout: 10_000,
    });
    expect(text(row(el, one.approved)!.querySelector('.name'))).to.equal(`${one.agent_name}: Pay the hotel`);
    expect(text(row(el, one.approved)!.querySelector('[part=badge]'))).to.equal('Approved');
    expect(text(row(el, one.approved)!.querySelector('[part=meta]'))).to.match(
      /^change in payments:write, 240\.00 EUR · beyond its value bound · asked .+ · decided .+$/,
    );
    expect(text(row(el, one.pending)!.querySelector('[part=badge]'))).to.equal('Pending');
    expect(all(el, 'button').length).to.equal(0);

    expect(text(inner(el, '[part=chart-table] caption'))).to.equal('Escalations per day by outcome, last 14 days');
    expect(all(el, '[part=chart-table] tbody tr').length).to.equal(14);
    const counted = tableRow(el, today());
    const mine = el.escalations.filter((e) => e.created_at.startsWith(today()));
    expect(Number(counted.Approved))
      .to.equal(mine.filter((e) => e.status === 'approved').length)
      .and.to.be.at.least(1);
    expect(Number(counted.Pending))
      .to.equal(mine.filter((e) => e.status === 'pending').length)
      .and.to.be.at.least(1);
    expect(inner(el, '[part=chart]')!.getAttribute('aria-hidden')).to.equal('true');
    await expect(el).to.be.accessible();
  });

  it("counts every escalation of today in the chart's table, beyond the list's first page of 100 (answered oldest first)", async () => {
    const one = await newCase(103);
    /** Today's escalations of the account (every case's), read page by page as the API answers them. */
    const todays = async () => {
      let count = 0;
      let cursor = '';
      for (let page = 0; page < 50; page += 1) {
        const url = `${one.base_url}/api/v1/oap/escalations?limit=100${cursor ? `&cursor=${cursor}` : ''}`;
        const body = await (await fetch(url, { headers: { authorization: `Bearer ${one.admin_token}` } })).json();
        count += (body.escalations as EscalationRow[]).filter((e) => e.created_at.startsWith(today())).length;
        if (!body.next_cursor) break;
        cursor = body.next_cursor;
      }
      return count;
    };
    const before = await todays();
    const el = await shown('authorities', one, one.admin_token);
    expect(el.escalations).to.have.length(100);
    expect(inner(el, '[part=more]')).not.to.equal(null);
    const counted = () =>
      Object.entries(tableRow(el, today()))
        .filter(([head]) => head !== 'Day')
        .reduce((sum, [, cell]) => sum + Number(cell), 0);
    await waitUntil(() => counted() >= before, `today's row counts ${counted()}, not ${before}`, { timeout: 10_000 });
    // Other engines may add cases meanwhile: never more than the service has by now.
    expect(counted()).to.be.at.most(await todays());
    expect(Number(tableRow(el, today()).Pending)).to.be.at.least(104);
    // Showing more of the list reads its next page and leaves the chart's count as it is.
    const shownBefore = counted();
    inner(el, '[part=more]')!.click();
    await waitUntil(() => el.escalations.length > 100, 'the next page did not come');
    await el.updateComplete;
    expect(counted()).to.equal(shownBefore);
  });

  it('a viewer sees no controls with readonly, and without it is refused in the service’s words', async () => {
    const one = await newCase();
    for (const view of ['agent_identities', 'application_agents']) {
      const el = await shown(view, one, one.viewer_token, true);
      expect(all(el, 'button').length, view).to.equal(0);
      fixtureCleanup();
    }

    const el = await shown('agent_identities', one, one.viewer_token);
    const errors = listen<AgentsErrorDetail>('svc-error');
    row(el, one.agent)!.querySelector<HTMLElement>('[part=suspend]')!.click();
    await waitUntil(() => errors.seen.length === 1, 'no svc-error', { timeout: 10_000 });
    errors.stop();
    expect(errors.seen[0]).to.include({ code: 'forbidden', fatal: true });
    await el.updateComplete;
    expect(text(inner(el, '[part=status]'))).to.equal(
      'Nothing was changed. The service said: This API token lacks the "write" permission.',
    );
    expect(text(row(el, one.agent)!.querySelector('[part=badge]'))).to.equal('Active');
    expect(focused(el)?.dataset.key).to.equal(`suspend ${one.agent}`);
  });
});

// ---- A fetch double: the shapes of @svc/schemas, for what the real service will not do on cue.

const TRUST = 'https://trust.svc.example';
const iso = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const agentRow = (id: string, extra: Partial<AgentRow> = {}): AgentRow => ({
  id,
  display_name: 'Travel agent',
  agent_type: 'autonomous',
  status: 'active',
  delegation_grant_id: null,
  oauth_application_id: null,
  metadata: {},
  created_at: iso(-3),
  updated_at: iso(-3),
  suspended_at: null,
  revoked_at: null,
  ...extra,
});
const escalation = (id: string, status: EscalationRow['status'], days: number): EscalationRow => ({
  id,
  status,
  trigger: 'value',
  delegation_grant_id: 'dlg_us_one',
  agent_identity_id: 'agt_us_one',
  principal_id: 'prs_us_ada',
  application_id: 'tp_dev_one',
  action: { scope: 'payments:write', action: 'write', value: 240, currency: 'EUR', jurisdiction: null, description: 'Pay' },
  reason: 'Beyond the value bound.',
  counter_proposal: null,
  authorization_record_id: null,
  created_at: iso(days),
  expires_at: iso(days + 1),
  decided_at: null,
  used_at: null,
});

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A fetch that answers by path: `answers[path]` in turn (the last repeats), recording the paths asked. */
function api(answers: Record<string, Response[]>) {
  const asked: string[] = [];
  const seen = new Map<string, number>();
  const fetch = async (input: RequestInfo | URL) => {
    const url = new URL(String(input));
    asked.push(url.pathname);
    const list = answers[url.pathname] ?? [json({ message: 'No such thing.', code: 'not_found' }, 404)];
    const n = seen.get(url.pathname) ?? 0;
    seen.set(url.pathname, n + 1);
    return list[Math.min(n, list.length - 1)]!.clone();
  };
  return { fetch: fetch as typeof globalThis.fetch, asked };
}

describe('<svc-agents>', () => {
  afterEach(() => fixtureCleanup());

  const mount = (view: string, fetch: typeof globalThis.fetch) =>
    fixture<SvcAgents>(html`<svc-agents view=${view} trust-url=${TRUST} .accessToken=${'tok'} .fetch=${fetch}></svc-agents>`);

  it('says the service failed, with a retry, and reads again after a 429 with a short Retry-After', async () => {
    const { fetch } = api({
      '/api/v1/agent_identities': [
        json({ message: 'Internal server error.', code: 'internal_error' }, 500),
        json({ message: 'Slow down.', code: 'rate_limited' }, 429, { 'retry-after': '0' }),
        json({ agent_identities: [agentRow('agt_us_one')], next_cursor: null }),
      ],
    });
    const errors = listen<AgentsErrorDetail>('svc-error');
    const el = await mount('agent_identities', fetch);
    await waitUntil(() => el.status === 'error', 'no error state');
    errors.stop();
    expect(errors.seen[0]).to.include({ code: 'http', recoverable_via: 'retry' });
    inner(el, '[part=retry]')!.click();
    await waitUntil(() => el.status === 'ready', 'the retry did not read again');
    expect(el.agents.map((a) => a.id)).to.deep.equal(['agt_us_one']);
    await waitUntil(() => inner(el, '[part=trust-score]'), 'the details were not read');
    expect(text(inner(el, '[part=trust-score]'))).to.equal('Trust score not available.');
    expect(text(inner(el, '[part=manifests]'))).to.contain('No capability manifest pinned yet.');
  });

  it("says a 409 in the service's words, and the agent stays as it was", async () => {
    const { fetch } = api({
      '/api/v1/agent_identities': [json({ agent_identities: [agentRow('agt_us_one')], next_cursor: null })],
      '/api/v1/agent_identities/agt_us_one/suspend': [
        json({ message: 'Cannot suspend agent identity agt_us_one: it is revoked.', code: 'invalid_transition' }, 409),
      ],
    });
    const el = await mount('agent_identities', fetch);
    await waitUntil(() => el.status === 'ready', 'not ready');
    inner(el, '[part=suspend]')!.click();
    await waitUntil(() => text(inner(el, '[part=status]')).startsWith('Nothing was changed.'), 'the refusal was not said');
    expect(text(inner(el, '[part=status]'))).to.equal(
      'Nothing was changed. The service said: Cannot suspend agent identity agt_us_one: it is revoked.',
    );
    expect(el.agents[0]!.status).to.equal('active');
  });

  it('revoking an agent asks first; Escape cancels and focus goes back to Revoke', async () => {
    const { fetch, asked } = api({
      '/api/v1/agent_identities': [json({ agent_identities: [agentRow('agt_us_one')], next_cursor: null })],
    });
    const el = await mount('agent_identities', fetch);
    await waitUntil(() => el.status === 'ready', 'not ready');
    inner(el, '[part=revoke]')!.click();
    await el.updateComplete;
    expect(text(inner(el, '[part=confirm] p'))).to.match(/^Revoke Travel agent for good\?/);
    inner(el, '[part=confirm]')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await el.updateComplete;
    await el.updateComplete;
    expect(inner(el, '[part=confirm]')).to.equal(null);
    expect(focused(el)?.dataset.key).to.equal('revoke agt_us_one');
    expect(asked.some((path) => path.endsWith('/revoke'))).to.equal(false);
  });

  it('fits 375 px, right to left, in every view', async () => {
    const { fetch } = api({
      '/api/v1/agent_identities': [json({ agent_identities: [agentRow('agt_us_one_with_a_rather_long_identifier')], next_cursor: null })],
      '/api/v1/oap/escalations': [json({ escalations: [escalation('esc_a', 'approved', 0)], next_cursor: null })],
      '/api/v1/delegations': [json({ delegation_grants: [], next_cursor: null })],
    });
    for (const view of ['agent_identities', 'application_agents', 'authorities']) {
      const box = await fixture<HTMLDivElement>(
        html`<div dir=rtl style="inline-size: 375px"><svc-agents view=${view} trust-url=${TRUST} .accessToken=${'tok'} .fetch=${fetch}></svc-agents></div>`,
      );
      const el = box.querySelector<SvcAgents>('svc-agents')!;
      await waitUntil(() => el.status === 'ready' || el.status === 'empty', `${view} did not load`);
      await el.updateComplete;
      expect(el.scrollWidth, view).to.be.at.most(375);
      expect(box.scrollWidth, view).to.be.at.most(375);
      await expect(el).to.be.accessible();
      fixtureCleanup();
    }
  });

  it('counts the chart from its own read of the last 14 days, page by page, when the list has more than one page', async () => {
    const urls: URL[] = [];
    const pages = [
      json({ escalations: [escalation('esc_old', 'denied', -20)], next_cursor: 'list_2' }),
      json({ escalations: [escalation('esc_a', 'denied', -2)], next_cursor: 'days_2' }),
      json({ escalations: [escalation('esc_b', 'approved', 0), escalation('esc_c', 'pending', 0)], next_cursor: null }),
    ];
    const fetch = async (input: RequestInfo | URL) => {
      const url = new URL(String(input));
      if (url.pathname !== '/api/v1/oap/escalations') return json({ agent_identities: [], next_cursor: null });
      urls.push(url);
      return pages[Math.min(urls.length - 1, pages.length - 1)]!.clone();
    };
    const el = await mount('authorities', fetch as typeof globalThis.fetch);
    const totals = () => Object.fromEntries(el.chartData.series.map((s) => [s.label, s.values.reduce((a, b) => a + b, 0)]));
    await waitUntil(() => urls.length === 3 && totals().Approved === 1, 'the chart did not read its days');
    expect(totals()).to.deep.equal({ Approved: 1, Denied: 1, Countered: 0, Pending: 1, Expired: 0 });
    expect(el.escalations.map((e) => e.id)).to.deep.equal(['esc_old']);
    const firstDay = new Date(Date.parse(`${today()}T00:00:00Z`) - 13 * 86_400_000).toISOString();
    expect(urls.map((u) => [u.searchParams.get('created_since'), u.searchParams.get('cursor')])).to.deep.equal([
      [null, null],
      [firstDay, null],
      [firstDay, 'days_2'],
    ]);
    await el.updateComplete;
    expect(tableRow(el, today()).Pending).to.equal('1');
  });

  it('counts only the last 14 days in the chart table, per outcome', async () => {
    const { fetch } = api({
      '/api/v1/oap/escalations': [
        json({
          escalations: [
            escalation('esc_old', 'denied', -20),
            escalation('esc_a', 'denied', -2),
            escalation('esc_b', 'denied', -2),
            escalation('esc_c', 'expired', 0),
          ],
          next_cursor: null,
        }),
      ],
    });
    const el = await mount('authorities', fetch);
    await waitUntil(() => el.status === 'ready', 'not ready');
    const series = Object.fromEntries(el.chartData.series.map((s) => [s.label, s.values.reduce((a, b) => a + b, 0)]));
    expect(series).to.deep.equal({ Approved: 0, Denied: 2, Countered: 0, Pending: 0, Expired: 1 });
    expect(tableRow(el, iso(-2).slice(0, 10)).Denied).to.equal('2');
    expect(tableRow(el, today()).Expired).to.equal('1');
  });
});
