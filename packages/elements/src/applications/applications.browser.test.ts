// <svc-applications> in every engine. First against the reference server (test/applications-server.ts: an admin's
// and a viewer's API token of the sandbox account, called through a pass-through that stands in for the console's own
// origin): allowing the page's origin (then usable with the publishable key) and removing it, creating, rotating and
// revoking an API token whose value is shown once, and a viewer who sees no controls and is refused when they try.
// Then with a fetch double for what a real service will not do on cue (errors, 429).
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { SvcApplications } from './applications.js';
import type { ApiTokenRow, ApplicationRow, ApplicationsErrorDetail, SvcApplicationsChangeDetail } from './events.js';

const TRUST = 'https://trust.svc.example';

interface Console {
  base_url: string;
  server_url: string;
  admin_token: string;
  viewer_token: string;
  application_id: string;
  publishable_key: string;
  flow_id: string;
}

/** A new admin and viewer token at the reference server (asked again while it starts). */
async function consoleTokens(): Promise<Console> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const answer = await executeServerCommand<Console | { starting: true }, { origin: string }>('svc-applications-person', {
      origin: location.origin,
    });
    if (!('starting' in answer)) return answer;
  }
  throw new Error('the applications server did not start');
}

const inner = <T extends HTMLElement = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const all = (el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(selector)];
const text = (node: Element | null) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const focused = (el: SvcApplications) => el.shadowRoot!.activeElement as HTMLElement | null;
const press = (key: string) => executeServerCommand('svc-press', key);

/** Collects the events of `type` on the document until `stop()`. */
function listen<T>(type: string) {
  const seen: T[] = [];
  const listener = (event: Event) => seen.push((event as CustomEvent<T>).detail);
  document.addEventListener(type, listener);
  return { seen, stop: () => document.removeEventListener(type, listener) };
}

async function shown(el: SvcApplications): Promise<SvcApplications> {
  await waitUntil(() => el.status !== 'loading' && el.status !== 'idle', 'the list did not load', { timeout: 10_000 });
  if (!el.apiTokens.length && el.applications.length) {
    // Each application's origins and clients are read after the list (its keys come with it).
    const loaded = () => el.applications.every((a) => inner(el, `[data-key="row ${a.id}"] section[aria-labelledby="origins-${a.id}"]`));
    await waitUntil(loaded, 'the origins did not load', { timeout: 10_000 });
  }
  await el.updateComplete;
  return el;
}

/** What a page on this origin gets when the consent field asks for the flow with the publishable key. */
async function render(c: Console, n: number): Promise<{ status: number; code?: string }> {
  const answer = await fetch(`${c.server_url}/api/v1/flows/${c.flow_id}/render?n=${n}`, {
    headers: { 'X-Publishable-Key': c.publishable_key },
  });
  const body = (await answer.json()) as { code?: string };
  return { status: answer.status, code: body.code };
}

/** Types `origin` in the application's field and submits it. */
function allow(el: SvcApplications, app: string, origin: string): void {
  inner<HTMLInputElement>(el, `#origin-${app}`)!.value = origin;
  inner(el, `[data-key="add ${app}"]`)!.click();
}

/** Opens the token form, names the token, ticks `permissions` (only) and submits it. */
async function create(el: SvcApplications, name: string, permissions: string[]): Promise<void> {
  if (!inner(el, '[part=form]')) {
    inner(el, '[part=new]')!.click();
    await el.updateComplete;
  }
  inner<HTMLInputElement>(el, '#token-name')!.value = name;
  for (const box of all(el, '[part=form] input[type=checkbox]') as HTMLInputElement[]) box.checked = permissions.includes(box.value);
  inner(el, '[part=submit]')!.click();
}

