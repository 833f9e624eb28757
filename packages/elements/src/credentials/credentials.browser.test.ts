// <svc-credentials> in every engine. First against the reference server (test/wtr-person-servers.mjs: a person
// signed in with credentials:read and credentials:write, to whom the sandbox organisation issued a credential):
// choosing two of three claims, presenting, and the presentation itself disclosing exactly those. Then with a fetch
// double (the shapes @svc/schemas types) for the states, refusals and the keyboard.
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { SvcCredentials } from './credentials.js';
import type { CredentialRow, SvcCredentialsPresentDetail } from './events.js';

const TRUST = 'https://trust.svc.example';

const inner = <T extends HTMLElement = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const all = (el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(selector)];
const text = (node: Element | null) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const focused = (el: SvcCredentials) => el.shadowRoot!.activeElement as HTMLElement | null;
const press = (key: string) => executeServerCommand('svc-press', key);
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The names of a presentation's disclosures ([salt, name, value]), decoded from base64url. */
function disclosed(presentation: string): string[] {
  const [, ...rest] = presentation.split('~');
  return rest
    .filter(Boolean)
    .map((d) => JSON.parse(atob(d.replace(/-/g, '+').replace(/_/g, '/'))) as [string, string, unknown])
    .map(([, name]) => name)
    .sort();
}

/** Collects the events of `type` on the document until `stop()`. */
function listen<T>(type: string) {
  const seen: T[] = [];
  const listener = (event: Event) => seen.push((event as CustomEvent<T>).detail);
  document.addEventListener(type, listener);
  return { seen, stop: () => document.removeEventListener(type, listener) };
}

/** Ticks the claim `path` in the open step. */
async function tick(el: SvcCredentials, path: string): Promise<void> {
  const box = inner<HTMLInputElement>(el, `[part=step] input[value="${path}"]`)!;
  box.click();
  await el.updateComplete;
}

async function nameAudience(el: SvcCredentials, audience: string): Promise<void> {
  const input = inner<HTMLInputElement>(el, '[part=audience]')!;
  input.value = audience;
  input.dispatchEvent(new Event('input'));
  await el.updateComplete;
}

interface Person {
  base_url: string;
  access_token: string;
  credential_id: string;
}

async function person(): Promise<Person> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const answer = await executeServerCommand<Person | { starting: true }, { origin: string }>('svc-credentials-person', {
      origin: location.origin,
    });
    if (!('starting' in answer)) return answer;
  }
  throw new Error('the credentials server did not start');
}

describe('<svc-credentials> against the reference server', function () {
  this.timeout(60_000); // the first test waits for the reference server to start
  afterEach(() => fixtureCleanup());

  it('presents two of three chosen claims: the result, the presentation and the history show exactly those', async () => {
    const ada = await person();
    const el = await fixture<SvcCredentials>(
      html`<svc-credentials trust-url=${ada.base_url} .accessToken=${ada.access_token}></svc-credentials>`,
    );
    await waitUntil(() => el.status !== 'loading', 'the credentials did not load', { timeout: 10_000 });
    expect(el.status, text(inner(el, '[part=status]'))).to.equal('ready');
    expect(el.credentials.map((c) => c.id)).to.deep.equal([ada.credential_id]);
    await expect(el).to.be.accessible();

    inner(el, '[part=present]')!.click();
    await el.updateComplete;
    expect(focused(el)).to.equal(inner(el, '[part=step]'));
    const home = inner<HTMLInputElement>(el, '[part=step] input[value="home_country"]')!;
    expect(home.checked && home.disabled, 'the always-shared claim is ticked and cannot be unticked').to.equal(true);
    // Of email, the newsletter purpose and the consent time: the first two.
    await tick(el, 'email');
    await tick(el, 'purposes.newsletter');
    await nameAudience(el, 'Bank of Example');
    expect(text(inner(el, '[part=summary]'))).to.match(
      /^Bank of Example will see (Purpose: .+ and Email|Email and Purpose: .+), and Home country \(always shared\)\. Nothing else\.$/,
    );
    await expect(el).to.be.accessible();

    const events = listen<SvcCredentialsPresentDetail>('svc-credentials-present');
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => events.seen.length === 1, 'no svc-credentials-present', { timeout: 10_000 });
    events.stop();
    const [detail] = events.seen as [SvcCredentialsPresentDetail];
    expect(detail.credential_id).to.equal(ada.credential_id);
    expect(detail.audience).to.equal('Bank of Example');
    expect([...detail.disclosed].sort()).to.deep.equal(['email', 'home_country', 'purposes.newsletter']);
    expect(disclosed(detail.presentation.presentation), 'the SD-JWT discloses exactly the chosen claims').to.deep.equal([
      'email',
      'newsletter',
    ]);
    expect(detail.presentation.verification?.valid).to.equal(true);

    await el.updateComplete;
    expect(focused(el)).to.equal(inner(el, '[part=result]'));
    expect(inner<HTMLTextAreaElement>(el, '[part=presentation]')!.value).to.equal(detail.presentation.presentation);
    expect(text(inner(el, '[part=verified]'))).to.match(/^Verified/);
    const result = text(inner(el, '[part=result] p'));
    expect(result).to.match(/^Ready for Bank of Example: /);
    expect(result).to.contain('Email');
    expect(result).to.not.contain('Consented at');

    const history = await fixture<SvcCredentials>(
      html`<svc-credentials view=presentations trust-url=${ada.base_url} .accessToken=${ada.access_token}></svc-credentials>`,
    );
    await waitUntil(() => history.status === 'ready', 'the presentations did not load', { timeout: 10_000 });
    expect(history.presentations.map((p) => p.audience)).to.deep.equal(['Bank of Example']);
    expect(history.presentations[0]!.disclosed.map((c) => c.path).sort()).to.deep.equal(['email', 'home_country', 'purposes.newsletter']);
    expect(text(inner(history, '[part=heading]'))).to.equal('Shared with Bank of Example');
  });
});

