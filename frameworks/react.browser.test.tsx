// The elements inside React 19 components, in every engine: React 19 sets a prop as the element's property when the
// element has one and listens to `on` + an event's name; the JSX is typed by `@svc/elements/react` (generated
// from custom-elements.json). The decision talks to the stand-in hosted page, the inbox to a fetch double, and the
// consent field captures against the reference server the test runner starts.
import { expect } from '@open-wc/testing';
import '@svc/elements';
import type { SvcCompleteDetail, SvcConsentField, SvcDecision, SvcInbox, SvcReadyDetail } from '@svc/elements';
import type {} from '@svc/elements/react';
import { useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import {
  openRowWithoutPopups,
  completePayload, frameOf, inboxApi, inboxRow, referenceServer, sendFromPage, TRUST, until, watchConsole, watchLeaks, type Sandbox,
} from './support.js';

let container: HTMLElement;
let root: Root;
let console_: ReturnType<typeof watchConsole>;

function render(element: ReactNode): void {
  flushSync(() => root.render(element));
}
const query = <T extends Element>(selector: string) => container.querySelector<T>(selector)!;

beforeEach(() => {
  container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container);
  console_ = watchConsole();
});
afterEach(() => {
  root.unmount();
  container.remove();
  console_.stop();
});

interface Seen { ready: SvcReadyDetail[]; complete: SvcCompleteDetail[] }

/** A page that shows one decision, keeps what its events said in state and renders it. */
function DecisionPage({ token, mode = 'embed' }: { token: string; mode?: 'embed' | 'popup' }) {
  const [seen, setSeen] = useState<Seen>({ ready: [], complete: [] });
  return (
    <>
      <svc-decision token={token} trustUrl={TRUST} mode={mode} label="Your decision"
        onsvc-ready={(event) => setSeen((s) => ({ ...s, ready: [...s.ready, event.detail] }))}
        onsvc-complete={(event) => setSeen((s) => ({ ...s, complete: [...s.complete, event.detail] }))} />
      <output id="ready">{seen.ready.map((d) => `${d.kind} ${d.session_token}`).join(',')}</output>
      <output id="complete">{seen.complete.map((d) => `${d.outcome} ${d.exchange_token}`).join(',')}</output>
    </>
  );
}

