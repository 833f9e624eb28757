// The elements inside Vue 3 components, in every engine: templates compiled at run time by Vue's full build with
// `isCustomElement` for the svc- tags (as a Vue app's build compiles its .vue files), and render functions. Vue sets
// a binding as the element's property when the element has one (`:token`, `:accessToken`, `.prop`) and as an
// attribute otherwise (`:trust-url`); `@svc-complete` listens to `svc-complete`. The decision talks to the stand-in
// hosted page, the inbox to a fetch double, and the consent field captures against the reference server.
import { expect } from '@open-wc/testing';
import '@svc/elements';
import type { SvcCaptureEvent } from '@svc/capture';
import type { SvcCompleteEvent, SvcConsentField, SvcDecision, SvcInbox, SvcInboxOpenEvent, SvcReadyEvent } from '@svc/elements';
import type {} from '@svc/elements/vue';
import { createApp, defineComponent, h, ref, type App, type Component } from 'vue';
import {
  openRowWithoutPopups,
  completePayload, frameOf, inboxApi, inboxRow, referenceServer, sendFromPage, TRUST, until, watchConsole, watchLeaks, type Sandbox,
} from './support.js';

let container: HTMLElement;
let app: App | undefined;
let console_: ReturnType<typeof watchConsole>;

/** Mounts `component` as an app whose template compiler leaves the svc- tags to the browser. */
function mount(component: Component, props: Record<string, unknown> = {}): App {
  app = createApp(component, props);
  app.config.compilerOptions.isCustomElement = (tag) => tag.startsWith('svc-');
  app.mount(container);
  return app;
}
const query = <T extends Element>(selector: string) => container.querySelector<T>(selector)!;
const tick = () => new Promise((resolve) => setTimeout(resolve));

beforeEach(() => {
  container = document.body.appendChild(document.createElement('div'));
  console_ = watchConsole();
});
afterEach(() => {
  app?.unmount();
  app = undefined;
  container.remove();
  console_.stop();
});

/** A page that shows one decision, keeps what its events said and renders it. */
const DecisionPage = defineComponent({
  props: { token: { type: String, required: true } },
  setup() {
    const ready = ref<string[]>([]);
    const complete = ref<string[]>([]);
    return {
      trust: TRUST,
      ready,
      complete,
      onReady: (event: SvcReadyEvent) => ready.value.push(`${event.detail.kind} ${event.detail.session_token}`),
      onComplete: (event: SvcCompleteEvent) => complete.value.push(`${event.detail.outcome} ${event.detail.exchange_token}`),
    };
  },
  template: `
    <svc-decision :token="token" :trust-url="trust" :label.prop="'Your decision'" @svc-ready="onReady" @svc-complete="onComplete"></svc-decision>
    <output id="ready">{{ ready.join(',') }}</output>
    <output id="complete">{{ complete.join(',') }}</output>`,
});

