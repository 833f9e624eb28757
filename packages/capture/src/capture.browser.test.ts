import { aTimeout, expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import fc from 'fast-check';
import {
  CaptureError,
  SNAPSHOT_MAX_BYTES,
  askService,
  attachCapture,
  type CaptureHandle,
  type CaptureOptions,
  type CaptureRequest,
} from './index.js';

// The service is replaced at the network boundary only: an injected fetch that records each request and answers
// like POST /api/v1/captures would.
interface Call {
  url: string;
  init: RequestInit;
  headers: Record<string, string>;
  body: CaptureRequest;
}
type Answer = (call: Call, n: number) => Response | Promise<Response>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const accepted: Answer = (_call, n) =>
  json(201, {
    capture: { session_token: `dts_${n}`, attestation_id: `att_${n}`, committed: false, record_id: null, wording_verdict: 'match' },
  });

function service(answer: Answer = accepted) {
  const calls: Call[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    const call = { url, init, headers: init.headers as Record<string, string>, body: JSON.parse(String(init.body)) as CaptureRequest };
    calls.push(call);
    return answer(call, calls.length);
  };
  return { calls, fetch };
}

const handles = new Map<HTMLFormElement, CaptureHandle>();
function attach(form: HTMLFormElement, fetch: CaptureOptions['fetch'], options: Partial<CaptureOptions> = {}) {
  const handle = attachCapture(form, {
    flowId: 'flw_test_1',
    publishableKey: 'pk_test_1',
    baseUrl: 'https://svc.example/',
    fetch,
    ...options,
  });
  handles.set(form, handle);
  return handle;
}
const attachedCapture = (form: HTMLFormElement) => handles.get(form)!;

// Every submission that reaches the page's own submit listener, with the data the browser would send; the
// listener cancels navigation so the test page stays.
function submissions(form: HTMLFormElement) {
  const seen: { data: FormData; submitter: HTMLElement | null }[] = [];
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    seen.push({ data: new FormData(form, event.submitter), submitter: event.submitter });
  });
  return seen;
}

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `sha256:${Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
const bytes = (text: string) => new TextEncoder().encode(text).length;

async function signupForm() {
  return fixture<HTMLFormElement>(html`
    <form id="signup" action="/signup" method="post">
      <label>Email <input type="email" name="email"></label>
      <label><input type="checkbox" name="news" data-svc-purpose="newsletter"> Send me the newsletter</label>
      <label><input type="checkbox" name="partners" data-svc-purpose="partners"> Share my details with partners</label>
      <button name="action" value="join">Join</button>
    </form>
  `);
}

afterEach(() => {
  for (const handle of handles.values()) handle.detach();
  handles.clear();
});

describe('attachCapture', () => {
  describe('attestation', () => {
    it('should attest a ticked box as granted and an unticked box as declined', async () => {
      const form = await signupForm();
      const { calls, fetch } = service();
      submissions(form);
      attach(form, fetch);
      form.querySelector<HTMLInputElement>('[name=news]')!.click();
      form.requestSubmit();
      await waitUntil(() => calls.length === 1);
      expect(calls[0]!.body.flow_id).to.equal('flw_test_1');
      expect(calls[0]!.body.decisions).to.deep.equal({
        newsletter: { decision: 'granted', default_checked: false, mandatory: false },
        partners: { decision: 'declined', default_checked: false, mandatory: false },
      });
    });

    it('should attest default_checked from the checked attribute, not from the state at submit', async () => {
      const form = await fixture<HTMLFormElement>(html`
        <form>
          <label><input type="checkbox" checked data-svc-purpose="pre_ticked"> Pre-ticked</label>
          <label><input type="checkbox" data-svc-purpose="ticked_by_person"> Ticked by the person</label>
        </form>
      `);
      const { calls, fetch } = service();
      submissions(form);
      attach(form, fetch);
      form.querySelector<HTMLInputElement>('[data-svc-purpose=pre_ticked]')!.click(); // the person unticks it
      form.querySelector<HTMLInputElement>('[data-svc-purpose=ticked_by_person]')!.click();
      form.requestSubmit();
      await waitUntil(() => calls.length === 1);
      expect(calls[0]!.body.decisions).to.deep.equal({
        pre_ticked: { decision: 'declined', default_checked: true, mandatory: false },
        ticked_by_person: { decision: 'granted', default_checked: false, mandatory: false },
      });
    });

    it('should report a pre-ticked box left ticked as default_checked, so the service can refuse it', async () => {
      const form = await fixture<HTMLFormElement>(
        html`<form><label><input type="checkbox" checked data-svc-purpose="marketing"> Marketing</label></form>`,
      );
      const { calls, fetch } = service();
      submissions(form);
      attach(form, fetch);
      form.requestSubmit();
      await waitUntil(() => calls.length === 1);
      expect(calls[0]!.body.decisions['marketing']).to.deep.equal({ decision: 'granted', default_checked: true, mandatory: false });
    });

    it('should attest mandatory from required and from aria-required', async () => {
      const form = await fixture<HTMLFormElement>(html`
        <form>
          <label><input type="checkbox" required data-svc-purpose="terms_box"> I agree</label>
          <label><input type="checkbox" aria-required="true" data-svc-purpose="aria_box"> Also required</label>
          <label><input type="checkbox" data-svc-purpose="free_box"> Optional</label>
        </form>
      `);
      const { calls, fetch } = service();
      submissions(form);
      attach(form, fetch);
      form.querySelector<HTMLInputElement>('[required]')!.click(); // else the form would not pass validation
      form.requestSubmit();
      await waitUntil(() => calls.length === 1);
      const { decisions } = calls[0]!.body;
      expect(decisions['terms_box']).to.deep.equal({ decision: 'granted', default_checked: false, mandatory: true });
      expect(decisions['aria_box']!.mandatory).to.equal(true);
      expect(decisions['free_box']!.mandatory).to.equal(false);
    });

    it('should attest a ticked box the person cannot untick (disabled, or in a disabled fieldset) as mandatory', async () => {
      const form = await fixture<HTMLFormElement>(html`
        <form>
          <label><input type="checkbox" checked disabled data-svc-purpose="forced"> Forced</label>
          <fieldset disabled><label><input type="checkbox" checked data-svc-purpose="fenced"> Fenced</label></fieldset>
          <label><input type="checkbox" disabled data-svc-purpose="greyed_out"> Greyed out</label>
        </form>
      `);
      const { calls, fetch } = service();
      submissions(form);
      attach(form, fetch);
      form.requestSubmit();
      await waitUntil(() => calls.length === 1);
      expect(calls[0]!.body.decisions).to.deep.equal({
        forced: { decision: 'granted', default_checked: true, mandatory: true },
        fenced: { decision: 'granted', default_checked: true, mandatory: true },
        greyed_out: { decision: 'declined', default_checked: false, mandatory: false },
      });
      expect(calls[0]!.body.snapshot).to.contain('<input type="checkbox" checked disabled>');
    });

    it('should read a radio group and a select by the meaning of each choice', async () => {
      const form = await fixture<HTMLFormElement>(html`
        <form>
          <fieldset>
            <legend id="news-legend">Newsletter?</legend>
            <label><input type="radio" name="news" value="yes" data-svc-decision="granted" data-svc-purpose="newsletter" data-svc-notice="news-legend"> Yes</label>
            <label><input type="radio" name="news" value="no" data-svc-decision="declined" data-svc-purpose="newsletter" checked> No</label>
          </fieldset>
          <label>Partners
            <select name="partners" data-svc-purpose="partners">
              <option value="">Choose</option>
              <option value="granted">Share</option>
              <option value="declined">Do not share</option>
            </select>
          </label>
          <label>Profiling
            <select name="profiling" data-svc-purpose="profiling"><option value="granted" selected>Yes</option><option value="declined">No</option></select>
          </label>
        </form>
      `);
      const { calls, fetch } = service();
      submissions(form);
      attach(form, fetch);
      form.querySelector<HTMLInputElement>('[value=yes]')!.click();
      form.querySelector<HTMLSelectElement>('[name=partners]')!.value = 'declined';
      form.requestSubmit();
      await waitUntil(() => calls.length === 1);
      const { decisions, notice_hashes, snapshot } = calls[0]!.body;
      expect(decisions).to.deep.equal({
        newsletter: { decision: 'granted', default_checked: false, mandatory: false },
        partners: { decision: 'declined', default_checked: false, mandatory: false },
        profiling: { decision: 'granted', default_checked: true, mandatory: false },
      });
      expect(notice_hashes!['newsletter']).to.equal(await sha256('Newsletter? Yes No'));
      expect(snapshot).to.contain('<input type="radio" name="news" data-svc-decision="declined" checked>');
      expect(snapshot).to.contain('<option data-svc-decision="granted" selected>Yes</option>');
    });

    it('should use an explicit purposes mapping instead of data-svc-purpose', async () => {
      const form = await fixture<HTMLFormElement>(html`
        <form>
          <label><input type="checkbox" id="a" checked> First</label>
          <label><input type="checkbox" class="second"> Second</label>
          <label><input type="checkbox" data-svc-purpose="ignored"> Ignored</label>
        </form>
      `);
      const { calls, fetch } = service();
      submissions(form);
      attach(form, fetch, { purposes: { first: form.querySelector('#a')!, second: '.second' } });
      form.requestSubmit();
      await waitUntil(() => calls.length === 1);
      expect(calls[0]!.body.decisions).to.deep.equal({
        first: { decision: 'granted', default_checked: true, mandatory: false },
        second: { decision: 'declined', default_checked: false, mandatory: false },
      });
    });

    it('should read the subject from fields marked data-svc-subject, and locale from lang', async () => {
      const form = await fixture<HTMLFormElement>(html`
        <div lang="pt-BR"><form>
          <input type="email" name="email" data-svc-subject="email">
          <input type="hidden" name="customer" value="cust_42" data-svc-subject="external_id">
          <label><input type="checkbox" data-svc-purpose="newsletter"> Quero a newsletter</label>
        </form></div>
      `).then((div) => div.querySelector('form')!);
      const { calls, fetch } = service();
      submissions(form);
      attach(form, fetch, { commit: true });
      form.querySelector<HTMLInputElement>('[name=email]')!.value = ' ana@example.com ';
      form.requestSubmit();
      await waitUntil(() => calls.length === 1);
      expect(calls[0]!.body.subject).to.deep.equal({ email: 'ana@example.com', external_id: 'cust_42' });
      expect(calls[0]!.body.locale).to.equal('pt-BR');
      expect(calls[0]!.body.commit).to.equal(true);
    });
  });

  describe('notice hashes', () => {
    it('should hash the label text and the described notice with SHA-256, per purpose and as a whole', async () => {
      const form = await fixture<HTMLFormElement>(html`
        <form>
          <label>
            <input type="checkbox" data-svc-purpose="newsletter" aria-describedby="news-more">
            Send me the   <em>monthly</em>
            newsletter
          </label>
          <p id="news-more">One email a month; unsubscribe any time.</p>
          <label><input type="checkbox" id="p" data-svc-purpose="partners">Share with partners</label>
          <small data-svc-purpose="partners">Partners are listed in our policy.</small>
        </form>
      `);
      const { calls, fetch } = service();
      submissions(form);
      attach(form, fetch);
      form.requestSubmit();
      await waitUntil(() => calls.length === 1);
      const news = 'Send me the monthly newsletter One email a month; unsubscribe any time.';
      const partners = 'Share with partners Partners are listed in our policy.';
      expect(calls[0]!.body.notice_hashes).to.deep.equal({ newsletter: await sha256(news), partners: await sha256(partners) });
      expect(calls[0]!.body.notice_hash).to.equal(await sha256(`${news}\n${partners}`));
    });
  });

  describe('snapshot', () => {
    it('should hold the consent controls and their labels only: no typed values, no other fields, no scripts or styling', async () => {
      const form = await fixture<HTMLFormElement>(html`
        <form id="signup" class="fancy" style="color: red">
          <label>Name <input type="text" name="full_name"></label>
          <label>Email <input type="email" name="email"></label>
          <input type="password" name="pw">
          <textarea name="note"></textarea>
          <input type="hidden" name="csrf" value="hidden-csrf-value">
          <label class="consent" style="font-weight: bold">
            <input type="checkbox" name="news" value="news-value" class="box" style="margin: 0" onclick="void 0" data-tracking="t-123" data-svc-purpose="newsletter">
            Send me the newsletter <script>window.snapshotLeak = 1</script><span hidden>hidden words</span>
          </label>
          <div contenteditable="true" id="editor" data-svc-purpose="editor_note"></div>
        </form>
      `);
      const secrets = ['Ana Secretname', 'ana.secret@example.com', 'pa55word-secret', 'a private note', 'typed into the editor'];
      (form.querySelector('[name=full_name]') as HTMLInputElement).value = secrets[0]!;
      (form.querySelector('[name=email]') as HTMLInputElement).value = secrets[1]!;
      (form.querySelector('[name=pw]') as HTMLInputElement).value = secrets[2]!;
      (form.querySelector('[name=note]') as HTMLTextAreaElement).value = secrets[3]!;
      form.querySelector('#editor')!.textContent = secrets[4]!;
      const { calls, fetch } = service();
      submissions(form);
      attach(form, fetch);
      form.requestSubmit();
      await waitUntil(() => calls.length === 1);
      const { snapshot } = calls[0]!.body;
      expect(snapshot).to.equal(
        '<div data-svc-snapshot="1" data-form-id="signup">' +
          '<fieldset data-svc-purpose="newsletter"><input type="checkbox" name="news"><label>Send me the newsletter</label></fieldset>' +
          '<fieldset data-svc-purpose="editor_note"><p></p></fieldset></div>',
      );
      const wire = JSON.stringify(calls[0]!.body);
      for (const secret of [...secrets, 'hidden-csrf-value', 'news-value', 'snapshotLeak', 'hidden words', 't-123']) {
        expect(wire, secret).not.to.contain(secret);
      }
      for (const noise of ['class=', 'style=', 'onclick', 'full_name', 'csrf', 'password']) expect(snapshot, noise).not.to.contain(noise);
    });

    it('should stay within 16 KB of UTF-8, cut in a marked, parseable way, while the hash covers the full text', async () => {
      const long = `Consent ${'é'.repeat(20000)}`;
      const form = await fixture<HTMLFormElement>(html`
        <form>
          <label><input type="checkbox" data-svc-purpose="first"> ${long}</label>
          <label><input type="checkbox" data-svc-purpose="second"> Second</label>
        </form>
      `);
      const { calls, fetch } = service();
      submissions(form);
      attach(form, fetch);
      form.requestSubmit();
      await waitUntil(() => calls.length === 1);
      const { snapshot, notice_hashes } = calls[0]!.body;
      expect(bytes(snapshot!)).to.be.at.most(SNAPSHOT_MAX_BYTES);
      expect(snapshot).to.match(
        /^<div data-svc-snapshot="1"><fieldset data-svc-purpose="first"><input type="checkbox"><label>Consent é+…<\/label><\/fieldset><!--svc:truncated--><\/div>$/,
      );
      const parsed = new DOMParser().parseFromString(snapshot!, 'text/html');
      expect(parsed.querySelectorAll('fieldset input[type=checkbox]').length).to.equal(1);
      expect(notice_hashes!['first']).to.equal(await sha256(long));
    });

    it('should never hold a typed value or exceed 16 KB, for arbitrary label text and values', async () => {
      const form = await fixture<HTMLFormElement>(html`<form><input name="free"><textarea name="area"></textarea></form>`);
      const { calls, fetch } = service();
      attach(form, fetch);
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.string({ unit: 'grapheme', maxLength: 3000 }), { minLength: 1, maxLength: 6 }),
          fc.uuid(),
          fc.nat({ max: 9000 }),
          async (labels, secret, pad) => {
            form.querySelectorAll('label').forEach((label) => label.remove());
            labels.forEach((text, i) => {
              const label = document.createElement('label');
              const box = Object.assign(document.createElement('input'), { type: 'checkbox', value: `value-${secret}` });
              box.setAttribute('data-svc-purpose', `p${i}`);
              label.append(box, text + 'ü'.repeat(i === 0 ? pad : 0));
              form.append(label);
            });
            (form.elements.namedItem('free') as HTMLInputElement).value = `typed-${secret}`;
            (form.elements.namedItem('area') as HTMLTextAreaElement).value = `typed-${secret}`;
            await attachedCapture(form).capture();
            const { snapshot } = calls.at(-1)!.body;
            expect(bytes(snapshot!)).to.be.at.most(SNAPSHOT_MAX_BYTES);
            expect(snapshot).not.to.contain(secret);
          },
        ),
        { numRuns: 40 },
      );
    });
  });

  describe('request', () => {
    it('should post to {baseUrl}/api/v1/captures with the publishable key, the render proof and no cookies', async () => {
      const form = await signupForm();
      const { calls, fetch } = service();
      submissions(form);
      attach(form, fetch, { renderProof: 'eyJhbGciOiJFUzI1NiJ9.e30.sig' });
      form.requestSubmit();
      await waitUntil(() => calls.length === 1);
      const [call] = calls;
      expect(call!.url).to.equal('https://svc.example/api/v1/captures');
      expect(call!.init.method).to.equal('POST');
      expect(call!.init.credentials).to.equal('omit');
      expect(call!.headers).to.deep.equal({
        'content-type': 'application/json',
        'x-publishable-key': 'pk_test_1',
        'x-svc-render-proof': 'eyJhbGciOiJFUzI1NiJ9.e30.sig',
      });
      expect(call!.body.form_id).to.equal('signup');
      // No subject (no field marked), no commit; locale only if the test page declares a lang.
      expect(
        Object.keys(call!.body)
          .filter((k) => k !== 'locale')
          .sort(),
      ).to.deep.equal(['decisions', 'flow_id', 'form_id', 'notice_hash', 'notice_hashes', 'page_url', 'snapshot']);
    });

    it('should send page_url without its query string and fragment', async () => {
      const original = location.href;
      history.replaceState(null, '', `${location.pathname}?email=ana%40example.com&token=abc#step-2`);
      try {
        const form = await signupForm();
        const { calls, fetch } = service();
        submissions(form);
        attach(form, fetch);
        form.requestSubmit();
        await waitUntil(() => calls.length === 1);
        expect(calls[0]!.body.page_url).to.equal(`${location.origin}${location.pathname}`);
        expect(JSON.stringify(calls[0]!.body)).not.to.contain('ana%40example.com');
      } finally {
        history.replaceState(null, '', original);
      }
    });
  });

  describe('token and events', () => {
    it('should write the token into one hidden svc_capture_token input, created once and reused', async () => {
      const form = await signupForm();
      const { fetch } = service();
      const seen = submissions(form);
      attach(form, fetch);
      form.requestSubmit();
      await waitUntil(() => seen.length === 1);
      expect(seen[0]!.data.get('svc_capture_token')).to.equal('dts_1');
      form.requestSubmit();
      await waitUntil(() => seen.length === 2);
      expect(seen[1]!.data.getAll('svc_capture_token')).to.deep.equal(['dts_2']);
      const inputs = form.querySelectorAll<HTMLInputElement>('input[name=svc_capture_token]');
      expect(inputs.length).to.equal(1);
      expect(inputs[0]!.type).to.equal('hidden');
    });

    it('should reuse a svc_capture_token input the page already has', async () => {
      const form = await fixture<HTMLFormElement>(html`
        <form><input type="hidden" name="svc_capture_token" id="own"><label><input type="checkbox" data-svc-purpose="news"> News</label></form>
      `);
      const { fetch } = service();
      attach(form, fetch);
      await attachedCapture(form).capture();
      expect(form.querySelectorAll('[name=svc_capture_token]').length).to.equal(1);
      expect(form.querySelector<HTMLInputElement>('#own')!.value).to.equal('dts_1');
    });

    it('should fire svc-capture with the capture object, bubbling and composed, before the form submits', async () => {
      const form = await signupForm();
      const { fetch } = service();
      const seen = submissions(form);
      attach(form, fetch);
      const event = oneEvent(document, 'svc-capture');
      form.requestSubmit();
      const fired = await event;
      expect(fired.detail).to.deep.equal({
        session_token: 'dts_1',
        attestation_id: 'att_1',
        committed: false,
        record_id: null,
        wording_verdict: 'match',
      });
      expect(fired.bubbles && fired.composed).to.equal(true);
      expect(fired.target).to.equal(form);
      expect(seen.length).to.equal(0);
      await waitUntil(() => seen.length === 1);
    });

    it('should resolve capture() with the capture object without submitting', async () => {
      const form = await signupForm();
      const { fetch } = service();
      const seen = submissions(form);
      const result = await attach(form, fetch).capture();
      expect(result.session_token).to.equal('dts_1');
      expect(form.querySelector<HTMLInputElement>('[name=svc_capture_token]')!.value).to.equal('dts_1');
      await aTimeout(50);
      expect(seen.length).to.equal(0);
    });
  });

  describe('one submission', () => {
    it('should navigate exactly once under a double click, with the original submitter and the token', async () => {
      const frame = await fixture<HTMLIFrameElement>(html`<iframe name="capture-sink" src="about:blank"></iframe>`);
      const form = await fixture<HTMLFormElement>(html`
        <form action="/__capture-sink" method="get" target="capture-sink">
          <label><input type="checkbox" name="news" data-svc-purpose="newsletter" checked> News</label>
          <button name="action" value="save" id="save">Save</button>
          <button name="action" value="other">Other</button>
        </form>
      `);
      let loads = 0;
      frame.addEventListener('load', () => loads++);
      const { calls, fetch } = service(async (call, n) => {
        await aTimeout(50);
        return accepted(call, n);
      });
      attach(form, fetch);
      const save = form.querySelector<HTMLButtonElement>('#save')!;
      save.click();
      save.click();
      await waitUntil(() => loads === 1, 'the form did not submit', { timeout: 3000 });
      await aTimeout(300);
      expect(loads).to.equal(1);
      expect(calls.length).to.equal(1);
      const query = new URL(frame.contentWindow!.location.href).searchParams;
      expect(query.get('action')).to.equal('save');
      expect(query.get('svc_capture_token')).to.equal('dts_1');
      expect(query.get('news')).to.equal('on');
    });

    it('should ignore a second submit while the capture is in flight, and not capture its own re-submission', async () => {
      const form = await signupForm();
      const { calls, fetch } = service(async (call, n) => {
        await aTimeout(80);
        return accepted(call, n);
      });
      const seen = submissions(form);
      attach(form, fetch);
      const join = form.querySelector<HTMLButtonElement>('button')!;
      form.requestSubmit(join);
      form.requestSubmit();
      join.click();
      await waitUntil(() => seen.length === 1);
      await aTimeout(200);
      expect(seen.length).to.equal(1);
      expect(calls.length).to.equal(1);
      expect(seen[0]!.submitter).to.equal(join);
      expect(seen[0]!.data.get('action')).to.equal('join');
    });

    it('should leave alone a submission the page cancelled in an earlier listener and a synthetic submit event', async () => {
      const host = await fixture<HTMLDivElement>(
        html`<div><form><label><input type="checkbox" data-svc-purpose="n"> N</label></form></div>`,
      );
      const form = host.querySelector('form')!;
      const { calls, fetch } = service();
      attach(form, fetch);
      const cancel = (event: Event) => event.preventDefault();
      host.addEventListener('submit', cancel, { capture: true });
      form.requestSubmit();
      host.removeEventListener('submit', cancel, { capture: true });
      // Gecko (Firefox ESR 153) still submits a form on an untrusted submit event, unlike the spec, Chromium and
      // WebKit, and does so before the event bubbles on: a listener on the form after ours cancels it, so the test
      // page stays in every engine.
      form.addEventListener('submit', cancel);
      form.dispatchEvent(new Event('submit', { cancelable: true }));
      form.removeEventListener('submit', cancel);
      await aTimeout(50);
      expect(calls.length).to.equal(0);
    });
  });

  describe('when the service fails', () => {
    async function failing(answer: Answer, options: Partial<CaptureOptions> = {}) {
      const form = await signupForm();
      const { calls, fetch } = service(answer);
      const seen = submissions(form);
      attach(form, fetch, options);
      const error = oneEvent(form, 'svc-error');
      form.requestSubmit(form.querySelector('button'));
      const event = await error;
      await waitUntil(() => seen.length === 1, 'the form did not submit');
      await aTimeout(50);
      expect(seen.length).to.equal(1);
      expect(seen[0]!.data.get('svc_capture_token')).to.equal(null);
      expect(seen[0]!.data.get('action')).to.equal('join');
      expect(event.bubbles && event.composed).to.equal(true);
      return { detail: event.detail, calls, form, seen };
    }

    it('should still submit and fire svc-error with code network when fetch rejects', async () => {
      const { detail } = await failing(() => Promise.reject(new TypeError('Failed to fetch')));
      expect(detail).to.deep.equal({ code: 'network', message: 'The capture service could not be reached.' });
    });

    it('should still submit and fire svc-error with code timeout when the service hangs past timeoutMs', async () => {
      const started = performance.now();
      const { detail } = await failing(() => new Promise<Response>(() => {}), { timeoutMs: 150 });
      expect(detail.code).to.equal('timeout');
      expect(performance.now() - started).to.be.within(150, 2000);
    });

    it('should abort the request when the timeout passes', async () => {
      let signal: AbortSignal | undefined;
      const { detail } = await failing(
        (call) =>
          new Promise<Response>((_, reject) => {
            signal = call.init.signal!;
            signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
        { timeoutMs: 100 },
      );
      expect(detail.code).to.equal('timeout');
      expect(signal!.aborted).to.equal(true);
    });

    it('should still submit and fire svc-error with code http_422 and the server error body', async () => {
      const body = {
        message: 'Purpose "partners" is refused: a consent purpose may not be default-ticked.',
        code: 'attestation_refused',
        errors: [{ path: 'decisions.partners', code: 'default_checked', message: 'default-ticked consent' }],
      };
      const { detail } = await failing(() => json(422, body));
      expect(detail).to.deep.equal({ code: 'http_422', message: body.message, status: 422, body });
    });

    it('should fire invalid_response for a 2xx without a capture, and http_500 for a body that is not JSON', async () => {
      expect((await failing(() => json(200, { ok: true }))).detail.code).to.equal('invalid_response');
      const { detail } = await failing(() => new Response('<h1>oops</h1>', { status: 500 }));
      expect(detail).to.deep.equal({ code: 'http_500', message: 'The capture service answered HTTP 500.', status: 500 });
    });

    it('should clear an earlier token rather than submit it with decisions it no longer describes', async () => {
      const form = await signupForm();
      let fail = false;
      const { fetch } = service((call, n) => (fail ? Promise.reject(new TypeError('offline')) : accepted(call, n)));
      const seen = submissions(form);
      attach(form, fetch);
      form.requestSubmit();
      await waitUntil(() => seen.length === 1);
      expect(seen[0]!.data.get('svc_capture_token')).to.equal('dts_1');
      fail = true;
      form.requestSubmit();
      await waitUntil(() => seen.length === 2);
      expect(seen[1]!.data.get('svc_capture_token')).to.equal('');
    });

    it('should still submit and fire invalid_control when a purpose is marked on a field that cannot carry a decision', async () => {
      const form = await fixture<HTMLFormElement>(html`<form><input name="why" data-svc-purpose="newsletter"></form>`);
      const { calls, fetch } = service();
      const seen = submissions(form);
      attach(form, fetch);
      const error = oneEvent(form, 'svc-error');
      form.requestSubmit();
      expect((await error).detail.code).to.equal('invalid_control');
      await waitUntil(() => seen.length === 1);
      expect(calls.length).to.equal(0);
    });

    it('should reject capture() with the CaptureError', async () => {
      const form = await signupForm();
      const { fetch } = service(() => json(401, { message: 'Unknown publishable key' }));
      const failure = await attach(form, fetch)
        .capture()
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(failure).to.be.instanceOf(CaptureError);
      expect((failure as CaptureError).code).to.equal('http_401');
      expect((failure as CaptureError).message).to.equal('Unknown publishable key');
    });

    describe('when the service is busy (429)', () => {
      const busy = (retryAfter?: string) =>
        new Response(JSON.stringify({ message: 'Too many requests.', code: 'rate_limited' }), {
          status: 429,
          headers: { 'content-type': 'application/json', ...(retryAfter !== undefined && { 'retry-after': retryAfter }) },
        });
      /** Answers `first` to the first call and accepts every later one, noting when each came. */
      const busyOnce = (first: Response) => {
        const at: number[] = [];
        const svc = service((call, n) => (at.push(performance.now()), n === 1 ? first : accepted(call, n)));
        return { ...svc, at };
      };

      it('should wait the Retry-After, post once more and submit with the token, without svc-error', async () => {
        const form = await signupForm();
        const { calls, fetch, at } = busyOnce(busy('1'));
        const seen = submissions(form);
        const errors: Event[] = [];
        form.addEventListener('svc-error', (e) => errors.push(e));
        attach(form, fetch);
        form.requestSubmit();
        await waitUntil(() => seen.length === 1, 'the form did not submit', { timeout: 4000 });
        expect(errors).to.deep.equal([]);
        expect(seen[0]!.data.get('svc_capture_token')).to.equal('dts_2');
        expect(calls.length).to.equal(2);
        expect(calls[1]!.init.body).to.equal(calls[0]!.init.body);
        expect(at[1]! - at[0]!).to.be.within(950, 2500);
      });

      it('should take a Retry-After in seconds only (what the service sends): an HTTP date is the answer at once', async () => {
        const { detail, calls } = await failing(() => busy(new Date(Date.now() + 1500).toUTCString()));
        expect(detail.code).to.equal('http_429');
        expect(calls.length).to.equal(1);
      });

      it('should fail at once with http_429 when the Retry-After outlasts timeoutMs, and submit without a token', async () => {
        const started = performance.now();
        const { detail, calls } = await failing(() => busy('5'), { timeoutMs: 4000 });
        expect(detail).to.deep.include({ code: 'http_429', status: 429, message: 'Too many requests.' });
        expect(calls.length).to.equal(1);
        expect(performance.now() - started).to.be.below(1000);
      });

      it('should not wait more than 10 s, whatever the timeout', async () => {
        const { detail, calls } = await failing(() => busy('11'), { timeoutMs: 60_000 });
        expect(detail.code).to.equal('http_429');
        expect(calls.length).to.equal(1);
      });

      it('should ask once more only: a second 429 is the answer', async () => {
        const { detail, calls } = await failing(() => busy('0'));
        expect(detail.code).to.equal('http_429');
        expect(calls.length).to.equal(2);
      });

      it('should not ask again after a 429 without Retry-After', async () => {
        const { detail, calls } = await failing(() => busy());
        expect(detail.code).to.equal('http_429');
        expect(calls.length).to.equal(1);
      });

      it('should reject with the signal’s reason when aborted during the wait, and ask nothing more', async () => {
        const { calls, fetch } = busyOnce(busy('3'));
        const controller = new AbortController();
        const asked = askService(
          'https://svc.example/api/v1/captures',
          { method: 'POST', body: '{}' },
          { timeoutMs: 9000, fetch, signal: controller.signal },
        );
        await waitUntil(() => calls.length === 1);
        const reason = new Error('left the page');
        setTimeout(() => controller.abort(reason), 50);
        const started = performance.now();
        expect(
          await asked.then(
            () => 'answered',
            (e: unknown) => e,
          ),
        ).to.equal(reason);
        expect(performance.now() - started).to.be.below(1000);
        await aTimeout(50);
        expect(calls.length).to.equal(1);
      });
    });
  });

  describe('attach and detach', () => {
    it('should remove its listener on detach(), leaving submissions to the page', async () => {
      const form = await signupForm();
      const { calls, fetch } = service();
      const seen = submissions(form);
      attach(form, fetch).detach();
      form.requestSubmit();
      await aTimeout(50);
      expect(seen.length).to.equal(1);
      expect(calls.length).to.equal(0);
      attach(form, fetch); // a detached form can be attached again
    });

    it('should finish a capture already under way when detached, submitting once', async () => {
      const form = await signupForm();
      const { calls, fetch } = service(async (call, n) => {
        await aTimeout(50);
        return accepted(call, n);
      });
      const seen = submissions(form);
      const handle = attach(form, fetch);
      form.requestSubmit();
      handle.detach();
      await waitUntil(() => seen.length === 1);
      await aTimeout(50);
      expect(seen.length).to.equal(1);
      expect(calls.length).to.equal(1);
      expect(seen[0]!.data.get('svc_capture_token')).to.equal('dts_1');
    });

    it('should refuse a second attach to the same form and bad options, by code', async () => {
      const form = await signupForm();
      attach(form, service().fetch);
      expect(() => attach(form, service().fetch))
        .to.throw(CaptureError)
        .with.property('code', 'already_attached');
      const other = await signupForm();
      for (const bad of [
        { flowId: '' },
        { publishableKey: '' },
        { baseUrl: 'svc.example' },
        { baseUrl: 'ftp://svc.example' },
        { timeoutMs: 0 },
      ]) {
        expect(() => attach(other, service().fetch, bad), JSON.stringify(bad))
          .to.throw(CaptureError)
          .with.property('code', 'invalid_options');
      }
    });
  });
});
