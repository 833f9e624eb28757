// <svc-consent-field> in every engine. The service is replaced at the network boundary only: an injected fetch
// that answers like GET /api/v1/flows/{id}/render and POST /api/v1/captures and records every request.
import { aTimeout, expect, fixture, fixtureCleanup, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { CaptureRequest } from '@svc/capture';
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';
import type { Appearance } from './appearance.js';
import type { ConsentFieldErrorDetail } from './consent-field-error.js';
import { SvcConsentField } from './consent-field.js';
import type { RenderData } from './render-data.js';

const BASE = 'https://svc.example';
const b64url = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const proof = (expSeconds: number, id = 'a') =>
  `${b64url({ alg: 'ES256', kid: 'k1' })}.${b64url({ exp: Math.floor(Date.now() / 1000) + expSeconds, jti: id })}.c2ln`;
const PROOF = proof(3600);

/** A render answer without `render_proof_expires_at`, so the field reads the proof's expiry from the JWS itself. */
function renderData(overrides: Partial<RenderData> = {}): Omit<RenderData, 'render_proof_expires_at'> {
  return {
    flow_id: 'flw_test_1',
    version: 1,
    locale: 'en',
    title: 'Stay in touch',
    description: 'Choose what we may do with your email address.',
    policy_url: 'https://example.com/privacy',
    purposes: [
      {
        key: 'newsletter',
        label: 'Email newsletter',
        description: 'A monthly email about new features.',
        basis: 'consent',
        mechanism: 'explicit',
        required: false,
      },
      {
        key: 'analytics',
        label: 'Product analytics',
        description: 'Measuring how the product is used.',
        basis: 'legitimate_interest',
        mechanism: 'opt_out',
        required: false,
      },
      {
        key: 'service',
        label: 'Providing the service',
        description: 'Processing your account data.',
        basis: 'contract',
        mechanism: 'notice',
        required: true,
      },
      {
        key: 'invoices',
        label: 'Keeping invoices',
        description: 'Tax law requires it.',
        basis: 'legal_obligation',
        mechanism: 'notice',
        required: true,
      },
    ],
    notice_hash: 'sha256:0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
    render_proof: PROOF,
    ...overrides,
  };
}

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  init: RequestInit;
  body?: CaptureRequest;
}
type Answer = (call: Call, n: number) => Response | Promise<Response>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const rendered =
  (data: Partial<RenderData> = {}): Answer =>
  (call) => {
    const url = new URL(call.url);
    const flow = decodeURIComponent(url.pathname.split('/').at(-2)!);
    return json(200, renderData({ flow_id: flow, locale: url.searchParams.get('locale') ?? 'en', ...data }));
  };
const captured: Answer = (_call, n) =>
  json(201, {
    capture: { session_token: `cap_${n}`, attestation_id: `att_${n}`, committed: false, record_id: null, wording_verdict: 'match' },
  });
const unreachable: Answer = () => Promise.reject(new TypeError('Failed to fetch'));

/** A stand-in service: `render` answers the render endpoint, `capture` the captures endpoint. */
function service(answers: { render?: Answer; capture?: Answer } = {}) {
  const calls: Call[] = [];
  let captures = 0;
  const fetch = async (url: string, init: RequestInit) => {
    const call: Call = { url, method: init.method ?? 'GET', headers: init.headers as Record<string, string>, init };
    if (typeof init.body === 'string') call.body = JSON.parse(init.body) as CaptureRequest;
    calls.push(call);
    if (url.endsWith('/api/v1/captures')) return (answers.capture ?? captured)(call, ++captures);
    return (answers.render ?? rendered())(call, calls.length);
  };
  return {
    calls,
    fetch,
    renders: () => calls.filter((c) => c.method === 'GET'),
    captures: () => calls.filter((c) => c.method === 'POST'),
  };
}

/** Records each `svc-error` and `svc-capture` that reaches `document`. */
function record() {
  const errors: ConsentFieldErrorDetail[] = [];
  const captures: unknown[] = [];
  const onError = (e: Event) => errors.push((e as CustomEvent<ConsentFieldErrorDetail>).detail);
  const onCapture = (e: Event) => captures.push((e as CustomEvent).detail);
  document.addEventListener('svc-error', onError);
  document.addEventListener('svc-capture', onCapture);
  return {
    errors,
    captures,
    stop: () => {
      document.removeEventListener('svc-error', onError);
      document.removeEventListener('svc-capture', onCapture);
    },
  };
}

/** Every submission that reaches the page's own listener, with the data the browser would send. */
function submissions(form: HTMLFormElement) {
  const seen: FormData[] = [];
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    seen.push(new FormData(form, event.submitter));
  });
  return seen;
}