describe('Vue 3', function () {
  this.timeout(30_000); // the first consent field test waits for the reference server to start

  describe('<svc-decision>', () => {
    it('gets its bindings (a property, an attribute, a .prop) and hands its events, with their detail, to the component', async () => {
      mount(DecisionPage, { token: 'dts_fixture_a' });
      const el = query<SvcDecision>('svc-decision');
      expect([el.token, el.trustUrl, el.label]).to.deep.equal(['dts_fixture_a', TRUST, 'Your decision']);
      // `token` is a property of the element, so Vue set the property; `trust-url` is not, so Vue set the attribute.
      expect([el.hasAttribute('token'), el.getAttribute('trust-url'), el.hasAttribute('label')]).to.deep.equal([false, TRUST, false]);
      await until(() => query('#ready').textContent, 'svc-ready reached the component');
      expect(query('#ready').textContent).to.equal('consent dts_fixture_a');

      sendFromPage(frameOf(el), 'svc:complete', completePayload('x'.repeat(43)));
      await until(() => query('#complete').textContent, 'svc-complete reached the component');
      expect(query('#complete').textContent).to.equal(`granted ${'x'.repeat(43)}`);
      expect(console_.seen).to.deep.equal([]);
    });

    it('follows a reactive token, and works from a render function', async () => {
      const token = ref('dts_fixture_a');
      const completed: string[] = [];
      mount(defineComponent({
        setup: () => () => h('svc-decision', {
          token: token.value, trustUrl: TRUST, onSvcComplete: (event: SvcCompleteEvent) => completed.push(event.detail.exchange_token),
        }),
      }));
      const el = query<SvcDecision>('svc-decision');
      expect(el.trustUrl).to.equal(TRUST);
      await until(() => el.status === 'ready', 'the first decision was ready');
      token.value = 'dts_fixture_b';
      await tick();
      expect(el.token).to.equal('dts_fixture_b');
      await until(() => el.status === 'ready' && frameOf(el)?.src.includes('dts_fixture_b'), 'the second decision was ready');
      sendFromPage(frameOf(el), 'svc:complete', completePayload('z'.repeat(43)));
      await until(() => completed.length, 'svc-complete reached the render function\'s handler');
      expect(completed).to.deep.equal(['z'.repeat(43)]);
      expect(console_.seen).to.deep.equal([]);
    });
  });

  describe('<svc-inbox>', () => {
    it('takes the access token and fetch as properties (they are never attributes) and hands svc-inbox-open to the component', async () => {
      const { fetch, calls } = inboxApi([inboxRow('dts_fixture_a')]);
      const opened: string[] = [];
      mount(defineComponent({
        setup: () => ({
          fetch, trust: TRUST,
          onOpen(event: SvcInboxOpenEvent) {
            event.preventDefault(); // the app opens it its own way
            opened.push(event.detail.session_token);
          },
        }),
        template: `<svc-inbox base-url="https://api.svc.example" :trust-url="trust" :accessToken="'tok_ada'" :fetch="fetch" kind="approval"
          :limit.prop="5" @svc-inbox-open="onOpen"></svc-inbox>`,
      }));
      const el = query<SvcInbox>('svc-inbox');
      await until(() => el.status === 'ready', 'the inbox loaded');
      expect(el.hasAttribute('accesstoken') || el.hasAttribute('fetch')).to.equal(false);
      expect(calls).to.have.length(1);
      expect(calls[0]!.authorization).to.equal('Bearer tok_ada');
      expect(Object.fromEntries(new URL(calls[0]!.url).searchParams)).to.deep.equal({ kind: 'approval', limit: '5' });

      const popups = await openRowWithoutPopups(el);
      expect(opened).to.deep.equal(['dts_fixture_a']);
      expect(popups).to.equal(0);
      expect(console_.seen).to.deep.equal([]);
    });

    it('gets `:access-token` as an attribute, which it never reads: a property without an attribute is bound by its camelCase name', async () => {
      const { fetch, calls } = inboxApi([inboxRow('dts_fixture_a')]);
      mount(defineComponent({
        setup: () => ({ fetch }),
        template: `<svc-inbox base-url="https://api.svc.example" :access-token="'tok_ada'" :fetch="fetch"></svc-inbox>`,
      }));
      const el = query<SvcInbox>('svc-inbox');
      await el.updateComplete;
      expect([el.getAttribute('access-token'), el.accessToken, el.status]).to.deep.equal(['tok_ada', undefined, 'idle']);
      expect(calls).to.deep.equal([]);
    });
  });

  describe('<svc-consent-field> in a Vue form', () => {
    let sandbox: Sandbox;
    before(async () => {
      sandbox = await referenceServer();
    });

    interface Submitted { consent: FormDataEntryValue | null; hidden: FormDataEntryValue | null; email: FormDataEntryValue | null; captured: string }

    /** A sign-up form whose email Vue holds (v-model); `@submit.prevent` reads the form's data. */
    const Signup = defineComponent({
      props: {
        sandbox: { type: Object as () => Sandbox, required: true },
        report: { type: Function as unknown as () => (s: Submitted) => void, required: true },
        showField: { type: Boolean, default: true },
      },
      setup(props) {
        const email = ref('ada@example.com');
        const captured = ref('');
        const changes = ref(0);
        return {
          email,
          captured,
          changes,
          onCapture: (event: SvcCaptureEvent) => void (captured.value = event.detail.session_token),
          submit(event: SubmitEvent) {
            const data = new FormData(event.target as HTMLFormElement);
            props.report({ consent: data.get('consent'), hidden: data.get('svc_capture_token'), email: data.get('email'), captured: captured.value });
          },
        };
      },
      template: `
        <form @submit.prevent="submit">
          <label>Email <input name="email" type="email" v-model="email" data-svc-subject="email"></label>
          <svc-consent-field v-if="showField" name="consent" :flow="sandbox.capture_flow_id" :publishable-key="sandbox.publishable_key"
            :baseUrl="sandbox.base_url" @change="changes++" v-on="{ 'svc-capture': onCapture }"></svc-consent-field>
          <output id="changes">{{ changes }}</output>
          <output id="email">{{ email }}</output>
          <button>Sign up</button>
        </form>`,
    });

    const field = () => query<SvcConsentField>('svc-consent-field');
    const ready = () => until(() => field().state === 'ready', 'the consent field showed the flow', 10_000);
    const newsletter = () => [...field().shadowRoot!.querySelectorAll<HTMLInputElement>('input[type=checkbox]')]
      .find((box) => box.labels?.[0]?.textContent?.includes('newsletter'))!;

    it('the capture token reaches the submit handler, once, with the email v-model holds', async () => {
      const submitted: Submitted[] = [];
      mount(Signup, { sandbox, report: (s: Submitted) => submitted.push(s) });
      await ready();
      expect([field().flow, field().getAttribute('publishable-key'), field().baseUrl])
        .to.deep.equal([sandbox.capture_flow_id, sandbox.publishable_key, sandbox.base_url]);
      newsletter().click();
      await until(() => query('#changes').textContent === '1', "the field's change event reached @change");

      const email = query<HTMLInputElement>('input[name=email]');
      email.value = 'grace@example.com';
      email.dispatchEvent(new Event('input', { bubbles: true }));
      await until(() => query('#email').textContent === 'grace@example.com', 'v-model took the email');
      query<HTMLButtonElement>('button').click();
      await until(() => submitted.length, 'the form was submitted', 10_000);

      expect(submitted).to.have.length(1); // the held-back submission never reached Vue
      const [{ consent, hidden, email: sent, captured }] = submitted as [Submitted];
      expect(consent).to.be.a('string').and.match(/^\S{16,}$/);
      expect(hidden).to.equal(consent);
      expect(captured).to.equal(consent); // svc-capture's detail, through the component's state
      expect(sent).to.equal('grace@example.com');
      expect(console_.seen).to.deep.equal([]);
    });

    it("listens to svc-capture through v-on's object form: Vue reads `@svc-capture` as a capture-phase listener of `svc`", async () => {
      const heard: string[] = [];
      mount(defineComponent({
        setup: () => ({ sandbox, hear: (how: string) => (event: Event) => heard.push(`${how} ${event.type}`) }),
        template: `
          <form @submit.prevent>
            <input name="email" type="email" value="ada@example.com" data-svc-subject="email">
            <svc-consent-field name="consent" :flow="sandbox.capture_flow_id" :publishableKey="sandbox.publishable_key" :baseUrl="sandbox.base_url"
              @svc-capture="hear('@')($event)" v-on="{ 'svc-capture': hear('v-on') }"></svc-consent-field>
            <button>Sign up</button>
          </form>`,
      }));
      await ready();
      query<HTMLButtonElement>('button').click();
      await until(() => heard.length, 'svc-capture was heard', 10_000);
      await tick();
      expect(heard).to.deep.equal(['v-on svc-capture']);
    });

    it('v-if removing the field leaves nothing on the form or the page; shown again it captures again', async () => {
      const submitted: Submitted[] = [];
      const show = ref(true);
      mount(defineComponent({
        components: { Signup },
        setup: () => ({ show, sandbox, report: (s: Submitted) => submitted.push(s) }),
        template: '<Signup :sandbox="sandbox" :report="report" :show-field="show" />',
      }));
      await ready();
      const form = query<HTMLFormElement>('form');
      const leaks = watchLeaks();
      try {
        show.value = false;
        await tick();
        show.value = true;
        await tick();
        await ready();
        show.value = false;
        await tick();
        expect(query('svc-consent-field')).to.equal(null);
        expect(leaks.leftInPage()).to.deep.equal([]);
        expect(leaks.pendingTimers()).to.equal(0);
      } finally {
        leaks.stop();
      }
      query<HTMLButtonElement>('button').click();
      await until(() => submitted.length, 'the form was submitted');
      expect(submitted[0]!.consent).to.equal(null);

      show.value = true;
      await tick();
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
      const App = defineComponent({
        setup() {
          const completed = ref('');
          return { completed, sandbox, fetch, trust: TRUST, onComplete: (event: SvcCompleteEvent) => void (completed.value = event.detail.exchange_token) };
        },
        template: `
          <main>
            <svc-decision token="dts_fixture_a" :trustUrl="trust" @svc-complete="onComplete"></svc-decision>
            <output id="complete">{{ completed }}</output>
            <svc-inbox base-url="https://api.svc.example" :trustUrl="trust" :accessToken="'tok_ada'" :fetch="fetch"></svc-inbox>
            <form><svc-consent-field name="consent" :flow="sandbox.capture_flow_id" :publishableKey="sandbox.publishable_key"
              :baseUrl="sandbox.base_url"></svc-consent-field></form>
          </main>`,
      });
      const mounted = async () => {
        const decision = query<SvcDecision>('svc-decision');
        await until(() => decision.status === 'ready' && query<SvcInbox>('svc-inbox').status === 'ready' &&
          query<SvcConsentField>('svc-consent-field').state === 'ready', 'the three elements were ready', 10_000);
        return decision;
      };

      const leaks = watchLeaks();
      try {
        const first = mount(App);
        const decision = await mounted();
        // While mounted, the decision listens for its hosted page's messages on window, and its deadline clock runs.
        expect(leaks.onWindowAndDocument()).to.include('window message');
        expect(leaks.pendingTimers()).to.be.greaterThan(0);
        first.unmount();
        app = undefined;
        expect(decision.isConnected).to.equal(false);
        expect(leaks.leftInPage()).to.deep.equal([]);
        expect(leaks.pendingTimers()).to.equal(0);
      } finally {
        leaks.stop();
      }

      mount(App);
      const again = await mounted();
      expect(calls).to.have.length(2); // one read per mount, none after the unmount
      sendFromPage(frameOf(again), 'svc:complete', completePayload('y'.repeat(43)));
      await until(() => query('#complete').textContent, 'svc-complete reached the remounted component');
      expect(query('#complete').textContent).to.equal('y'.repeat(43));
      expect(console_.seen).to.deep.equal([]);
    });
  });
});
