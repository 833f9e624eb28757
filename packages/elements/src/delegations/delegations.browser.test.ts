// <svc-delegations> in every engine. First against the reference server (test/wtr-person-servers.mjs: a person
// signed in with delegations:read and delegations:write who made two grants, one to a bounded agent): the grants and
// their bounds in plain words, pausing and resuming, revoking through the confirm step, letting someone else act for
// them (by keyboard alone, with the form's problems tied to its fields). Then with a fetch double for
// the states a real service will not take on cue: empty, refused tokens, failures.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';
import type { SvcDelegationsChangeDetail } from '../events/svc-delegations-change.js';
import { SvcDelegations } from './delegations.js';

const inner = <T extends HTMLElement = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const all = (el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(selector)];
const text = (node: Element | null) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const focused = (el: SvcDelegations) => el.shadowRoot!.activeElement as HTMLElement | null;
const press = (key: string) => executeServerCommand('svc-press', key);

interface Person {
  base_url: string;
  access_token: string;
  email: string;
  agent: string;
  peer: string;
  peer_email: string;
  friend_email: string;
  free_agent: string;
}

/** A new person who made two grants at the reference server, and their access token (asked again while it starts). */
async function person(): Promise<Person> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const answer = await executeServerCommand<Person | { starting: true }, { origin: string }>('svc-delegations-person', {
      origin: location.origin,
    });
    if (!('starting' in answer)) return answer;
  }
  throw new Error('the delegations server did not start');
}