const ready = (el: SvcConsentField) => waitUntil(() => el.state === 'ready', `${el.flow} did not load`, { timeout: 3000 });
const inner = <T extends Element = HTMLElement>(el: SvcConsentField, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const box = (el: SvcConsentField, label: string) =>
  [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('input[type=checkbox]')].find((i) => i.labels?.[0]?.textContent?.trim() === label)!;

async function signup(svc = service(), attrs: { appearance?: string; purposes?: string; locale?: string; theme?: string } = {}) {
  const form = await fixture<HTMLFormElement>(html`
    <form id="signup" action="/signup" method="post">
      <label>Email <input type="email" name="email" data-svc-subject="email" value="ada@example.com"></label>
      <svc-consent-field name="consent" flow="flw_test_1" publishable-key="pk_test_1" base-url=${BASE} .fetch=${svc.fetch}
        appearance=${attrs.appearance ?? ''} purposes=${attrs.purposes ?? ''} locale=${attrs.locale ?? ''} theme=${attrs.theme ?? 'light'}>
      </svc-consent-field>
      <button>Sign up</button>
    </form>`);
  const el = form.querySelector('svc-consent-field')!;
  await ready(el);
  return { form, el, svc };
}

let warnings: unknown[][] = [];
const originalWarn = console.warn;
beforeEach(() => {
  warnings = [];
  console.warn = (...args: unknown[]) => warnings.push(args);
});
afterEach(() => {
  console.warn = originalWarn;
  fixtureCleanup();
});

describe('<svc-consent-field>', () => {
  it('passes an axe audit when loaded, loading and unavailable', async () => {
    const { el } = await signup();
    await expect(el).to.be.accessible();
    const slow = service({ render: () => new Promise(() => undefined) });
    const loading = await fixture<SvcConsentField>(
      html`<svc-consent-field flow="flw_x" publishable-key="pk_test_1" base-url=${BASE} .fetch=${slow.fetch}></svc-consent-field>`,
    );
    await waitUntil(() => loading.state === 'loading');
    await expect(loading).to.be.accessible();
    const down = service({ render: unreachable });
    const failed = await fixture<SvcConsentField>(
      html`<svc-consent-field flow="flw_x" publishable-key="pk_test_1" base-url=${BASE} .fetch=${down.fetch}></svc-consent-field>`,
    );
    await waitUntil(() => failed.state === 'error');
    await expect(failed).to.be.accessible();
  });

  it('is defined once, as a form-associated element', () => {
    expect(customElements.get('svc-consent-field')).to.equal(SvcConsentField);
    expect((SvcConsentField as unknown as { formAssociated: boolean }).formAssociated).to.equal(true);
  });

  describe('rendering', () => {
    it('fetches the render answer with the publishable key, no cookies, and the locale', async () => {
      const { svc } = await signup(undefined, { locale: 'fr-CA' });
      const [call] = svc.renders();
      expect(call!.url).to.equal(`${BASE}/api/v1/flows/flw_test_1/render?locale=fr-CA`);
      expect(call!.headers['x-publishable-key']).to.equal('pk_test_1');
      expect(call!.init.credentials).to.equal('omit');
    });

    it('shows consent boxes unticked, the right to object ticked, notice-only rows as text only', async () => {
      const { el } = await signup();
      expect(inner(el, 'legend')!.textContent).to.equal('Stay in touch');
      const boxes = el.shadowRoot!.querySelectorAll<HTMLInputElement>('input[type=checkbox]');
      expect(boxes.length).to.equal(2);
      expect(box(el, 'Email newsletter').checked).to.equal(false);
      expect(box(el, 'Email newsletter').defaultChecked).to.equal(false);
      expect(box(el, 'Product analytics').checked).to.equal(true);
      const notices = [...el.shadowRoot!.querySelectorAll('.row--notice')].map((r) => [...r.children].map((c) => c.textContent).join(' '));
      expect(notices).to.deep.equal(['Providing the service Processing your account data.', 'Keeping invoices Tax law requires it.']);
      expect(el.decisions).to.deep.equal({ newsletter: 'declined', analytics: 'granted' });
    });

    it('labels each box and describes it with its description (and the objection hint)', async () => {
      const { el } = await signup();
      const news = box(el, 'Email newsletter');
      const described = (input: HTMLInputElement) =>
        input
          .getAttribute('aria-describedby')!
          .split(' ')
          .map((id) => el.shadowRoot!.getElementById(id)!.textContent);
      expect(described(news)).to.deep.equal(['A monthly email about new features.']);
      expect(described(box(el, 'Product analytics'))).to.deep.equal([
        'Measuring how the product is used.',
        'Ticked by default: untick to object.',
      ]);
      expect(inner<HTMLAnchorElement>(el, 'a[part=policy]')!.href).to.equal('https://example.com/privacy');
      expect(inner(el, 'fieldset')!.getAttribute('aria-describedby')).to.equal('flow-description');
    });

    it('narrows the rows to `purposes` and warns once about a hidden consent purpose and unknown keys', async () => {
      const { el } = await signup(undefined, { purposes: 'analytics, invoices, nope' });
      const rows = [...el.shadowRoot!.querySelectorAll('.row')].map((r) => r.querySelector('.row__label')!.textContent);
      expect(rows).to.deep.equal(['Product analytics', 'Keeping invoices']);
      expect(warnings.length).to.equal(1);
      expect(String(warnings[0]![0])).to.match(/no purpose nope.*consent purpose newsletter is not shown/);
    });

    it('fires svc-error (render phase) and says so when the service cannot be reached, and reload() recovers', async () => {
      let down = true;
      const svc = service({ render: (call, n) => (down ? unreachable(call, n) : rendered()(call, n)) });
      const events = record();
      const el = await fixture<SvcConsentField>(
        html`<svc-consent-field flow="flw_test_1" publishable-key="pk_test_1" base-url=${BASE} .fetch=${svc.fetch}></svc-consent-field>`,
      );
      await waitUntil(() => el.state === 'error');
      events.stop();
      expect(events.errors).to.deep.equal([
        { code: 'network', message: 'The service could not be reached.', phase: 'render', flow: 'flw_test_1' },
      ]);
      expect(inner(el, '[part=message]')!.textContent).to.equal('Your consent choices could not be loaded.');
      expect(inner(el, '.mark')).to.equal(null);
      down = false;
      await el.reload();
      expect(el.state).to.equal('ready');
    });

    it('reports an HTTP refusal with its status and body', async () => {
      const svc = service({ render: () => json(422, { message: 'The flow is not capturable.', code: 'flow_not_capturable' }) });
      const seen = record();
      const el = await fixture<SvcConsentField>(
        html`<svc-consent-field flow="flw_test_1" publishable-key="pk_test_1" base-url=${BASE} .fetch=${svc.fetch}></svc-consent-field>`,
      );
      await waitUntil(() => el.state === 'error');
      seen.stop();
      expect(seen.errors[0]).to.deep.include({ code: 'http_422', status: 422, message: 'The flow is not capturable.', phase: 'render' });
    });

    it('fires invalid_configuration without a publishable key or base URL', async () => {
      const seen = record();
      const el = await fixture<SvcConsentField>(html`<svc-consent-field flow="flw_test_1"></svc-consent-field>`);
      await el.updateComplete;
      seen.stop();
      expect(seen.errors.map((e) => [e.code, e.phase])).to.deep.equal([['invalid_configuration', 'setup']]);
      expect(el.state).to.equal('error');
    });

    it('takes the publishable key and base URL from an enclosing context provider; its own attributes win', async () => {
      const svc = service();
      const { ContextProvider } = await import('@lit/context');
      const { svcConfigContext } = await import('../internal/config.js');
      const host = await fixture<HTMLDivElement>(html`<div><svc-consent-field flow="flw_test_1" .fetch=${svc.fetch}></svc-consent-field>
        <svc-consent-field flow="flw_test_2" base-url="https://own.example" .fetch=${svc.fetch}></svc-consent-field></div>`);
      new ContextProvider(host, {
        context: svcConfigContext,
        initialValue: { publishableKey: 'pk_test_ctx', baseUrl: 'https://ctx.example', theme: 'dark' },
      });
      // The fields asked before the provider existed; connecting them again asks again.
      const fields = [...host.querySelectorAll('svc-consent-field')];
      for (const f of fields) {
        f.remove();
        host.append(f);
      }
      await Promise.all(fields.map(ready));
      expect(svc.renders().map((c) => [new URL(c.url).origin, c.headers['x-publishable-key']])).to.deep.include.members([
        ['https://ctx.example', 'pk_test_ctx'],
        ['https://own.example', 'pk_test_ctx'],
      ]);
      expect(inner(fields[0] as SvcConsentField, 'fieldset')!.classList.contains('field--dark')).to.equal(true);
    });
  });

  describe('with <svc-provider>', () => {
    it('reads the publishable key, base URL and theme from the provider, and its own attributes win', async () => {
      await import('../provider/provider.js');
      const svc = service();
      const root =
        await fixture<HTMLElement>(html`<svc-provider publishable-key="pk_test_provider" base-url="https://provided.example" theme="dark">
        <form><svc-consent-field flow="flw_test_1" .fetch=${svc.fetch}></svc-consent-field>
        <svc-consent-field flow="flw_test_2" publishable-key="pk_test_own" theme="light" .fetch=${svc.fetch}></svc-consent-field></form></svc-provider>`);
      const [a, b] = [...root.querySelectorAll('svc-consent-field')];
      await ready(a!);
      await ready(b!);
      expect(svc.renders().map((c) => [new URL(c.url).origin, c.headers['x-publishable-key']])).to.deep.equal([
        ['https://provided.example', 'pk_test_provider'],
        ['https://provided.example', 'pk_test_own'],
      ]);
      expect(inner(a!, 'fieldset')!.classList.contains('field--dark')).to.equal(true);
      expect(inner(b!, 'fieldset')!.classList.contains('field--dark')).to.equal(false);
    });
  });

  describe('form association', () => {
    it('is one of the form’s elements and validates without ever requiring a consent', async () => {
      const { form, el } = await signup();
      expect([...form.elements]).to.include(el);
      expect(el.form).to.equal(form);
      expect(el.willValidate).to.equal(true);
      expect(el.checkValidity()).to.equal(true);
      expect(el.validity.valid).to.equal(true);
      expect(el.validity.valueMissing).to.equal(false);
      expect(form.checkValidity()).to.equal(true);
      expect(el.matches(':valid')).to.equal(true);
    });

    it('blocks submission with a custom validity message until it is cleared', async () => {
      const { form, el, svc } = await signup();
      const seen = submissions(form);
      el.setCustomValidity('Please read the options.');
      expect(el.validity.customError).to.equal(true);
      expect(el.validationMessage).to.equal('Please read the options.');
      expect(form.checkValidity()).to.equal(false);
      form.requestSubmit();
      await aTimeout(50);
      expect(seen.length).to.equal(0);
      expect(svc.captures().length).to.equal(0);
      el.setCustomValidity('');
      form.requestSubmit();
      await waitUntil(() => seen.length === 1);
    });

    it('on submit posts the capture with the render proof, writes svc_capture_token, fires svc-capture, then submits once', async () => {
      const { form, el, svc } = await signup();
      const seen = submissions(form);
      const events = record();
      box(el, 'Email newsletter').click();
      const captureEvent = oneEvent(el, 'svc-capture');
      form.querySelector('button')!.click();
      const event = await captureEvent;
      await waitUntil(() => seen.length === 1);
      await aTimeout(50);
      events.stop();
      expect(seen.length).to.equal(1);
      const [post] = svc.captures();
      expect(post!.url).to.equal(`${BASE}/api/v1/captures`);
      expect(post!.headers['x-publishable-key']).to.equal('pk_test_1');
      expect(post!.headers['x-svc-render-proof']).to.equal(PROOF);
      expect(post!.init.credentials).to.equal('omit');
      const body = post!.body!;
      expect(body.decisions).to.deep.equal({
        newsletter: { decision: 'granted', default_checked: false, mandatory: false },
        analytics: { decision: 'granted', default_checked: true, mandatory: false },
      });
      expect(body).to.deep.include({
        flow_id: 'flw_test_1',
        form_id: 'signup',
        locale: 'en',
        notice_hash: renderData().notice_hash,
        subject: { email: 'ada@example.com' },
      });
      expect(body.page_url).to.equal(location.href.split(/[?#]/)[0]);
      expect(body.snapshot).to.contain(
        '<fieldset data-svc-purpose="newsletter"><input type="checkbox" id="purpose-0" name="newsletter"><label>Email newsletter</label>',
      );
      expect(body.snapshot).to.contain(
        '<fieldset data-svc-purpose="service"><p>Providing the service</p><p>Processing your account data.</p></fieldset>',
      );
      expect(Object.keys(body).sort()).to.deep.equal([
        'decisions',
        'flow_id',
        'form_id',
        'locale',
        'notice_hash',
        'page_url',
        'snapshot',
        'subject',
      ]);
      expect(event.detail).to.deep.include({ session_token: 'cap_1', attestation_id: 'att_1' });
      expect(events.captures.length).to.equal(1);
      expect(events.errors).to.deep.equal([]);
      expect(seen[0]!.get('svc_capture_token')).to.equal('cap_1');
      expect(seen[0]!.get('consent')).to.equal('cap_1');
      expect(el.value).to.equal('cap_1');
      expect(form.querySelectorAll('input[name=svc_capture_token]').length).to.equal(1);
    });

    it('sends a decline for an unticked consent box and an objection as an unticked right-to-object box', async () => {
      const { form, el, svc } = await signup();
      submissions(form);
      box(el, 'Product analytics').click();
      form.requestSubmit();
      await waitUntil(() => svc.captures().length === 1);
      expect(svc.captures()[0]!.body!.decisions).to.deep.equal({
        newsletter: { decision: 'declined', default_checked: false, mandatory: false },
        analytics: { decision: 'declined', default_checked: true, mandatory: false },
      });
    });

    it('leaves the notice digest out when `purposes` hid part of the notice', async () => {
      const { form, svc } = await signup(undefined, { purposes: 'newsletter,analytics' });
      submissions(form);
      form.requestSubmit();
      await waitUntil(() => svc.captures().length === 1);
      const body = svc.captures()[0]!.body!;
      expect(body).not.to.have.property('notice_hash');
      expect(Object.keys(body.decisions)).to.deep.equal(['newsletter', 'analytics']);
    });

    it('submits without a token and fires svc-error when the capture service is unreachable', async () => {
      const { form, el } = await signup(service({ capture: unreachable }));
      const seen = submissions(form);
      const events = record();
      form.requestSubmit();
      await waitUntil(() => seen.length === 1);
      events.stop();
      expect(events.errors.map((e) => [e.code, e.phase])).to.deep.equal([['network', 'capture']]);
      expect(seen[0]!.get('consent')).to.equal(null);
      expect(seen[0]!.get('svc_capture_token')).to.equal(null);
      expect(el.value).to.equal('');
    });

    it('waits the Retry-After of a 429 from the render and the capture endpoints, asks once more and captures, without svc-error', async () => {
      const busy = (answer: Answer): Answer => {
        let first = true;
        return (call, n) => {
          if (!first) return answer(call, n);
          first = false;
          return new Response('{"message":"Too many requests.","code":"rate_limited"}', { status: 429, headers: { 'retry-after': '1' } });
        };
      };
      const events = record();
      const svc = service({ render: busy(rendered()), capture: busy(captured) });
      const form = await fixture<HTMLFormElement>(html`<form>
        <svc-consent-field name="consent" flow="flw_test_1" publishable-key="pk_test_1" base-url=${BASE} .fetch=${svc.fetch}></svc-consent-field>
      </form>`);
      const el = form.querySelector('svc-consent-field')!;
      await ready(el);
      const seen = submissions(form);
      form.requestSubmit();
      await waitUntil(() => seen.length === 1, 'submitted', { timeout: 3000 });
      events.stop();
      expect(events.errors).to.deep.equal([]);
      expect([svc.renders().length, svc.captures().length]).to.deep.equal([2, 2]);
      expect(seen[0]!.get('consent')).to.equal('cap_2');
    });

    it('submits without a token when the capture service is slower than the timeout', async () => {
      const { form, el } = await signup(service({ capture: () => new Promise(() => undefined) }));
      el.timeoutMs = 200;
      const seen = submissions(form);
      const events = record();
      form.requestSubmit();
      await waitUntil(() => seen.length === 1, 'submitted', { timeout: 2000 });
      events.stop();
      expect(events.errors.map((e) => e.code)).to.deep.equal(['timeout']);
    });

    it('submits with svc-error not_rendered when the purposes never loaded', async () => {
      const svc = service({ render: unreachable });
      const form = await fixture<HTMLFormElement>(
        html`<form><svc-consent-field flow="flw_test_1" publishable-key="pk_test_1" base-url=${BASE} .fetch=${svc.fetch}></svc-consent-field></form>`,
      );
      const el = form.querySelector('svc-consent-field')!;
      await waitUntil(() => el.state === 'error');
      const seen = submissions(form);
      const events = record();
      form.requestSubmit();
      await waitUntil(() => seen.length === 1);
      events.stop();
      expect(events.errors.map((e) => [e.code, e.phase])).to.deep.equal([['not_rendered', 'capture']]);
      expect(svc.captures().length).to.equal(0);
    });

    it('holds a second submit while capturing and submits once', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const { form, svc } = await signup(
        service({
          capture: async (c, n) => {
            await gate;
            return captured(c, n);
          },
        }),
      );
      const seen = submissions(form);
      form.requestSubmit();
      form.requestSubmit();
      await aTimeout(20);
      release();
      await waitUntil(() => seen.length === 1);
      await aTimeout(50);
      expect(seen.length).to.equal(1);
      expect(svc.captures().length).to.equal(1);
    });

    it('clears the token when a box changes after a capture', async () => {
      const { form, el } = await signup();
      await el.capture();
      expect(el.value).to.equal('cap_1');
      box(el, 'Email newsletter').click();
      expect(el.value).to.equal('');
      expect(new FormData(form).get('svc_capture_token')).to.equal('');
    });

    it('resets: consent boxes unticked, right-to-object boxes ticked again, no token', async () => {
      const { form, el } = await signup();
      box(el, 'Email newsletter').click();
      box(el, 'Product analytics').click();
      await el.capture();
      form.reset();
      await el.updateComplete;
      expect(box(el, 'Email newsletter').checked).to.equal(false);
      expect(box(el, 'Product analytics').checked).to.equal(true);
      expect(el.value).to.equal('');
      expect(new FormData(form).get('consent')).to.equal(null);
      expect((form.elements.namedItem('svc_capture_token') as HTMLInputElement).value).to.equal('');
    });

    it('is disabled by a disabled fieldset: boxes disabled, nothing captured, nothing submitted', async () => {
      const svc = service();
      const form = await fixture<HTMLFormElement>(html`<form><fieldset disabled>
        <svc-consent-field name="consent" flow="flw_test_1" publishable-key="pk_test_1" base-url=${BASE} .fetch=${svc.fetch}></svc-consent-field></fieldset></form>`);
      const el = form.querySelector('svc-consent-field')!;
      await ready(el);
      expect(el.isDisabled).to.equal(true);
      expect(el.matches(':disabled')).to.equal(true);
      expect(el.willValidate).to.equal(false);
      expect([...el.shadowRoot!.querySelectorAll('input')].every((i) => i.disabled)).to.equal(true);
      const seen = submissions(form);
      form.requestSubmit();
      await waitUntil(() => seen.length === 1);
      expect(svc.captures().length).to.equal(0);
      form.querySelector('fieldset')!.disabled = false;
      await el.updateComplete;
      expect(box(el, 'Email newsletter').disabled).to.equal(false);
    });

    it('is disabled by its own disabled attribute', async () => {
      const { el } = await signup();
      el.disabled = true;
      await el.updateComplete;
      expect(el.matches(':disabled')).to.equal(true);
      expect(box(el, 'Email newsletter').disabled).to.equal(true);
    });

    it('renews a render proof about to expire when the wording is unchanged', async () => {
      let n = 0;
      const svc = service({ render: (call) => json(200, renderData({ render_proof: ++n === 1 ? proof(10, 'old') : proof(600, 'new') })) });
      const { form } = await signup(svc);
      submissions(form);
      form.requestSubmit();
      await waitUntil(() => svc.captures().length === 1);
      expect(svc.renders().length).to.equal(2);
      expect(JSON.parse(atob(svc.captures()[0]!.headers['x-svc-render-proof']!.split('.')[1]!)).jti).to.equal('new');
    });

    it('captures nothing when the proof expired and the wording changed', async () => {
      let n = 0;
      const svc = service({
        render: () => json(200, renderData(++n === 1 ? { render_proof: proof(-5) } : { notice_hash: 'sha256:changed' })),
      });
      const { form } = await signup(svc);
      const seen = submissions(form);
      const events = record();
      form.requestSubmit();
      await waitUntil(() => seen.length === 1);
      events.stop();
      expect(events.errors.map((e) => e.code)).to.deep.equal(['wording_changed']);
      expect(svc.captures().length).to.equal(0);
    });

    it('sends commit when asked for a browser commit', async () => {
      const { el, svc } = await signup();
      el.commit = true;
      await el.capture();
      expect(svc.captures()[0]!.body!.commit).to.equal(true);
    });
  });

  describe('one consent field per flow per form', () => {
    it('renders nothing for a second field of the same flow and fires svc-error duplicate_field', async () => {
      const svc = service();
      const events = record();
      const form = await fixture<HTMLFormElement>(html`<form>
        <svc-consent-field id="a" name="a" flow="flw_test_1" publishable-key="pk_test_1" base-url=${BASE} .fetch=${svc.fetch}></svc-consent-field>
        <svc-consent-field id="b" name="b" flow="flw_test_1" publishable-key="pk_test_1" base-url=${BASE} .fetch=${svc.fetch}></svc-consent-field>
        <svc-consent-field id="c" name="c" flow="flw_test_2" publishable-key="pk_test_1" base-url=${BASE} .fetch=${svc.fetch}></svc-consent-field>
      </form>`);
      const [a, b, c] = [...form.querySelectorAll('svc-consent-field')];
      await ready(a!);
      await ready(c!);
      await b!.updateComplete;
      events.stop();
      expect(b!.state).to.equal('duplicate');
      expect(b!.shadowRoot!.children.length).to.equal(0);
      expect(b!.getBoundingClientRect().height).to.equal(0);
      expect(b!.matches(':state(duplicate)')).to.equal(true);
      expect(events.errors.map((e) => [e.code, e.flow, e.phase])).to.deep.equal([['duplicate_field', 'flw_test_1', 'setup']]);
      expect(svc.renders().length).to.equal(2);
      // Submitting captures each flow once.
      const seen = submissions(form);
      form.requestSubmit();
      await waitUntil(() => seen.length === 1);
      expect(
        svc
          .captures()
          .map((x) => x.body!.flow_id)
          .sort(),
      ).to.deep.equal(['flw_test_1', 'flw_test_2']);
      expect(seen[0]!.getAll('svc_capture_token').length).to.equal(2);
      expect(seen[0]!.get('b')).to.equal(null);
      // The first one gone, the second takes over.
      a!.remove();
      await ready(b!);
      expect(b!.shadowRoot!.querySelector('fieldset')).not.to.equal(null);
    });

    it('allows the same flow once in each of two forms', async () => {
      const svc = service();
      const events = record();
      const host = await fixture<HTMLDivElement>(html`<div>
        <form><svc-consent-field flow="flw_test_1" publishable-key="pk_test_1" base-url=${BASE} .fetch=${svc.fetch}></svc-consent-field></form>
        <form><svc-consent-field flow="flw_test_1" publishable-key="pk_test_1" base-url=${BASE} .fetch=${svc.fetch}></svc-consent-field></form></div>`);
      await Promise.all([...host.querySelectorAll('svc-consent-field')].map(ready));
      events.stop();
      expect(events.errors).to.deep.equal([]);
    });
  });

  describe('appearance', () => {
    const styleOf = (el: SvcConsentField, selector: string) => getComputedStyle(inner(el, selector)!);

    it('applies each valid key as a --svc-* custom property, with no style attribute', async () => {
      const appearance: Appearance = {
        fontFamily: 'serif',
        fontSize: '18px',
        text: '#123456',
        muted: 'rgb(1, 2, 3)',
        accent: 'hsl(120 100% 25%)',
        border: 'red',
        radius: '12px',
        density: 'compact',
      };
      const { el } = await signup(undefined, { appearance: JSON.stringify(appearance) });
      const base = styleOf(el, 'fieldset');
      expect(base.fontFamily).to.match(/^Georgia/);
      expect(base.fontSize).to.equal('18px');
      expect(base.color).to.equal('rgb(18, 52, 86)');
      expect(base.borderTopColor).to.equal('rgb(255, 0, 0)');
      expect(base.borderTopLeftRadius).to.equal('12px');
      expect(styleOf(el, '.row__description').color).to.equal('rgb(1, 2, 3)');
      expect(styleOf(el, '.row__control').accentColor).to.equal('rgb(0, 128, 0)');
      expect(styleOf(el, 'a').color).to.equal('rgb(0, 128, 0)');
      expect(styleOf(el, '.field__rows').rowGap).to.equal('6px');
      expect(el.hasAttribute('style')).to.equal(false);
      expect(warnings).to.deep.equal([]);
    });

    it('applies every font family and density', async () => {
      const { el } = await signup();
      const expected = { system: /^system-ui/, inter: /^Inter/, serif: /^Georgia/, mono: /^ui-monospace/ } as const;
      for (const [fontFamily, pattern] of Object.entries(expected)) {
        el.appearance = { fontFamily: fontFamily as Appearance['fontFamily'] };
        await el.updateComplete;
        expect(styleOf(el, 'fieldset').fontFamily).to.match(pattern);
      }
      for (const [density, gap] of [
        ['compact', '6px'],
        ['regular', '12px'],
        ['relaxed', '18px'],
      ] as const) {
        el.appearance = { density };
        await el.updateComplete;
        expect(styleOf(el, '.field__rows').rowGap).to.equal(gap);
      }
      expect(warnings).to.deep.equal([]);
    });

    it('ignores invalid values with one console warning per element, keeping the valid ones', async () => {
      const invalid = {
        fontFamily: 'comic',
        fontSize: 'big',
        text: 'notacolor',
        muted: 'var(--page-grey)',
        accent: 'red; } :host { display: none',
        border: 'inherit',
        radius: '-3px',
        density: 'cozy',
        colour: 'red',
        fontSize2: 1,
      };
      const { el } = await signup(undefined, { appearance: JSON.stringify({ ...invalid, text: 'notacolor', accent: '#00ff00' }) });
      expect(styleOf(el, 'fieldset').color).to.equal('rgb(31, 35, 40)');
      expect(styleOf(el, '.row__control').accentColor).to.equal('rgb(0, 255, 0)');
      expect(styleOf(el, 'fieldset').display).to.equal('block');
      expect(styleOf(el, 'fieldset').borderTopLeftRadius).to.equal('8px');
      expect(warnings.length).to.equal(1);
      const warning = String(warnings[0]![0]);
      for (const name of [
        'fontFamily: "comic"',
        'fontSize: "big"',
        'text: "notacolor"',
        'muted: "var(--page-grey)"',
        'border: "inherit"',
        'radius: "-3px"',
        'density: "cozy"',
        'unknown key "colour"',
      ]) {
        expect(warning).to.contain(name);
      }
      el.appearance = { fontSize: 'huge' } as Appearance;
      el.setAttribute('appearance', '{not json');
      await el.updateComplete;
      expect(warnings.length).to.equal(1);
    });

    it('warns once for an appearance attribute that is not JSON, and for a non-object', async () => {
      const { el } = await signup(undefined, { appearance: '{fontSize: 12px}' });
      expect(warnings.length).to.equal(1);
      expect(String(warnings[0]![0])).to.contain('not JSON');
      const other = await fixture<SvcConsentField>(
        html`<svc-consent-field flow="flw_test_1" publishable-key="pk_test_1" base-url=${BASE} .fetch=${service().fetch} appearance="[1,2]"></svc-consent-field>`,
      );
      await ready(other);
      expect(warnings.length).to.equal(2);
      expect(styleOf(el, 'fieldset').fontSize).to.equal('16px');
    });

    it('counts an unknown theme among the ignored values of its one warning, and falls back to light', async () => {
      const { el } = await signup(undefined, { theme: 'neon', appearance: '{"text":"nope"}' });
      expect(warnings.length).to.equal(1);
      expect(String(warnings[0]![0])).to.match(/text: "nope"/);
      const other = await fixture<SvcConsentField>(
        html`<svc-consent-field theme="neon" flow="flw_test_1" publishable-key="pk_test_1" base-url=${BASE} .fetch=${service().fetch}></svc-consent-field>`,
      );
      await ready(other);
      expect(warnings.length).to.equal(2);
      expect(String(warnings[1]![0])).to.contain('theme: "neon"');
      expect(inner(el, 'fieldset')!.className).not.to.contain('dark');
    });

    it('lets page CSS set the same --svc-* properties on the element', async () => {
      const style = document.createElement('style');
      style.textContent = 'svc-consent-field.themed { --svc-text: rgb(0, 0, 200); }';
      document.head.append(style);
      try {
        const { el } = await signup();
        el.classList.add('themed');
        expect(styleOf(el, 'fieldset').color).to.equal('rgb(0, 0, 200)');
      } finally {
        style.remove();
      }
    });
  });

  describe('recording mark', () => {
    const channels = (color: string) => (color.match(/[\d.]+/g) ?? []).slice(0, 4).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const lin = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
    };
    const contrast = (a: string, b: string) => {
      const [la, lb] = [luminance(channels(a)), luminance(channels(b))].sort((x, y) => y - x);
      return (la! + 0.05) / (lb! + 0.05);
    };

    function expectMarkVisible(el: SvcConsentField, context: string) {
      const mark = inner(el, '.mark')!;
      expect(mark, context).to.exist;
      const style = getComputedStyle(mark);
      const rect = mark.getBoundingClientRect();
      expect(mark.textContent!.trim(), context).to.equal('Recorded by svc');
      expect(mark.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }), context).to.equal(true);
      expect(style.display, context).to.equal('inline-flex');
      expect(style.fontSize, context).to.equal('12px');
      expect(rect.width, context).to.be.greaterThan(60);
      expect(rect.height, context).to.be.at.least(16);
      expect(channels(style.backgroundColor)[3] ?? 1, context).to.equal(1);
      expect(contrast(style.color, style.backgroundColor), `${context}: contrast`).to.be.at.least(4.5);
      expect(style.getPropertyValue('-webkit-text-fill-color'), context).to.equal(style.color);
    }

    it('is not a part, so ::part() cannot reach it', async () => {
      const { el } = await signup();
      expect(el.shadowRoot!.querySelector('[part~=mark]')).to.equal(null);
      expect(inner(el, '.mark')!.hasAttribute('part')).to.equal(false);
    });

    it('stays visible, 12px and readable under every theme, appearance and hostile page style', async () => {
      const style = document.createElement('style');
      style.textContent = `svc-consent-field.hostile { color: transparent; font-size: 0; line-height: 0; letter-spacing: -20px;
        -webkit-text-fill-color: transparent; text-shadow: 0 0 8px #fff; font-family: 'Comic Sans MS'; text-indent: -9999px;
        --_mark-text: transparent; --_mark-back: transparent; }
        svc-consent-field.hostile::part(base) { color: transparent; }
        svc-consent-field::part(mark) { display: none !important; }`;
      document.head.append(style);
      const appearances: Appearance[] = [
        {},
        { text: '#fff', muted: '#fff', accent: '#fff', border: '#fff' },
        { text: 'transparent', muted: 'transparent', accent: 'transparent', border: 'transparent' },
        { text: '#000', muted: '#000', accent: '#000', border: '#000' },
        { fontSize: '1px', radius: '0', density: 'compact', fontFamily: 'mono' },
        { fontSize: '64px', radius: '999px', density: 'relaxed', fontFamily: 'serif' },
      ];
      try {
        const { el } = await signup();
        for (const theme of ['light', 'dark', 'auto', 'neon']) {
          for (const appearance of appearances) {
            for (const hostile of [false, true]) {
              el.theme = theme;
              el.appearance = appearance;
              el.classList.toggle('hostile', hostile);
              await el.updateComplete;
              expectMarkVisible(el, `${theme} ${JSON.stringify(appearance)}${hostile ? ' hostile' : ''}`);
            }
          }
        }
      } finally {
        style.remove();
      }
    });

    it('captures nothing when the page hid the field, and says so with mark_hidden', async () => {
      const hiding = [
        'svc-consent-field { display: none }',
        'svc-consent-field { visibility: hidden }',
        'svc-consent-field { opacity: 0 }',
        'svc-consent-field { transform: scale(0) }',
        'svc-consent-field::part(base) { visibility: hidden }',
        'svc-consent-field::part(base) { opacity: 0 }',
        'svc-consent-field::part(base) { display: none }',
      ];
      for (const hide of hiding) {
        const { form, el, svc } = await signup();
        const style = document.createElement('style');
        style.textContent = hide;
        document.head.append(style);
        try {
          const seen = submissions(form);
          const events = record();
          form.requestSubmit();
          await waitUntil(() => seen.length === 1);
          events.stop();
          expect(
            events.errors.map((e) => e.code),
            hide,
          ).to.deep.equal(['mark_hidden']);
          expect(svc.captures().length, hide).to.equal(0);
          expect(el.value).to.equal('');
        } finally {
          style.remove();
          fixtureCleanup();
        }
      }
    });
  });

  describe('keyboard', () => {
    it('moves through the boxes and the policy link in order, toggles with Space, with a visible focus ring', async () => {
      const { form, el } = await signup(undefined, { appearance: '{"accent":"rgb(200, 0, 100)"}' });
      form.querySelector<HTMLInputElement>('[name=email]')!.focus();
      const focused = () => (document.activeElement === el ? el.shadowRoot!.activeElement : document.activeElement) as HTMLElement;
      await sendKeys({ press: 'Tab' });
      expect(focused()).to.equal(box(el, 'Email newsletter'));
      const ring = getComputedStyle(focused());
      expect(ring.outlineStyle).to.equal('solid');
      expect(ring.outlineColor).to.equal('rgb(200, 0, 100)');
      expect(parseFloat(ring.outlineWidth)).to.be.at.least(2);
      await sendKeys({ press: ' ' }); // Space (puppeteer's BiDi keyboard knows ' ', not the name 'Space')
      expect(box(el, 'Email newsletter').checked).to.equal(true);
      await sendKeys({ press: 'Tab' });
      expect(focused()).to.equal(box(el, 'Product analytics'));
      await sendKeys({ press: ' ' }); // Space (puppeteer's BiDi keyboard knows ' ', not the name 'Space')
      expect(box(el, 'Product analytics').checked).to.equal(false);
      await sendKeys({ press: 'Tab' });
      expect(focused()).to.equal(inner(el, 'a[part=policy]'));
      expect(getComputedStyle(focused()).outlineStyle).to.equal('solid');
      await sendKeys({ press: 'Tab' });
      expect(focused()).to.equal(form.querySelector('button'));
      await executeServerCommand('svc-press', 'Shift+Tab'); // a chord: see scripts/wtr-keys-plugin.mjs
      expect(focused()).to.equal(inner(el, 'a[part=policy]'));
      expect(el.decisions).to.deep.equal({ newsletter: 'granted', analytics: 'declined' });
    });

    it('submits with Enter from the email field and captures what the keyboard chose', async () => {
      const { form, el, svc } = await signup();
      const seen = submissions(form);
      box(el, 'Email newsletter').focus();
      await sendKeys({ press: ' ' }); // Space (puppeteer's BiDi keyboard knows ' ', not the name 'Space')
      form.querySelector<HTMLInputElement>('[name=email]')!.focus();
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => seen.length === 1);
      expect(svc.captures()[0]!.body!.decisions.newsletter!.decision).to.equal('granted');
    });

    it('still submits on Enter when capturing fails at once (the browser is still firing the submit event)', async () => {
      const svc = service({ render: unreachable });
      const form = await fixture<HTMLFormElement>(html`<form><input name="email" value="ada@example.com">
        <svc-consent-field flow="flw_test_1" publishable-key="pk_test_1" base-url=${BASE} .fetch=${svc.fetch}></svc-consent-field><button>Go</button></form>`);
      const el = form.querySelector('svc-consent-field')!;
      await waitUntil(() => el.state === 'error');
      const seen = submissions(form);
      form.querySelector<HTMLInputElement>('[name=email]')!.focus();
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => seen.length === 1, 'the form submitted');
    });
  });

  describe('country cells', () => {
    const DE = 'https://de.svc.example';
    const wrong = () =>
      json(421, { message: 'This resource is served from its home country, DE.', code: 'wrong_country', home_country: 'DE' });
    /** The BASE cell answers `first` for the render or the capture, and lists DE; DE answers like the service. */
    function cells(first: { render?: Answer; capture?: Answer }) {
      const home = service();
      const misdirected = service(first);
      const fetch = (url: string, init: RequestInit) =>
        url.startsWith(DE)
          ? home.fetch(url, init)
          : url === `${BASE}/api/v1/countries`
            ? Promise.resolve(json(200, { country: 'US', countries: [{ country: 'DE', base_url: DE, trust_url: DE }] }))
            : misdirected.fetch(url, init);
      return { fetch, home, misdirected };
    }

    it('renders from the home cell when the base URL answers 421, and posts the capture there with the render proof', async () => {
      const svc = cells({ render: wrong, capture: wrong });
      const form = await fixture<HTMLFormElement>(
        html`<form><svc-consent-field name="consent" flow="flw_test_1" publishable-key="pk_test_1" base-url=${BASE} .fetch=${svc.fetch}></svc-consent-field><button>Go</button></form>`,
      );
      form.addEventListener('submit', (event) => event.preventDefault());
      const el = form.querySelector('svc-consent-field')!;
      await ready(el);
      expect(svc.home.renders().map((c) => c.url)).to.deep.equal([`${DE}/api/v1/flows/flw_test_1/render`]);
      const captured = oneEvent(el, 'svc-capture');
      form.requestSubmit();
      await captured;
      expect(svc.misdirected.captures().length).to.equal(1);
      const [post] = svc.home.captures();
      expect(post!.url).to.equal(`${DE}/api/v1/captures`);
      expect(post!.headers['x-publishable-key']).to.equal('pk_test_1');
      expect(post!.headers['x-svc-render-proof']).to.equal(PROOF);
      expect(post!.body).to.deep.equal(svc.misdirected.captures()[0]!.body);
    });

    it('reports the 421 when the home cell answers 421 too, without a third request', async () => {
      const svc = cells({ render: wrong });
      svc.home.fetch = async (url, init) => (svc.home.calls.push({ url, method: 'GET', headers: {}, init }), wrong());
      const events = record();
      const el = await fixture<SvcConsentField>(
        html`<svc-consent-field flow="flw_test_1" publishable-key="pk_test_1" base-url=${BASE} .fetch=${svc.fetch}></svc-consent-field>`,
      );
      await waitUntil(() => el.state === 'error');
      events.stop();
      expect(events.errors[0]).to.include({ code: 'http_421', status: 421, phase: 'render' });
      expect(svc.home.calls.length).to.equal(1);
      expect(svc.misdirected.calls.length).to.equal(1);
    });
  });

  describe('right-to-left locales', () => {
    for (const locale of ['ar', 'he', 'fa', 'ur']) {
      it(`lays out right to left for ${locale}`, async () => {
        const { el } = await signup(undefined, { locale });
        const base = inner(el, 'fieldset')!;
        expect(base.getAttribute('dir')).to.equal('rtl');
        expect(base.getAttribute('lang')).to.equal(locale);
        const control = box(el, 'Email newsletter').getBoundingClientRect();
        const label = box(el, 'Email newsletter').labels![0]!.getBoundingClientRect();
        expect(control.left, 'the box sits at the right, before the label').to.be.greaterThan(label.right - 1);
        expect(getComputedStyle(base).direction).to.equal('rtl');
        const mark = inner(el, '.mark')!.getBoundingClientRect();
        expect(
          Math.abs(mark.right - (base.getBoundingClientRect().right - parseFloat(getComputedStyle(base).paddingRight) - 1)),
        ).to.be.lessThan(2, 'the mark starts at the inline start (the right)');
      });
    }

    it('speaks its own words in Arabic and Hebrew and lays out left to right for English in a right-to-left page', async () => {
      const { el } = await signup(undefined, { locale: 'ar' });
      expect(inner(el, '.mark')!.textContent!.trim()).to.equal('مسجّل بواسطة svc');
      const page = await fixture<HTMLDivElement>(
        html`<div dir="rtl"><svc-consent-field flow="flw_test_1" publishable-key="pk_test_1" base-url=${BASE} .fetch=${service().fetch}></svc-consent-field></div>`,
      );
      const field = page.querySelector('svc-consent-field')!;
      await ready(field);
      expect(inner(field, 'fieldset')!.getAttribute('dir')).to.equal('ltr');
    });
  });

  describe('on an origin the application does not allow, against the reference server', () => {
    const THIRD = `http://127.0.0.2:${location.port}`;
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
    });

    it("fires svc-error origin_not_allowed with the service's message, not network", async function () {
      // The organisation's page on a third origin loads the elements' modules afresh.
      this.timeout(30_000);
      const params = new URLSearchParams({
        element: 'svc-consent-field',
        parent: location.origin,
        'a.name': 'consent',
        'a.flow': sandbox.flow_id,
        'a.publishable-key': sandbox.publishable_key,
        'a.base-url': sandbox.base_url,
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
        expect(detail).to.include({ code: 'origin_not_allowed', phase: 'render', flow: sandbox.flow_id, status: 403 });
        const app = sandbox.application_id;
        expect(detail.message).to.equal(
          `The origin ${THIRD} is not an allowed origin of application ${app}. Allow it with ` +
            `\`svc origins add ${THIRD} --app ${app}\` or POST /api/v1/applications/${app}/allowed_origins.`,
        );
        expect((detail.body as { code: string }).code).to.equal('origin_not_allowed');
      } finally {
        frame.remove();
      }
    });
  });
});
