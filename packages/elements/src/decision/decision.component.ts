import { ContextConsumer } from '@lit/context';
import { type DeadlinePayload, type HostChannel, type Kind, type ReadyPayload, type SvcMessage, createHostChannel } from '@svc/protocol';
import { html, LitElement, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import type { SvcCompleteDetail } from '../events/svc-complete.js';
import type { DecisionErrorCode, DecisionErrorDetail } from '../events/svc-error.js';
import { configDefaults, svcConfigContext } from '../internal/config.js';
import { DeadlineWatch } from '../internal/deadline-watch.js';
import { openCentered } from '../internal/popup.js';
import { Scope } from '../internal/scope.js';
import type { SvcEventDetails } from '../internal/svc-element.js';
import { type DecisionUrls, decisionUrls, isSessionToken } from '../internal/urls.js';
import { decisionStyles } from './decision.styles.js';

/** How the hosted page is shown: in an iframe, in a popup window, or by navigating this page to it. */
export type DecisionMode = 'embed' | 'popup' | 'redirect';

/**
 * Where the element stands: `idle` (nothing to show yet, or a popup or redirect button waiting to be used),
 * `loading`, `ready`, `complete`, `cancelled`, `expired` or `error` (the element cannot show the decision, or the
 * hosted page said it cannot go on, as for a decision already over: that page stays in view with its own words).
 */
export type DecisionStatus = 'idle' | 'loading' | 'ready' | 'complete' | 'cancelled' | 'expired' | 'error';

const MODES: readonly string[] = ['embed', 'popup', 'redirect'];

/**
 * The narrowest sandbox the hosted page works in: scripts (it is an app), same-origin (its own origin, which it
 * needs to call the service and to be recognised as the sender of its messages; the frame is cross-origin, so this
 * grants nothing of the host page), forms (its sign-in and consent forms), and popups that escape the sandbox (the
 * privacy policy link opens a normal tab). No top navigation, no downloads, no modals.
 */
const SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox';

const CANNOT_SHOW = 'This request cannot be shown.';

/** What the iframe's accessible name calls each kind of decision (followed by "from" and the organisation). */
const TITLES: Record<Kind, string> = {
  consent: 'Consent request',
  approval: 'Approval request',
  signature_request: 'Signature request',
};

/** One token's session: what was set up for it, all released by `scope`. */
interface Session {
  readonly mode: DecisionMode;
  readonly urls: DecisionUrls;
  readonly scope: Scope;
  readonly deadline: DeadlineWatch;
  channel?: HostChannel;
  kind?: Kind;
  /** True once `svc-complete`, `svc-cancel` (other than a closed popup) or a fatal `svc-error` fired: the decision is over. */
  ended?: boolean;
  // Short names: property names survive minification, and each costs its length in every page's bundle.
  /** The height the next animation frame gives the iframe. */
  height?: number;
  /** Cancels the animation frame that applies `height`; set while one is pending. */
  sizing?: (() => void) | undefined;
  /** Cancels the wait for `svc:ready` that began when the iframe loaded; set while it runs. */
  readyTimer?: (() => void) | undefined;
  /** Stops watching the popup for being closed; set while it is watched. */
  polling?: (() => void) | undefined;
}

/** What the element's inputs resolve to; `key` changes exactly when a new session is needed. */
interface Resolved {
  key: string;
  mode: DecisionMode;
  urls?: DecisionUrls;
  problem?: string;
  /** The `svc-error` code of `problem`. */
  code?: DecisionErrorCode;
  /** The session's own iframe (embed mode): a new one for each session, as reusing one would navigate it. */
  frame?: HTMLIFrameElement;
}

/**
 * One decision of the svc service (a consent, an approval or a signature request) shown on the organisation's
 * page, through the service's hosted page: in an iframe (`embed`, the default), in a popup window, or by redirecting
 * to it. The element listens to the page's protocol v2 messages, accepting one only when it comes from the service
 * origin and from this element's own iframe or popup, and re-dispatches each as a DOM event, once per `message_id`,
 * in the order the page sent them. None of these events proves anything: hand the `exchange_token` of
 * `svc-complete` to your server, which asks the service.
 *
 * The popup is opened without `noopener`, because the hosted page posts its messages to `window.opener`; its
 * fallback link (shown when a popup is blocked) tries the popup again on click, and only if that fails too opens a
 * tab without an opener, whose result this page does not hear: your server still does (webhook or API). A host page
 * sent with `Cross-Origin-Opener-Policy: same-origin` cuts every popup off from its opener; use
 * `same-origin-allow-popups` with popup mode.
 *
 * @summary Lets a person make one decision on the service's hosted page, embedded, in a popup or by redirect.
 *
 * @slot - Label of the popup and redirect button (default "Open the request" or "Continue to the request").
 * @slot loading - Shown over the iframe until the hosted page is ready (default: a spinner).
 * @slot error - Shown when the element cannot show the decision (default: one sentence).
 * @slot expired - Shown once the decision expired (default: "This request has expired.").
 *
 * @fires {SvcReadyEvent} svc-ready - The hosted page loaded; detail is the `svc:ready` payload.
 * @fires {SvcStateEvent} svc-state - The decision changed state; detail is the `svc:state` payload plus `kind`.
 * @fires {SvcCompleteEvent} svc-complete - The person finished (once); detail has `kind`, `outcome` and `exchange_token`.
 * @fires {SvcCancelEvent} svc-cancel - The decision was cancelled by the person, the page or `cancel()`, or the popup was closed (`popup_closed`).
 * @fires {SvcDecisionErrorEvent} svc-error - Something failed; detail has `code`, `message`, `fatal`, `recoverable_via`.
 * @fires {SvcResizeEvent} svc-resize - The hosted page's content height changed; detail has `height`.
 * @fires {SvcDeadlineEvent} svc-deadline - T-30 s, T-15 s, T-5 s (`warning`) and T-0 (`expired`, exactly once).
 *
 * @csspart base - The wrapper of everything else.
 * @csspart frame - The iframe of the hosted page (embed mode).
 * @csspart loading - The loading view over the iframe.
 * @csspart button - The button that opens the popup or starts the redirect.
 * @csspart fallback - The link shown when the browser blocked the popup.
 * @csspart status - The live region announcing loading, the popup and expiry (visually hidden in embed mode).
 * @csspart expired - The expired view.
 * @csspart error - The error view.
 *
 * @cssprop [--svc-decision-min-height=320px] - Lowest height of the iframe (and of the loading view).
 * @cssprop [--svc-decision-max-height=none] - Highest height of the iframe; the hosted page scrolls beyond it.
 * @cssprop [--svc-decision-border=0] - Border of the iframe; the expired and error views use it too (a thin line when unset).
 * @cssprop [--svc-decision-radius=0] - Corner radius of the iframe, the button and the views.
 * @cssprop [--svc-decision-background=transparent] - Background behind the iframe.
 * @cssprop [--svc-decision-accent=#1d4ed8] - Colour of the button, the spinner and focus rings.
 * @cssprop [--svc-decision-accent-text=#fff] - Text colour of the button.
 * @cssprop [--svc-decision-link] - Colour of the fallback link (defaults to the accent).
 * @cssprop [--svc-decision-focus-ring] - Colour of focus outlines (defaults to the accent).
 * @cssprop [--svc-decision-color=inherit] - Text colour of the element's own text.
 * @cssprop [--svc-decision-font=inherit] - Font of the element's own text.
 */
export class SvcDecision extends LitElement {
  static override styles = decisionStyles;

  // Declared here rather than with decorators, which would add TypeScript's `__decorate` helper and Lit's decorator
  // modules to every bundle. The public ones are documented on their fields below.
  static override properties: PropertyDeclarations = {
    token: {},
    mode: {},
    trustUrl: { attribute: 'trust-url' },
    label: {},
    // Internal state, rendered but never an attribute (what `state: true` means to Lit, spelled so that the
    // manifest analyzer sees it too).
    phase: { attribute: false },
    announcement: { attribute: false },
    ready: { attribute: false },
    popupBlocked: { attribute: false },
  };

  /** @internal How long after the iframe's `load` the element waits for `svc:ready` before reporting `frame_unavailable`. */
  static readyTimeoutMs = 8000;
  /** @internal How often the element checks whether the person closed the popup. */
  static popupPollMs = 500;

  /** The decision session token (`dts_...`) that `POST /api/v1/decisions` returned; changing it starts over. */
  token = '';

  /** How the hosted page is shown: `embed` (an iframe, the default), `popup` or `redirect`. */
  mode: DecisionMode = 'embed';

  /** Where the service's hosted pages live, such as `https://svc.example`; defaults to the `<svc-provider>`'s. */
  trustUrl?: string;

  /** Accessible name of the iframe; by default it says what is asked and who asks. */
  label?: string;

  /** Where the element stands; also exposed to CSS as a custom state, e.g. `svc-decision:state(expired)`. */
  get status(): DecisionStatus {
    return this.phase;
  }

  /** The decision's kind once the hosted page said it: `consent`, `approval` or `signature_request`. */
  get kind(): Kind | undefined {
    return this.#session?.kind;
  }

  /** The outcome `svc-complete` carried, once it fired; as unproven as the event itself. */
  get outcome(): SvcCompleteDetail['outcome'] | undefined {
    return this.#completedOutcome;
  }

  private phase: DecisionStatus = 'idle';
  /** What the status live region says. */
  private announcement = '';
  /** The session's `svc:ready` payload, once it came. */
  private ready?: ReadyPayload;
  private popupBlocked = false;

  // Configuration from the closest <svc-provider> (it requests an update when it changes); the element's own
  // attributes win over it.
  readonly #provided = new ContextConsumer(this, { context: svcConfigContext, subscribe: true });
  // Set by the first update, before the first render.
  #resolved!: Resolved;
  #sessionKey: string | undefined;
  #session: Session | undefined;
  #popup: Window | undefined;
  #completedOutcome: SvcCompleteDetail['outcome'] | undefined;
  /** An invalid configuration found by the last resolve, reported once the error view is rendered. */
  #problem: DecisionErrorDetail | undefined;
  readonly #internals = this.attachInternals?.();

  override connectedCallback(): void {
    super.connectedCallback();
    // Everything a session holds was released on disconnect; the next update sets it up again.
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#teardown();
    this.#sessionKey = undefined;
  }

  protected override willUpdate(): void {
    this.#updateSession();
    if (this.#frame) this.#frame.title = this.#frameTitle();
  }

  /** Starts over, before rendering, when the inputs now call for another session. */
  #updateSession(): void {
    const next = this.#resolve();
    if (next.key === this.#sessionKey) return;
    this.#teardown();
    this.#sessionKey = next.key;
    this.#resolved = next;
    this.ready = this.#completedOutcome = undefined;
    this.popupBlocked = false;
    const embed = next.mode === 'embed';
    this.#problem = next.problem ? { code: next.code!, message: next.problem, fatal: true, recoverable_via: null } : undefined;
    if (embed && next.urls) {
      // Made here rather than in the template so that each session gets a fresh one, which also keeps the page's
      // history free of the old frame's navigation. Its title follows in every update.
      const frame = (next.frame = document.createElement('iframe'));
      frame.setAttribute('part', 'frame');
      frame.setAttribute('sandbox', SANDBOX);
      frame.referrerPolicy = 'strict-origin';
      frame.src = next.urls.embed;
      frame.onload = () => this.#handleFrameLoad();
    }
    this.phase = next.problem ? 'error' : embed ? 'loading' : 'idle';
    this.announcement = next.problem ? CANNOT_SHOW : embed ? 'Loading the request…' : '';
  }

  protected override updated(): void {
    const states = this.#internals?.states;
    try {
      states?.clear();
      states?.add(this.phase);
    } catch {
      // Browsers that only know the older `--state` syntax: no custom states there.
    }
    const problem = this.#problem;
    if (problem) {
      this.#problem = undefined;
      // No token yet may be the page still asking its backend for one (set later, it starts over): a warning.
      console[problem.code === 'missing_token' ? 'warn' : 'error'](`[svc] <svc-decision>: ${problem.message}`);
      this.#emit('svc-error', problem);
    }
    const { mode, urls } = this.#resolved;
    if (!this.#session && this.isConnected && urls) {
      const session: Session = {
        mode,
        urls,
        scope: new Scope(),
        deadline: new DeadlineWatch({ onDeadline: (payload) => this.#handleDeadline(session, payload) }),
      };
      session.scope.add(() => session.deadline.stop());
      this.#session = session;
      if (mode === 'embed') this.#listen(session, () => this.#frame?.contentWindow);
    }
  }

  /** Reads the inputs: own attributes, then the provider, then the script tag's defaults. */
  #resolve(): Resolved {
    const { mode, token } = this;
    if (!MODES.includes(mode)) {
      return {
        key: `invalid|${mode}`,
        mode: 'embed',
        problem: `mode must be embed, popup or redirect, got ${JSON.stringify(mode)}.`,
        code: 'invalid_configuration',
      };
    }
    // Said at once: a spinner that never ends tells the developer nothing. Setting a token later starts over. A page
    // may keep the element hidden until it has the token: that waits quietly, as nothing is shown.
    if (!token && this.hidden) return { key: `${mode}|hidden`, mode };
    if (!isSessionToken(token)) {
      return {
        key: `${mode}|${token}`,
        mode,
        problem: `${token ? 'The token attribute must be' : 'No token: set the token attribute to'} a decision session token (dts_...) as POST /api/v1/decisions returned it.`,
        code: token ? 'invalid_token' : 'missing_token',
      };
    }
    // With no context value (only the decision module was imported, or the provider is not upgraded yet), the
    // enclosing <svc-provider>'s attributes still configure the element.
    const provider = this.closest('svc-provider');
    const provided = this.#provided.value ?? {
      trustUrl: provider?.getAttribute('trust-url'),
      baseUrl: provider?.getAttribute('base-url'),
    };
    // A token of 50 characters names its home country (`dts_de_` and 43 more), whose cell alone serves its pages: the
    // provider's trust URL for that country comes first. (Written short: this page has bytes to spare for little.)
    const trustUrl =
      (token[49] && this.#provided.value?.trustUrls?.[token.slice(4, 6).toUpperCase()]) ||
      this.trustUrl ||
      provided.trustUrl ||
      provided.baseUrl ||
      configDefaults().trustUrl;
    const urls = decisionUrls(trustUrl, token);
    if (typeof urls === 'string') return { key: `${mode}|${trustUrl}|${token}`, mode, problem: urls, code: 'invalid_configuration' };
    return { key: `${mode}|${urls.page}`, mode, urls };
  }

  #teardown(): void {
    this.#session?.scope.dispose();
    this.#session = undefined;
    this.#popup = undefined;
  }

  get #frame(): HTMLIFrameElement | undefined {
    return this.#resolved.frame;
  }

  /** Dispatches `name`, bubbling and composed, with `detail` plus the decision's kind once known. */
  #emit<K extends keyof SvcEventDetails>(name: K, detail: Omit<SvcEventDetails[K], 'kind'>, session?: Session): void {
    const kind = session?.kind;
    /** @ignore The events are documented with `@fires` on the class. */
    this.dispatchEvent(new CustomEvent(name, { bubbles: true, composed: true, detail: kind ? { ...detail, kind } : detail }));
  }

  /** Opens the session's channel to `frame`, replacing any earlier one. */
  #listen(session: Session, frame: () => Window | null | undefined): void {
    session.channel?.dispose();
    const channel = createHostChannel({
      serviceOrigin: session.urls.serviceOrigin,
      frame,
      ...(session.kind && { kind: session.kind }),
      onMessage: (message) => this.#handleMessage(session, message),
    });
    session.channel = channel;
    session.scope.add(() => channel.dispose());
  }

  /** Re-dispatches each message as the event of the same name (`svc:x` as `svc-x`), after its effect on the element. */
  #handleMessage(session: Session, message: SvcMessage): void {
    if (session !== this.#session) return;
    // The channel fixes the kind with the first message it delivers; each later one has the same.
    session.kind ??= message.kind;
    let expired = false;
    switch (message.type) {
      case 'svc:deadline':
        // The watch re-dispatches it, unless its threshold was already surfaced.
        session.deadline.fromFrame(message.payload);
        return;
      case 'svc:ready': {
        const payload = message.payload;
        // The frame's URL names the token, so a page for another decision is not ours to report.
        if (payload.session_token !== this.token) return;
        session.readyTimer?.();
        this.ready = payload;
        if (this.phase === 'loading') this.phase = 'ready';
        if (session.mode === 'embed') this.announcement = '';
        session.deadline.start(payload.deadline_at);
        break;
      }
      case 'svc:complete':
        if (session.ended) return;
        this.#completedOutcome = message.payload.outcome;
        this.#end(session, 'complete');
        break;
      case 'svc:cancel':
        if (session.ended) return;
        this.#end(session, 'cancelled');
        break;
      case 'svc:state':
        expired = message.payload.to === 'expired';
        break;
      case 'svc:error':
        expired = message.payload.code === 'decision_expired';
        // The page cannot go on (an unknown token, an origin not allowed, a decision already over): the decision
        // is over here, and a page that never got ready shows the error view rather than a spinner.
        if (message.payload.fatal) {
          session.ended = true;
          // Rendered again either way: `over` drops the min-height.
          this.requestUpdate();
          if (this.phase === 'loading') this.announcement = CANNOT_SHOW;
          // An expiry keeps its own status (the deadline, surfaced below if not yet, sets it).
          if (this.phase === 'loading' || this.phase === 'ready') this.phase = 'error';
        }
        break;
      case 'svc:resize':
        this.#scheduleHeight(session, message.payload.height);
    }
    this.#emit(message.type.replace(':', '-') as keyof SvcEventDetails, message.payload, session);
    // The page said the decision expired another way: surface the expired threshold now (once).
    if (expired) session.deadline.expire();
    // Over: no later deadline may turn the error into an expiry.
    if (session.ended) session.deadline.stop();
  }

  /** Ends the decision (complete or cancelled); the caller fires the event. */
  #end(session: Session, phase: 'complete' | 'cancelled'): void {
    session.ended = true;
    session.deadline.stop();
    this.phase = phase;
    // In embed mode the hosted page shows the outcome itself.
    this.announcement = session.mode === 'embed' ? '' : phase === 'complete' ? 'The request is complete.' : 'The request was cancelled.';
  }

  #handleDeadline(session: Session, payload: DeadlinePayload): void {
    if (session !== this.#session) return;
    if (payload.level === 'expired') {
      this.phase = 'expired';
      this.announcement = 'This request has expired.';
    }
    this.#emit('svc-deadline', payload, session);
  }

  /** Sizes the iframe to the reported height, once per animation frame however many reports arrive. */
  #scheduleHeight(session: Session, height: number): void {
    session.height = height;
    session.sizing ??= session.scope.frame(() => {
      session.sizing = undefined;
      const frame = this.#frame;
      if (frame) frame.style.height = `${session.height}px`;
    });
  }

  /** Gives the hosted page `readyTimeoutMs` after its frame loaded to say it is ready. */
  #handleFrameLoad(): void {
    const session = this.#session;
    if (!session || this.ready || session.readyTimer) return;
    session.readyTimer = session.scope.timeout(() => {
      session.readyTimer = undefined;
      if (this.#session !== session || this.ready || session.ended) return;
      this.phase = 'error';
      this.announcement = CANNOT_SHOW;
      this.#emit('svc-error', {
        code: 'frame_unavailable',
        message: 'The hosted page loaded but never said it was ready, nor why: check the trust URL.',
        fatal: true,
        recoverable_via: 'reload',
      });
    }, SvcDecision.readyTimeoutMs);
  }

  // A listener of the template: Lit calls it with the element as `this`.
  #handleFallbackClick(event: MouseEvent): void {
    const session = this.#session;
    if (session?.mode !== 'popup') return;
    // A click is a user gesture, so the popup may be allowed now; it keeps the opener the messages need.
    if (this.#showPopup(session)) event.preventDefault();
    else this.announcement = 'The request opened in a new tab. This page will not see your answer; the site will still receive it.';
  }

  /** Focuses the session's popup, or opens one and listens to it; false when the browser blocked it. */
  #showPopup(session: Session): boolean {
    if (this.#popup && !this.#popup.closed) {
      this.#popup.focus();
      return true;
    }
    const popup = openCentered(session.urls.page, `svc_${this.token}`);
    if (!popup) return false;
    this.#popup = popup;
    this.popupBlocked = false;
    if (!session.ended && this.phase !== 'expired') this.phase = 'loading';
    this.announcement = 'The request is open in another window.';
    this.#listen(session, () => this.#popup);
    session.polling?.();
    // Watch for the person closing the window.
    session.polling = session.scope.interval(() => {
      if (!popup.closed) return;
      session.polling?.();
      // A message posted just before the window closed may still be queued: let it arrive before judging.
      session.scope.timeout(() => {
        if (this.#session !== session || this.#popup !== popup || session.ended || this.phase === 'expired') return;
        this.phase = 'cancelled';
        this.announcement = 'The request window was closed before a decision was made.';
        this.#emit('svc-cancel', { reason: 'popup_closed', cancelled_by: 'user' }, session);
      }, 100);
    }, SvcDecision.popupPollMs);
    return true;
  }

  /**
   * Opens the decision: in popup mode opens (or focuses) the centred decision window, which must happen in a user
   * gesture such as a click; in redirect mode navigates this page to the hosted page. Returns false when there is
   * nothing to open (embed mode, no valid token, a decision already over, or a blocked popup, which also fires
   * `svc-error` with code `popup_blocked` and shows a fallback link).
   */
  open(): boolean {
    const session = this.#session;
    if (!session) return false;
    if (session.mode === 'redirect') {
      location.assign(session.urls.page);
      return true;
    }
    if (session.mode !== 'popup' || session.ended || this.phase === 'expired') return false;
    if (this.#showPopup(session)) return true;
    this.popupBlocked = true;
    this.announcement = 'Your browser blocked the request window. Use the link to open it.';
    this.#emit(
      'svc-error',
      {
        code: 'popup_blocked',
        message: 'The browser blocked the decision window; the element shows a link that opens it instead.',
        fatal: false,
        recoverable_via: 'link',
      },
      session,
    );
    return false;
  }

  /**
   * Cancels the decision from the host page: sends `svc:cancel` to the hosted page (which records it) and fires
   * `svc-cancel` with `cancelled_by: 'host'`. Returns false when nothing was sent: no page loaded yet, or the
   * decision is already over.
   */
  cancel(reason = 'host_cancelled'): boolean {
    const session = this.#session;
    if (!session?.channel || session.ended) return false;
    try {
      if (!session.channel.cancel(reason)) return false;
    } catch {
      // The kind is not known before svc:ready, and an empty reason is not a valid message: nothing was sent.
      return false;
    }
    this.#end(session, 'cancelled');
    this.#emit('svc-cancel', { reason, cancelled_by: 'host' }, session);
    return true;
  }

  #frameTitle(): string {
    const ready = this.ready;
    if (this.label || !ready) return this.label || 'Decision request';
    const what = TITLES[ready.kind];
    return ready.branding.name ? `${what} from ${ready.branding.name}` : what;
  }

  // The templates have no whitespace between tags: it would render nothing and ship in every bundle.
  protected override render(): TemplateResult {
    const { mode, urls } = this.#resolved;
    const phase = this.phase;
    const over = this.#session?.ended || phase === 'expired' || phase === 'error';
    // A fatal error after svc:ready leaves the hosted page's own words in view, laid out as when ready; the error view
    // is for a page that never got that far.
    const view = phase === 'error' && this.ready ? 'ready' : phase;
    const body =
      mode === 'embed'
        ? html`${this.#frame ?? nothing}${
            phase === 'loading'
              ? html`<div part=loading><slot name=loading><span class=spinner aria-hidden=true></span></slot></div>`
              : nothing
          }`
        : html`${
            over
              ? nothing
              : html`<button part=button type=button ?disabled=${!urls} @click=${this.open}><slot>${mode === 'popup' ? 'Open the request' : 'Continue to the request'}</slot></button>`
          }${
            this.popupBlocked && urls && !over
              ? html`<p><a part=fallback href=${urls.page} target=_blank rel=noopener @click=${this.#handleFallbackClick}>Open the request in a new tab</a></p>`
              : nothing
          }`;
    // The mode, the status and `over` as plain class names, which the styles show and hide the frame by (the shadow root
    // is the element's own: nothing else sets classes here, and classMap would add its code for nothing).
    return html`<div part=base class=${`${mode} ${view}${over ? ' over' : ''}`}>${body}${
      view === 'expired' ? html`<div part=expired><slot name=expired><p>This request has expired.</p></slot></div>` : nothing
    }${
      view === 'error' ? html`<div part=error><slot name=error><p>This request cannot be shown right now.</p></slot></div>` : nothing
    }<p part=status role=status>${this.announcement}</p></div>`;
  }
}

// `hidden` is watched, so that showing an element still without a token reports it (see #resolve), and reflected,
// as natively. Declared here rather than in `properties`: it is the platform's attribute, not one to document.
SvcDecision.createProperty('hidden', { type: Boolean, reflect: true });
