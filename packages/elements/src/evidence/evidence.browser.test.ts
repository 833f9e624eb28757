// <svc-evidence> in every engine. First against the reference server (test/evidence-server.ts: a register of three
// transfers, an admin API token and a viewer's, as the console's token would be): drawing a transfer-register
// package, downloading it exactly as answered, seeing it listed and verified; a tampered file that does not verify;
// the residency posture; a viewer who downloads and verifies but has no Draw button. Then with a fetch double for what
// a real service will not do on cue (a 403 in its words, a 429, a failure, keys that cannot be read).
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { EvidenceErrorDetail, SvcEvidenceChangeDetail } from './events.js';
import { SvcEvidence } from './evidence.js';

const TRUST = 'https://trust.svc.example';

interface Console {
  base_url: string;
  admin_token: string;
  viewer_token: string;
}

/** The reference server's tokens (asked again while it starts). */
async function consoleTokens(): Promise<Console> {
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const answer = await executeServerCommand<Console | { starting: true }, { origin: string }>('svc-evidence-person', {
      origin: location.origin,
    });
    if (!('starting' in answer)) return answer;
  }
  throw new Error('the evidence server did not start');
}

const inner = <T extends HTMLElement = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const all = (el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(selector)];
const text = (node: Element | null) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
const focused = (el: SvcEvidence) => el.shadowRoot!.activeElement as HTMLElement | null;
const settled = (el: SvcEvidence) => waitUntil(() => el.status !== 'loading', 'the list did not load', { timeout: 10_000 });

/** Collects the events of `type` on the document until `stop()`. */
function listen<T>(type: string) {
  const seen: T[] = [];
  const listener = (event: Event) => seen.push((event as CustomEvent<T>).detail);
  document.addEventListener(type, listener);
  return { seen, stop: () => document.removeEventListener(type, listener) };
}

/** Catches downloads: the Blob behind each object URL, the file name, and which URLs were revoked. */
function downloads() {
  const made = new Map<string, Blob>();
  const saved: { url: string; name: string }[] = [];
  const revoked: string[] = [];
  const create = URL.createObjectURL;
  const revoke = URL.revokeObjectURL;
  const click = HTMLAnchorElement.prototype.click;
  URL.createObjectURL = (blob: Blob) => {
    const url = create.call(URL, blob);
    made.set(url, blob);
    return url;
  };
  URL.revokeObjectURL = (url: string) => {
    revoked.push(url);
    revoke.call(URL, url);
  };
  HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
    saved.push({ url: this.href, name: this.download });
  };
  const restore = () => {
    URL.createObjectURL = create;
    URL.revokeObjectURL = revoke;
    HTMLAnchorElement.prototype.click = click;
  };
  return { made, saved, revoked, restore, text: (i: number) => made.get(saved[i]!.url)!.text() };
}

/** Chooses `content` as the file of "Check a package file" and waits for the verdict. */
async function checkFile(el: SvcEvidence, content: string, name = 'package.json'): Promise<string> {
  const input = inner<HTMLInputElement>(el, '[part=file]')!;
  const files = new DataTransfer();
  files.items.add(new File([content], name, { type: 'application/json' }));
  input.files = files.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
  const verdict = () => text(inner(el, '[part=check] [part~=verdict]'));
  await waitUntil(() => verdict().startsWith(`${name}: `), 'the file was not checked', { timeout: 10_000 });
  return text(inner(el, '[part=check] [part~=verdict]'));
}

/** The JSON text with one character of its package's payload changed. */
function tamper(json: string): string {
  const at = json.indexOf('.', json.indexOf('"package"')) + 5;
  return `${json.slice(0, at)}${json[at] === 'A' ? 'B' : 'A'}${json.slice(at + 1)}`;
}

