// <svc-decision> in every engine against a stand-in for the service's hosted page (test/fixtures/frame.ts) on
// another origin: this test page is http://localhost:<port>, the "service" is http://127.0.0.1:<port> and
// http://127.0.0.2:<port> is a third origin.
import { aTimeout, expect, fixture, fixtureCleanup, html, oneEvent, waitUntil } from '@open-wc/testing';
import {
  approvalCompletePayloadSchema,
  consentCompletePayloadSchema,
  createMessage,
  envelopeSchema,
  payloadSchemas,
  readyPayloadSchema,
} from '@svc/protocol';
import * as z from 'zod/mini';
import '../provider/provider.js';
import type { SvcProvider } from '../provider/provider.js';
import { SvcDecision } from './decision.js';

const SERVICE = `http://127.0.0.1:${location.port}`;
const THIRD = `http://127.0.0.2:${location.port}`;
const TRUST = `${SERVICE}/packages/elements/test/fixtures`;
const EVENTS = ['svc-ready', 'svc-state', 'svc-complete', 'svc-cancel', 'svc-error', 'svc-resize', 'svc-deadline'] as const;

interface Seen {
  type: string;
  detail: Record<string, unknown>;
}

/** Records every svc event that reaches `document` (so each one bubbled out of the shadow root and the element). */
function record(): Seen[] & { stop(): void } {
  const seen = [] as unknown as Seen[] & { stop(): void };
  const listener = (event: Event) => seen.push({ type: event.type, detail: (event as CustomEvent).detail });
  for (const type of EVENTS) document.addEventListener(type, listener);
  seen.stop = () => {
    for (const type of EVENTS) document.removeEventListener(type, listener);
  };
  return seen;
}

const frameOf = (el: SvcDecision) => el.shadowRoot!.querySelector('iframe');
const part = (el: SvcDecision, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);

/** Resolves with the next fixture report (a plain `{fixture}` message) named `name`. */
function report(name: string, from?: () => Window | null | undefined): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const listener = (event: MessageEvent) => {
      if (event.origin !== SERVICE || event.data?.fixture !== name) return;
      if (from && event.source !== from()) return;
      removeEventListener('message', listener);
      resolve(event.data);
    };
    addEventListener('message', listener);
  });
}

/** Tells the fixture page in `target` to do something. */
function command(target: Window | null | undefined, data: Record<string, unknown>): void {
  target!.postMessage(data, SERVICE);
}

/** Calls `open()` on `el` and returns the window it opened (the browser's own `window.open`, watched). */
function openPopup(el: SvcDecision): Window {
  const open = window.open;
  let opened: Window | null = null;
  window.open = (...args: Parameters<typeof window.open>) => (opened = open.apply(window, args));
  try {
    expect(el.open()).to.equal(true);
  } finally {
    window.open = open;
  }
  return opened!;
}

const send = (el: SvcDecision, type: string, payload: unknown) => command(frameOf(el)!.contentWindow, { fixture: 'send', type, payload });

async function embedded(token = 'dts_fixture_a'): Promise<SvcDecision> {
  const el = await fixture<SvcDecision>(html`<svc-decision token=${token} trust-url=${TRUST}></svc-decision>`);
  if (!token.includes('quiet')) await oneEvent(el, 'svc-ready');
  return el;
}

/**
 * Runs axe on `el` without descending into the cross-origin frame, which has no axe of its own to answer (axe
 * would wait a minute for it). The hosted page is audited by the server's own e2e suite.
 */