describe('<svc-applications> against the reference server', function () {
  this.timeout(60_000); // the first test waits for the reference server to start
  afterEach(() => fixtureCleanup());

  it("allows the page's origin (then usable with the publishable key), says a refused origin at the field, removes it after confirming", async () => {
    const c = await consoleTokens();
    const el = await shown(
      await fixture<SvcApplications>(html`<svc-applications trust-url=${c.base_url} .accessToken=${c.admin_token}></svc-applications>`),
    );
    expect(el.status, text(inner(el, '[part=status]'))).to.equal('ready');
    const app = el.applications.find((a) => a.id === c.application_id)!;
    expect(app.environment).to.equal('development');
    const row = inner(el, `[data-key="row ${app.id}"]`)!;
    expect(text(row.querySelector('[part=meta]'))).to.match(/^Development · /);
    expect(all(el, '[part=origin] code').map(text)).to.include(new URL(c.server_url).origin);
    expect(all(el, '[part=origin] code').map(text)).not.to.include(location.origin);
    expect(all(el, '[part=client]').length).to.be.greaterThan(0);
    expect(text(row.querySelector('[part=client]'))).to.contain('Client id:');
    expect(await render(c, 1)).to.deep.equal({ status: 403, code: 'origin_not_allowed' });
    await expect(el).to.be.accessible();

    const changes = listen<SvcApplicationsChangeDetail>('svc-applications-change');
    allow(el, app.id, 'https://shop.example/checkout');
    await waitUntil(() => inner(el, '[part=field-error]'), 'the refusal was not said at the field', { timeout: 10_000 });
    const input = inner<HTMLInputElement>(el, `#origin-${app.id}`)!;
    expect(text(inner(el, '[part=field-error]'))).to.match(/^allowed_origin\.origin: /);
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(input.getAttribute('aria-describedby')).to.contain(inner(el, '[part=field-error]')!.id);
    expect(focused(el)).to.equal(input);
    await expect(el).to.be.accessible();

    allow(el, app.id, location.origin);
    await waitUntil(() => changes.seen.length === 1, 'no svc-applications-change', { timeout: 10_000 });
    expect(changes.seen[0]).to.deep.equal({ action: 'add', application_id: app.id, origin: location.origin, status: 'active' });
    await el.updateComplete;
    expect(inner(el, '[part=field-error]')).to.equal(null);
    expect(focused(el)?.dataset.key).to.equal(`origin ${app.id} ${location.origin}`);
    expect(text(inner(el, '[part=status]'))).to.equal(`${location.origin} may now call the service for ${app.name}.`);
    expect((await render(c, 2)).status).to.equal(200);
    await el.refresh();
    await shown(el);
    expect(all(el, '[part=origin] code').map(text)).to.include(location.origin);

    inner(el, `[data-key="remove ${app.id} ${location.origin}"]`)!.click();
    await el.updateComplete;
    expect(focused(el)?.getAttribute('part')).to.equal('confirm');
    expect(text(inner(el, '[part=confirm] p'))).to.contain(`Remove ${location.origin} from ${app.name}?`);
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => changes.seen.length === 2, 'no second svc-applications-change', { timeout: 10_000 });
    changes.stop();
    expect(changes.seen[1]).to.deep.equal({ action: 'remove', application_id: app.id, origin: location.origin, status: 'removed' });
    await el.updateComplete;
    expect(all(el, '[part=origin] code').map(text)).not.to.include(location.origin);
    expect(await render(c, 3)).to.deep.equal({ status: 403, code: 'origin_not_allowed' });
  });

  it('creates an API token whose value is shown once and gone after dismiss, never in the list; rotates and revokes it', async () => {
    const c = await consoleTokens();
    const el = await shown(
      await fixture<SvcApplications>(
        html`<svc-applications view=api_tokens trust-url=${c.base_url} .accessToken=${c.admin_token}></svc-applications>`,
      ),
    );
    expect(el.apiTokens.some((t) => t.name.startsWith('Console viewer') && t.permissions.join() === 'read,audit:verify')).to.equal(true);
    expect(el.shadowRoot!.innerHTML).not.to.contain(c.admin_token);
    await expect(el).to.be.accessible();

    const changes = listen<SvcApplicationsChangeDetail>('svc-applications-change');
    await create(el, 'Deploy bot', ['read', 'write']);
    await waitUntil(() => changes.seen.length === 1, 'no svc-applications-change', { timeout: 10_000 });
    await el.updateComplete;
    const value = text(inner(el, '[part=secret-value]'));
    expect(value).to.have.length.greaterThan(20);
    expect(text(inner(el, '[part=secret]'))).to.contain('you will not see it again');
    expect(focused(el)?.getAttribute('part')).to.equal('secret');
    const made = changes.seen[0]!;
    expect(made).to.deep.equal({ action: 'create', api_token_id: made.api_token_id, status: 'active' });
    expect(JSON.stringify(changes.seen)).not.to.contain(value);
    const row = inner(el, `[data-key="row ${made.api_token_id}"]`)!;
    expect(text(row)).not.to.contain(value);
    expect(text(row.querySelector('[part=permissions]'))).to.equal('Permissions: read write');
    expect(JSON.stringify(el.apiTokens)).not.to.contain(value);
    expect([...el.attributes].map((a) => a.value).join(' ')).not.to.contain(value);
    await expect(el).to.be.accessible();
    // The value works: the service answers it.
    const works = await fetch(`${c.base_url}/api/v1/applications`, { headers: { authorization: `Bearer ${value}` } });
    expect(works.status).to.equal(200);

    inner(el, '[part=dismiss]')!.click();
    await el.updateComplete;
    expect(inner(el, '[part=secret]')).to.equal(null);
    expect(el.shadowRoot!.innerHTML).not.to.contain(value);
    expect(focused(el)?.dataset.key).to.equal(`row ${made.api_token_id}`);
    await el.refresh();
    expect(el.shadowRoot!.innerHTML).not.to.contain(value);

    inner(el, `[data-key="rotate ${made.api_token_id}"]`)!.click();
    await el.updateComplete;
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => changes.seen.length === 2, 'no rotation', { timeout: 10_000 });
    await el.updateComplete;
    const rotated = text(inner(el, '[part=secret-value]'));
    expect(rotated).to.have.length.greaterThan(20).and.not.equal(value);
    expect(changes.seen[1]).to.deep.equal({ action: 'rotate', api_token_id: made.api_token_id, status: 'active' });
    const old = await fetch(`${c.base_url}/api/v1/applications`, { headers: { authorization: `Bearer ${value}` } });
    expect(old.status).to.equal(401);

    inner(el, `[data-key="revoke ${made.api_token_id}"]`)!.click();
    await el.updateComplete;
    expect(text(inner(el, '[part=confirm] p'))).to.equal('Revoke Deploy bot? Anything that uses it stops working at once.');
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => changes.seen.length === 3, 'no revocation', { timeout: 10_000 });
    changes.stop();
    await el.updateComplete;
    expect(changes.seen[2]).to.deep.equal({ action: 'revoke', api_token_id: made.api_token_id, status: 'removed' });
    expect(inner(el, `[data-key="row ${made.api_token_id}"]`)).to.equal(null);
    expect(inner(el, '[part=secret]'), 'a revoked token’s value goes with it').to.equal(null);
    await el.refresh();
    expect(el.apiTokens.map((t) => t.id)).not.to.include(made.api_token_id);
  });

  it('shows a viewer no change controls with readonly, and says the service refused them when they try anyway', async () => {
    const c = await consoleTokens();
    const apps = await shown(
      await fixture<SvcApplications>(
        html`<svc-applications readonly trust-url=${c.base_url} .accessToken=${c.viewer_token}></svc-applications>`,
      ),
    );
    expect(apps.status).to.equal('ready');
    expect(all(apps, '[part=origin]').length).to.be.greaterThan(0);
    expect(all(apps, 'form, [part=remove], [part=add]')).to.deep.equal([]);
    await expect(apps).to.be.accessible();
    const tokens = await shown(
      await fixture<SvcApplications>(
        html`<svc-applications readonly view=api_tokens trust-url=${c.base_url} .accessToken=${c.viewer_token}></svc-applications>`,
      ),
    );
    expect(tokens.apiTokens.length).to.be.greaterThan(1);
    expect(all(tokens, 'form, button')).to.deep.equal([]);

    tokens.readonly = false;
    await tokens.updateComplete;
    const errors = listen<ApplicationsErrorDetail>('svc-error');
    await create(tokens, 'Sneaky', ['read']);
    await waitUntil(() => inner(tokens, '[part=form-error]'), 'the refusal was not said', { timeout: 10_000 });
    expect(text(inner(tokens, '[part=form-error]'))).to.equal(
      'Your role cannot do this. The service said: This API token lacks the "write" permission.',
    );
    expect(text(inner(tokens, '[part=status]'))).to.equal(text(inner(tokens, '[part=form-error]')));
    expect(tokens.apiTokens.map((t) => t.name)).not.to.include('Sneaky');

    apps.readonly = false;
    await apps.updateComplete;
    allow(apps, c.application_id, 'https://viewer.example');
    await waitUntil(() => inner(apps, '[part=field-error]'), 'the refusal was not said at the field', { timeout: 10_000 });
    errors.stop();
    expect(text(inner(apps, '[part=field-error]'))).to.contain('lacks the "write" permission');
    expect(errors.seen.map((e) => [e.code, e.fatal])).to.deep.equal([
      ['forbidden', true],
      ['forbidden', true],
    ]);
    await expect(apps).to.be.accessible();
  });
});

