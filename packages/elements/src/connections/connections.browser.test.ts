// <svc-connections> in every engine. First against the reference server (test/wtr-person-servers.mjs: a person
// whose consent connected them to the sandbox application, whose phone asked for a device link, and who paired two
// other devices): disconnecting through the confirm step (what stopped is listed), linking this device with the
// phone's code (a wrong code said in the service's words first), unpairing. Then with a fetch double for the states
// a real service will not take on cue: empty, refused tokens, failures.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { SvcConnectionsChangeDetail } from './events.js';
import { SvcConnections } from './connections.js';

const inner = <T extends HTMLElement = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const text = (node: Element | null) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const focused = (el: SvcConnections) => el.shadowRoot!.activeElement as HTMLElement | null;
const press = (key: string) => executeServerCommand('svc-press', key);

interface Person {
  base_url: string;
  access_token: string;
  connection: string;
  record: string;
  link: string;
  code: string;
  paired_link: string;
  pairing: string;
}

/** A new person at the reference server and their access token (asked again while it starts). */
async function person(): Promise<Person> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const answer = await executeServerCommand<Person | { starting: true }, { origin: string }>('svc-connections-person', {
      origin: location.origin,
    });
    if (!('starting' in answer)) return answer;
  }
  throw new Error('the connections server did not start');
}