describe('React 19', function () {
  this.timeout(30_000); // the first consent field test waits for the reference server to start

  describe('<svc-decision>', () => {
    it('gets its props as properties and hands its events, with their detail, to the component', async () => {
      render(<DecisionPage token="dts_fixture_a" />);
      const el = query<SvcDecision>('svc-decision');
      // Properties, not attributes: React 19 saw that the element has them.
      expect([el.token, el.trustUrl, el.mode, el.label]).to.deep.equal(['dts_fixture_a', TRUST, 'embed', 'Your decision']);
      expect(el.hasAttribute('token') || el.hasAttribute('trustUrl') || el.hasAttribute('trust-url')).to.equal(false);
      await until(() => query('#ready').textContent, 'svc-ready reached the component');
      expect(query('#ready').textContent).to.equal('consent dts_fixture_a');

      sendFromPage(frameOf(el), 'svc:complete', completePayload('x'.repeat(43)));
      await until(() => query('#complete').textContent, 'svc-complete reached the component');
      expect(query('#complete').textContent).to.equal(`granted ${'x'.repeat(43)}`);
      expect(console_.seen).to.deep.equal([]);
    });

    it('starts over when the component changes the token, and stops calling the old handler once it is removed', async () => {
      render(<DecisionPage token="dts_fixture_a" />);
      await until(() => query('#ready').textContent, 'the first decision was ready');
      render(<DecisionPage token="dts_fixture_b" />);
      const el = query<SvcDecision>('svc-decision');
      expect(el.token).to.equal('dts_fixture_b');
      await until(() => query('#ready').textContent === 'consent dts_fixture_a,consent dts_fixture_b', 'the second decision was ready');

      let calls = 0;
      const Bare = ({ listen }: { listen: boolean }) => (
        <svc-decision token="dts_fixture_b" trustUrl={TRUST} onsvc-complete={listen ? () => (calls += 1) : undefined} />
      );
      render(<Bare listen />);
      const bare = query<SvcDecision>('svc-decision');
      bare.dispatchEvent(new CustomEvent('svc-complete', { detail: {} }));
      render(<Bare listen={false} />);
      bare.dispatchEvent(new CustomEvent('svc-complete', { detail: {} }));
      expect(calls).to.equal(1);
    });
  });

  describe('<svc-inbox>', () => {
    it('takes the access token and fetch as properties (they are never attributes) and hands svc-inbox-open to the component', async () => {
      const { fetch, calls } = inboxApi([inboxRow('dts_fixture_a')]);
      const opened: string[] = [];
      function Inbox() {
        return (
          <svc-inbox baseUrl="https://api.svc.example" trustUrl={TRUST} accessToken="tok_ada" fetch={fetch} kind="approval" limit={5}
            onsvc-inbox-open={(event) => {
              event.preventDefault(); // the app opens it its own way
              opened.push(event.detail.session_token);
            }} />
        );
      }
      render(<Inbox />);
      const el = query<SvcInbox>('svc-inbox');
      await until(() => el.status === 'ready', 'the inbox loaded');
      expect(calls).to.have.length(1);
      expect(calls[0]!.authorization).to.equal('Bearer tok_ada');
      expect(Object.fromEntries(new URL(calls[0]!.url).searchParams)).to.deep.equal({ kind: 'approval', limit: '5' });

      const popups = await openRowWithoutPopups(el);
      expect(opened).to.deep.equal(['dts_fixture_a']);
      expect(popups).to.equal(0);
      expect(console_.seen).to.deep.equal([]);
    });
  });

  describe('<svc-consent-field> in a React form', () => {
    let sandbox: Sandbox;
    before(async () => {
      sandbox = await referenceServer();
    });

    interface Submitted { consent: FormDataEntryValue | null; hidden: FormDataEntryValue | null; email: FormDataEntryValue | null; captured: string }

    /**
     * A sign-up form whose email input React controls; the submit handler reads the form's data. The `svc-capture`
     * listener renders its update at once (flushSync): React renders a custom event's update in a later task, which
     * in WebKit comes after the form's resubmission (docs/quick-start.md says so).
     */
    function Signup({ onSubmitted, showField = true }: { onSubmitted: (s: Submitted) => void; showField?: boolean }) {
      const [email, setEmail] = useState('ada@example.com');
      const [captured, setCaptured] = useState('');
      const [changes, setChanges] = useState(0);
      return (
        <form onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          onSubmitted({ consent: data.get('consent'), hidden: data.get('svc_capture_token'), email: data.get('email'), captured });
        }}>
          <label>Email <input name="email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} data-svc-subject="email" /></label>
          {showField && (
            <svc-consent-field name="consent" flow={sandbox.capture_flow_id} publishableKey={sandbox.publishable_key} baseUrl={sandbox.base_url}
              onChange={() => setChanges((n) => n + 1)} onsvc-capture={(event) => flushSync(() => setCaptured(event.detail.session_token))} />
          )}
          <output id="changes">{changes}</output>
          <button>Sign up</button>
        </form>
      );
    }

    const field = () => query<SvcConsentField>('svc-consent-field');
    const ready = () => until(() => field().state === 'ready', 'the consent field showed the flow', 10_000);
    const newsletter = () => [...field().shadowRoot!.querySelectorAll<HTMLInputElement>('input[type=checkbox]')]
      .find((box) => box.labels?.[0]?.textContent?.includes('newsletter'))!;

    it('the capture token reaches the submit handler, once, with the email React holds', async () => {
      const submitted: Submitted[] = [];
      render(<Signup onSubmitted={(s) => submitted.push(s)} />);
      await ready();
      // Property binding: the flow, key and base URL arrived as properties.
      expect([field().flow, field().publishableKey, field().baseUrl]).to.deep.equal([sandbox.capture_flow_id, sandbox.publishable_key, sandbox.base_url]);
      newsletter().click();
      await until(() => query('#changes').textContent === '1', "the field's change event reached onChange");

      const email = query<HTMLInputElement>('input[name=email]');
      // Typing as React sees it: the native setter, then the input event React listens to.
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(email, 'grace@example.com');
      email.dispatchEvent(new Event('input', { bubbles: true }));
      query<HTMLButtonElement>('button').click();
      await until(() => submitted.length, 'the form was submitted', 10_000);

      expect(submitted).to.have.length(1); // the held-back submission never reached React
      const [{ consent, hidden, email: sent, captured }] = submitted as [Submitted];
      expect(consent).to.be.a('string').and.match(/^\S{16,}$/);
      expect(hidden).to.equal(consent);
      expect(captured).to.equal(consent); // svc-capture's detail, through React state
      expect(sent).to.equal('grace@example.com');
      expect(console_.seen).to.deep.equal([]);
    });

    it('a React 19 form action gets the capture token in its FormData', async () => {
      const tokens: (FormDataEntryValue | null)[] = [];
      function ActionForm() {
        return (
          <form action={(data: FormData) => void tokens.push(data.get('consent'))}>
            <input name="email" type="email" defaultValue="ada@example.com" data-svc-subject="email" />
            <svc-consent-field name="consent" flow={sandbox.capture_flow_id} publishableKey={sandbox.publishable_key} baseUrl={sandbox.base_url} />
            <button>Sign up</button>
          </form>
        );
      }
      render(<ActionForm />);
      await ready();
      newsletter().click();
      query<HTMLButtonElement>('button').click();
      await until(() => tokens.length, 'the action ran', 10_000);
      expect(tokens).to.have.length(1);
      expect(tokens[0]).to.be.a('string').and.match(/^\S{16,}$/);
    });

    it('unmounting the field leaves nothing on the form or the page; mounted again it captures again', async () => {
      const submitted: Submitted[] = [];
      render(<Signup onSubmitted={(s) => submitted.push(s)} />);
      await ready();
      const form = query<HTMLFormElement>('form');
      const leaks = watchLeaks();
      try {
        render(<Signup onSubmitted={(s) => submitted.push(s)} showField={false} />);
        render(<Signup onSubmitted={(s) => submitted.push(s)} />);
        await ready();
        render(<Signup onSubmitted={(s) => submitted.push(s)} showField={false} />);
        expect(leaks.leftInPage()).to.deep.equal([]);
        expect(leaks.pendingTimers()).to.equal(0);
      } finally {
        leaks.stop();
      }
      // Without the field the form submits at once, untouched, without a token.
      query<HTMLButtonElement>('button').click();
      await until(() => submitted.length, 'the form was submitted');
      expect(submitted[0]!.consent).to.equal(null);

      render(<Signup onSubmitted={(s) => submitted.push(s)} />);
      expect(query('form')).to.equal(form);
      await ready();
      query<HTMLButtonElement>('button').click();
      await until(() => submitted.length === 2, 'the form was submitted again', 10_000);
      expect(submitted[1]!.consent).to.be.a('string').and.match(/^\S{16,}$/);
    });
  });

  describe('unmounting', () => {
    it('leaves no listener on window, document or the page and no timer running, and a remount works', async () => {
      const sandbox = await referenceServer();
      const { fetch, calls } = inboxApi([inboxRow('dts_fixture_a')]);
      function App() {
        const [completed, setCompleted] = useState('');
        return (
          <main>
            <svc-decision token="dts_fixture_a" trustUrl={TRUST} onsvc-complete={(event) => setCompleted(event.detail.exchange_token)} />
            <output id="complete">{completed}</output>
            <svc-inbox baseUrl="https://api.svc.example" trustUrl={TRUST} accessToken="tok_ada" fetch={fetch} />
            <form><svc-consent-field name="consent" flow={sandbox.capture_flow_id} publishableKey={sandbox.publishable_key} baseUrl={sandbox.base_url} /></form>
          </main>
        );
      }
      const mounted = async () => {
        const decision = query<SvcDecision>('svc-decision');
        await until(() => decision.status === 'ready' && query<SvcInbox>('svc-inbox').status === 'ready' &&
          query<SvcConsentField>('svc-consent-field').state === 'ready', 'the three elements were ready', 10_000);
        return decision;
      };

      const leaks = watchLeaks();
      try {
        render(<App />);
        const first = await mounted();
        // While mounted, the decision listens for its hosted page's messages on window, and its deadline clock runs.
        expect(leaks.onWindowAndDocument()).to.include('window message');
        expect(leaks.pendingTimers()).to.be.greaterThan(0);
        root.unmount();
        expect(first.isConnected).to.equal(false);
        expect(leaks.leftInPage()).to.deep.equal([]);
        expect(leaks.pendingTimers()).to.equal(0);
      } finally {
        leaks.stop();
      }

      root = createRoot(container);
      render(<App />);
      const again = await mounted();
      expect(calls).to.have.length(2); // one read per mount, none after the unmount
      sendFromPage(frameOf(again), 'svc:complete', completePayload('y'.repeat(43)));
      await until(() => query('#complete').textContent, 'svc-complete reached the remounted component');
      expect(query('#complete').textContent).to.equal('y'.repeat(43));
      expect(console_.seen).to.deep.equal([]);
    });
  });
});
