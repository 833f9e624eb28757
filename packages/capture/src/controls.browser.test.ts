import { expect, fixture, html } from '@open-wc/testing';
import { attachCapture, CaptureError, type CaptureHandle, type CaptureOptions, type CaptureRequest } from './index.js';

// How the helper reads controls and notices in a real DOM, through capture() (no submission), with the service
// replaced by an injected fetch that records the request.

let handle: CaptureHandle | undefined;
afterEach(() => handle?.detach());

async function read(form: HTMLFormElement, options: Partial<CaptureOptions> = {}): Promise<CaptureRequest> {
  let body: CaptureRequest | undefined;
  handle = attachCapture(form, {
    flowId: 'flw_test_1',
    publishableKey: 'pk_test_1',
    baseUrl: 'https://svc.example',
    ...options,
    fetch: async (_url, init) => {
      body = JSON.parse(String(init.body)) as CaptureRequest;
      return new Response(JSON.stringify({ capture: { session_token: 'dts_1', attestation_id: 'att_1', committed: false } }), {
        status: 201,
      });
    },
  });
  await handle.capture();
  return body!;
}

async function refusal(form: HTMLFormElement, options: Partial<CaptureOptions> = {}): Promise<string> {
  const failure = await read(form, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(failure).to.be.instanceOf(CaptureError);
  return (failure as CaptureError).code;
}

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `sha256:${Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

class FormAssociated extends HTMLElement {
  static formAssociated = true;
}
customElements.define('svc-test-form-associated', FormAssociated);

describe('reading controls', () => {
  it('should refuse, as invalid_control, every control that cannot carry one decision', async () => {
    const cases = [
      '<input type="checkbox" data-svc-purpose="p"><input type="checkbox" data-svc-purpose="p">',
      '<input type="checkbox" data-svc-purpose="p"><input type="radio" value="granted" data-svc-purpose="p">',
      '<input type="radio" name="r" value="yes" data-svc-purpose="p"><input type="radio" name="r" value="no" data-svc-purpose="p">',
      '<select data-svc-purpose="p"><option>Yes</option><option value="declined">No</option></select>',
      '<select multiple data-svc-purpose="p"><option value="granted">Yes</option></select>',
      '<select data-svc-purpose="p"><option value="granted">Yes</option></select><select data-svc-purpose="p"><option value="granted">Yes</option></select>',
      '<textarea data-svc-purpose="p"></textarea>',
      '<button type="button" data-svc-purpose="p">Yes</button>',
      '<input type="hidden" value="granted" data-svc-purpose="p">',
      '<fieldset data-svc-purpose="p"><input type="checkbox"></fieldset>',
      '<output data-svc-purpose="p"></output>',
      '<svc-test-form-associated data-svc-purpose="p"></svc-test-form-associated>',
      '<input type="checkbox" data-svc-purpose=" ">',
    ];
    for (const markup of cases) {
      const form = await fixture<HTMLFormElement>(html`<form></form>`);
      form.innerHTML = markup;
      expect(await refusal(form), markup).to.equal('invalid_control');
      handle!.detach();
    }
  });

  it('should refuse a mapping whose selector is invalid or finds nothing, and a form with no purpose', async () => {
    const form = await fixture<HTMLFormElement>(html`<form><input type="checkbox" class="box"></form>`);
    expect(await refusal(form, { purposes: { p: '[[' } })).to.equal('invalid_control');
    handle!.detach();
    expect(await refusal(form, { purposes: { p: '.missing' } })).to.equal('invalid_control');
    handle!.detach();
    expect(await refusal(form)).to.equal('no_purposes');
  });

  it('should read a select default from the HTML reset algorithm: last selected, else first enabled, none for a list box', async () => {
    const form = await fixture<HTMLFormElement>(html`
      <form>
        <select data-svc-purpose="last"><option value="granted" selected>Yes</option><option value="declined" selected>No</option></select>
        <select data-svc-purpose="enabled"><option value="declined" disabled>No</option><option value="granted">Yes</option></select>
        <select size="3" data-svc-purpose="listbox"><option value="granted">Yes</option><option value="declined">No</option></select>
      </form>
    `);
    const { decisions, snapshot } = await read(form);
    expect(decisions).to.deep.equal({
      last: { decision: 'declined', default_checked: false, mandatory: false },
      enabled: { decision: 'granted', default_checked: true, mandatory: false },
      listbox: { decision: 'declined', default_checked: false, mandatory: false },
    });
    expect(snapshot).to.contain(
      '<fieldset data-svc-purpose="enabled"><select><option data-svc-decision="declined">No</option>' +
        '<option data-svc-decision="granted" selected>Yes</option></select></fieldset>',
    );
  });

  it('should attest a required select and radio group as mandatory, and a greyed-out granted radio too', async () => {
    const form = await fixture<HTMLFormElement>(html`
      <form>
        <select required data-svc-purpose="sel"><option value="granted">Yes</option><option value="declined">No</option></select>
        <input type="radio" name="r" value="granted" data-svc-purpose="radio" checked disabled>
        <input type="radio" name="r" value="declined" data-svc-purpose="radio" disabled>
      </form>
    `);
    const { decisions, snapshot } = await read(form);
    expect(decisions).to.deep.equal({
      sel: { decision: 'granted', default_checked: true, mandatory: true },
      radio: { decision: 'granted', default_checked: true, mandatory: true },
    });
    expect(snapshot).to.contain('<select required>');
    expect(snapshot).to.contain(
      '<input type="radio" name="r" data-svc-decision="granted" checked disabled><input type="radio" name="r" data-svc-decision="declined" disabled>',
    );
  });

  it('should gather notices once each, in document order, from labels, references and marked text, owned controls included', async () => {
    const root = await fixture<HTMLDivElement>(html`
      <div>
        <p id="intro">Read <b>this</b> first.</p>
        <form id="f">
          <label for="box">Send me news<br>monthly <span hidden>secret</span><svg><text>icon</text></svg><span contenteditable="false">fixed</span></label>
          <span id="more">One email&nbsp;a   month.</span>
          <small data-svc-purpose="terms">Our terms apply.</small>
        </form>
        <input type="checkbox" id="box" form="f" data-svc-purpose="news" aria-labelledby="intro more" data-svc-notice="more missing">
      </div>
    `);
    const form = root.querySelector('form')!;
    const { decisions, notice_hashes, snapshot } = await read(form);
    expect(decisions).to.deep.equal({ news: { decision: 'declined', default_checked: false, mandatory: false } });
    const news = 'Read this first. Send me news monthly fixed One email a month.';
    expect(notice_hashes).to.deep.equal({ news: await sha256(news), terms: await sha256('Our terms apply.') });
    expect(snapshot).to.equal(
      '<div data-svc-snapshot="1" data-form-id="f">' +
        '<fieldset data-svc-purpose="terms"><p>Our terms apply.</p></fieldset>' +
        '<fieldset data-svc-purpose="news"><input type="checkbox" id="box"><p>Read this first.</p><label>Send me news monthly fixed</label><p>One email a month.</p></fieldset></div>',
    );
  });

  it('should take a notice inside another notice of the purpose once, and hash a lone surrogate as U+FFFD', async () => {
    const form = await fixture<HTMLFormElement>(html`
      <form>
        <div data-svc-purpose="news">Outer <label>inner <input type="checkbox" data-svc-purpose="news"></label></div>
      </form>
    `);
    form.querySelector('label')!.append('\uD800');
    const { notice_hashes, snapshot } = await read(form);
    expect(notice_hashes!['news']).to.equal(await sha256('Outer inner \uFFFD'));
    expect(snapshot).to.contain('<fieldset data-svc-purpose="news"><input type="checkbox"><p>Outer inner \uFFFD</p></fieldset>');
  });
});