async function connections(trustUrl: string, token: string | undefined, view?: string, fetch?: typeof globalThis.fetch) {
  const el = await fixture<SvcConnections>(
    html`<svc-connections trust-url=${trustUrl} view=${view ?? 'connections'} .fetch=${fetch} .accessToken=${token}></svc-connections>`,
  );
  await waitUntil(() => el.status !== 'loading', 'the list did not load');
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

const rowOf = (el: SvcConnections, id: string) => inner(el, `[data-key="row ${id}"]`)!;

describe('<svc-connections> against the reference server', function () {
  this.timeout(60_000);

  it('disconnects only after the confirm step: Escape cancels and focus returns; confirming lists what stopped', async () => {
    const ada = await person();
    const el = await connections(ada.base_url, ada.access_token);
    expect(el.connections.map((c) => c.id)).to.deep.equal([ada.connection]);
    const row = rowOf(el, ada.connection);
    expect(text(row.querySelector('[part=meta]'))).to.match(/^Connected · Holds your consent · Since /);
    expect(text(row.querySelector('[part=policies]'))).to.match(/^Your consent to /);
    const changes = listen<SvcConnectionsChangeDetail>('svc-connections-change');
    try {
      const disconnect = row.querySelector<HTMLButtonElement>('[part=disconnect]')!;
      disconnect.focus();
      disconnect.click();
      await el.updateComplete;
      const confirm = inner(el, '[part=confirm]')!;
      expect(focused(el)).to.equal(confirm);
      expect(text(confirm.querySelector('p'))).to.match(/^Disconnect from .+\? This is final: the consent you gave it is withdrawn/);
      await press('Escape');
      await el.updateComplete;
      expect(inner(el, '[part=confirm]')).to.equal(null);
      expect(focused(el)).to.equal(disconnect);
      expect(text(inner(el, '[part=status]'))).to.equal('Nothing was changed.');
      expect(changes.seen).to.have.length(0);

      disconnect.click();
      await el.updateComplete;
      inner<HTMLButtonElement>(el, '[part=confirm-button]')!.click();
      await waitUntil(() => changes.seen.length === 1, 'no change event');
      await el.updateComplete;
      expect(changes.seen[0]).to.include({ action: 'disconnect', id: ada.connection });
      expect(changes.seen[0]!.warnings!.some((w) => w.includes(ada.record))).to.equal(true);
      const after = rowOf(el, ada.connection);
      expect(text(after.querySelector('[part=meta]'))).to.match(/^Disconnected · Since .+ · ended /);
      expect(text(after.querySelector('[part=warnings]'))).to.contain(ada.record);
      expect(after.querySelector('[part=disconnect]')).to.equal(null);
      expect(focused(el)).to.equal(after);
      expect(text(inner(el, '[part=status]'))).to.match(/^Disconnected from /);
      await el.refresh();
      expect(el.connections[0]?.status).to.equal('disconnected');
    } finally {
      changes.stop();
    }
  });

  it("links this device with the code the phone shows: a wrong code is said in the service's words, the right one pairs", async () => {
    const ada = await person();
    const el = await connections(ada.base_url, ada.access_token, 'device_links');
    expect(el.deviceLinks.map((l) => l.id)).to.deep.equal([ada.link, ada.paired_link]);
    expect(text(rowOf(el, ada.link).querySelector('[part=meta]'))).to.match(/^Waiting for its code · Asked .+ · code valid until /);
    const changes = listen<SvcConnectionsChangeDetail>('svc-connections-change');
    const errors = listen<{ code: string }>('svc-error');
    try {
      rowOf(el, ada.link).querySelector<HTMLButtonElement>('[part=claim]')!.click();
      await el.updateComplete;
      const code = inner<HTMLInputElement>(el, '[part=claim-form] input[name=code]')!;
      expect(focused(el)).to.equal(code);
      code.value = 'AAAA-AAAA';
      inner<HTMLButtonElement>(el, '[part=claim-button]')!.click();
      await waitUntil(() => errors.seen.length === 1, 'no svc-error for a wrong code');
      await el.updateComplete;
      expect(errors.seen[0]!.code).to.equal('invalid');
      expect(text(inner(el, '[part=status]'))).to.match(/^The code matches no device link of yours\. 4 more wrong codes lock/);
      expect(changes.seen).to.have.length(0);

      inner<HTMLInputElement>(el, '[part=claim-form] input[name=code]')!.value = ada.code;
      inner<HTMLButtonElement>(el, '[part=claim-button]')!.click();
      await waitUntil(() => changes.seen.length === 1, 'no change event');
      await el.updateComplete;
      expect(changes.seen[0]).to.include({ action: 'claim', id: ada.link });
      expect(changes.seen[0]!.trust_pairing!.claimant.device_name).to.equal('This browser');
      expect(text(rowOf(el, ada.link).querySelector('[part=meta]'))).to.match(/^Linked · /);
      expect(inner(el, '[part=claim-form]')).to.equal(null);
      expect(text(inner(el, '[part=status]'))).to.equal('This device is now paired with Phone.');
      expect(focused(el)).to.equal(rowOf(el, ada.link));
    } finally {
      changes.stop();
      errors.stop();
    }
  });

  it('unpairs two devices after the confirm step', async () => {
    const ada = await person();
    const el = await connections(ada.base_url, ada.access_token, 'trust_pairings');
    expect(el.trustPairings.map((p) => p.id)).to.deep.equal([ada.pairing]);
    const row = rowOf(el, ada.pairing);
    expect(text(row.querySelector('[part=device]'))).to.equal('Old phone and Tablet');
    const changes = listen<SvcConnectionsChangeDetail>('svc-connections-change');
    try {
      row.querySelector<HTMLButtonElement>('[part=unpair]')!.click();
      await el.updateComplete;
      expect(text(inner(el, '[part=confirm] p'))).to.equal('Unpair Old phone and Tablet? They will no longer trust each other.');
      inner<HTMLButtonElement>(el, '[part=confirm-button]')!.click();
      await waitUntil(() => changes.seen.length === 1, 'no change event');
      await el.updateComplete;
      expect(changes.seen[0]!.trust_pairing!.status).to.equal('revoked');
      expect(text(rowOf(el, ada.pairing).querySelector('[part=meta]'))).to.match(/^Unpaired · Paired .+ · unpaired /);
      expect(text(inner(el, '[part=status]'))).to.equal('Old phone and Tablet are no longer paired.');
    } finally {
      changes.stop();
    }
  });
});

describe('<svc-connections> states', () => {
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const TRUST = 'https://trust.svc.example';

  it('is idle and signed out without a token, and asks nothing', async () => {
    let asked = 0;
    const el = await connections(TRUST, undefined, undefined, (async () => {
      asked += 1;
      return json({});
    }) as typeof fetch);
    expect(el.status).to.equal('idle');
    expect(text(el.shadowRoot!.querySelector('slot[name=signed-out]'))).to.equal('Sign in to see the applications you are connected to.');
    expect(asked).to.equal(0);
  });

  it('reads the list of its view, and says so when it is empty', async () => {
    const asked: string[] = [];
    const double = (async (url: string) => {
      asked.push(new URL(url).pathname);
      return json({ trust_pairings: [], next_cursor: null });
    }) as typeof fetch;
    const el = await connections(TRUST, 'tok', 'trust_pairings', double);
    expect(el.status).to.equal('empty');
    expect(asked).to.deep.equal(['/api/v1/me/trust_pairings']);
    expect(text(el.shadowRoot!.querySelector('slot[name=empty]'))).to.equal('You have no paired devices.');
  });

  it('signs out on 401 and fires svc-error; an error answer offers a retry that reads again', async () => {
    const errors = listen<{ code: string }>('svc-error');
    try {
      const out = await connections(TRUST, 'tok', undefined, (async () => json({ message: 'expired' }, 401)) as typeof fetch);
      expect(out.status).to.equal('signed-out');
      expect(errors.seen.at(-1)?.code).to.equal('unauthorized');
      let calls = 0;
      const flaky = (async () =>
        ++calls === 1 ? json({ message: 'down' }, 503) : json({ connections: [], next_cursor: null })) as typeof fetch;
      const el = await connections(TRUST, 'tok', undefined, flaky);
      expect(el.status).to.equal('error');
      inner<HTMLButtonElement>(el, '[part=retry]')!.click();
      await waitUntil(() => el.status === 'empty', 'the retry did not read again');
    } finally {
      errors.stop();
    }
  });
});
