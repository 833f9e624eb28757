// <svc-delegations> in every engine. First against the reference server (test/wtr-person-servers.mjs: a person
// signed in with delegations:read and delegations:write who made two grants, one to a bounded agent): the grants and
// their bounds in plain words, pausing and resuming, revoking through the confirm step. Then with a fetch double for
// the states a real service will not take on cue: empty, refused tokens, failures.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
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
  agent: string;
  peer: string;
  peer_email: string;
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