describe('<svc-applications>', () => {
  afterEach(() => fixtureCleanup());

  const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
  const token = (id: string): ApiTokenRow => ({
    id,
    name: `Token ${id}`,
    permissions: ['read'],
    created_at: '2026-03-01T10:00:00.000Z',
    expires_at: null,
    last_used_at: null,
    rate_limit: null,
  });
  const app: ApplicationRow = {
    id: 'app_shop',
    name: 'Shop',
    active: true,
    application_type: 'web',
    environment: 'production',
    visibility: 'private',
    region: 'us',
    browser_commit_enabled: false,
    home_country: 'US',
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:00:00.000Z',
    publishable_keys: [{ key: 'pk_live_shop', created_at: '2026-03-01T10:00:00.000Z' }],
  };

  /** A fetch that answers by `route(method, path)`, recording the calls. */
  function api(route: (method: string, path: string) => Response | Promise<Response>) {
    const calls: string[] = [];
    const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input));
      calls.push(`${init.method ?? 'GET'} ${url.pathname}`);
      return route(init.method ?? 'GET', url.pathname);
    };
    return { fetch: fetch as typeof globalThis.fetch, calls };
  }

  async function element(fetch: typeof globalThis.fetch, view = 'applications'): Promise<SvcApplications> {
    const el = await fixture<SvcApplications>(
      html`<svc-applications view=${view} trust-url=${TRUST} .fetch=${fetch} .accessToken=${'tok_admin'}></svc-applications>`,
    );
    await waitUntil(() => el.status !== 'loading', 'the list did not load');
    await el.updateComplete;
    return el;
  }

  it('shows the publishable keys the application answers, and says when its origins cannot be read', async () => {
    const { fetch } = api((_m, path) =>
      path.endsWith('/applications') ? json({ applications: [app], next_cursor: null }) : json({ message: 'Internal server error.' }, 500),
    );
    const el = await element(fetch);
    await waitUntil(() => inner(el, '[part=application] section'), 'the sections did not show');
    expect(all(el, '[part=keys] code').map(text)).to.deep.equal(['pk_live_shop']);
    expect(text(inner(el, '[part=application]'))).to.contain('The allowed origins and OAuth clients cannot be shown right now.');
    expect(inner<HTMLInputElement>(el, '#origin-app_shop')).to.not.equal(null);
    await expect(el).to.be.accessible();
  });

  it('fits 375 px, a long origin and a token form included', async () => {
    const long = `https://${'checkout-'.repeat(12)}shop.example`;
    const { fetch } = api((_m, path) => {
      if (path.endsWith('/applications')) return json({ applications: [app], next_cursor: null });
      if (path.endsWith('/oauth_clients')) return json({ oauth_clients: [], next_cursor: null });
      if (path.endsWith('/api_tokens'))
        return json({ api_tokens: [{ ...token('api_token_1'), name: 'x'.repeat(100) }], next_cursor: null });
      return json({ allowed_origins: [{ origin: long, last_seen_at: null, created_at: app.created_at }], next_cursor: null });
    });
    const narrow = async (view: string) => {
      const el = await fixture<SvcApplications>(
        html`<svc-applications style="inline-size: 375px" view=${view} trust-url=${TRUST} .fetch=${fetch} .accessToken=${'tok'}></svc-applications>`,
      );
      await waitUntil(() => el.status === 'ready' && (view === 'api_tokens' || inner(el, '[part=origin]')), 'the list did not load');
      return el;
    };
    const apps = await narrow('applications');
    expect(inner(apps, '[part=base]')!.scrollWidth).to.be.at.most(375);
    const tokens = await narrow('api_tokens');
    inner(tokens, '[part=new]')?.click();
    await tokens.updateComplete;
    expect(inner(tokens, '[part=base]')!.scrollWidth).to.be.at.most(375);
  });

  it('says the service’s refusal (403) of the list in place of the generic error, and fires svc-error', async () => {
    const errors = listen<ApplicationsErrorDetail>('svc-error');
    const { fetch } = api(() => json({ message: 'This API token lacks the "read" permission.', code: 'insufficient_permissions' }, 403));
    const el = await element(fetch, 'api_tokens');
    errors.stop();
    expect(el.status).to.equal('error');
    expect(text(inner(el, '[part=base]'))).to.contain(
      'Your role cannot do this. The service said: This API token lacks the "read" permission.',
    );
    expect(errors.seen.map((e) => e.code)).to.deep.equal(['forbidden']);
  });

  it('asks again after a short 429, and shows the error state with a retry after a 500', async () => {
    let calls = 0;
    const { fetch } = api(() => {
      calls += 1;
      if (calls === 1) return json({ message: 'Too many requests.', code: 'rate_limited' }, 429, { 'retry-after': '0' });
      if (calls === 2) return json({ api_tokens: [token('api_token_1')], next_cursor: null });
      return json({ message: 'Internal server error.', code: 'internal_error' }, 500);
    });
    const el = await element(fetch, 'api_tokens');
    expect(el.status).to.equal('ready');
    expect(el.apiTokens.map((t) => t.id)).to.deep.equal(['api_token_1']);
    await el.refresh();
    await el.updateComplete;
    expect(el.status).to.equal('error');
    expect(inner(el, '[part=retry]')).to.not.equal(null);
  });

  it('a read of the origins that began before a removal and answers after it does not bring the origin back', async () => {
    const origin = 'https://shop.example';
    const listed = () => json({ allowed_origins: [{ origin, last_seen_at: null, created_at: app.created_at }], next_cursor: null });
    let reads = 0;
    let answerLate: () => void = () => {};
    let late: Response | undefined;
    const { fetch } = api((method, path) => {
      if (path.endsWith('/applications')) return json({ applications: [app], next_cursor: null });
      if (path.endsWith('/oauth_clients')) return json({ oauth_clients: [], next_cursor: null });
      if (method === 'DELETE') return new Response(null, { status: 204 });
      reads += 1;
      // The second read (after refresh) answers only once the removal is done, with the list as it was before.
      return reads === 1 ? listed() : new Promise<Response>((resolve) => (answerLate = () => resolve((late = listed()))));
    });
    const el = await element(fetch);
    await waitUntil(() => inner(el, '[part=origin]'), 'the origin did not show');
    await el.refresh();
    await waitUntil(() => reads === 2, 'the origins were not read again');
    inner(el, `[data-key="remove app_shop ${origin}"]`)!.click();
    await el.updateComplete;
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => !inner(el, '[part=origin]'), 'the origin was not removed');
    answerLate();
    await waitUntil(() => late?.bodyUsed, 'the late answer was not read');
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setTimeout(resolve)); // its body is parsed
    await el.updateComplete;
    expect(all(el, '[part=origin] code').map(text)).to.deep.equal([]);
  });

  it('Escape cancels a revocation: nothing is sent and focus goes back to its button', async () => {
    const { fetch, calls } = api(() => json({ api_tokens: [token('api_token_1')], next_cursor: null }));
    const el = await element(fetch, 'api_tokens');
    const button = inner(el, '[data-key="revoke api_token_1"]')!;
    expect(button.getAttribute('aria-label')).to.equal('Revoke the API token Token api_token_1');
    button.click();
    await el.updateComplete;
    expect(focused(el)?.getAttribute('part')).to.equal('confirm');
    await press('Escape');
    await el.updateComplete;
    expect(inner(el, '[part=confirm]')).to.equal(null);
    expect(focused(el)).to.equal(inner(el, '[data-key="revoke api_token_1"]'));
    expect(calls).to.deep.equal(['GET /api/v1/api_tokens']);
  });

  it('forgets a shown value when it disconnects, and checks the form before asking', async () => {
    const made = { ...token('api_token_2'), name: 'New', token: 'svc_secret_value_shown_once_0123456789' };
    const { fetch, calls } = api((method) =>
      method === 'POST' ? json({ api_token: made }, 201) : json({ api_tokens: [token('api_token_1')], next_cursor: null }),
    );
    const el = await element(fetch, 'api_tokens');
    await create(el, '', ['read']);
    await el.updateComplete;
    expect(text(inner(el, '[part=form-error]'))).to.equal('Give the token a name.');
    await create(el, 'New', []);
    await el.updateComplete;
    expect(text(inner(el, '[part=form-error]'))).to.equal('Choose at least one permission.');
    expect(calls.length).to.equal(1);
    await create(el, 'New', ['read']);
    await waitUntil(() => inner(el, '[part=secret]'), 'the value was not shown');
    expect(text(inner(el, '[part=secret-value]'))).to.equal(made.token);
    const parent = el.parentElement!;
    el.remove();
    parent.append(el);
    await el.updateComplete;
    await waitUntil(() => el.status === 'ready', 'the list did not load again');
    await el.updateComplete;
    expect(inner(el, '[part=secret]')).to.equal(null);
    expect(el.shadowRoot!.innerHTML).not.to.contain(made.token);
  });
});
