// <svc-receipts> in every engine, against the reference server (test/receipts-server.ts: a person who granted an
// agent bounded authority, which it used once within the bounds and once beyond, and gave a consent under terms that
// disclose the agent): each receipt's offline check in the browser, with no call about that receipt; and the drop
// zone, which says valid for a real receipt, tampered once a byte is flipped, not this service's for another key's.
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { SvcReceiptsVerifyDetail } from './events.js';
import { SvcReceipts } from './receipts.js';

interface Person {
  base_url: string;
  access_token: string;
  grant_record: string;
  record: string;
  consent: { receipt: { record_id: string }; signature: string };
  foreign: { receipt: unknown; signature: string };
  jwks: { keys: object[] };
}

const inner = (el: Element, selector: string) => el.shadowRoot!.querySelector<HTMLElement>(selector);
const all = (el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(selector)];
const text = (node: Element | null) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

async function person(): Promise<Person> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const answer = await executeServerCommand<Person | { starting: true }, { origin: string }>('svc-receipts-person', {
      origin: location.origin,
    });
    if (!('starting' in answer)) return answer;
  }
  throw new Error('the receipts server did not start');
}

/** A fetch that records every URL it is asked for, then asks the page's. */
function recording() {
  const urls: string[] = [];
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    urls.push(String(input));
    return globalThis.fetch(input, init);
  };
  return { fetch: fetch as typeof globalThis.fetch, urls };
}

function listen<T>(type: string) {
  const seen: T[] = [];
  const listener = (event: Event) => seen.push((event as CustomEvent<T>).detail);
  document.addEventListener(type, listener);
  return { seen, stop: () => document.removeEventListener(type, listener) };
}

/** The element for `who`, ready, with every shown receipt checked. */
async function receipts(who: Person, view = 'authorization', extra: { fetch?: typeof fetch; jwks?: object } = {}): Promise<SvcReceipts> {
  const el = await fixture<SvcReceipts>(
    html`<svc-receipts trust-url=${who.base_url} view=${view} .accessToken=${who.access_token} .fetch=${extra.fetch} .jwks=${extra.jwks}></svc-receipts>`,
  );
  await waitUntil(() => el.status !== 'loading', 'the receipts did not load', { timeout: 10_000 });
  await waitUntil(() => el.receipts.every((r) => el.verdicts.get(r.id) && el.verdicts.get(r.id) !== 'checking'), 'not checked', {
    timeout: 30_000, // the first check loads the verifier
  });
  await el.updateComplete;
  return el;
}

const file = (name: string, body: string) => new File([body], name, { type: 'application/json' });

