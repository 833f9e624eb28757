// A real (keyboard) submission whose capture fails at once must still submit the form: the failure settles while
// the browser is still firing the submit event, when a requestSubmit() is silently ignored.
import { expect, fixture, fixtureCleanup, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { attachCapture, type CaptureHandle } from './index.js';

describe('attachCapture on a real submission', () => {
  let handle: CaptureHandle | undefined;
  afterEach(() => {
    handle?.detach();
    fixtureCleanup();
  });

  it('should submit on Enter when the capture fails before any request (invalid_control)', async () => {
    const form = await fixture<HTMLFormElement>(html`<form>
      <input name="email" value="ada@example.com">
      <label>Source <input type="text" name="source" data-svc-purpose="newsletter"></label>
      <button>Go</button></form>`);
    const errors: string[] = [];
    form.addEventListener('svc-error', (e) => errors.push((e as CustomEvent<{ code: string }>).detail.code));
    const seen: FormData[] = [];
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      seen.push(new FormData(form));
    });
    handle = attachCapture(form, {
      flowId: 'flw_test_1',
      publishableKey: 'pk_test_1',
      baseUrl: 'https://svc.example',
      fetch: () => Promise.reject(new Error('no network in this test')),
    });
    form.querySelector<HTMLInputElement>('[name=email]')!.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => seen.length === 1, 'the form submitted');
    expect(errors).to.deep.equal(['invalid_control']);
  });
});
