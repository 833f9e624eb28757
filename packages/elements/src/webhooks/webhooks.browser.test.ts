// <svc-webhooks> in every engine. First against the reference server (test/webhooks-server.ts: a development
// application whose one endpoint is a loopback port nothing listens on, with a delivery the worker failed five times
// on the test clock; an admin's and a viewer's API token, called through a pass-through that stands in for the
// console's own origin): the failed delivery under "Failed", Redeliver queues it again, rotating shows the new secret
// once, adding, disabling, enabling and deleting an endpoint, and a viewer who sees no controls and is refused when
// they try. Then with a fetch double for what a real service will not do on cue (errors, 429, the chart's days).
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { SvcWebhooksChangeDetail, WebhookDeliveryRow, WebhookEndpointRow, WebhooksErrorDetail } from './events.js';
import { SvcWebhooks } from './webhooks.js';

const TRUST = 'https://trust.svc.example';

interface Setting {
  base_url: string;
  admin_token: string;
  viewer_token: string;
  application_id: string;
  endpoint_id: string;
  delivery_id: string;
}

/** A new application with a failed delivery, and an admin's and a viewer's token (asked again while the server starts). */
async function setting(): Promise<Setting> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const answer = await executeServerCommand<Setting | { starting: true }, { origin: string }>('svc-webhooks-person', {
      origin: location.origin,
    });
    if (!('starting' in answer)) return answer;
  }
  throw new Error('the webhooks server did not start');
}

const inner = <T extends HTMLElement = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const all = (el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(selector)];
const text = (node: Element | null) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const focused = (el: SvcWebhooks) => el.shadowRoot!.activeElement as HTMLElement | null;
const said = (el: SvcWebhooks) => text(inner(el, '[part=status]'));

/** Collects the events of `type` on the document until `stop()`. */
function listen<T>(type: string) {
  const seen: T[] = [];
  const listener = (event: Event) => seen.push((event as CustomEvent<T>).detail);
  document.addEventListener(type, listener);
  return { seen, stop: () => document.removeEventListener(type, listener) };
}

/** Waits for the endpoints and each one's deliveries. */
async function shown(el: SvcWebhooks): Promise<SvcWebhooks> {
  await waitUntil(() => el.status !== 'loading' && el.status !== 'idle', 'the list did not load', { timeout: 10_000 });
  await waitUntil(() => !inner(el, '[part=deliveries][aria-busy=true]'), 'the deliveries did not load', { timeout: 10_000 });
  await el.updateComplete;
  return el;
}

/** Chooses `filter` in the endpoint's select and waits for its deliveries. */
async function filterBy(el: SvcWebhooks, endpoint: string, filter: string): Promise<void> {
  const select = inner<HTMLSelectElement>(el, `#filter-${endpoint}`)!;
  select.value = filter;
  select.dispatchEvent(new Event('change'));
  await el.updateComplete;
  await shown(el);
  expect(inner<HTMLSelectElement>(el, `#filter-${endpoint}`)!.value).to.equal(filter);
}