async function audit(el: Element): Promise<string[]> {
  // chai-a11y-axe loads axe-core onto window the first time it runs.
  const probe = document.createElement('p');
  probe.textContent = 'probe';
  document.body.append(probe);
  await expect(probe).to.be.accessible();
  probe.remove();
  type Axe = { run(context: Element, options: object): Promise<{ violations: { id: string; nodes: { html: string }[] }[] }> };
  const { violations } = await (window as unknown as { axe: Axe }).axe.run(el, { iframes: false, resultTypes: ['violations'] });
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(', ')}`);
}

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString().replace(/\.\d{3}Z$/, '.000Z');
const readyPayload = (token: string, deadline: string | null) => ({
  kind: 'consent',
  session_token: token,
  deadline_at: deadline,
  branding: { name: 'Fixture Shop' },
  mode: 'embed',
  locale: 'en',
});

describe('<svc-decision>', () => {
  let seen: ReturnType<typeof record>;
  beforeEach(() => {
    seen = record();
  });
  afterEach(() => {
    seen.stop();
    fixtureCleanup();
    SvcDecision.readyTimeoutMs = 8000;
  });

  it('passes the axe accessibility audit while loading and once ready', async () => {
    const el = await fixture<SvcDecision>(html`<svc-decision token="dts_fixture_quiet" trust-url=${TRUST}></svc-decision>`);
    await report('loaded');
    expect(await audit(el)).to.deep.equal([]);
    send(el, 'svc:ready', readyPayload('dts_fixture_quiet', inSeconds(900)));
    await oneEvent(el, 'svc-ready');
    await el.updateComplete;
    expect(await audit(el)).to.deep.equal([]);
  });

  describe('attributes', () => {
    it('embeds /decisions/{token}/embed in a titled, sandboxed iframe with a strict referrer policy', async () => {
      const el = await fixture<SvcDecision>(html`<svc-decision token="dts_fixture_a" trust-url=${TRUST}></svc-decision>`);
      expect(el.mode).to.equal('embed');
      const frame = frameOf(el)!;
      expect(frame.src).to.equal(`${TRUST}/decisions/dts_fixture_a/embed`);
      expect(frame.getAttribute('sandbox')).to.equal(
        'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox',
      );
      expect(frame.getAttribute('referrerpolicy')).to.equal('strict-origin');
      expect(frame.hasAttribute('allow')).to.equal(false);
      expect(frame.title).to.equal('Decision request');
      expect(frame.getAttribute('part')).to.equal('frame');
    });

    it('shows the loading view and keeps the frame hidden but laid out until svc:ready', async () => {
      const el = await fixture<SvcDecision>(html`<svc-decision token="dts_fixture_quiet" trust-url=${TRUST}></svc-decision>`);
      await report('loaded');
      expect(el.status).to.equal('loading');
      expect(el.matches(':state(loading)')).to.equal(true);
      expect(part(el, 'loading')).to.exist;
      expect(getComputedStyle(frameOf(el)!).visibility).to.equal('hidden');
      expect(frameOf(el)!.getBoundingClientRect().height).to.equal(320);
      expect(part(el, 'status')!.textContent).to.equal('Loading the request…');
      send(el, 'svc:ready', readyPayload('dts_fixture_quiet', inSeconds(900)));
      await oneEvent(el, 'svc-ready');
      await el.updateComplete;
      expect(el.status).to.equal('ready');
      expect(part(el, 'loading')).to.equal(null);
      expect(getComputedStyle(frameOf(el)!).visibility).to.equal('visible');
      expect(frameOf(el)!.title).to.equal('Consent request from Fixture Shop');
      expect(part(el, 'status')!.textContent).to.equal('');
    });

    it('uses a custom loading view from the loading slot and a custom frame label', async () => {
      const el = await fixture<SvcDecision>(html`<svc-decision token="dts_fixture_quiet" trust-url=${TRUST} label="Cookie choices">
        <p slot="loading" id="mine">Just a moment</p>
      </svc-decision>`);
      const slot = part(el, 'loading')!.querySelector('slot')!;
      expect(slot.assignedElements().map((e) => e.id)).to.deep.equal(['mine']);
      expect(frameOf(el)!.title).to.equal('Cookie choices');
    });

    for (const [name, attrs, message] of [
      ['no trust URL', { token: 'dts_fixture_a' }, /No trust URL/],
      ['a relative trust URL', { token: 'dts_fixture_a', 'trust-url': '/svc' }, /absolute URL/],
      ['an unknown mode', { token: 'dts_fixture_a', 'trust-url': TRUST, mode: 'modal' }, /mode must be/],
    ] as const) {
      it(`fires svc-error invalid_configuration and shows the error view for ${name}`, async () => {
        const error = console.error;
        console.error = () => undefined;
        try {
          const el = document.createElement('svc-decision');
          for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
          const error = oneEvent(el, 'svc-error');
          document.body.append(el);
          const { detail } = await error;
          expect(detail).to.include({ code: 'invalid_configuration', fatal: true, recoverable_via: null });
          expect(detail.message).to.match(message);
          await el.updateComplete;
          expect(el.status).to.equal('error');
          expect(frameOf(el)).to.equal(null);
          expect(part(el, 'error')!.textContent!.trim()).to.equal('This request cannot be shown right now.');
          el.remove();
        } finally {
          console.error = error;
        }
      });
    }

    it('reports frame_unavailable when the page loads but never says it is ready', async () => {
      SvcDecision.readyTimeoutMs = 200;
      const el = await fixture<SvcDecision>(html`<svc-decision token="dts_fixture_dead" trust-url=${TRUST}>
        <p slot="error" id="oops">Try again later</p>
      </svc-decision>`);
      const { detail } = await oneEvent(el, 'svc-error');
      expect(detail).to.include({ code: 'frame_unavailable', fatal: true, recoverable_via: 'reload' });
      await el.updateComplete;
      expect(el.status).to.equal('error');
      expect(getComputedStyle(frameOf(el)!).display).to.equal('none');
      expect(
        part(el, 'error')!
          .querySelector('slot')!
          .assignedElements()
          .map((e) => e.id),
      ).to.deep.equal(['oops']);
    });
  });

  describe('developer errors, said at once', () => {
    /** Captures console.error lines while `run` runs. */
    /** The console lines `run` writes, each as `error: …` or `warn: …`. */
    async function consoleErrors(run: () => Promise<void>): Promise<string[]> {
      const lines: string[] = [];
      const { error, warn } = console;
      console.error = (...args: unknown[]) => lines.push(`error: ${args.map(String).join(' ')}`);
      console.warn = (...args: unknown[]) => lines.push(`warn: ${args.map(String).join(' ')}`);
      try {
        await run();
      } finally {
        Object.assign(console, { error, warn });
      }
      return lines;
    }

    for (const [name, token, code, message] of [
      ['no token', undefined, 'missing_token', /No token: set the token attribute/],
      ['an empty token', '', 'missing_token', /No token: set the token attribute/],
      ['a token that is not dts_', '../../etc', 'invalid_token', /The token attribute must be a decision session token \(dts_/],
      ['a token that is not dts_, without a trust URL either', 'abc', 'invalid_token', /token attribute/],
    ] as const) {
      it(`fires svc-error ${code} at once for ${name}, with one console line naming the attribute (a warning while no token is set), and no spinner`, async () => {
        let detail: Record<string, unknown> | undefined;
        const lines = await consoleErrors(async () => {
          const el = document.createElement('svc-decision');
          if (token !== undefined) el.setAttribute('token', token);
          if (!name.includes('without a trust URL')) el.setAttribute('trust-url', TRUST);
          const error = oneEvent(el, 'svc-error');
          document.body.append(el);
          detail = (await error).detail;
          await el.updateComplete;
          expect(el.status).to.equal('error');
          expect(part(el, 'loading')).to.equal(null);
          expect(frameOf(el)).to.equal(null);
          expect(getComputedStyle(part(el, 'base')!).minHeight).to.equal('0px');
          el.remove();
        });
        expect(detail).to.include({ code, fatal: true, recoverable_via: null });
        expect(detail!.message).to.match(message);
        expect(lines).to.have.length(1);
        expect(lines[0]).to.match(
          new RegExp(`^${code === 'missing_token' ? 'warn' : 'error'}: \\[svc\\] <svc-decision>: .*token attribute`),
        );
      });
    }

    it('waits quietly while hidden without a token (a page showing it once it has one), and says so if shown without', async () => {
      const lines = await consoleErrors(async () => {
        const el = await fixture<SvcDecision>(html`<svc-decision trust-url=${TRUST} hidden></svc-decision>`);
        await aTimeout(50);
        expect(seen.filter((s) => s.type === 'svc-error')).to.deep.equal([]);
        el.hidden = false;
        el.token = 'dts_fixture_a';
        await oneEvent(el, 'svc-ready');
        expect(el.hasAttribute('hidden')).to.equal(false);
        const bare = await fixture<SvcDecision>(html`<svc-decision trust-url=${TRUST} hidden></svc-decision>`);
        const error = oneEvent(bare, 'svc-error');
        bare.hidden = false;
        expect((await error).detail.code).to.equal('missing_token');
      });
      expect(lines).to.have.length(1);
      expect(seen.filter((s) => s.type === 'svc-error').map((s) => s.detail.code)).to.deep.equal(['missing_token']);
    });

    it('starts over when a token is set after the missing_token error', async () => {
      const lines = await consoleErrors(async () => {
        const el = await fixture<SvcDecision>(html`<svc-decision trust-url=${TRUST}></svc-decision>`);
        expect(el.status).to.equal('error');
        el.token = 'dts_fixture_a';
        await oneEvent(el, 'svc-ready');
        expect(el.status).to.equal('ready');
      });
      expect(lines).to.have.length(1);
      expect(seen.filter((s) => s.type === 'svc-error').map((s) => s.detail.code)).to.deep.equal(['missing_token']);
    });

    it('says error on a fatal svc:error after svc:ready, keeps the page’s own words in view, and no longer expires', async () => {
      const el = await embedded('dts_fixture_quiet');
      await report('loaded');
      const deadline = inSeconds(900);
      send(el, 'svc:ready', readyPayload('dts_fixture_quiet', deadline));
      await oneEvent(el, 'svc-ready');
      expect(el.status).to.equal('ready');
      const message = 'This decision is already declined: create a new decision to ask again.';
      send(el, 'svc:error', { code: 'decision_completed', message, fatal: true, recoverable_via: 'new_decision' });
      await oneEvent(el, 'svc-error');
      await el.updateComplete;
      expect(el.status).to.equal('error');
      expect(el.matches(':state(error)')).to.equal(true);
      expect(part(el, 'error')).to.equal(null);
      expect(getComputedStyle(frameOf(el)!).display).to.equal('block');
      expect(getComputedStyle(part(el, 'base')!).minHeight).to.equal('0px');
      // The decision is over: a late deadline from the frame changes nothing (messages arrive in order).
      send(el, 'svc:deadline', { remaining_seconds: 0, level: 'expired', deadline_at: deadline });
      send(el, 'svc:resize', { height: 200 });
      await oneEvent(el, 'svc-resize');
      expect(el.status).to.equal('error');
      expect(seen.filter((s) => s.type === 'svc-deadline')).to.deep.equal([]);
      expect(el.cancel()).to.equal(false);
    });

    it('drops its min-height once complete, so the frame is as tall as the page says and no blank space stays', async () => {
      const el = await embedded();
      const frame = frameOf(el)!;
      expect(getComputedStyle(frame).minHeight).to.equal('320px');
      send(el, 'svc:complete', { outcome: 'granted', exchange_token: 'm'.repeat(43), completed_at: inSeconds(0) });
      await oneEvent(el, 'svc-complete');
      send(el, 'svc:resize', { height: 120 });
      await oneEvent(el, 'svc-resize');
      await waitUntil(() => frame.getBoundingClientRect().height === 120, 'the frame follows the reported height');
      expect(getComputedStyle(frame).minHeight).to.equal('0px');
      expect(getComputedStyle(part(el, 'base')!).minHeight).to.equal('0px');
      expect(el.getBoundingClientRect().height).to.be.below(200);
    });

    it('stops the spinner on a fatal svc:error before svc:ready, and reports no frame_unavailable after it', async () => {
      SvcDecision.readyTimeoutMs = 300;
      const el = await fixture<SvcDecision>(html`<svc-decision token="dts_fixture_quiet" trust-url=${TRUST}></svc-decision>`);
      await report('loaded');
      send(el, 'svc:error', { code: 'decision_not_found', message: 'No decision.', fatal: true, recoverable_via: null });
      await oneEvent(el, 'svc-error');
      await el.updateComplete;
      expect(el.status).to.equal('error');
      expect(part(el, 'loading')).to.equal(null);
      expect(getComputedStyle(part(el, 'base')!).minHeight).to.equal('0px');
      await aTimeout(500);
      expect(seen.filter((s) => s.type === 'svc-error').map((s) => s.detail.code)).to.deep.equal(['decision_not_found']);
    });

    describe('against the reference server', () => {
      interface Sandbox {
        base_url: string;
        publishable_key: string;
        flow_id: string;
        application_id: string;
      }
      let sandbox: Sandbox;
      before(async function () {
        // The first test to ask starts the reference server: give it the time that takes on a busy machine.
        this.timeout(90_000);
        sandbox = (await (await fetch('/__svc__/sandbox.json')).json()) as Sandbox;
        // Once, so that the timed tests measure the answer, not the first connection to a server that just started.
        const warm = document.createElement('iframe');
        const loaded = new Promise((resolve) => warm.addEventListener('load', resolve, { once: true }));
        warm.src = `${sandbox.base_url}/decisions/dts_${'w'.repeat(43)}/embed`;
        document.body.append(warm);
        await loaded;
        warm.remove();
      });

      /** A consent decision created as a page would, with the publishable key, for this page's origin. */
      async function createDecision(): Promise<string> {
        const res = await fetch(`${sandbox.base_url}/api/v1/decisions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-publishable-key': sandbox.publishable_key },
          body: JSON.stringify({ kind: 'consent', subject_ref: sandbox.flow_id, delivery_mode: 'embed', embed_origin: location.origin }),
        });
        expect(res.status).to.equal(201);
        return ((await res.json()) as { decision: { session_token: string } }).decision.session_token;
      }

      /** Mounts the element for `token` and waits for its svc-error (a specific code, never the 8 s frame_unavailable). */
      async function errorOf(token: string) {
        const el = document.createElement('svc-decision') as SvcDecision;
        el.setAttribute('token', token);
        el.setAttribute('trust-url', sandbox.base_url);
        const error = oneEvent(el, 'svc-error');
        document.body.append(el);
        const { detail } = await error;
        await el.updateComplete;
        return { el, detail };
      }

      it('says decision_not_found, never the 8 s frame timeout, for a token the service does not know, and stops the spinner', async () => {
        const { el, detail } = await errorOf(`dts_${'u'.repeat(43)}`);
        try {
          expect(detail).to.include({ code: 'decision_not_found', fatal: true, recoverable_via: 'new_decision' });
          expect(detail.message).to.match(/No decision has this session token/);
          expect(el.status).to.equal('error');
          expect(part(el, 'loading')).to.equal(null);
          expect(getComputedStyle(part(el, 'base')!).minHeight).to.equal('0px');
        } finally {
          el.remove();
        }
      });

      it('posts only to the origin that loaded the frame: a frame loaded without a Referer posts nothing, not to *', async () => {
        const url = `${sandbox.base_url}/decisions/dts_${'n'.repeat(43)}/embed`;
        const heard: { policy: string; data: unknown }[] = [];
        const frames = ['strict-origin', 'no-referrer'].map((policy) => {
          const frame = document.createElement('iframe');
          frame.referrerPolicy = policy as ReferrerPolicy;
          frame.src = url;
          return [policy, frame] as const;
        });
        const listener = (event: MessageEvent) => {
          const from = frames.find(([, frame]) => frame.contentWindow === event.source);
          if (from) heard.push({ policy: from[0], data: event.data });
        };
        addEventListener('message', listener);
        try {
          const loaded = frames.map(([, frame]) => new Promise((resolve) => frame.addEventListener('load', resolve, { once: true })));
          document.body.append(...frames.map(([, frame]) => frame));
          await Promise.all(loaded);
          await waitUntil(() => heard.length > 0, 'the frame with a Referer posts');
          await aTimeout(300);
          expect(heard.map((h) => h.policy)).to.deep.equal(['strict-origin']);
          expect((heard[0]!.data as { payload: { code: string } }).payload.code).to.equal('decision_not_found');
        } finally {
          removeEventListener('message', listener);
          for (const [, frame] of frames) frame.remove();
        }
      });

      it('says origin_not_allowed, never the 8 s frame timeout, on a page whose origin the application does not allow', async function () {
        // The host page on the third origin loads the elements' modules afresh.
        this.timeout(30_000);
        const token = await createDecision();

        const params = new URLSearchParams({
          element: 'svc-decision',
          parent: location.origin,
          'a.token': token,
          'a.trust-url': sandbox.base_url,
        });
        const frame = document.createElement('iframe');
        frame.src = `${THIRD}/packages/elements/test/fixtures/host/index.html?${params}`;
        const reported = new Promise<{ detail: Record<string, unknown> }>((resolve) => {
          const listener = (event: MessageEvent) => {
            if (event.origin !== THIRD || event.data?.host !== 'svc-error') return;
            removeEventListener('message', listener);
            resolve(event.data);
          };
          addEventListener('message', listener);
        });
        document.body.append(frame);
        try {
          const { detail } = await reported;
          expect(detail).to.include({ code: 'origin_not_allowed', fatal: true, recoverable_via: null, kind: 'consent' });
          expect(detail.message).to.equal(
            `This page's origin ${THIRD} is not an allowed origin of application ${sandbox.application_id}. Allow it with ` +
              `\`svc origins add ${THIRD} --app ${sandbox.application_id}\` or POST /api/v1/applications/${sandbox.application_id}/allowed_origins.`,
          );
        } finally {
          frame.remove();
        }
      });

      it('says decision_completed, never the 8 s frame timeout, for a decision already over, and drops its min-height', async function () {
        this.timeout(30_000);
        const token = await createDecision();
        const first = await fixture<SvcDecision>(html`<svc-decision token=${token} trust-url=${sandbox.base_url}></svc-decision>`);
        await oneEvent(first, 'svc-ready');

        expect(first.cancel('test_over')).to.equal(true);
        // The page records the host's cancel, then says so.
        await waitUntil(() => seen.some((s) => s.type === 'svc-state' && s.detail.to === 'cancelled'), 'the service recorded the cancel');
        fixtureCleanup();
        const { el, detail } = await errorOf(token);
        try {
          expect(detail).to.include({ code: 'decision_completed', fatal: true, recoverable_via: 'new_decision', kind: 'consent' });
          expect(detail.message).to.match(/already cancelled/);
          expect(getComputedStyle(part(el, 'base')!).minHeight).to.equal('0px');
        } finally {
          el.remove();
        }
      });
    });
  });

  describe('context', () => {
    it('takes trust-url from an enclosing <svc-provider>, and its own attribute wins', async () => {
      const root = await fixture<SvcProvider>(html`<svc-provider trust-url=${TRUST} publishable-key="pk_test_x">
        <svc-decision token="dts_fixture_a"></svc-decision>
        <svc-decision token="dts_fixture_b" trust-url="${THIRD}/elsewhere"></svc-decision>
      </svc-provider>`);
      const [inherited, own] = Array.from(root.querySelectorAll('svc-decision'));
      expect(frameOf(inherited!)!.src).to.equal(`${TRUST}/decisions/dts_fixture_a/embed`);
      expect(frameOf(own!)!.src).to.equal(`${THIRD}/elsewhere/decisions/dts_fixture_b/embed`);
      expect(getComputedStyle(root).display).to.equal('contents');
    });

    it("shows a token that names its home country from the provider's trust URL for that country, the only cell that serves it", async () => {
      // `dts_de_` and 43 more characters: a session homed in DE (its fixture folder posts svc:ready).
      const homed = `dts_de_${'fixture'.padEnd(43, 'x')}`;
      const legacy = `dts_${'de_fixture'.padEnd(43, 'x')}`;
      const unlisted = `dts_fr_${'fixture'.padEnd(43, 'x')}`;
      const root = await fixture<SvcProvider>(html`<svc-provider trust-url="${THIRD}/us" trust-urls=${JSON.stringify({ DE: TRUST })}>
        <svc-decision token=${homed}></svc-decision>
        <svc-decision token=${homed} trust-url="${THIRD}/own"></svc-decision>
        <svc-decision token=${legacy}></svc-decision>
        <svc-decision token=${unlisted}></svc-decision>
      </svc-provider>`);
      const [inherited, own, old, other] = Array.from(root.querySelectorAll('svc-decision'));
      expect(root.trustUrls).to.deep.equal({ DE: TRUST });
      expect(frameOf(inherited!)!.src).to.equal(`${TRUST}/decisions/${homed}/embed`);
      expect(frameOf(own!)!.src).to.equal(`${TRUST}/decisions/${homed}/embed`);
      // A token without a country (47 characters), and a country the provider does not list: the trust URL as ever.
      expect(frameOf(old!)!.src).to.equal(`${THIRD}/us/decisions/${legacy}/embed`);
      expect(frameOf(other!)!.src).to.equal(`${THIRD}/us/decisions/${unlisted}/embed`);
      // The home cell's page speaks from the origin the element expects.
      const ready = await oneEvent(inherited!, 'svc-ready');
      expect(ready.detail.session_token).to.equal(homed);
    });

    it('reaches elements inside shadow roots and follows provider changes, falling back to base-url', async () => {
      const root = await fixture<SvcProvider>(html`<svc-provider base-url="${THIRD}/base"><div></div></svc-provider>`);
      const host = root.querySelector('div')!;
      const shadow = host.attachShadow({ mode: 'open' });
      shadow.innerHTML = '<svc-decision token="dts_fixture_a"></svc-decision>';
      const el = shadow.querySelector('svc-decision')!;
      await el.updateComplete;
      expect(frameOf(el)!.src).to.equal(`${THIRD}/base/decisions/dts_fixture_a/embed`);
      root.trustUrl = TRUST;
      await root.updateComplete;
      await el.updateComplete;
      expect(frameOf(el)!.src).to.equal(`${TRUST}/decisions/dts_fixture_a/embed`);
      await oneEvent(el, 'svc-ready');
    });
  });

  describe('events', () => {
    it('re-dispatches each message as a bubbling, composed event with kind, once per message_id, in protocol order', async () => {
      const el = await embedded('dts_fixture_quiet');
      const frame = frameOf(el)!.contentWindow;
      await report('loaded');
      send(el, 'svc:ready', readyPayload('dts_fixture_quiet', inSeconds(900)));
      send(el, 'svc:state', { from: 'pending', to: 'authenticating', step_index: 1, total_steps: 5 });
      send(el, 'svc:resize', { height: 480 });
      send(el, 'svc:deadline', { remaining_seconds: 30, level: 'warning', deadline_at: inSeconds(30) });
      send(el, 'svc:error', { code: 'network_error', message: 'Offline', fatal: false, recoverable_via: 'retry' });
      const complete = createMessage('svc:complete', 'consent', {
        outcome: 'granted',
        exchange_token: 'x'.repeat(43),
        completed_at: inSeconds(0),
      });
      command(frame, { fixture: 'raw', data: complete });
      command(frame, { fixture: 'raw', data: complete });
      send(el, 'svc:cancel', { reason: 'late', cancelled_by: 'user' });
      await waitUntil(() => seen.some((s) => s.type === 'svc-complete'));
      await aTimeout(100);
      expect(seen.map((s) => s.type)).to.deep.equal(['svc-ready', 'svc-state', 'svc-resize', 'svc-deadline', 'svc-error', 'svc-complete']);
      expect(seen.every((s) => s.detail.kind === 'consent')).to.equal(true);
      expect(seen[1]!.detail).to.deep.equal({ from: 'pending', to: 'authenticating', step_index: 1, total_steps: 5, kind: 'consent' });
      expect(seen[5]!.detail).to.deep.equal({ ...complete.payload, kind: 'consent' });
      expect(el.status).to.equal('complete');
      expect(el.outcome).to.equal('granted');
      expect(el.kind).to.equal('consent');
    });

    it('reports approvals the same way: approved, denied or countered', async () => {
      const el = await fixture<SvcDecision>(html`<svc-decision token="dts_fixture_approval" trust-url=${TRUST}></svc-decision>`);
      const ready = await oneEvent(el, 'svc-ready');
      expect(ready.detail.kind).to.equal('approval');
      await el.updateComplete;
      expect(frameOf(el)!.title).to.equal('Approval request from Fixture Shop');
      send(el, 'svc:state', { from: 'pending', to: 'countered', kind_payload: { escalation_id: 'esc_1', outcome: 'countered' } });
      send(el, 'svc:complete', { outcome: 'countered', exchange_token: 'y'.repeat(43), completed_at: inSeconds(0) });
      const { detail } = await oneEvent(el, 'svc-complete');
      expect(detail).to.include({ kind: 'approval', outcome: 'countered' });
      expect(seen.find((s) => s.type === 'svc-state')!.detail).to.deep.equal({
        from: 'pending',
        to: 'countered',
        kind_payload: { escalation_id: 'esc_1', outcome: 'countered' },
        kind: 'approval',
      });
    });

    it('ignores a well-formed svc:complete from a frame on a third origin and from another frame of the service', async () => {
      const el = await embedded();
      const complete = createMessage('svc:complete', 'consent', {
        outcome: 'granted',
        exchange_token: 'z'.repeat(43),
        completed_at: inSeconds(0),
      });
      // A third-origin frame and a second service-origin frame on the page both post a forged completion.
      for (const origin of [THIRD, SERVICE]) {
        const rogue = document.createElement('iframe');
        rogue.src = `${origin}/packages/elements/test/fixtures/decisions/dts_fixture_quiet/embed`;
        document.body.append(rogue);
        await new Promise((resolve) => rogue.addEventListener('load', resolve, { once: true }));
        rogue.contentWindow!.postMessage({ fixture: 'raw', data: complete }, origin);
        await aTimeout(100);
        rogue.remove();
      }
      expect(seen.filter((s) => s.type === 'svc-complete')).to.deep.equal([]);
      expect(el.status).to.equal('ready');
    });

    it('cancel() sends svc:cancel to the frame and fires svc-cancel once, from the host', async () => {
      const el = await embedded();
      const received = report('cancel-received');
      expect(el.cancel('changed_mind')).to.equal(true);
      const { message } = (await received) as { message: { type: string; kind: string; payload: unknown } };
      expect(message.type).to.equal('svc:cancel');
      expect(message.payload).to.deep.equal({ reason: 'changed_mind', cancelled_by: 'host' });
      expect(seen.filter((s) => s.type === 'svc-cancel').map((s) => s.detail)).to.deep.equal([
        { reason: 'changed_mind', cancelled_by: 'host', kind: 'consent' },
      ]);
      expect(el.status).to.equal('cancelled');
      expect(el.cancel('again')).to.equal(false);
    });

    it('cancel() sends nothing before the page is ready', async () => {
      const el = await embedded('dts_fixture_quiet');
      expect(el.cancel()).to.equal(false);
      expect(seen).to.deep.equal([]);
    });
  });

  describe('resize', () => {
    it('follows svc:resize with one height update per animation frame, within the CSS bounds', async () => {
      const el = await embedded();
      el.style.setProperty('--svc-decision-max-height', '600px');
      const frame = frameOf(el)!;
      const writes: string[] = [];
      const observer = new MutationObserver(() => writes.push(frame.style.height));
      observer.observe(frame, { attributes: true, attributeFilter: ['style'] });
      for (const height of [400, 410, 420, 430, 440]) send(el, 'svc:resize', { height });
      await waitUntil(() => seen.filter((s) => s.type === 'svc-resize').length === 5);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      await aTimeout(0);
      observer.disconnect();
      expect(writes.at(-1)).to.equal('440px');
      expect(writes.length).to.be.below(5);
      expect(frame.getBoundingClientRect().height).to.equal(440);

      send(el, 'svc:resize', { height: 2000 });
      await waitUntil(() => frame.style.height === '2000px');
      expect(frame.getBoundingClientRect().height).to.equal(600);
      send(el, 'svc:resize', { height: 10 });
      await waitUntil(() => frame.style.height === '10px');
      expect(frame.getBoundingClientRect().height).to.equal(320);
    });
  });

  describe('deadline', () => {
    it('falls back to its own clock when the frame sends no svc:deadline, then shows expired and emits it once', async () => {
      const el = await embedded('dts_fixture_quiet');
      await report('loaded');
      send(el, 'svc:ready', readyPayload('dts_fixture_quiet', inSeconds(1)));
      await oneEvent(el, 'svc-ready');
      const { detail } = await oneEvent(el, 'svc-deadline');
      expect(detail).to.include({ level: 'expired', remaining_seconds: 0, kind: 'consent' });
      await el.updateComplete;
      expect(el.status).to.equal('expired');
      expect(part(el, 'expired')!.textContent!.trim()).to.equal('This request has expired.');
      expect(getComputedStyle(frameOf(el)!).display).to.equal('none');
      expect(part(el, 'status')!.textContent).to.equal('This request has expired.');
      // The frame's own expiry arrives late: the threshold was already surfaced.
      send(el, 'svc:deadline', { remaining_seconds: 0, level: 'expired', deadline_at: detail.deadline_at });
      send(el, 'svc:state', { from: 'pending', to: 'expired', step_index: 4, total_steps: 5 });
      await waitUntil(() => seen.some((s) => s.type === 'svc-state'));
      expect(seen.filter((s) => s.type === 'svc-deadline')).to.have.length(1);
    });

    it('surfaces the frame’s thresholds first and never repeats one when its own clock comes by', async () => {
      const el = await embedded('dts_fixture_quiet');
      await report('loaded');
      const deadline = inSeconds(1);
      send(el, 'svc:ready', readyPayload('dts_fixture_quiet', deadline));
      send(el, 'svc:deadline', { remaining_seconds: 5, level: 'warning', deadline_at: deadline });
      send(el, 'svc:deadline', { remaining_seconds: 4, level: 'warning', deadline_at: deadline });
      send(el, 'svc:deadline', { remaining_seconds: 0, level: 'expired', deadline_at: deadline });
      await waitUntil(() => el.status === 'expired');
      await aTimeout(2500);
      expect(seen.filter((s) => s.type === 'svc-deadline').map((s) => [s.detail.level, s.detail.remaining_seconds])).to.deep.equal([
        ['warning', 5],
        ['expired', 0],
      ]);
    });

    it('expires once on svc:error decision_expired, which the frame sends when the service refused a late step', async () => {
      const el = await embedded();
      send(el, 'svc:error', { code: 'decision_expired', message: 'This decision has expired.', fatal: true, recoverable_via: null });
      await waitUntil(() => el.status === 'expired');
      send(el, 'svc:deadline', { remaining_seconds: 0, level: 'expired', deadline_at: inSeconds(0) });
      await aTimeout(100);
      expect(seen.map((s) => s.type)).to.deep.equal(['svc-ready', 'svc-error', 'svc-deadline']);
      expect(seen[2]!.detail).to.include({ level: 'expired', remaining_seconds: 0 });
    });
  });

  describe('token change', () => {
    it('tears the old session down and starts a new one in a new iframe', async () => {
      const el = await embedded('dts_fixture_a');
      const oldFrame = frameOf(el)!;
      el.token = 'dts_fixture_b';
      const ready = await oneEvent(el, 'svc-ready');
      expect(ready.detail.session_token).to.equal('dts_fixture_b');
      const frame = frameOf(el)!;
      expect(frame).not.to.equal(oldFrame);
      expect(oldFrame.isConnected).to.equal(false);
      expect(oldFrame.contentWindow).to.equal(null);
      expect(frame.src).to.equal(`${TRUST}/decisions/dts_fixture_b/embed`);
      expect(el.shadowRoot!.querySelectorAll('iframe')).to.have.length(1);
      // Only the new frame is heard.
      send(el, 'svc:complete', { outcome: 'declined', exchange_token: 'w'.repeat(43), completed_at: inSeconds(0) });
      const complete = await oneEvent(el, 'svc-complete');
      expect(complete.detail.outcome).to.equal('declined');
      expect(seen.filter((s) => s.type === 'svc-ready').map((s) => s.detail.session_token)).to.deep.equal([
        'dts_fixture_a',
        'dts_fixture_b',
      ]);
    });
  });

  describe('popup', () => {
    it('renders a real button, and on a blocked popup fires popup_blocked and shows a fallback link', async () => {
      const el = await fixture<SvcDecision>(html`<svc-decision mode="popup" token="dts_fixture_a" trust-url=${TRUST}></svc-decision>`);
      const button = part(el, 'button') as HTMLButtonElement;
      expect(button.localName).to.equal('button');
      expect(button.type).to.equal('button');
      expect(button.textContent!.trim()).to.equal('Open the request');
      expect(frameOf(el)).to.equal(null);
      expect(await audit(el)).to.deep.equal([]);
      const open = window.open;
      window.open = () => null;
      try {
        const error = oneEvent(el, 'svc-error');
        button.click();
        const { detail } = await error;
        expect(detail).to.deep.equal({
          code: 'popup_blocked',
          message: 'The browser blocked the decision window; the element shows a link that opens it instead.',
          fatal: false,
          recoverable_via: 'link',
        });
      } finally {
        window.open = open;
      }
      await el.updateComplete;
      const link = part(el, 'fallback') as HTMLAnchorElement;
      expect(link.href).to.equal(`${TRUST}/decisions/dts_fixture_a`);
      expect(link.target).to.equal('_blank');
      expect(link.rel).to.equal('noopener');
      expect(part(el, 'status')!.textContent).to.equal('Your browser blocked the request window. Use the link to open it.');
      expect(await audit(el)).to.deep.equal([]);
    });

    it('opens a centred popup on click, hears that popup only, and fires svc-cancel popup_closed when it is closed', async () => {
      const el = await fixture<SvcDecision>(
        html`<svc-decision mode="popup" token="dts_fixture_a" trust-url=${TRUST}>Review the request</svc-decision>`,
      );
      const open = window.open;
      let opened: Window | null = null;
      let features = '';
      window.open = (...args: Parameters<typeof window.open>) => {
        features = String(args[2]);
        opened = open.apply(window, args);
        return opened;
      };
      try {
        (part(el, 'button') as HTMLButtonElement).click();
      } finally {
        window.open = open;
      }
      expect(features).to.match(/^popup=yes,width=\d+,height=\d+,left=\d+,top=\d+$/);
      const ready = await oneEvent(el, 'svc-ready');
      expect(ready.detail.mode).to.equal('popup');
      expect(el.status).to.equal('ready');
      expect(part(el, 'status')!.textContent).to.equal('The request is open in another window.');
      // An iframe of the service origin posting in popup mode is not the popup: ignored.
      const impostor = document.createElement('iframe');
      impostor.src = `${SERVICE}/packages/elements/test/fixtures/decisions/dts_fixture_quiet/embed`;
      document.body.append(impostor);
      await new Promise((resolve) => impostor.addEventListener('load', resolve, { once: true }));
      impostor.contentWindow!.postMessage(
        {
          fixture: 'send',
          type: 'svc:complete',
          payload: { outcome: 'granted', exchange_token: 'v'.repeat(43), completed_at: inSeconds(0) },
        },
        SERVICE,
      );
      await aTimeout(100);
      impostor.remove();
      expect(seen.filter((s) => s.type === 'svc-complete')).to.deep.equal([]);
      // Clicking again focuses the same window instead of opening another.
      expect(el.open()).to.equal(true);
      command(opened, { fixture: 'close' });
      const { detail } = await oneEvent(el, 'svc-cancel');
      expect(detail).to.deep.equal({ reason: 'popup_closed', cancelled_by: 'user', kind: 'consent' });
      expect(el.status).to.equal('cancelled');
    });

    it('stays quiet when the popup closes after the decision completed', async () => {
      const el = await fixture<SvcDecision>(html`<svc-decision mode="popup" token="dts_fixture_a" trust-url=${TRUST}></svc-decision>`);
      const popup = openPopup(el);
      await oneEvent(el, 'svc-ready');
      command(popup, {
        fixture: 'send',
        type: 'svc:complete',
        payload: { outcome: 'granted', exchange_token: 'u'.repeat(43), completed_at: inSeconds(0) },
      });
      await oneEvent(el, 'svc-complete');
      command(popup, { fixture: 'close' });
      await waitUntil(() => popup.closed);
      await aTimeout(SvcDecision.popupPollMs + 200);
      expect(seen.map((s) => s.type)).to.deep.equal(['svc-ready', 'svc-complete']);
      await el.updateComplete;
      expect(part(el, 'button')).to.equal(null);
      expect(part(el, 'status')!.textContent).to.equal('The request is complete.');
    });
  });

  describe('redirect', () => {
    it('renders a button that goes to the full page, and no iframe', async () => {
      const el = await fixture<SvcDecision>(html`<svc-decision mode="redirect" token="dts_fixture_a" trust-url=${TRUST}></svc-decision>`);
      expect(frameOf(el)).to.equal(null);
      expect(part(el, 'button')!.textContent!.trim()).to.equal('Continue to the request');
      expect(el.status).to.equal('idle');
    });
  });

  describe('signature requests', () => {
    const signed = (outcome = 'signed') => ({ outcome, exchange_token: 's'.repeat(43), completed_at: inSeconds(0) });
    const signingReady = (token: string, deadline: string | null) => ({ ...readyPayload(token, deadline), kind: 'signature_request' });
    const signingState = { from: 'review', to: 'signing', kind_payload: { agreement_id: 'agr_1', parties_signed: 1, parties_total: 2 } };

    for (const outcome of ['signed', 'declined', 'countered']) {
      it(`re-dispatches a signing session's ready, state, resize, deadline and complete (${outcome}) with kind signature_request`, async () => {
        const el = await embedded('dts_fixture_signature');
        expect(seen.map((s) => s.type)).to.deep.equal(['svc-ready']);
        expect(seen[0]!.detail).to.include({ kind: 'signature_request', session_token: 'dts_fixture_signature' });
        expect(el.kind).to.equal('signature_request');
        await el.updateComplete;
        expect(el.status).to.equal('ready');
        expect(frameOf(el)!.title).to.equal('Signature request from Fixture Shop');
        send(el, 'svc:state', signingState);
        send(el, 'svc:resize', { height: 512 });
        send(el, 'svc:deadline', { remaining_seconds: 30, level: 'warning', deadline_at: inSeconds(30) });
        send(el, 'svc:complete', signed(outcome));
        await waitUntil(() => seen.some((s) => s.type === 'svc-complete'));
        await waitUntil(() => frameOf(el)!.style.height === '512px');
        expect(seen.map((s) => s.type)).to.deep.equal(['svc-ready', 'svc-state', 'svc-resize', 'svc-deadline', 'svc-complete']);
        expect(seen.every((s) => s.detail.kind === 'signature_request')).to.equal(true);
        expect(seen[1]!.detail).to.deep.equal({ ...signingState, kind: 'signature_request' });
        expect(seen[2]!.detail).to.deep.equal({ height: 512, kind: 'signature_request' });
        expect(seen[3]!.detail).to.include({ remaining_seconds: 30, level: 'warning', kind: 'signature_request' });
        expect(seen[4]!.detail).to.deep.equal({
          ...signed(outcome),
          completed_at: seen[4]!.detail.completed_at,
          kind: 'signature_request',
        });
        expect(el.status).to.equal('complete');
        expect(el.outcome).to.equal(outcome);
        // Over once: a second completion is not re-dispatched.
        send(el, 'svc:complete', signed('declined'));
        await aTimeout(100);
        expect(seen.filter((s) => s.type === 'svc-complete')).to.have.length(1);
      });
    }

    it('shows a signing session’s expiry (no outcome of its own) through svc-deadline, with kind signature_request', async () => {
      const el = await embedded('dts_fixture_signature_quiet');
      await report('loaded');
      send(el, 'svc:ready', signingReady('dts_fixture_signature_quiet', inSeconds(1)));
      const ready = await oneEvent(el, 'svc-ready');
      expect(ready.detail.kind).to.equal('signature_request');
      const { detail } = await oneEvent(el, 'svc-deadline');
      expect(detail).to.include({ level: 'expired', remaining_seconds: 0, kind: 'signature_request' });
      await el.updateComplete;
      expect(el.status).to.equal('expired');
      expect(part(el, 'expired')!.textContent!.trim()).to.equal('This request has expired.');
      expect(el.outcome).to.equal(undefined);
    });

    it('passes the axe audit once a signing session is ready', async () => {
      const el = await embedded('dts_fixture_signature');
      await el.updateComplete;
      expect(await audit(el)).to.deep.equal([]);
    });

    it('runs a signing session in a popup: ready, complete signed, and the popup closing afterwards is quiet', async () => {
      const el = await fixture<SvcDecision>(
        html`<svc-decision mode="popup" token="dts_fixture_signature" trust-url=${TRUST}></svc-decision>`,
      );
      const popup = openPopup(el);
      const ready = await oneEvent(el, 'svc-ready');
      expect(ready.detail).to.include({ kind: 'signature_request', mode: 'popup' });
      command(popup, { fixture: 'send', type: 'svc:state', payload: signingState });
      command(popup, { fixture: 'send', type: 'svc:complete', payload: signed() });
      const { detail } = await oneEvent(el, 'svc-complete');
      expect(detail).to.include({ kind: 'signature_request', outcome: 'signed' });
      command(popup, { fixture: 'close' });
      await waitUntil(() => popup.closed);
      await aTimeout(SvcDecision.popupPollMs + 200);
      expect(seen.map((s) => s.type)).to.deep.equal(['svc-ready', 'svc-state', 'svc-complete']);
      await el.updateComplete;
      expect(el.status).to.equal('complete');
      expect(part(el, 'status')!.textContent).to.equal('The request is complete.');
    });

    it('sends a signing session to the full page in redirect mode', async () => {
      const el = await fixture<SvcDecision>(
        html`<svc-decision mode="redirect" token="dts_fixture_signature" trust-url=${TRUST}></svc-decision>`,
      );
      expect(frameOf(el)).to.equal(null);
      expect(part(el, 'button')!.textContent!.trim()).to.equal('Continue to the request');
      expect(el.status).to.equal('idle');
    });

    it('cancel() in a signing session sends svc:cancel of kind signature_request', async () => {
      const el = await embedded('dts_fixture_signature');
      const received = report('cancel-received');
      expect(el.cancel('agreement_withdrawn')).to.equal(true);
      const { message } = (await received) as { message: { type: string; kind: string; payload: unknown } };
      expect(message).to.include({ type: 'svc:cancel', kind: 'signature_request' });
      expect(seen.at(-1)).to.deep.equal({
        type: 'svc-cancel',
        detail: { reason: 'agreement_withdrawn', cancelled_by: 'host', kind: 'signature_request' },
      });
    });

    it('drops a forged signature_request svc:complete: another origin, another frame, version 1, a malformed payload, another kind', async () => {
      const el = await embedded('dts_fixture_signature');
      const forged = () => createMessage('svc:complete', 'signature_request', signed() as never);
      // Well-formed, but from a frame on a third origin and from a second frame of the service origin.
      for (const origin of [THIRD, SERVICE]) {
        const rogue = document.createElement('iframe');
        rogue.src = `${origin}/packages/elements/test/fixtures/decisions/dts_fixture_signature_quiet/embed`;
        document.body.append(rogue);
        await new Promise((resolve) => rogue.addEventListener('load', resolve, { once: true }));
        rogue.contentWindow!.postMessage({ fixture: 'raw', data: forged() }, origin);
        rogue.contentWindow!.postMessage({ fixture: 'send', type: 'svc:complete', payload: signed() }, origin);
        await aTimeout(100);
        rogue.remove();
      }
      // From the element's own frame, but not a valid signature_request completion of this session.
      const { payload, ...envelope } = forged();
      const invalid: unknown[] = [
        { ...envelope, payload, version: 1 },
        { ...envelope, payload, version: '2' },
        { ...envelope, payload, type: 'complete' },
        { ...envelope, payload, kind: 'signature' },
        { ...envelope, payload, extra: true },
        { ...envelope, payload: { ...payload, outcome: 'approved' } },
        { ...envelope, payload: { ...payload, outcome: 'granted' } },
        { ...envelope, payload: { ...payload, outcome: 'expired' } },
        { ...envelope, payload: { ...payload, exchange_token: '' } },
        { ...envelope, payload: { outcome: 'signed', completed_at: payload.completed_at } },
        { ...envelope, payload: { ...payload, completed_at: '2030-01-01T01:00:00+01:00' } },
        { ...envelope, payload: { ...payload, signature: 'x' } },
        { ...envelope, payload: null },
        JSON.stringify(forged()),
        // Valid messages, but of another kind than the session's (fixed by its svc:ready).
        createMessage('svc:complete', 'consent', { ...signed('declined'), outcome: 'declined' }),
        createMessage('svc:complete', 'approval', { ...signed('countered'), outcome: 'countered' }),
      ];
      for (const data of invalid) command(frameOf(el)!.contentWindow, { fixture: 'raw', data });
      await aTimeout(200);
      expect(seen.map((s) => s.type)).to.deep.equal(['svc-ready']);
      expect(el.status).to.equal('ready');
      expect(el.outcome).to.equal(undefined);
      // The frame's own completion still goes through, once.
      const genuine = forged();
      command(frameOf(el)!.contentWindow, { fixture: 'raw', data: genuine });
      command(frameOf(el)!.contentWindow, { fixture: 'raw', data: genuine });
      const { detail } = await oneEvent(el, 'svc-complete');
      expect(detail).to.deep.equal({ ...genuine.payload, kind: 'signature_request' });
      await aTimeout(100);
      expect(seen.map((s) => s.type)).to.deep.equal(['svc-ready', 'svc-complete']);
    });

    it('drops a signature_request svc:complete in a consent or approval session', async () => {
      for (const token of ['dts_fixture_a', 'dts_fixture_approval']) {
        const el = await embedded(token);
        command(frameOf(el)!.contentWindow, {
          fixture: 'raw',
          data: createMessage('svc:complete', 'signature_request', signed() as never),
        });
        await aTimeout(150);
        expect(seen.filter((s) => s.type === 'svc-complete')).to.deep.equal([]);
        expect(el.status).to.equal('ready');
        fixtureCleanup();
      }
    });

    describe('a host validating with the schema from before signature_request', () => {
      // What such a host checks, as the published documents then said: the envelope with the previous kind enum,
      // then the payload by its type, with the previous ready kinds and completion outcomes.
      const PREVIOUS_KINDS = ['consent', 'approval'] as const;
      const previousEnvelope = z.strictObject({ ...envelopeSchema.shape, kind: z.literal(PREVIOUS_KINDS) });
      const previousPayloads: Record<string, z.ZodMiniType> = {
        ...payloadSchemas,
        'svc:ready': z.strictObject({ ...readyPayloadSchema.shape, kind: z.literal(PREVIOUS_KINDS) }),
        'svc:complete': z.union([consentCompletePayloadSchema, approvalCompletePayloadSchema]),
      };
      const previousHostAccepts = (data: unknown): boolean => {
        const envelope = previousEnvelope.safeParse(data);
        return envelope.success && previousPayloads[envelope.data.type]!.safeParse(envelope.data.payload).success;
      };

      it('is the previous enum: it takes a consent or approval message and refuses the same as signature_request', () => {
        const message = createMessage('svc:resize', 'consent', { height: 1 });
        expect(previousHostAccepts(message)).to.equal(true);
        expect(previousHostAccepts({ ...message, kind: 'approval' })).to.equal(true);
        expect(previousHostAccepts({ ...message, kind: 'signature_request' })).to.equal(false);
        expect(previousHostAccepts(createMessage('svc:complete', 'approval', { ...signed(), outcome: 'countered' }))).to.equal(true);
        expect(previousHostAccepts(createMessage('svc:complete', 'signature_request', signed() as never))).to.equal(false);
      });

      it('drops every signature_request message and still takes the consent messages around them', async () => {
        const root = await fixture<HTMLElement>(html`<div>
          <svc-decision token="dts_fixture_signature_quiet" trust-url=${TRUST}></svc-decision>
          <svc-decision token="dts_fixture_quiet" trust-url=${TRUST}></svc-decision>
        </div>`);
        const [signing, consent] = Array.from(root.querySelectorAll('svc-decision'));
        const frames = [frameOf(signing!)!.contentWindow, frameOf(consent!)!.contentWindow];
        await Promise.all(frames.map((frame) => report('loaded', () => frame)));
        // The older host listens beside the elements, to the same frames.
        const heard: { kind: unknown; type: unknown; accepted: boolean }[] = [];
        const previousHost = (event: MessageEvent) => {
          if (event.origin !== SERVICE || !frames.includes(event.source as Window) || event.data?.fixture) return;
          heard.push({ kind: event.data?.kind, type: event.data?.type, accepted: previousHostAccepts(event.data) });
        };
        addEventListener('message', previousHost);
        try {
          const steps: [string, unknown, unknown][] = [
            ['svc:ready', signingReady('dts_fixture_signature_quiet', inSeconds(900)), readyPayload('dts_fixture_quiet', inSeconds(900))],
            ['svc:state', signingState, { from: 'about', to: 'purposes', step_index: 1, total_steps: 3 }],
            ['svc:resize', { height: 600 }, { height: 400 }],
            ['svc:deadline', ...Array(2).fill({ remaining_seconds: 30, level: 'warning', deadline_at: inSeconds(30) })],
            ['svc:complete', signed(), { ...signed(), outcome: 'granted' }],
          ] as [string, unknown, unknown][];
          for (const [type, signingPayload, consentPayload] of steps) {
            send(signing as SvcDecision, type, signingPayload);
            send(consent as SvcDecision, type, consentPayload);
            const count = heard.length + 2;
            await waitUntil(() => heard.length === count);
          }
        } finally {
          removeEventListener('message', previousHost);
        }
        const types = ['svc:ready', 'svc:state', 'svc:resize', 'svc:deadline', 'svc:complete'];
        // Dropped: every signature_request message. Taken: every consent message, as before.
        expect(heard.filter((h) => h.kind === 'signature_request')).to.deep.equal(
          types.map((type) => ({ kind: 'signature_request', type, accepted: false })),
        );
        expect(heard.filter((h) => h.kind === 'consent')).to.deep.equal(types.map((type) => ({ kind: 'consent', type, accepted: true })));
        // And the current elements hear both sessions in full.
        const events = ['svc-ready', 'svc-state', 'svc-resize', 'svc-deadline', 'svc-complete'];
        await waitUntil(() => seen.filter((s) => s.type === 'svc-complete').length === 2);
        expect(seen.filter((s) => s.detail.kind === 'signature_request').map((s) => s.type)).to.deep.equal(events);
        expect(seen.filter((s) => s.detail.kind === 'consent').map((s) => s.type)).to.deep.equal(events);
        expect([signing!.outcome, consent!.outcome]).to.deep.equal(['signed', 'granted']);
      });
    });
  });

  describe('clean-up', () => {
    /** Counts live window listeners, timers, intervals and animation frames created from now on. */
    function instrument() {
      const live = { listeners: new Set<string>(), timeouts: new Set<number>(), intervals: new Set<number>(), frames: new Set<number>() };
      const originals = {
        addEventListener: window.addEventListener,
        removeEventListener: window.removeEventListener,
        setTimeout: window.setTimeout,
        clearTimeout: window.clearTimeout,
        setInterval: window.setInterval,
        clearInterval: window.clearInterval,
        requestAnimationFrame: window.requestAnimationFrame,
        cancelAnimationFrame: window.cancelAnimationFrame,
      };
      const ids = new WeakMap<object, number>();
      let nextId = 0;
      const keyOf = (type: string, listener: unknown) => {
        if (typeof listener !== 'object' && typeof listener !== 'function') return `${type}:?`;
        if (!ids.has(listener as object)) ids.set(listener as object, nextId++);
        return `${type}:${ids.get(listener as object)}`;
      };
      const w = window as unknown as Record<string, unknown>;
      w.addEventListener = function (type: string, listener: unknown, options?: unknown) {
        live.listeners.add(keyOf(type, listener));
        return (originals.addEventListener as (...a: unknown[]) => void).call(window, type, listener, options);
      };
      w.removeEventListener = function (type: string, listener: unknown, options?: unknown) {
        live.listeners.delete(keyOf(type, listener));
        return (originals.removeEventListener as (...a: unknown[]) => void).call(window, type, listener, options);
      };
      w.setTimeout = (callback: () => void, ms?: number) => {
        const id = originals.setTimeout.call(
          window,
          () => {
            live.timeouts.delete(id);
            callback();
          },
          ms,
        ) as unknown as number;
        live.timeouts.add(id);
        return id;
      };
      w.clearTimeout = (id: number) => {
        live.timeouts.delete(id);
        originals.clearTimeout.call(window, id);
      };
      w.setInterval = (callback: () => void, ms?: number) => {
        const id = originals.setInterval.call(window, callback, ms) as unknown as number;
        live.intervals.add(id);
        return id;
      };
      w.clearInterval = (id: number) => {
        live.intervals.delete(id);
        originals.clearInterval.call(window, id);
      };
      w.requestAnimationFrame = (callback: FrameRequestCallback) => {
        const id: number = originals.requestAnimationFrame.call(window, (time) => {
          live.frames.delete(id);
          callback(time);
        });
        live.frames.add(id);
        return id;
      };
      w.cancelAnimationFrame = (id: number) => {
        live.frames.delete(id);
        originals.cancelAnimationFrame.call(window, id);
      };
      const counts = () => ({
        listeners: live.listeners.size,
        timeouts: live.timeouts.size,
        intervals: live.intervals.size,
        frames: live.frames.size,
      });
      return { counts, restore: () => Object.assign(window, originals) };
    }

    it('leaves no listener, timer, interval, animation frame or iframe behind after 1,000 mounts', async function () {
      this.timeout(120_000);
      const container = document.createElement('div');
      document.body.append(container);
      const probe = instrument();
      try {
        const mount = async (setup: (el: SvcDecision) => void) => {
          const el = document.createElement('svc-decision');
          el.setAttribute('trust-url', TRUST);
          setup(el);
          container.append(el);
          await el.updateComplete;
          return el;
        };
        // Sessions that got far: ready (deadline clock running), resized (a frame pending), a popup being polled.
        for (let i = 0; i < 10; i += 1) {
          const el = await mount((e) => e.setAttribute('token', i % 2 ? 'dts_fixture_a' : 'dts_fixture_b'));
          await oneEvent(el, 'svc-ready');
          send(el, 'svc:resize', { height: 400 + i });
          await oneEvent(el, 'svc-resize');
          el.remove();
        }
        const popupEl = await mount((e) => {
          e.setAttribute('token', 'dts_fixture_quiet');
          e.setAttribute('mode', 'popup');
        });
        const popup = openPopup(popupEl);
        expect(probe.counts().intervals).to.equal(1);
        popupEl.remove();
        popup.close();
        // And a thousand that were mounted and removed at once, some with a token change in between.
        for (let i = 0; i < 1000; i += 1) {
          const el = await mount((e) => {
            e.setAttribute('token', 'dts_fixture_quiet');
            if (i % 3 === 1) e.setAttribute('mode', 'popup');
            if (i % 3 === 2) e.setAttribute('mode', 'redirect');
          });
          if (i % 10 === 0) {
            el.token = 'dts_fixture_a';
            await el.updateComplete;
          }
          el.remove();
        }
        await aTimeout(0);
        expect(probe.counts()).to.deep.equal({ listeners: 0, timeouts: 0, intervals: 0, frames: 0 });
        expect(document.querySelectorAll('iframe')).to.have.length(0);
      } finally {
        probe.restore();
        container.remove();
      }
    });
  });
});