async function delegations(trustUrl: string, token: string | undefined, fetch?: typeof globalThis.fetch): Promise<SvcDelegations> {
  const el = await fixture<SvcDelegations>(
    html`<svc-delegations trust-url=${trustUrl} .fetch=${fetch} .accessToken=${token}></svc-delegations>`,
  );
  await waitUntil(() => el.status !== 'loading', 'the grants did not load');
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

const grantOf = (el: SvcDelegations, id: string) => inner(el, `[part=grant][data-key="row ${id}"]`)!;

describe('<svc-delegations> against the reference server', function () {
  this.timeout(60_000);

  it('lists the grants the person made, newest first, with each bound in plain words', async () => {
    const ada = await person();
    const el = await delegations(ada.base_url, ada.access_token);
    expect(el.status).to.equal('ready');
    expect(el.delegations.map((d) => d.id)).to.deep.equal([ada.agent, ada.peer]);
    const agent = grantOf(el, ada.agent);
    expect(text(agent.querySelector('[part=delegate]'))).to.match(/^Assistant person-/);
    expect(text(agent.querySelector('[part=meta]'))).to.match(/^An agent · Active · Since /);
    const bounds = [...agent.querySelectorAll('[part=bound]')].map(text);
    expect(bounds[0]).to.equal('Only: calendar.read, mail.send');
    expect(bounds[1]).to.equal('May only read and change');
    expect(bounds[2]).to.equal('Up to 500.00 EUR per action');
    expect(bounds[3]).to.match(/^Only between .+ and .+$/);
    expect(bounds.slice(4)).to.deep.equal(['At most 20 actions a day', 'Only in: DE, FR']);
    const peer = grantOf(el, ada.peer);
    expect(text(peer.querySelector('[part=delegate]'))).to.equal(ada.peer_email);
    expect([...peer.querySelectorAll('[part=bound]')].map(text)).to.deep.equal(['Only: records:read']);
    expect(text(inner(el, '[part=status]'))).to.equal('2 people or agents.');
  });

  it('pauses and resumes a grant at once, saying so, and fires svc-delegations-change each time', async () => {
    const ada = await person();
    const el = await delegations(ada.base_url, ada.access_token);
    const changes = listen<SvcDelegationsChangeDetail>('svc-delegations-change');
    try {
      grantOf(el, ada.peer).querySelector<HTMLButtonElement>('[part=suspend]')!.click();
      await waitUntil(() => changes.seen.length === 1, 'no change event');
      await el.updateComplete;
      expect(changes.seen[0]).to.include({ delegation_id: ada.peer, action: 'suspend' });
      expect(changes.seen[0]!.delegation.status).to.equal('suspended');
      expect(text(grantOf(el, ada.peer).querySelector('[part=meta]'))).to.contain('Paused');
      expect(text(inner(el, '[part=status]'))).to.equal(`${ada.peer_email} is paused: it cannot act for you until you resume it.`);
      expect(focused(el)?.getAttribute('part')).to.equal('resume');
      focused(el)!.click();
      await waitUntil(() => changes.seen.length === 2, 'no second change event');
      expect(changes.seen[1]!.delegation.status).to.equal('active');
    } finally {
      changes.stop();
    }
  });

  it('revokes only after the confirm step: Escape cancels and focus returns; confirming revokes for good', async () => {
    const ada = await person();
    const el = await delegations(ada.base_url, ada.access_token);
    const changes = listen<SvcDelegationsChangeDetail>('svc-delegations-change');
    try {
      const revoke = grantOf(el, ada.agent).querySelector<HTMLButtonElement>('[part=revoke]')!;
      revoke.focus();
      revoke.click();
      await el.updateComplete;
      const confirm = inner(el, '[part=confirm]')!;
      expect(focused(el)).to.equal(confirm);
      expect(text(confirm.querySelector('p'))).to.match(
        /^Revoke what Assistant person-\S+ may do for you at .+\? It stops at once and cannot be undone\.$/,
      );
      await press('Escape');
      await el.updateComplete;
      expect(inner(el, '[part=confirm]')).to.equal(null);
      expect(focused(el)).to.equal(revoke);
      expect(text(inner(el, '[part=status]'))).to.equal('Nothing was revoked.');
      expect(changes.seen).to.have.length(0);

      revoke.click();
      await el.updateComplete;
      inner<HTMLButtonElement>(el, '[part=confirm-button]')!.click();
      await waitUntil(() => changes.seen.length === 1, 'no change event');
      await el.updateComplete;
      expect(changes.seen[0]).to.include({ delegation_id: ada.agent, action: 'revoke' });
      const grant = grantOf(el, ada.agent);
      expect(text(grant.querySelector('[part=meta]'))).to.contain('Revoked');
      expect(grant.querySelector('[part=actions]')).to.equal(null);
      expect(focused(el)).to.equal(grant);
      expect(text(inner(el, '[part=status]'))).to.match(/may no longer act for you\.$/);

      // The service says so too: read again, the grant is revoked.
      await el.refresh();
      expect(el.delegations.find((d) => d.id === ada.agent)?.status).to.equal('revoked');
    } finally {
      changes.stop();
    }
  });
});

/** Types `value` into the form's field `id` (or chooses it, in a select) as a person would, by its events. */
function fill(el: SvcDelegations, id: string, value: string): void {
  const control = inner<HTMLInputElement | HTMLSelectElement>(el, `#${id}`)!;
  control.value = value;
  control.dispatchEvent(new Event(control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}

/** A day `days` from now, as a date input's value. */
function dayFromNow(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

describe('<svc-delegations> letting someone act for the person', function () {
  this.timeout(60_000);

  it('by keyboard alone: opens the form, says the bounds before making the grant, then shows it first', async () => {
    const ada = await person();
    const el = await delegations(ada.base_url, ada.access_token);
    const changes = listen<SvcDelegationsChangeDetail>('svc-delegations-change');
    try {
      const add = inner<HTMLButtonElement>(el, '[part=add]')!;
      expect(add.getAttribute('aria-expanded')).to.equal('false');
      add.focus();
      await press('Enter');
      await el.updateComplete;
      expect(add.getAttribute('aria-expanded')).to.equal('true');
      expect(focused(el)?.id).to.equal('kind');
      expect(text(inner(el, 'label[for=kind]'))).to.equal('Who they are');
      await press('Tab');
      expect(focused(el)?.id).to.equal('delegate');
      expect(text(inner(el, 'label[for=delegate]'))).to.equal('Their email');
      await sendKeys({ type: ada.friend_email });
      await press('Tab');
      expect(focused(el)?.id).to.equal('scopes');
      await sendKeys({ type: 'records:read' });
      await press('Enter');
      await el.updateComplete;
      const confirm = inner(el, '[part=confirm]')!;
      expect(focused(el)).to.equal(confirm);
      expect(text(confirm.querySelector('p'))).to.match(
        new RegExp(
          `^A person: let ${ada.friend_email.replace(/[.]/g, '\\.')} act for you at .+\\? Only: records:read\\. Until you revoke it\\.$`,
        ),
      );
      await press('Tab');
      expect(focused(el)?.getAttribute('part')).to.equal('confirm-button');
      await press('Enter');
      await waitUntil(() => changes.seen.length === 1, 'no change event');
      await el.updateComplete;
      const made = changes.seen[0]!;
      expect(made.action).to.equal('create');
      expect(made.delegation.delegate).to.include({ type: 'person', name: ada.friend_email });
      expect(el.delegations.map((d) => d.id)).to.deep.equal([made.delegation_id, ada.agent, ada.peer]);
      const grant = grantOf(el, made.delegation_id);
      expect(focused(el)).to.equal(grant);
      expect([...grant.querySelectorAll('[part=bound]')].map(text)).to.deep.equal(['Only: records:read']);
      expect(inner(el, '[part=form]')).to.equal(null);
      expect(text(inner(el, '[part=status]'))).to.equal(`${ada.friend_email} may now act for you, within these bounds.`);
    } finally {
      changes.stop();
    }
  });

  it('ties each problem to its field, then says why the service refused, and makes nothing', async () => {
    const ada = await person();
    const el = await delegations(ada.base_url, ada.access_token);
    const errors = listen<{ code: string }>('svc-error');
    try {
      inner<HTMLButtonElement>(el, '[part=add]')!.click();
      await el.updateComplete;
      inner<HTMLButtonElement>(el, '[data-key="continue new"]')!.click();
      await el.updateComplete;
      const delegate = inner(el, '#delegate')!;
      expect(focused(el)).to.equal(delegate);
      expect(delegate.getAttribute('aria-invalid')).to.equal('true');
      expect(delegate.getAttribute('aria-describedby')).to.equal('delegate-error');
      expect(text(inner(el, '#delegate-error'))).to.equal('Enter their email, such as name@example.com.');
      expect(inner(el, '#scopes')!.getAttribute('aria-describedby')).to.equal('scopes-hint scopes-error');
      expect(text(inner(el, '#scopes-error'))).to.equal('Name at least one thing they may do.');
      expect(inner(el, '#until')!.getAttribute('aria-invalid')).to.equal('false');
      expect(inner(el, '[part=confirm]')).to.equal(null);

      fill(el, 'delegate', ada.email);
      fill(el, 'scopes', 'records:read');
      inner<HTMLButtonElement>(el, '[data-key="continue new"]')!.click();
      await el.updateComplete;
      expect(inner(el, '#delegate-error')).to.equal(null);
      inner<HTMLButtonElement>(el, '[part=confirm-button]')!.click();
      await waitUntil(() => inner(el, '[part=form-error]'), 'no refusal shown');
      expect(text(inner(el, '[part=form-error]'))).to.match(/^Nothing was made\. A person cannot delegate to themselves\./);
      const next = inner(el, '[data-key="continue new"]')!;
      expect(next.getAttribute('aria-describedby')).to.equal('form-error');
      expect(focused(el)).to.equal(next);
      expect(errors.seen.at(-1)?.code).to.equal('http');
      expect(el.delegations).to.have.length(2);
    } finally {
      errors.stop();
    }
  });

  it('to an agent, with a value limit and a last day: Escape goes back to the form, confirming makes it', async () => {
    const ada = await person();
    const el = await delegations(ada.base_url, ada.access_token);
    const changes = listen<SvcDelegationsChangeDetail>('svc-delegations-change');
    try {
      inner<HTMLButtonElement>(el, '[part=add]')!.click();
      await el.updateComplete;
      fill(el, 'kind', 'ai_agent');
      await el.updateComplete;
      expect(text(inner(el, 'label[for=delegate]'))).to.equal('The agent’s ID');
      fill(el, 'delegate', ada.free_agent);
      fill(el, 'scopes', 'calendar.read, calendar.read');
      fill(el, 'amount', '50');
      fill(el, 'currency', 'eur');
      fill(el, 'until', dayFromNow(30));
      const next = inner<HTMLButtonElement>(el, '[data-key="continue new"]')!;
      next.click();
      await el.updateComplete;
      const question = text(inner(el, '[part=confirm] p'));
      expect(question).to.match(
        /^An agent: let agt_\S+ act for you at .+\? Only: calendar\.read\. Up to 50\.00 EUR per action\. Until the end of .+\.$/,
      );
      await press('Escape');
      await el.updateComplete;
      expect(inner(el, '[part=confirm]')).to.equal(null);
      expect(focused(el)).to.equal(next);
      expect(text(inner(el, '[part=status]'))).to.equal('Nothing was made.');
      expect(changes.seen).to.have.length(0);

      next.click();
      await el.updateComplete;
      inner<HTMLButtonElement>(el, '[part=confirm-button]')!.click();
      await waitUntil(() => changes.seen.length === 1, 'no change event');
      await el.updateComplete;
      const grant = grantOf(el, changes.seen[0]!.delegation_id);
      expect([...grant.querySelectorAll('[part=bound]')].map(text)).to.deep.equal(['Only: calendar.read', 'Up to 50.00 EUR per action']);
      expect(text(grant.querySelector('[part=meta]'))).to.match(/^An agent · Active · Since .+ · until .+$/);
      expect(changes.seen[0]!.delegation.expires_at).to.be.a('string');
    } finally {
      changes.stop();
    }
  });
});

describe('<svc-delegations> states', () => {
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const TRUST = 'https://trust.svc.example';

  it('is idle and signed out without a token, and asks nothing', async () => {
    let asked = 0;
    const el = await delegations(TRUST, undefined, (async () => {
      asked += 1;
      return json({});
    }) as typeof fetch);
    expect(el.status).to.equal('idle');
    expect(text(el.shadowRoot!.querySelector('slot[name=signed-out]'))).to.equal('Sign in to see who may act for you.');
    expect(asked).to.equal(0);
  });

  it('says so when the person made no grants', async () => {
    const el = await delegations(TRUST, 'tok', (async () => json({ delegations: [], next_cursor: null })) as typeof fetch);
    expect(el.status).to.equal('empty');
    expect(el).to.have.attribute('trust-url');
  });

  it('signs out on 401 and fires svc-error; an error answer offers a retry that reads again', async () => {
    const errors = listen<{ code: string }>('svc-error');
    try {
      const out = await delegations(TRUST, 'tok', (async () => json({ message: 'expired', code: 'unauthorized' }, 401)) as typeof fetch);
      expect(out.status).to.equal('signed-out');
      expect(errors.seen.at(-1)?.code).to.equal('unauthorized');
      let calls = 0;
      const flaky = (async () =>
        ++calls === 1 ? json({ message: 'down' }, 503) : json({ delegations: [], next_cursor: null })) as typeof fetch;
      const el = await delegations(TRUST, 'tok', flaky);
      expect(el.status).to.equal('error');
      inner<HTMLButtonElement>(el, '[part=retry]')!.click();
      await waitUntil(() => el.status === 'empty', 'the retry did not read again');
    } finally {
      errors.stop();
    }
  });
});
