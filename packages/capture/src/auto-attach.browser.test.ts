import { aTimeout, expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { autoAttach, type AutoAttachHandle, type CaptureRequest } from './index.js';

interface Call {
  url: string;
  headers: Record<string, string>;
  body: CaptureRequest;
}

// The service at the network boundary: an injected fetch that records each request and accepts it.
function service() {
  const calls: Call[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({ url, headers: init.headers as Record<string, string>, body: JSON.parse(String(init.body)) as CaptureRequest });
    const capture = {
      session_token: `dts_${calls.length}`,
      attestation_id: 'att_1',
      committed: false,
      record_id: null,
      wording_verdict: null,
    };
    return new Response(JSON.stringify({ capture }), { status: 201, headers: { 'content-type': 'application/json' } });
  };
  return { calls, fetch };
}

function submissions(form: HTMLFormElement) {
  const seen: FormData[] = [];
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    seen.push(new FormData(form));
  });
  return seen;
}

const running: AutoAttachHandle[] = [];
function start(root: ParentNode & Node, fetch: ReturnType<typeof service>['fetch']) {
  const handle = autoAttach(root, { fetch });
  running.push(handle);
  return handle;
}

afterEach(() => {
  for (const handle of running.splice(0)) handle.disconnect();
});

describe('autoAttach', () => {
  it('should attach a form inside <svc-provider>, with its publishable key and trust URL', async () => {
    const root = await fixture<HTMLDivElement>(html`
      <div>
        <svc-provider publishable-key="pk_test_provider" trust-url="https://trust.example">
          <section>
            <form data-svc-flow="flw_provider"><label><input type="checkbox" data-svc-purpose="newsletter" checked> News</label></form>
          </section>
        </svc-provider>
      </div>
    `);
    const form = root.querySelector('form')!;
    const { calls, fetch } = service();
    const seen = submissions(form);
    start(root, fetch);
    form.requestSubmit();
    await waitUntil(() => seen.length === 1);
    expect(calls.length).to.equal(1);
    expect(calls[0]!.url).to.equal('https://trust.example/api/v1/captures');
    expect(calls[0]!.headers['x-publishable-key']).to.equal('pk_test_provider');
    expect(calls[0]!.body.flow_id).to.equal('flw_provider');
    expect(seen[0]!.get('svc_capture_token')).to.equal('dts_1');
  });

  it('should attach a form carrying data-svc-publishable-key and data-svc-base-url, which win over a provider', async () => {
    const root = await fixture<HTMLDivElement>(html`
      <div>
        <svc-provider publishable-key="pk_test_provider" trust-url="https://trust.example">
          <form data-svc-flow="flw_own" data-svc-publishable-key="pk_test_own" data-svc-base-url="https://api.example" data-svc-commit>
            <label><input type="checkbox" data-svc-purpose="newsletter"> News</label>
          </form>
        </svc-provider>
      </div>
    `);
    const form = root.querySelector('form')!;
    const { calls, fetch } = service();
    submissions(form);
    start(root, fetch);
    form.requestSubmit();
    await waitUntil(() => calls.length === 1);
    expect(calls[0]!.url).to.equal('https://api.example/api/v1/captures');
    expect(calls[0]!.headers['x-publishable-key']).to.equal('pk_test_own');
    expect(calls[0]!.body.commit).to.equal(true);
  });

  it('should attach forms inserted later, and a form that gains data-svc-flow', async () => {
    const root = await fixture<HTMLDivElement>(html`<div></div>`);
    const { calls, fetch } = service();
    start(root, fetch);
    const wrapper = document.createElement('div');
    wrapper.innerHTML = `<form data-svc-flow="flw_late" data-svc-publishable-key="pk_test_1" data-svc-base-url="https://svc.example">
      <label><input type="checkbox" data-svc-purpose="news"> News</label></form>`;
    root.append(wrapper);
    const plain = document.createElement('form');
    plain.innerHTML = '<label><input type="checkbox" data-svc-purpose="news"> News</label>';
    plain.setAttribute('data-svc-publishable-key', 'pk_test_1');
    plain.setAttribute('data-svc-base-url', 'https://svc.example');
    root.append(plain);
    await aTimeout(0); // mutation observers run after this task's microtasks
    plain.setAttribute('data-svc-flow', 'flw_flagged');
    await aTimeout(0);
    const late = wrapper.querySelector('form')!;
    const seenLate = submissions(late);
    const seenPlain = submissions(plain);
    late.requestSubmit();
    plain.requestSubmit();
    await waitUntil(() => seenLate.length === 1 && seenPlain.length === 1);
    expect(calls.map((c) => c.body.flow_id).sort()).to.deep.equal(['flw_flagged', 'flw_late']);
  });

  it('should attach each form at most once, however often it runs or the form moves', async () => {
    const root = await fixture<HTMLDivElement>(html`
      <div><form data-svc-flow="flw_1" data-svc-publishable-key="pk_test_1" data-svc-base-url="https://svc.example">
        <label><input type="checkbox" data-svc-purpose="news"> News</label>
      </form><div id="elsewhere"></div></div>
    `);
    const form = root.querySelector('form')!;
    const { calls, fetch } = service();
    const seen = submissions(form);
    start(root, fetch);
    start(root, fetch);
    root.querySelector('#elsewhere')!.append(form); // a move is a removal and an insertion
    await aTimeout(0);
    form.requestSubmit();
    await waitUntil(() => seen.length === 1);
    await aTimeout(50);
    expect(calls.length).to.equal(1);
    expect(seen.length).to.equal(1);
  });

  it('should fire svc-error with invalid_options on a form that has no publishable key, and leave it alone', async () => {
    const root = await fixture<HTMLDivElement>(html`<div></div>`);
    const form = document.createElement('form');
    form.setAttribute('data-svc-flow', 'flw_1');
    form.innerHTML = '<label><input type="checkbox" data-svc-purpose="news"> News</label>';
    const error = oneEvent(form, 'svc-error');
    root.append(form);
    const { calls, fetch } = service();
    start(root, fetch);
    expect((await error).detail.code).to.equal('invalid_options');
    const seen = submissions(form);
    form.requestSubmit();
    await aTimeout(20);
    expect(seen.length).to.equal(1);
    expect(calls.length).to.equal(0);
  });

  it('should watch only inside its root, default to the document, and detach everything on disconnect()', async () => {
    const outside = await fixture<HTMLFormElement>(html`
      <form data-svc-flow="flw_1" data-svc-publishable-key="pk_test_1" data-svc-base-url="https://svc.example">
        <label><input type="checkbox" data-svc-purpose="news"> News</label>
      </form>
    `);
    const inside = await fixture<HTMLDivElement>(html`<div></div>`);
    const { calls, fetch } = service();
    start(inside, fetch);
    const seen = submissions(outside);
    outside.requestSubmit();
    await aTimeout(20);
    expect(calls.length).to.equal(0);

    const everywhere = autoAttach(undefined, { fetch });
    outside.requestSubmit();
    await waitUntil(() => seen.length === 2);
    expect(calls.length).to.equal(1);
    everywhere.disconnect();
    outside.requestSubmit();
    await aTimeout(20);
    expect(seen.length).to.equal(3);
    expect(calls.length).to.equal(1);
  });
});