describe('<svc-webhooks> against the reference server', function () {
  this.timeout(60_000); // the first test waits for the reference server to start
  afterEach(() => fixtureCleanup());

  it('shows the failed delivery under "Failed"; Redeliver queues it again and says so', async () => {
    const s = await setting();
    const el = await shown(
      await fixture<SvcWebhooks>(
        html`<svc-webhooks trust-url=${s.base_url} application=${s.application_id} .accessToken=${s.admin_token}></svc-webhooks>`,
      ),
    );
    expect(el.status, said(el)).to.equal('ready');
    expect(el.endpoints.map((e) => e.id)).to.deep.equal([s.endpoint_id]);
    const row = inner(el, `[data-key="row ${s.endpoint_id}"]`)!;
    expect(text(row.querySelector('[part=meta]'))).to.equal('Enabled · consent.granted · One failure in a row');
    expect(text(inner(el, '[part=chart-table] caption'))).to.equal('Deliveries per day, last 14 days');
    expect(all(el, '[part=chart-table] tbody tr').length).to.equal(14);
    await expect(el).to.be.accessible();

    await filterBy(el, s.endpoint_id, 'failed');
    expect(el.deliveriesOf(s.endpoint_id).map((d) => d.id)).to.deep.equal([s.delivery_id]);
    const delivery = inner(el, `[data-key="delivery ${s.delivery_id}"]`)!;
    expect(text(delivery)).to.contain('consent.granted · Failed');
    expect(text(delivery)).to.contain('5 attempts · no status code');
    expect(text(delivery.querySelector('[part=delivery-error]'))).to.match(/^Last error: /);

    const changes = listen<SvcWebhooksChangeDetail>('svc-webhooks-change');
    const redeliver = delivery.querySelector<HTMLButtonElement>('[part=redeliver]')!;
    expect(redeliver.getAttribute('aria-label')).to.equal('Redeliver consent.granted');
    redeliver.click();
    await waitUntil(() => changes.seen.length === 1, 'no svc-webhooks-change', { timeout: 10_000 });
    changes.stop();
    expect(changes.seen[0]).to.deep.equal({
      application_id: s.application_id,
      action: 'redeliver',
      webhook_endpoint_id: s.endpoint_id,
      delivery_id: s.delivery_id,
      status: 'pending',
    });
    await el.updateComplete;
    expect(said(el)).to.equal('Queued again: consent.granted will be sent now.');
    const queued = inner(el, `[data-key="delivery ${s.delivery_id}"]`)!;
    expect(text(queued)).to.contain('consent.granted · Pending');
    expect(queued.querySelector('[part=redeliver]')).to.equal(null);
    expect(focused(el)).to.equal(queued);

    await filterBy(el, s.endpoint_id, 'pending');
    expect(el.deliveriesOf(s.endpoint_id).map((d) => [d.id, d.status])).to.deep.equal([[s.delivery_id, 'pending']]);
  });

  it('rotates the signing secret after confirming: shown once with a copy button, gone after dismiss and from the events', async () => {
    const s = await setting();
    const el = await shown(
      await fixture<SvcWebhooks>(
        html`<svc-webhooks trust-url=${s.base_url} application=${s.application_id} .accessToken=${s.admin_token}></svc-webhooks>`,
      ),
    );
    const changes = listen<SvcWebhooksChangeDetail>('svc-webhooks-change');
    inner(el, `[data-key="rotate ${s.endpoint_id}"]`)!.click();
    await el.updateComplete;
    expect(focused(el)?.getAttribute('part')).to.equal('confirm');
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => changes.seen.length === 1, 'no svc-webhooks-change', { timeout: 10_000 });
    changes.stop();
    await el.updateComplete;
    const secret = text(inner(el, '[part=secret-value]'));
    expect(secret).to.match(/^whsec_/);
    expect(text(inner(el, '[part=secret]'))).to.contain('you will not see it again');
    expect(inner(el, '[part=copy]')).to.not.equal(null);
    expect(focused(el)?.getAttribute('part')).to.equal('secret');
    expect(JSON.stringify(changes.seen)).not.to.contain(secret);
    expect(el.outerHTML).not.to.contain(secret);
    expect(JSON.stringify(el.endpoints)).not.to.contain(secret);
    await expect(el).to.be.accessible();

    inner(el, '[part=dismiss]')!.click();
    await el.updateComplete;
    expect(inner(el, '[part=secret]')).to.equal(null);
    expect(el.shadowRoot!.innerHTML).not.to.contain(secret);
    expect(said(el)).to.equal('The signing secret is no longer shown.');
    expect(focused(el)?.dataset.key).to.equal(`row ${s.endpoint_id}`);
  });

  it('adds an endpoint (its secret shown once), disables it after confirming, enables it, deletes it after confirming', async () => {
    const s = await setting();
    const el = await shown(
      await fixture<SvcWebhooks>(
        html`<svc-webhooks trust-url=${s.base_url} application=${s.application_id} .accessToken=${s.admin_token}></svc-webhooks>`,
      ),
    );
    const changes = listen<SvcWebhooksChangeDetail>('svc-webhooks-change');
    inner(el, '[part=new]')!.click();
    await el.updateComplete;
    expect(focused(el)?.id).to.equal('webhook-url');
    inner<HTMLInputElement>(el, '#webhook-url')!.value = 'ftp://example.com/hook';
    inner(el, '[part=submit]')!.click();
    await waitUntil(() => inner(el, '[part=field-error]'), 'the refusal was not said at the field', { timeout: 10_000 });
    expect(inner(el, '#webhook-url')!.getAttribute('aria-invalid')).to.equal('true');
    expect(focused(el)?.id).to.equal('webhook-url');

    inner<HTMLInputElement>(el, '#webhook-url')!.value = 'http://127.0.0.1:9/second';
    inner<HTMLInputElement>(el, '#webhook-events')!.value = 'consent.granted, consent.revoked';
    inner(el, '[part=submit]')!.click();
    await waitUntil(() => changes.seen.length === 1, 'no create', { timeout: 10_000 });
    const id = changes.seen[0]!.webhook_endpoint_id;
    expect(changes.seen[0]).to.deep.equal({
      application_id: s.application_id,
      action: 'create',
      webhook_endpoint_id: id,
      status: 'enabled',
    });
    await el.updateComplete;
    expect(text(inner(el, '[part=secret-value]'))).to.match(/^whsec_/);
    expect(text(inner(el, `[data-key="row ${id}"] [part=meta]`))).to.equal(
      'Enabled · consent.granted, consent.revoked · 0 failures in a row',
    );

    inner(el, `[data-key="disable ${id}"]`)!.click();
    await el.updateComplete;
    expect(text(inner(el, '[part=confirm] p'))).to.equal('Disable 127.0.0.1:9/second? Its deliveries wait until it is enabled again.');
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => changes.seen.length === 2, 'no disable', { timeout: 10_000 });
    expect(changes.seen[1]!.status).to.equal('disabled');
    await el.updateComplete;
    expect(text(inner(el, `[data-key="row ${id}"] [part=meta]`))).to.match(/^Disabled by hand · /);
    expect(focused(el)?.dataset.key).to.equal(`enable ${id}`);

    inner(el, `[data-key="enable ${id}"]`)!.click();
    await waitUntil(() => changes.seen.length === 3, 'no enable', { timeout: 10_000 });
    expect(changes.seen[2]!.status).to.equal('enabled');

    await el.updateComplete;
    inner(el, `[data-key="delete ${id}"]`)!.click();
    await el.updateComplete;
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => changes.seen.length === 4, 'no delete', { timeout: 10_000 });
    changes.stop();
    expect(changes.seen[3]).to.deep.equal({
      application_id: s.application_id,
      action: 'delete',
      webhook_endpoint_id: id,
      status: 'deleted',
    });
    await el.updateComplete;
    expect(el.endpoints.map((e) => e.id)).to.deep.equal([s.endpoint_id]);
    expect(inner(el, '[part=secret]')).to.equal(null);
  });

  it("shows a viewer no controls at all; a viewer's change is refused with the service's message", async () => {
    const s = await setting();
    const readonly = await shown(
      await fixture<SvcWebhooks>(
        html`<svc-webhooks readonly trust-url=${s.base_url} application=${s.application_id} .accessToken=${s.viewer_token}></svc-webhooks>`,
      ),
    );
    expect(readonly.status).to.equal('ready');
    await filterBy(readonly, s.endpoint_id, 'failed');
    expect(all(readonly, 'button').map((b) => b.getAttribute('part'))).to.deep.equal([]);
    expect(all(readonly, 'select').length).to.equal(1, 'the filter stays');
    await expect(readonly).to.be.accessible();
    fixtureCleanup();

    const el = await shown(
      await fixture<SvcWebhooks>(
        html`<svc-webhooks trust-url=${s.base_url} application=${s.application_id} .accessToken=${s.viewer_token}></svc-webhooks>`,
      ),
    );
    const errors = listen<WebhooksErrorDetail>('svc-error');
    inner(el, `[data-key="test ${s.endpoint_id}"]`)!.click();
    await waitUntil(() => errors.seen.length === 1, 'no svc-error', { timeout: 10_000 });
    errors.stop();
    expect(errors.seen[0]!.code).to.equal('forbidden');
    await el.updateComplete;
    expect(said(el)).to.equal('Nothing was changed: This API token lacks the "write" permission.');
    expect(focused(el)?.dataset.key).to.equal(`test ${s.endpoint_id}`);
  });
});

