import { consume } from '@lit/context';
import { type HostChannel, type Kind, type ReadyPayload, type SvcMessage, createHostChannel } from '@svc/protocol';
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { keyed } from 'lit/directives/keyed.js';
import type { SvcCompleteDetail } from '../events/svc-complete.js';
import type { SvcDeadlineDetail } from '../events/svc-deadline.js';
import { type DecisionErrorDetail, DecisionErrorCode } from '../events/svc-error.js';
import type { SvcReadyDetail } from '../events/svc-ready.js';
import type { SvcResizeDetail } from '../events/svc-resize.js';
import type { SvcStateDetail } from '../events/svc-state.js';
import { type SvcConfig, configDefaults, svcConfigContext } from '../internal/config.js';
import { DeadlineWatch } from '../internal/deadline-watch.js';
import { openCentered } from '../internal/popup.js';
import { Scope } from '../internal/scope.js';
import { SvcElement } from '../internal/svc-element.js';
import { type DecisionUrls, decisionUrls } from '../internal/urls.js';
import { decisionStyles } from './decision.styles.js';

/** How the hosted page is shown: in an iframe, in a popup window, or by navigating this page to it. */
export type DecisionMode = 'embed' | 'popup' | 'redirect';

/**
 * Where the element stands: `idle` (nothing to show yet, or a popup or redirect button waiting to be used),
 * `loading`, `ready`, `complete`, `cancelled`, `expired` or `error`.
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

/** One token's session: what was set up for it, all released by `scope`. */
interface Session {
  readonly id: number;
  readonly mode: DecisionMode;
  readonly urls: DecisionUrls;
  readonly scope: Scope;
  readonly deadline: DeadlineWatch;
  channel?: HostChannel;
  kind?: Kind;
  /** True once `svc-complete` or `svc-cancel` (other than a closed popup) fired: the decision is over. */
  ended: boolean;
  pendingHeight?: number;
  cancelHeightFrame?: (() => void) | undefined;
  cancelReadyTimer?: (() => void) | undefined;
  stopPolling?: (() => void) | undefined;
}

/** What the element's inputs resolve to; `key` changes exactly when a new session is needed. */
interface Resolved {
  key: string;
  mode: DecisionMode;
  urls?: DecisionUrls;
  problem?: string;
}

