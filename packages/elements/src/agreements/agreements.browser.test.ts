// <svc-agreements> in every engine. First against the reference server (test/wtr-person-servers.mjs: a person signed
// in with agreements:read and agreements:write, asked to sign two agreements, one multi-party, and added to a
// collaboration): the three views, signing through a confirm step that shows what is signed, Escape cancelling,
// leaving a collaboration. Then with a fetch double for the states a real service will not take on cue.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { SvcAgreementsChangeDetail } from './events.js';
import { SvcAgreements } from './agreements.js';

const inner = <T extends HTMLElement = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const text = (node: Element | null) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const focused = (el: SvcAgreements) => el.shadowRoot!.activeElement as HTMLElement | null;
const press = (key: string) => executeServerCommand('svc-press', key);

interface Person {
  base_url: string;
  access_token: string;
  joint: string;
  solo: string;
  collaboration: string;
  document_sha256: string;
}

async function person(): Promise<Person> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const answer = await executeServerCommand<Person | { starting: true }, { origin: string }>('svc-agreements-person', {
      origin: location.origin,
    });
    if (!('starting' in answer)) return answer;
  }
  throw new Error('the agreements server did not start');
}

async function agreements(trustUrl: string, token: string | undefined, view = 'agreements', fetch?: typeof globalThis.fetch) {
  const el = await fixture<SvcAgreements>(
    html`<svc-agreements trust-url=${trustUrl} view=${view} .fetch=${fetch} .accessToken=${token}></svc-agreements>`,
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

const rowOf = (el: SvcAgreements, id: string) => inner(el, `[data-key="row ${id}"]`)!;

describe('<svc-agreements> against the reference server', function () {
  this.timeout(60_000);

  it('lists the agreements the person is a party of, and only the multi-party ones in that view', async () => {
    const ada = await person();
    const el = await agreements(ada.base_url, ada.access_token);
    expect(el.status).to.equal('ready');
    expect(el.items.map((a) => a.id)).to.deep.equal([ada.solo, ada.joint]);
    const joint = rowOf(el, ada.joint);
    expect(text(joint.querySelector('[part=title]'))).to.equal('Joint study');
    expect(text(joint.querySelector('[part=meta]'))).to.match(
      /^Waiting for signatures · 0 of the 2 signatures needed \(2 parties\) · sign by /,
    );
    expect([...joint.querySelectorAll('[part=parties] li')].map(text)).to.deep.equal(['You: not yet', 'Grace Hopper: not yet']);
    expect(text(inner(el, '[part=status]'))).to.equal('2 agreements.');
    el.view = 'multi_party';
    await waitUntil(() => el.status === 'ready' && el.items.length === 1, 'the multi-party view did not load');
    expect(el.items[0]!.id).to.equal(ada.joint);
  });

  it('signs only after a confirm step that shows the document: Escape cancels and focus returns', async () => {
    const ada = await person();
    const el = await agreements(ada.base_url, ada.access_token);
    const changes = listen<SvcAgreementsChangeDetail>('svc-agreements-change');
    try {
      const sign = rowOf(el, ada.joint).querySelector<HTMLButtonElement>('[part=sign]')!;
      sign.focus();
      sign.click();
      await el.updateComplete;
      const confirm = inner(el, '[part=confirm]')!;
      expect(focused(el)).to.equal(confirm);
      expect(text(confirm.querySelector('p'))).to.match(/^Sign “Joint study” with .+\? Your signature covers the document shown above/);
      expect(text(confirm.querySelector('p'))).to.contain(ada.document_sha256.slice(0, 12));
      const doc = rowOf(el, ada.joint).querySelector<HTMLDetailsElement>('[part=document]')!;
      expect(doc.open).to.equal(true);
      expect(text(doc.querySelector('[part=document-text]'))).to.contain('You share your step counts with the study.');
      await press('Escape');
      await el.updateComplete;
      expect(inner(el, '[part=confirm]')).to.equal(null);
      expect(focused(el)).to.equal(sign);
      expect(changes.seen).to.have.length(0);

      sign.click();
      await el.updateComplete;
      inner<HTMLButtonElement>(el, '[part=confirm-button]')!.click();
      await waitUntil(() => changes.seen.length === 1, 'no change event');
      await el.updateComplete;
      expect(changes.seen[0]).to.include({ kind: 'agreement', id: ada.joint, action: 'sign' });
      expect(changes.seen[0]!.agreement!.you.status).to.equal('signed');
      const row = rowOf(el, ada.joint);
      expect(text(row.querySelector('[part=meta]'))).to.match(/^Partly signed · 1 of the 2/);
      expect(row.querySelector('[part=actions]')).to.equal(null);
      expect(focused(el)).to.equal(row);
      expect(text(inner(el, '[part=status]'))).to.equal('You signed “Joint study”.');
    } finally {
      changes.stop();
    }
  });

  it('shows the collaboration, what the person shares, and leaves it after the confirm step', async () => {
    const ada = await person();
    const el = await agreements(ada.base_url, ada.access_token, 'collaborations');
    expect(el.items.map((c) => c.id)).to.deep.equal([ada.collaboration]);
    const row = rowOf(el, ada.collaboration);
    expect(text(row.querySelector('[part=title]'))).to.equal('Step count study');
    expect(text(row.querySelector('[part=you]'))).to.equal('Member, waiting for your signature · You share no data');
    const changes = listen<SvcAgreementsChangeDetail>('svc-agreements-change');
    try {
      row.querySelector<HTMLButtonElement>('[part=leave]')!.click();
      await el.updateComplete;
      expect(text(inner(el, '[part=confirm] p'))).to.match(/^Leave “Step count study” with .+\?/);
      inner<HTMLButtonElement>(el, '[part=confirm-button]')!.click();
      await waitUntil(() => changes.seen.length === 1, 'no change event');
      expect(changes.seen[0]).to.include({ kind: 'collaboration', id: ada.collaboration, action: 'leave' });
      await el.updateComplete;
      expect(text(rowOf(el, ada.collaboration).querySelector('[part=you]'))).to.match(/you left/);
      expect(text(inner(el, '[part=status]'))).to.equal('You left “Step count study”.');
    } finally {
      changes.stop();
    }
  });
});

describe('<svc-agreements> states', () => {
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const TRUST = 'https://trust.svc.example';

  it('is idle and signed out without a token, and asks nothing', async () => {
    let asked = 0;
    const el = await agreements(TRUST, undefined, 'agreements', (async () => {
      asked += 1;
      return json({});
    }) as typeof fetch);
    expect(el.status).to.equal('idle');
    expect(text(el.shadowRoot!.querySelector('slot[name=signed-out]'))).to.equal('Sign in to see your agreements.');
    expect(asked).to.equal(0);
  });

  it('asks the right list for each view, and says so when it is empty', async () => {
    const asked: string[] = [];
    const fetch = (async (url: string) => {
      asked.push(new URL(url).pathname + new URL(url).search);
      return json(url.includes('collaborations') ? { collaborations: [], next_cursor: null } : { agreements: [], next_cursor: null });
    }) as unknown as typeof globalThis.fetch;
    const el = await agreements(TRUST, 'tok', 'multi_party', fetch);
    expect(el.status).to.equal('empty');
    el.view = 'collaborations';
    await waitUntil(() => asked.length === 2 && el.status === 'empty', 'the collaborations were not asked');
    expect(asked).to.deep.equal(['/api/v1/me/agreements?multi_party=true', '/api/v1/me/collaborations']);
    expect(text(el.shadowRoot!.querySelector('slot[name=empty]'))).to.match(/^You take part in no collaboration/);
  });

  it('signs out on 401 and fires svc-error', async () => {
    const errors = listen<{ code: string }>('svc-error');
    try {
      const out = await agreements(TRUST, 'tok', 'agreements', (async () => json({ message: 'expired' }, 401)) as typeof fetch);
      expect(out.status).to.equal('signed-out');
      expect(errors.seen.at(-1)?.code).to.equal('unauthorized');
    } finally {
      errors.stop();
    }
  });
});