describe('<svc-evidence> against the reference server', function () {
  this.timeout(120_000); // the first test waits for the reference server to start (a loaded machine is slow)
  // The verifier (jose and @svc/client) is loaded on the first Verify; loading it here keeps that out of the waits.
  before(() => import('./check.js'));
  afterEach(() => fixtureCleanup());

  it('lists the register; draws its package, downloads it as answered, lists and verifies it; a tampered file does not verify', async () => {
    const org = await consoleTokens();
    const el = await fixture<SvcEvidence>(
      html`<svc-evidence view=transfer_register trust-url=${org.base_url} .accessToken=${org.admin_token}></svc-evidence>`,
    );
    await settled(el);
    expect(el.status, text(inner(el, '[part=status]'))).to.equal('ready');
    const transfers = all(el, '[part=transfer]').map((row) => text(row));
    expect(transfers).to.have.length(3);
    expect(transfers[0]).to.match(/^From .*\(DE\) to .*\(US\): Consent proof Lawful basis: Adequacy decision \(GDPR Art\. 45\)/);
    expect(transfers[2]).to.contain('Standard contractual clauses (GDPR Art. 46)').and.contain('Needs standard contractual clauses');
    await expect(el).to.be.accessible();

    const changes = listen<SvcEvidenceChangeDetail>('svc-evidence-change');
    inner(el, '[part=draw]')!.click();
    await waitUntil(() => changes.seen.length === 1, 'no svc-evidence-change', { timeout: 10_000 });
    changes.stop();
    const { evidence_package_id: id, format_type } = changes.seen[0]!;
    expect(changes.seen[0]).to.deep.equal({ evidence_package_id: id, format_type: 'svc.transfer_register.v1', action: 'draw' });
    expect(id).to.match(/^evp_/);
    await el.updateComplete;
    expect(focused(el)?.getAttribute('part')).to.equal('drawn');
    expect(text(inner(el, '[part=status]'))).to.equal(`Drawn: a signed transfer register evidence package, ${id}.`);

    const caught = downloads();
    try {
      inner(el, '[part=drawn] [part=download]')!.click();
      await waitUntil(() => caught.saved.length === 1, 'nothing was downloaded', { timeout: 10_000 });
    } finally {
      caught.restore();
    }
    expect(caught.saved[0]!.name).to.equal(`${id}.json`);
    expect(caught.saved[0]!.url).to.match(/^blob:/);
    const downloaded = await caught.text(0);
    const answered = await (
      await fetch(`${org.base_url}/api/v1/evidence_packages/${id}`, { headers: { authorization: `Bearer ${org.admin_token}` } })
    ).text();
    expect(downloaded).to.equal(answered);
    expect(JSON.parse(downloaded).format_type).to.equal(format_type);

    el.view = 'evidence_packages';
    await el.updateComplete;
    await waitUntil(() => el.status === 'ready', 'the packages were not listed', { timeout: 10_000 });
    const first = all(el, '[part=package]')[0]!;
    expect(first.dataset.key).to.equal(`row ${id}`);
    expect(text(first.querySelector('[part=heading]'))).to.equal('Transfer register');
    first.querySelector<HTMLElement>('[part=verify]')!.click();
    await waitUntil(() => el.verifications.get(id), 'Verify said nothing', { timeout: 10_000 });
    expect(el.verifications.get(id)).to.include({ verified: true, evidence_package_id: id });
    expect(text(first.querySelector('[part~=verdict]'))).to.match(new RegExp(`^Verified: ${id} was signed by this service`));
    expect(first.querySelector('[part~=verdict]')!.getAttribute('part')).to.equal('verdict verified');
    await expect(el).to.be.accessible();

    expect(await checkFile(el, tamper(downloaded), 'tampered.json')).to.equal(
      'tampered.json: Does not verify: it was changed after the service signed it.',
    );
    expect(inner(el, '[part=check] [part~=verdict]')!.getAttribute('part')).to.equal('verdict not-verified');
    expect(await checkFile(el, downloaded, `${id}.json`)).to.match(new RegExp(`^${id}\\.json: Verified: ${id}`));
    expect(await checkFile(el, '{"not": "a package"}', 'other.json')).to.equal(
      'other.json: Does not verify: this is not an evidence package (not a signed package of this format).',
    );
  });

  it('revokes the download URL when the element goes', async () => {
    const org = await consoleTokens();
    const el = await fixture<SvcEvidence>(
      html`<svc-evidence view=residency_posture trust-url=${org.base_url} .accessToken=${org.admin_token}></svc-evidence>`,
    );
    await settled(el);
    inner(el, '[part=draw]')!.click();
    await waitUntil(() => el.drawnPackage, 'nothing was drawn', { timeout: 10_000 });
    await el.updateComplete;
    const caught = downloads();
    try {
      inner(el, '[part=drawn] [part=download]')!.click();
      await waitUntil(() => caught.saved.length === 1, 'nothing was downloaded', { timeout: 10_000 });
      el.remove();
      expect(caught.revoked).to.deep.equal([caught.saved[0]!.url]);
    } finally {
      caught.restore();
    }
  });

  it('shows the residency posture per country with its assurance, and draws its package', async () => {
    const org = await consoleTokens();
    const el = await fixture<SvcEvidence>(
      html`<svc-evidence view=residency_posture trust-url=${org.base_url} .accessToken=${org.admin_token}></svc-evidence>`,
    );
    await settled(el);
    expect(el.status).to.equal('ready');
    expect(el.posture?.assurance).to.equal('verified');
    expect(text(inner(el, '[part~=posture]'))).to.equal('Residency: verified in every country.');
    const countries = all(el, '[part=country]');
    expect(countries.length).to.be.greaterThan(0);
    expect(text(countries[0]!.querySelector('[part~=assurance]'))).to.equal('Verified: every personal row stored here is homed here.');
    await expect(el).to.be.accessible();
    inner(el, '[part=draw]')!.click();
    await waitUntil(() => el.drawnPackage, 'nothing was drawn', { timeout: 10_000 });
    expect(el.drawnPackage!.format_type).to.equal('svc.residency_posture.v1');
    await el.updateComplete;
    inner(el, '[part=drawn] [part=verify]')!.click();
    await waitUntil(() => el.verifications.size, 'Verify said nothing', { timeout: 10_000 });
    expect(el.verifications.get(el.drawnPackage!.evidence_package_id)?.verified).to.equal(true);
  });

  it('a viewer with readonly sees no Draw button, and still downloads and verifies', async () => {
    const org = await consoleTokens();
    const drawn = await fetch(`${org.base_url}/api/v1/transfer_register/evidence_package`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.admin_token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const { evidence_package_id: id } = (await drawn.json()) as { evidence_package_id: string };
    const register = await fixture<SvcEvidence>(
      html`<svc-evidence readonly view=transfer_register trust-url=${org.base_url} .accessToken=${org.viewer_token}></svc-evidence>`,
    );
    await settled(register);
    expect(register.status).to.equal('ready');
    expect(inner(register, '[part=draw]')).to.equal(null);
    expect(all(register, 'button')).to.deep.equal([]);
    const el = await fixture<SvcEvidence>(
      html`<svc-evidence readonly trust-url=${org.base_url} .accessToken=${org.viewer_token}></svc-evidence>`,
    );
    await settled(el);
    const row = all(el, '[part=package]').find((li) => li.dataset.key === `row ${id}`)!;
    expect(row, 'the package drawn is listed').to.exist;
    const caught = downloads();
    try {
      row.querySelector<HTMLElement>('[part=download]')!.click();
      await waitUntil(() => caught.saved.length === 1, 'nothing was downloaded', { timeout: 10_000 });
      expect(JSON.parse(await caught.text(0)).evidence_package_id).to.equal(id);
    } finally {
      caught.restore();
    }
    row.querySelector<HTMLElement>('[part=verify]')!.click();
    await waitUntil(() => el.verifications.get(id), 'Verify said nothing', { timeout: 10_000 });
    expect(el.verifications.get(id)?.verified).to.equal(true);
    await expect(el).to.be.accessible();
  });
});

interface Call {
  url: URL;
  method: string;
}

/** A fetch that answers each call by `answer`, recording the calls. */
function api(answer: (call: Call, index: number) => Response) {
  const calls: Call[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call = { url: new URL(String(input), location.href), method: init.method ?? 'GET' };
    calls.push(call);
    return answer(call, calls.length - 1);
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const TRANSFER = {
  id: 'trf_1',
  application_id: 'tp_dev_shop',
  category: 'consent_proof',
  from_country: 'DE',
  to_country: 'US',
  lawful_basis: 'gdpr_art45_adequacy_decision',
  adequacy: 'adequacy_decision',
  created_at: '2026-03-01T10:00:00.000Z',
};
const REGISTER = json({ transfers: [TRANSFER], next_cursor: null });
const SUMMARY = {
  id: 'evp_us_1',
  format_type: 'svc.transfer_register.v1',
  kid: 'k1',
  payload_sha256: '0'.repeat(64),
  created_at: '2026-03-01T10:00:00.000Z',
};

describe('<svc-evidence> with a fetch double', () => {
  afterEach(() => fixtureCleanup());

  it("says a refused draw in the service's words (403 insufficient_permissions), fires svc-error and keeps focus on Draw", async () => {
    const message = 'This API token lacks the admin permission.';
    const double = api((call) => (call.method === 'POST' ? json({ message, code: 'insufficient_permissions' }, 403) : REGISTER.clone()));
    const errors = listen<EvidenceErrorDetail>('svc-error');
    const el = await fixture<SvcEvidence>(
      html`<svc-evidence view=transfer_register trust-url=${TRUST} .fetch=${double.fetch} .accessToken=${'t'}></svc-evidence>`,
    );
    await settled(el);
    inner(el, '[part=draw]')!.click();
    await waitUntil(() => inner(el, '[part=refusal]'), 'the refusal was not said', { timeout: 5_000 });
    errors.stop();
    expect(text(inner(el, '[part=refusal]'))).to.equal(`Nothing was drawn: ${message}`);
    expect(text(inner(el, '[part=status]'))).to.equal(`Nothing was drawn: ${message}`);
    expect(errors.seen).to.deep.equal([{ code: 'forbidden', message, fatal: true, recoverable_via: null }]);
    expect(focused(el)?.getAttribute('part')).to.equal('draw');
    expect(el.status).to.equal('ready');
    expect(double.calls.map((c) => `${c.method} ${c.url.pathname}`)).to.deep.equal([
      'GET /api/v1/transfer_register',
      'POST /api/v1/transfer_register/evidence_package',
    ]);
    await expect(el).to.be.accessible();
  });

  it('asks again after a short 429, and shows the error state with a retry after a failure', async () => {
    const double = api((_call, index) =>
      index === 0
        ? json({ message: 'Slow down.', code: 'rate_limited' }, 429, { 'retry-after': '0' })
        : json({ evidence_packages: [SUMMARY], next_cursor: null }),
    );
    const el = await fixture<SvcEvidence>(
      html`<svc-evidence trust-url=${TRUST} .fetch=${double.fetch} .accessToken=${'t'}></svc-evidence>`,
    );
    await waitUntil(() => el.status === 'ready', 'the 429 was not asked again', { timeout: 5_000 });
    expect(double.calls).to.have.length(2);
    expect(text(inner(el, '[part=package] [part=heading]'))).to.equal('Transfer register');

    const failing = api(() => json({ message: 'Internal server error.', code: 'internal_error' }, 500));
    const broken = await fixture<SvcEvidence>(
      html`<svc-evidence view=residency_posture trust-url=${TRUST} .fetch=${failing.fetch} .accessToken=${'t'}></svc-evidence>`,
    );
    await waitUntil(() => broken.status === 'error', 'no error state', { timeout: 5_000 });
    expect(inner(broken, '[part=retry]')).to.exist;
    expect(inner(broken, '[part=draw]')).to.equal(null);
  });

  it("says a package cannot be verified when the service's keys cannot be read, and signs out on a refused token", async () => {
    const jws = 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln';
    const double = api((call) => {
      if (call.url.pathname === '/.well-known/jwks.json') return json({ message: 'down' }, 503);
      if (call.url.pathname.endsWith('/evp_us_1'))
        return json({ evidence_package_id: 'evp_us_1', format_type: SUMMARY.format_type, package: jws });
      return json({ evidence_packages: [SUMMARY], next_cursor: null });
    });
    const el = await fixture<SvcEvidence>(
      html`<svc-evidence trust-url=${TRUST} .fetch=${double.fetch} .accessToken=${'t'}></svc-evidence>`,
    );
    await settled(el);
    inner(el, '[part=verify]')!.click();
    await waitUntil(() => el.verifications.size, 'Verify said nothing', { timeout: 5_000 });
    expect(text(inner(el, '[part~=verdict]'))).to.equal("Could not verify: the service's published keys could not be read. Try again.");

    const refused = api(() => json({ message: 'The bearer token is not valid.', code: 'unauthorized' }, 401));
    const out = await fixture<SvcEvidence>(
      html`<svc-evidence trust-url=${TRUST} .fetch=${refused.fetch} .accessToken=${'t'}></svc-evidence>`,
    );
    await waitUntil(() => out.status === 'signed-out', 'not signed out', { timeout: 5_000 });
    expect(text(out.shadowRoot!.querySelector('[part=base]'))).to.contain('Sign in to the console again to see this.');
  });

  it('fits 375 px right to left without scrolling sideways', async () => {
    const double = api(() => REGISTER.clone());
    const wrap = await fixture<HTMLDivElement>(
      html`<div dir=rtl style="inline-size: 375px"><svc-evidence view=transfer_register trust-url=${TRUST} .fetch=${double.fetch} .accessToken=${'t'}></svc-evidence></div>`,
    );
    const el = wrap.querySelector('svc-evidence')!;
    await settled(el);
    expect(el.scrollWidth).to.be.at.most(375);
    expect(inner(el, '[part=base]')!.scrollWidth).to.be.at.most(375);
  });
});