/**
 * One decision of the svc service (a consent or an approval) shown on the organisation's page, through the
 * service's hosted page: in an iframe (`embed`, the default), in a popup window, or by redirecting to it. The
 * element listens to the page's protocol v2 messages, accepting one only when it comes from the service origin and
 * from this element's own iframe or popup, and re-dispatches each as a DOM event, once per `message_id`, in the
 * order the page sent them. None of these events proves anything: hand the `exchange_token` of `svc-complete` to
 * your server, which asks the service.
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
 * @fires {SvcCompleteEvent} svc-complete - The person finished (once); detail has `outcome` and `exchange_token`.
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
export class SvcDecision extends SvcElement {
  static override styles = decisionStyles;

  /** @internal How long after the iframe's `load` the element waits for `svc:ready` before reporting `frame_unavailable`. */
  static readyTimeoutMs = 8000;
  /** @internal How often the element checks whether the person closed the popup. */
  static popupPollMs = 500;

  // Configuration from the closest <svc-provider>; the element's own attributes win over it.
  @consume({ context: svcConfigContext, subscribe: true })
  @state()
  private inherited?: SvcConfig;

  @query('iframe') private frameElement?: HTMLIFrameElement | null;
  @state() private phase: DecisionStatus = 'idle';
  @state() private announcement = '';
  @state() private errorDetail?: DecisionErrorDetail;
  @state() private readyPayload?: ReadyPayload;
  @state() private popupBlocked = false;
  @state() private popupOpen = false;

  /** The decision session token (`dts_...`) that `POST /api/v1/decisions` returned; changing it starts over. */
  @property() token = '';

  /** How the hosted page is shown: `embed` (an iframe, the default), `popup` or `redirect`. */
  @property() mode: DecisionMode = 'embed';

  /** Where the service's hosted pages live, such as `https://svc.example`; defaults to the `<svc-provider>`'s. */
  @property({ attribute: 'trust-url' }) trustUrl?: string;

  /** Accessible name of the iframe; by default it says what is asked and who asks. */
  @property() label?: string;

  /** Where the element stands; also exposed to CSS as a custom state, e.g. `svc-decision:state(expired)`. */
  get status(): DecisionStatus {
    return this.phase;
  }

  /** The decision's kind once the hosted page said it: `consent` or `approval`. */
  get kind(): Kind | undefined {
    return this.session?.kind;
  }

  /** The outcome `svc-complete` carried, once it fired; as unproven as the event itself. */
  get outcome(): SvcCompleteDetail['outcome'] | undefined {
    return this.completedOutcome;
  }

  private resolved: Resolved = { key: '', mode: 'embed' };
  private sessionKey: string | undefined;
  private sessionCount = 0;
  private session: Session | undefined;
  private popup: Window | null = null;
  private completedOutcome: SvcCompleteDetail['outcome'] | undefined;
  private announceProblem = false;
  private readonly internals: ElementInternals | undefined;

  constructor() {
    super();
    this.internals = this.attachInternals?.();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Everything a session holds was released on disconnect; the next update sets it up again.
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.teardown();
    this.sessionKey = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    const next = this.resolve();
    if (next.key === this.sessionKey) return;
    this.teardown();
    this.sessionKey = next.key;
    this.resolved = next;
    this.sessionCount += 1;
    this.readyPayload = undefined;
    this.completedOutcome = undefined;
    this.popupBlocked = false;
    this.popupOpen = false;
    this.errorDetail = next.problem
      ? { code: DecisionErrorCode.InvalidConfiguration, message: next.problem, fatal: true, recoverable_via: null }
      : undefined;
    this.announceProblem = next.problem !== undefined;
    this.phase = next.problem ? 'error' : next.mode === 'embed' ? 'loading' : 'idle';
    this.announcement = next.problem ? 'This request cannot be shown.' : next.mode === 'embed' ? 'Loading the request…' : '';
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.reflectState();
    if (this.announceProblem && this.errorDetail) {
      this.announceProblem = false;
      console.warn(`[svc] <svc-decision>: ${this.errorDetail.message}`);
      this.emit('svc-error', this.errorDetail);
    }
    if (!this.session && this.isConnected && this.resolved.urls) this.setup(this.resolved.mode, this.resolved.urls);
  }

  /** Reads the inputs: own attributes, then the provider, then the script tag's defaults. */
  private resolve(): Resolved {
    const mode = this.mode;
    if (!MODES.includes(mode)) {
      return { key: `invalid|${mode}`, mode: 'embed', problem: `mode must be embed, popup or redirect, got ${JSON.stringify(mode)}.` };
    }
    if (!this.token) return { key: `${mode}|`, mode };
    const provided = this.inherited ?? this.providerAttributes();
    const trustUrl = this.trustUrl || provided.trustUrl || provided.baseUrl || configDefaults().trustUrl;
    const urls = decisionUrls(trustUrl, this.token);
    if (typeof urls === 'string') return { key: `${mode}|${trustUrl}|${this.token}`, mode, problem: urls };
    return { key: `${mode}|${urls.page}`, mode, urls };
  }

  /**
   * The enclosing provider's attributes, read from the DOM when no context value arrived: an `<svc-provider>` that
   * is not defined (only the decision module was imported) or not upgraded yet still configures the element.
   */
  private providerAttributes(): SvcConfig {
    const provider = this.closest('svc-provider');
    return {
      trustUrl: provider?.getAttribute('trust-url') ?? undefined,
      baseUrl: provider?.getAttribute('base-url') ?? undefined,
    };
  }

  private setup(mode: DecisionMode, urls: DecisionUrls): void {
    const scope = new Scope();
    const session: Session = {
      id: this.sessionCount,
      mode,
      urls,
      scope,
      deadline: new DeadlineWatch({ onDeadline: (payload) => this.handleDeadline(session, payload) }),
      ended: false,
    };
    scope.add(() => session.deadline.stop());
    this.session = session;
    if (mode === 'embed') this.listen(session, () => this.frameElement?.contentWindow);
  }

  private teardown(): void {
    const session = this.session;
    this.session = undefined;
    this.popup = null;
    session?.scope.dispose();
  }

  /** Opens the session's channel to `frame`, replacing any earlier one. */
  private listen(session: Session, frame: () => Window | null | undefined): void {
    session.channel?.dispose();
    const channel = createHostChannel({
      serviceOrigin: session.urls.serviceOrigin,
      frame,
      ...(session.kind ? { kind: session.kind } : {}),
      onMessage: (message) => this.handleMessage(session, message),
    });
    session.channel = channel;
    session.scope.add(() => channel.dispose());
  }

  private reflectState(): void {
    const states = this.internals?.states;
    if (!states) return;
    try {
      states.clear();
      states.add(this.phase);
    } catch {
      // Browsers that only know the older `--state` syntax: no custom states there.
    }
  }

  private handleMessage(session: Session, message: SvcMessage): void {
    if (session !== this.session) return;
    session.kind ??= message.kind;
    const kind = message.kind;
    switch (message.type) {
      case 'svc:ready': {
        const payload = message.payload;
        // The frame's URL names the token, so a page for another decision is not ours to report.
        if (payload.session_token !== this.token) return;
        session.cancelReadyTimer?.();
        this.readyPayload = payload;
        if (this.phase === 'loading') this.phase = 'ready';
        if (session.mode === 'embed') this.announcement = '';
        session.deadline.start(payload.deadline_at);
        this.emit('svc-ready', payload as SvcReadyDetail);
        return;
      }
      case 'svc:state':
        this.emit('svc-state', { ...message.payload, kind } as SvcStateDetail);
        if (message.payload.to === 'expired') session.deadline.expire();
        return;
      case 'svc:complete':
        if (session.ended) return;
        session.ended = true;
        session.deadline.stop();
        this.completedOutcome = message.payload.outcome;
        this.phase = 'complete';
        this.announcement = session.mode === 'embed' ? '' : 'The request is complete.';
        this.emit('svc-complete', { ...message.payload, kind } as SvcCompleteDetail);
        return;
      case 'svc:cancel':
        if (session.ended) return;
        session.ended = true;
        session.deadline.stop();
        this.phase = 'cancelled';
        this.announcement = session.mode === 'embed' ? '' : 'The request was cancelled.';
        this.emit('svc-cancel', { ...message.payload, kind });
        return;
      case 'svc:error':
        this.emit('svc-error', { ...message.payload, kind });
        if (message.payload.code === 'decision_expired') session.deadline.expire();
        return;
      case 'svc:resize':
        this.scheduleHeight(session, message.payload.height);
        this.emit('svc-resize', { ...message.payload, kind } as SvcResizeDetail);
        return;
      case 'svc:deadline':
        session.deadline.fromFrame(message.payload);
        return;
    }
  }

  private handleDeadline(session: Session, payload: SvcDeadlineDetail | Omit<SvcDeadlineDetail, 'kind'>): void {
    if (session !== this.session) return;
    if (payload.level === 'expired') {
      this.phase = 'expired';
      this.announcement = 'This request has expired.';
    }
    this.emit('svc-deadline', { ...payload, kind: session.kind ?? 'consent' } as SvcDeadlineDetail);
  }

  /** Sizes the iframe to the reported height, once per animation frame however many reports arrive. */
  private scheduleHeight(session: Session, height: number): void {
    session.pendingHeight = height;
    if (session.cancelHeightFrame) return;
    session.cancelHeightFrame = session.scope.frame(() => {
      session.cancelHeightFrame = undefined;
      const frame = this.frameElement;
      if (frame && session.pendingHeight !== undefined) frame.style.height = `${session.pendingHeight}px`;
    });
  }

  private readonly handleFrameLoad = (): void => {
    const session = this.session;
    if (!session || this.readyPayload || session.cancelReadyTimer) return;
    session.cancelReadyTimer = session.scope.timeout(() => {
      session.cancelReadyTimer = undefined;
      if (this.session !== session || this.readyPayload) return;
      this.fail({
        code: DecisionErrorCode.FrameUnavailable,
        message: 'The hosted page loaded but never became ready: check the token, the trust URL and that this origin is an allowed origin of the application.',
        fatal: true,
        recoverable_via: 'reload',
      });
    }, SvcDecision.readyTimeoutMs);
  };

  private readonly handleButtonClick = (): void => {
    this.open();
  };

  private readonly handleFallbackClick = (event: MouseEvent): void => {
    const session = this.session;
    if (!session || session.mode !== 'popup') return;
    // A click is a user gesture, so the popup may be allowed now; it keeps the opener the messages need.
    const popup = openCentered(session.urls.page, this.windowName());
    if (popup) {
      event.preventDefault();
      this.adoptPopup(session, popup);
      return;
    }
    this.announcement = 'The request opened in a new tab. This page will not see your answer; the site will still receive it.';
  };

  private adoptPopup(session: Session, popup: Window): void {
    this.popup = popup;
    this.popupBlocked = false;
    this.popupOpen = true;
    if (!session.ended && this.phase !== 'expired') this.phase = 'loading';
    this.announcement = 'The request is open in another window.';
    this.listen(session, () => this.popup);
    session.stopPolling?.();
    session.stopPolling = session.scope.interval(() => {
      if (popup.closed) this.handlePopupClosed(session, popup);
    }, SvcDecision.popupPollMs);
  }

  private handlePopupClosed(session: Session, popup: Window): void {
    session.stopPolling?.();
    session.stopPolling = undefined;
    // A message posted just before the window closed may still be queued: let it arrive before judging.
    session.scope.timeout(() => {
      if (this.session !== session || this.popup !== popup) return;
      this.popupOpen = false;
      if (session.ended || this.phase === 'expired') return;
      this.phase = 'cancelled';
      this.announcement = 'The request window was closed before a decision was made.';
      this.emit('svc-cancel', { reason: 'popup_closed', cancelled_by: 'user', ...(session.kind ? { kind: session.kind } : {}) });
    }, 100);
  }

  private fail(detail: DecisionErrorDetail): void {
    this.phase = 'error';
    this.errorDetail = detail;
    this.announcement = 'This request cannot be shown.';
    this.emit('svc-error', detail);
  }

  private windowName(): string {
    return `svc_${this.token}`;
  }

  /**
   * Opens the decision: in popup mode opens (or focuses) the centred decision window, which must happen in a user
   * gesture such as a click; in redirect mode navigates this page to the hosted page. Returns false when there is
   * nothing to open (embed mode, no valid token, a decision already over, or a blocked popup, which also fires
   * `svc-error` with code `popup_blocked` and shows a fallback link).
   */
  open(): boolean {
    const session = this.session;
    if (!session) return false;
    if (session.mode === 'redirect') {
      location.assign(session.urls.page);
      return true;
    }
    if (session.mode !== 'popup' || session.ended || this.phase === 'expired') return false;
    if (this.popup && !this.popup.closed) {
      this.popup.focus();
      return true;
    }
    const popup = openCentered(session.urls.page, this.windowName());
    if (!popup) {
      this.popupBlocked = true;
      this.announcement = 'Your browser blocked the request window. Use the link to open it.';
      this.emit('svc-error', {
        code: DecisionErrorCode.PopupBlocked,
        message: 'The browser blocked the decision window; the element shows a link that opens it instead.',
        fatal: false,
        recoverable_via: 'link',
        ...(session.kind ? { kind: session.kind } : {}),
      });
      return false;
    }
    this.adoptPopup(session, popup);
    return true;
  }

  /**
   * Cancels the decision from the host page: sends `svc:cancel` to the hosted page (which records it) and fires
   * `svc-cancel` with `cancelled_by: 'host'`. Returns false when nothing was sent: no page loaded yet, or the
   * decision is already over.
   */
  cancel(reason = 'host_cancelled'): boolean {
    const session = this.session;
    if (!session?.channel || session.ended) return false;
    let sent = false;
    try {
      sent = session.channel.cancel(reason);
    } catch {
      // The kind is not known before svc:ready, and an empty reason is not a valid message: nothing was sent.
      return false;
    }
    if (!sent) return false;
    session.ended = true;
    session.deadline.stop();
    this.phase = 'cancelled';
    this.announcement = session.mode === 'embed' ? '' : 'The request was cancelled.';
    this.emit('svc-cancel', { reason, cancelled_by: 'host', ...(session.kind ? { kind: session.kind } : {}) });
    return true;
  }

  private frameTitle(): string {
    if (this.label) return this.label;
    const ready = this.readyPayload;
    if (!ready) return 'Decision request';
    const what = ready.kind === 'approval' ? 'Approval request' : 'Consent request';
    return ready.branding.name ? `${what} from ${ready.branding.name}` : what;
  }

  private renderEmbed(): TemplateResult {
    const urls = this.resolved.urls;
    return html`
      ${urls
        ? keyed(
            this.sessionCount,
            html`<iframe
              part="frame"
              class="decision__frame"
              src=${urls.embed}
              title=${this.frameTitle()}
              sandbox=${SANDBOX}
              referrerpolicy="strict-origin"
              @load=${this.handleFrameLoad}
            ></iframe>`,
          )
        : nothing}
      ${this.phase === 'loading'
        ? html`<div part="loading" class="decision__loading">
            <slot name="loading"><span class="decision__spinner" aria-hidden="true"></span></slot>
          </div>`
        : nothing}
    `;
  }

  private renderLauncher(mode: DecisionMode): TemplateResult {
    const urls = this.resolved.urls;
    const over = this.session?.ended || this.phase === 'expired' || this.phase === 'error';
    return html`
      ${over
        ? nothing
        : html`<button part="button" class="decision__button" type="button" ?disabled=${!urls} @click=${this.handleButtonClick}>
            <slot>${mode === 'popup' ? 'Open the request' : 'Continue to the request'}</slot>
          </button>`}
      ${this.popupBlocked && urls && !over
        ? html`<p><a part="fallback" class="decision__fallback" href=${urls.page} target="_blank" rel="noopener"
            @click=${this.handleFallbackClick}>Open the request in a new tab</a></p>`
        : nothing}
    `;
  }

  protected override render(): TemplateResult {
    const mode = this.resolved.mode;
    // A plain class string (the shadow root is the element's own, so nothing else sets classes here): the
    // classMap directive would add its code to every bundle for nothing.
    const classes = `decision decision--${mode} decision--${this.phase}${this.popupOpen ? ' decision--popup-open' : ''}`;
    return html`
      <div part="base" class=${classes}>
        ${mode === 'embed' ? this.renderEmbed() : this.renderLauncher(mode)}
        ${this.phase === 'expired'
          ? html`<div part="expired" class="decision__expired"><slot name="expired"><p>This request has expired.</p></slot></div>`
          : nothing}
        ${this.phase === 'error'
          ? html`<div part="error" class="decision__error"><slot name="error"><p>This request cannot be shown right now.</p></slot></div>`
          : nothing}
        <p part="status" class="decision__status" role="status">${this.announcement}</p>
      </div>
    `;
  }
}