const credential = (id: string, extra: Partial<CredentialRow> = {}): CredentialRow => ({
  id,
  credential_type: 'ConsentCredential',
  name: 'Consent credential',
  status: 'active',
  issued_at: '2026-03-01T10:00:00.000Z',
  expires_at: '2026-06-01T10:00:00.000Z',
  revoked_at: null,
  home_country: 'DE',
  organisation: { id: 'org_news', name: 'Daily News' },
  application: { id: 'tp_news', name: 'News app' },
  holder_bound: false,
  presentable: true,
  claims: [
    { path: 'home_country', label: 'Home country', value: 'DE', required: true },
    { path: 'email', label: 'Email', value: 'ada@example.com', required: false },
    { path: 'consented_at', label: 'Consented at', value: '2026-03-01T10:00:00.000Z', required: false },
  ],
  ...extra,
});

/** A fetch answering each call with the next of `answers` (the last repeats), recording the calls. */
function api(answers: (Response | Error)[]) {
  const calls: { url: URL; method: string; body: unknown }[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: new URL(String(input)), method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    if (answer instanceof Error) throw answer;
    return answer.clone();
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

async function mount(fetch: typeof globalThis.fetch, token: string | null = 'tok_ada'): Promise<SvcCredentials> {
  const el = await fixture<SvcCredentials>(
    html`<svc-credentials trust-url=${TRUST} .fetch=${fetch} .accessToken=${token ?? undefined}></svc-credentials>`,
  );
  await waitUntil(() => el.status !== 'loading', 'the credentials did not load');
  await el.updateComplete;
  return el;
}

describe('<svc-credentials>', () => {
  afterEach(() => fixtureCleanup());

  it('without a token says to sign in and asks nothing', async () => {
    const { fetch, calls } = api([json({ credentials: [], next_cursor: null })]);
    const el = await mount(fetch, null);
    expect(el.status).to.equal('idle');
    expect(text(inner(el, 'slot[name=signed-out]'))).to.equal('Sign in to see your credentials.');
    expect(calls).to.have.length(0);
  });

  it('says so when there are none, and a refused token signs out with svc-error unauthorized', async () => {
    const empty = await mount(api([json({ credentials: [], next_cursor: null })]).fetch);
    expect(empty.status).to.equal('empty');
    expect(text(inner(empty, 'slot[name=empty]'))).to.equal('You have no credentials yet.');
    const errors = listen<{ code: string }>('svc-error');
    const refused = await mount(api([json({ message: 'The bearer token is not valid.', code: 'unauthorized' }, 401)]).fetch);
    errors.stop();
    expect(refused.status).to.equal('signed-out');
    expect(errors.seen.map((e) => e.code)).to.deep.equal(['unauthorized']);
  });

  it('a failing service shows the error with a retry that reads again', async () => {
    const { fetch, calls } = api([
      json({ message: 'Internal server error.' }, 500),
      json({ credentials: [credential('cred_1')], next_cursor: null }),
    ]);
    const el = await mount(fetch);
    expect(el.status).to.equal('error');
    inner(el, '[part=retry]')!.click();
    await waitUntil(() => el.status === 'ready');
    expect(calls.map((c) => c.url.pathname)).to.deep.equal(['/api/v1/me/credentials', '/api/v1/me/credentials']);
  });

  it('lists each claim with its value and marks what is always shared; no Present on a credential that cannot be presented', async () => {
    const el = await mount(
      api([
        json({ credentials: [credential('cred_1'), credential('cred_2', { status: 'revoked', presentable: false })], next_cursor: null }),
      ]).fetch,
    );
    const [first, second] = all(el, '[part=credential]') as [HTMLElement, HTMLElement];
    expect([...first.querySelectorAll('[part=claim-label]')].map(text)).to.deep.equal(['Home country', 'Email', 'Consented at']);
    expect(first.querySelectorAll('[part=required]')).to.have.length(1);
    expect(first.querySelector('[part=present]')).to.not.equal(null);
    expect(second.querySelector('[part=present]')).to.equal(null);
    expect(text(second.querySelector('[part=meta]'))).to.match(/^Revoked · /);
  });

  it('Escape cancels the step without a request, focus back on Present', async () => {
    const { fetch, calls } = api([json({ credentials: [credential('cred_1')], next_cursor: null })]);
    const el = await mount(fetch);
    inner(el, '[part=present]')!.focus();
    await press('Enter');
    await el.updateComplete;
    expect(focused(el)).to.equal(inner(el, '[part=step]'));
    await press('Tab');
    await press('Escape');
    await el.updateComplete;
    expect(inner(el, '[part=step]')).to.equal(null);
    expect(focused(el)).to.equal(inner(el, '[part=present]'));
    expect(text(inner(el, '[part=status]'))).to.equal('Nothing was presented.');
    expect(calls).to.have.length(1);
  });

  it('a refused presentation keeps the step open with what the service said, and fires svc-error invalid', async () => {
    const refusal = json({ message: 'This credential is revoked: it can no longer be presented.', code: 'credential_not_active' }, 422);
    const { fetch, calls } = api([json({ credentials: [credential('cred_1')], next_cursor: null }), refusal]);
    const el = await mount(fetch);
    inner(el, '[part=present]')!.click();
    await el.updateComplete;
    await tick(el, 'consented_at');
    await nameAudience(el, 'Gym');
    const errors = listen<{ code: string; fatal: boolean }>('svc-error');
    inner(el, '[part=confirm-button]')!.click();
    await waitUntil(() => errors.seen.length === 1);
    errors.stop();
    await el.updateComplete;
    expect(errors.seen[0]).to.include({ code: 'invalid', fatal: false });
    expect(calls[1]!.body).to.deep.equal({ disclose: ['consented_at'], audience: 'Gym' });
    expect(text(inner(el, '[part=problem]'))).to.equal('Nothing was presented: This credential is revoked: it can no longer be presented.');
    expect(inner(el, '[part=step]')).to.not.equal(null);
  });

  it('the presentations view lists what was presented, or says none was', async () => {
    const row = {
      id: 'prs_1',
      credential_id: 'cred_1',
      credential_name: 'Consent credential',
      organisation: { id: 'org_news', name: 'Daily News' },
      audience: 'Bank',
      nonce: null,
      disclosed: [{ path: 'email', label: 'Email' }],
      presented_at: '2026-03-02T10:00:00.000Z',
    };
    const { fetch, calls } = api([json({ presentations: [row], next_cursor: null })]);
    const el = await fixture<SvcCredentials>(
      html`<svc-credentials view=presentations trust-url=${TRUST} .fetch=${fetch} .accessToken=${'tok'}></svc-credentials>`,
    );
    await waitUntil(() => el.status === 'ready');
    expect(calls[0]!.url.pathname).to.equal('/api/v1/me/presentations');
    expect(text(inner(el, '[part=presentation-row] [part=claim-label]'))).to.equal('Email');
    await expect(el).to.be.accessible();
  });
});