// With a fetch double.

interface Call {
  url: URL;
  method: string;
  body: unknown;
}

/** A fetch that answers by path: `route(call)` gives the response (recording every call). */
function api(route: (call: Call) => Response) {
  const calls: Call[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call: Call = {
      url: new URL(String(input)),
      method: init.method ?? 'GET',
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    return route(call);
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const endpoint = (id: string, extra: Partial<WebhookEndpointRow> = {}): WebhookEndpointRow => ({
  id,
  application_id: 'tp_dev_shop',
  url: `https://hooks.example/${id}`,
  description: null,
  events: ['*'],
  status: 'enabled',
  consecutive_failures: 0,
  disabled_reason: null,
  disabled_at: null,
  secret_rotated_at: null,
  previous_secret_expires_at: null,
  created_at: '2026-03-01T10:00:00.000Z',
  updated_at: '2026-03-01T10:00:00.000Z',
  ...extra,
});
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const delivery = (id: string, status: WebhookDeliveryRow['status'], created_at: string): WebhookDeliveryRow => ({
  id,
  webhook_endpoint_id: 'we_a',
  event_id: `evt_${id}`,
  event_type: 'consent.granted',
  test: false,
  status,
  failure_reason: status === 'failed' ? 'attempts_exhausted' : null,
  attempt_count: 1,
  next_attempt_at: null,
  created_at,
  completed_at: created_at,
  attempts: [],
});

describe('<svc-webhooks>', () => {
  afterEach(() => fixtureCleanup());

  it('lists the applications in a labelled select without `application`, shows the first, and switches', async () => {
    const { fetch, calls } = api((call) => {
      const path = call.url.pathname;
      if (path === '/api/v1/applications')
        return json({
          applications: [
            { id: 'tp_dev_a', name: 'Shop', environment: 'development' },
            { id: 'tp_dev_b', name: 'Club', environment: 'development' },
          ],
          next_cursor: null,
        });
      if (path.endsWith('/webhook_endpoints'))
        return json({ webhook_endpoints: [endpoint(path.includes('tp_dev_a') ? 'we_a' : 'we_b')], next_cursor: null });
      return json({ deliveries: [], next_cursor: null });
    });
    const el = await fixture<SvcWebhooks>(html`<svc-webhooks trust-url=${TRUST} .accessToken=${'tok'} .fetch=${fetch}></svc-webhooks>`);
    await waitUntil(() => el.endpoints.length === 1, 'the endpoints did not load');
    expect(el.endpoints[0]!.id).to.equal('we_a');
    const select = inner<HTMLSelectElement>(el, '[part=application-select]')!;
    expect(text(el.shadowRoot!.querySelector(`label[for=${select.id}]`))).to.equal('Application');
    expect([...select.options].map((o) => o.textContent)).to.deep.equal(['Shop', 'Club']);
    select.value = 'tp_dev_b';
    select.dispatchEvent(new Event('change'));
    await waitUntil(() => el.endpoints[0]?.id === 'we_b', 'the second application was not shown');
    expect(calls.filter((c) => c.url.pathname === '/api/v1/applications').length).to.equal(1);
    await expect(el).to.be.accessible();
  });

  it('counts deliveries succeeded and failed per day over the last 14 days, in a table always shown', async () => {
    const { fetch } = api((call) =>
      call.url.pathname.endsWith('/webhook_endpoints')
        ? json({ webhook_endpoints: [endpoint('we_a')], next_cursor: null })
        : json({
            deliveries: [
              delivery('d1', 'acknowledged', daysAgo(0)),
              delivery('d2', 'acknowledged', daysAgo(0)),
              delivery('d3', 'failed', daysAgo(1)),
              delivery('d4', 'pending', daysAgo(0)),
              delivery('d5', 'failed', daysAgo(30)),
            ],
            next_cursor: null,
          }),
    );
    const el = await fixture<SvcWebhooks>(
      html`<svc-webhooks trust-url=${TRUST} application=tp_dev_shop .accessToken=${'tok'} .fetch=${fetch}></svc-webhooks>`,
    );
    await waitUntil(() => el.deliveriesOf('we_a').length === 5, 'the deliveries did not load');
    await el.updateComplete;
    const rows = all(el, '[part=chart-table] tbody tr').map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.textContent)));
    expect(rows.length).to.equal(14);
    expect(rows.at(-1)).to.deep.equal([2, 0]);
    expect(rows.at(-2)).to.deep.equal([0, 1]);
    expect(
      rows
        .slice(0, -2)
        .flat()
        .every((n) => n === 0),
    ).to.equal(true);
    expect(inner(el, '[part=chart]')!.getAttribute('aria-hidden')).to.equal('true');
    expect(inner(el, '[data-key="redeliver d3"]')).to.not.equal(null);
    expect(inner(el, '[data-key="redeliver d1"]')).to.equal(null);
  });

  it('counts every delivery of the 14 days beyond the first 100, reading older pages only while they reach into the days', async () => {
    // Newest first, as the service answers: 100 today, then 100 three days ago, then 100 older than the chart, then more.
    const page = (n: number, prefix: string, at: string, next: string | null) =>
      json({ deliveries: Array.from({ length: n }, (_, i) => delivery(`${prefix}${i}`, 'acknowledged', at)), next_cursor: next });
    const { fetch, calls } = api((call) => {
      if (call.url.pathname.endsWith('/webhook_endpoints')) return json({ webhook_endpoints: [endpoint('we_a')], next_cursor: null });
      const cursor = call.url.searchParams.get('cursor');
      if (cursor === null) return page(100, 'today', daysAgo(0), 'c2');
      if (cursor === 'c2') return page(100, 'three', daysAgo(3), 'c3');
      if (cursor === 'c3') return page(100, 'old', daysAgo(20), 'c4');
      return page(100, 'older', daysAgo(40), null);
    });
    const el = await fixture<SvcWebhooks>(
      html`<svc-webhooks trust-url=${TRUST} application=tp_dev_shop .accessToken=${'tok'} .fetch=${fetch}></svc-webhooks>`,
    );
    await waitUntil(() => el.deliveriesOf('we_a').length === 100, 'the deliveries did not load');
    await el.updateComplete;
    const rows = all(el, '[part=chart-table] tbody tr').map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.textContent)));
    expect(rows.at(-1)).to.deep.equal([100, 0]);
    expect(rows.at(-4)).to.deep.equal([100, 0]);
    expect(rows.flat().reduce((a, b) => a + b, 0)).to.equal(200);
    // The list shows the first page; the page older than the chart's days was the last one read.
    expect(el.deliveriesOf('we_a')[0]!.id).to.equal('today0');
    const cursors = calls.filter((c) => c.url.pathname.endsWith('/deliveries')).map((c) => c.url.searchParams.get('cursor'));
    expect(cursors).to.deep.equal([null, 'c2', 'c3']);
  });

  it('fits 375 px, left to right and right to left, with a long URL, the chart table and a delivery error', async () => {
    const long = endpoint('we_a', { url: `https://hooks.example/${'very-long-path-segment/'.repeat(8)}` });
    const { fetch } = api((call) =>
      call.url.pathname.endsWith('/webhook_endpoints')
        ? json({ webhook_endpoints: [long], next_cursor: null })
        : json({ deliveries: [delivery('d3', 'failed', daysAgo(0))], next_cursor: null }),
    );
    for (const dir of ['ltr', 'rtl']) {
      const wrapper = await fixture<HTMLDivElement>(
        html`<div dir=${dir} style="inline-size: 375px"><svc-webhooks trust-url=${TRUST} application=tp_dev_shop .accessToken=${'tok'} .fetch=${fetch}></svc-webhooks></div>`,
      );
      const el = wrapper.querySelector('svc-webhooks')!;
      await waitUntil(() => inner(el, '[data-key="redeliver d3"]'), 'the deliveries did not load');
      await el.updateComplete;
      const base = inner(el, '[part=base]')!;
      expect(base.scrollWidth, dir).to.be.at.most(base.clientWidth + 1);
      expect(el.getBoundingClientRect().width, dir).to.be.at.most(375);
      fixtureCleanup();
    }
  });

  it("says the service's 409 when a redelivery is refused, and fires svc-error; nothing changes", async () => {
    const { fetch } = api((call) => {
      if (call.method === 'POST')
        return json(
          { message: 'This delivery is still pending: wait for it to finish before redelivering it.', code: 'delivery_pending' },
          409,
        );
      if (call.url.pathname.endsWith('/webhook_endpoints')) return json({ webhook_endpoints: [endpoint('we_a')], next_cursor: null });
      return json({ deliveries: [delivery('d3', 'failed', daysAgo(0))], next_cursor: null });
    });
    const el = await fixture<SvcWebhooks>(
      html`<svc-webhooks trust-url=${TRUST} application=tp_dev_shop .accessToken=${'tok'} .fetch=${fetch}></svc-webhooks>`,
    );
    await waitUntil(() => inner(el, '[data-key="redeliver d3"]'), 'no redeliver button');
    const errors = listen<WebhooksErrorDetail>('svc-error');
    inner(el, '[data-key="redeliver d3"]')!.click();
    await waitUntil(() => errors.seen.length === 1, 'no svc-error');
    errors.stop();
    expect(errors.seen[0]!.code).to.equal('invalid');
    await el.updateComplete;
    expect(said(el)).to.equal('Nothing was changed: This delivery is still pending: wait for it to finish before redelivering it.');
    expect(focused(el)?.dataset.key).to.equal('redeliver d3');
    expect(el.deliveriesOf('we_a')[0]!.status).to.equal('failed');
  });

  it('asks again after a 429, shows the error state with a retry on a 500, and signs out on a 401', async () => {
    let answers = [
      json({ message: 'Slow down.', code: 'rate_limited' }, 429, { 'retry-after': '0' }),
      json({ webhook_endpoints: [], next_cursor: null }),
    ];
    const { fetch, calls } = api(() => answers.shift() ?? json({ deliveries: [], next_cursor: null }));
    const el = await fixture<SvcWebhooks>(
      html`<svc-webhooks trust-url=${TRUST} application=tp_dev_shop .accessToken=${'tok'} .fetch=${fetch}></svc-webhooks>`,
    );
    await waitUntil(() => el.status === 'empty', 'the 429 was not asked again');
    expect(calls.length).to.equal(2);
    expect(inner(el, '[part=new]')).to.not.equal(null);

    answers = [json({ message: 'Boom.', code: 'internal_error' }, 500)];
    const errors = listen<WebhooksErrorDetail>('svc-error');
    await el.refresh();
    expect(el.status).to.equal('error');
    expect(errors.seen[0]!.recoverable_via).to.equal('retry');
    await el.updateComplete;
    expect(inner(el, '[part=retry]')).to.not.equal(null);

    answers = [json({ message: 'Token expired.', code: 'unauthorized' }, 401)];
    await el.refresh();
    errors.stop();
    expect(el.status).to.equal('signed-out');
    expect(errors.seen.at(-1)!.code).to.equal('unauthorized');
  });

  it("says the service's words when a viewer's role may not list (403)", async () => {
    const { fetch } = api(() => json({ message: 'This API token lacks the "read" permission.', code: 'insufficient_permissions' }, 403));
    const el = await fixture<SvcWebhooks>(
      html`<svc-webhooks trust-url=${TRUST} application=tp_dev_shop .accessToken=${'tok'} .fetch=${fetch}></svc-webhooks>`,
    );
    await waitUntil(() => el.status === 'error', 'no error');
    await el.updateComplete;
    expect(text(inner(el, '[part=base]'))).to.contain('The webhook endpoints cannot be shown: This API token lacks the "read" permission.');
  });
});