describe('<svc-receipts> against the reference server', function () {
  this.timeout(60_000);
  // The reference server's start, and the verifier's first load (the dev server transforms jose and the schemas), are
  // slow on a busy machine: both happen once, here.
  before(async function () {
    this.timeout(180_000);
    await Promise.all([person(), import('./check.js')]);
  });
  afterEach(() => fixtureCleanup());

  it('lists what the agent did in the person’s name, each bound in plain words, and checks the receipt offline', async () => {
    const ada = await person();
    const events = listen<SvcReceiptsVerifyDetail>('svc-receipts-verify');
    const { fetch, urls } = recording();
    const el = await receipts(ada, 'authorization', { fetch });
    events.stop();
    expect(el.status, text(inner(el, '[part=status]'))).to.equal('ready');
    expect(el.receipts.map((r) => r.id)).to.deep.equal([ada.grant_record]);
    const row = inner(el, '[part=receipt]')!;
    expect(text(row.querySelector('[part=check]'))).to.equal('Valid: signed by this service and unchanged since.');
    expect(text(row.querySelector('[part=heading]'))).to.contain('Booking helper');
    const bounds = [...row.querySelectorAll('[part=bound]')].map((b) => `${text(b.querySelector('dt'))}: ${text(b.querySelector('dd'))}`);
    expect(bounds).to.have.length(8);
    expect(bounds).to.include('Amount: At most 200 EUR per action');
    expect(bounds).to.include('How often: At most 10 actions a day');
    expect(bounds).to.include('Where: Not set');
    expect(text(row.querySelector('[part=actions] p'))).to.equal('1 within the bounds, 1 refused, 0 asked of you.');
    expect(events.seen).to.deep.equal([{ source: 'list', verdict: 'valid', record_id: ada.grant_record }]);
    // Offline: the list and the service's keys, once; nothing about the receipt itself.
    expect(urls.map((u) => new URL(u).pathname)).to.deep.equal(['/api/v1/me/authorization_receipts', '/.well-known/jwks.json']);
    await expect(el).to.be.accessible();
  });

  it('lists the agents disclosed to the person, checked with the JWK Set given as a property (no key fetch)', async () => {
    const ada = await person();
    const { fetch, urls } = recording();
    const el = await receipts(ada, 'disclosure', { fetch, jwks: ada.jwks });
    expect(el.receipts.map((r) => r.id)).to.deep.equal([ada.record]);
    expect(text(inner(el, '[part=check]'))).to.equal('Valid: signed by this service and unchanged since.');
    expect(text(inner(el, '[part=agents]'))).to.equal('Booking helper (autonomous, run by Helpers Ltd): Books tables');
    expect(urls.map((u) => new URL(u).pathname)).to.deep.equal(['/api/v1/me/disclosure_receipts']);
  });

  it('checks a dropped receipt file: valid, tampered once a byte is flipped, not this service’s from another key, malformed', async () => {
    const ada = await person();
    const el = await receipts(ada, 'authorization', { jwks: ada.jwks });
    const events = listen<SvcReceiptsVerifyDetail>('svc-receipts-verify');
    const consent = JSON.stringify(ada.consent);
    const id = ada.record;
    const flipped = consent.replace(id, `${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`);

    const drop = new DataTransfer();
    drop.items.add(file('consent-receipt.json', consent));
    inner(el, '[part=drop]')!.dispatchEvent(new DragEvent('drop', { dataTransfer: drop, bubbles: true, cancelable: true }));
    await waitUntil(() => events.seen.length === 1, 'the dropped file was not checked');
    await el.updateComplete;
    expect(text(inner(el, '[part=file-verdict]'))).to.equal('consent-receipt.json: Valid: signed by this service and unchanged since.');

    expect(await el.checkFile(file('flipped.json', flipped))).to.equal('tampered');
    expect(await el.checkFile(file('foreign.json', JSON.stringify(ada.foreign)))).to.equal('not_this_service');
    expect(await el.checkFile(file('notes.json', '{"receipt": 1'))).to.equal('malformed');
    await el.updateComplete;
    expect(text(inner(el, '[part=status]'))).to.equal('notes.json: Malformed: this is not a signed receipt.');
    events.stop();
    expect(events.seen.map((e) => [e.source, e.verdict, e.file_name])).to.deep.equal([
      ['file', 'valid', 'consent-receipt.json'],
      ['file', 'tampered', 'flipped.json'],
      ['file', 'not_this_service', 'foreign.json'],
      ['file', 'malformed', 'notes.json'],
    ]);
    expect(events.seen[0]!.record_id).to.equal(ada.record);
  });

  it('checks a chosen file, and a receipt of the list saved as the API answered it', async () => {
    const ada = await person();
    const el = await receipts(ada, 'authorization', { jwks: ada.jwks });
    const saved = JSON.stringify({ authorization_receipt: el.receipts[0] });
    const input = inner(el, '[part=file]') as HTMLInputElement;
    const chosen = new DataTransfer();
    chosen.items.add(file('saved.json', saved));
    input.files = chosen.files;
    const events = listen<SvcReceiptsVerifyDetail>('svc-receipts-verify');
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await waitUntil(() => events.seen.length === 1, 'the chosen file was not checked');
    events.stop();
    expect(events.seen[0]).to.deep.equal({ source: 'file', verdict: 'valid', record_id: ada.grant_record, file_name: 'saved.json' });
    expect(all(el, '[part=receipt]')).to.have.length(1);
  });

  it('says signed out without a token, and still checks a file', async () => {
    const ada = await person();
    const el = await fixture<SvcReceipts>(html`<svc-receipts trust-url=${ada.base_url} .jwks=${ada.jwks}></svc-receipts>`);
    expect(el.status).to.equal('idle');
    expect(await el.checkFile(file('consent.json', JSON.stringify(ada.consent)))).to.equal('valid');
  });
});
