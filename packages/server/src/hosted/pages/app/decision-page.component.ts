import { createDeadlineClock, createFramePort, type DeadlineClock, type FramePort, type PostMessageDroppedMetric } from '@svc/protocol';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import type { PageData, PageProgress, PageStatus, TransitionRequest, TransitionResult } from '../page-data.js';
import { decisionPageStyles } from './decision-page.styles.js';
import { type Ending, type KindView, type PageHost, stepAnnouncement } from './kind-view.js';
import { viewOf } from './kind-views.js';
import { ParticipantError, reportDrops, sendTransition } from './participant-client.js';

const TERMINAL = new Set<PageStatus>([
  'fulfilled',
  'declined',
  'approved',
  'denied',
  'countered',
  'signed',
  'cancelled',
  'expired',
  'revoked',
]);

/** Endings every kind shares; each kind's view adds those of its outcomes. */
const endings: Partial<Record<PageStatus, Ending>> = {
  cancelled: { title: 'Cancelled', text: 'No decision was recorded.' },
  expired: { title: 'This request has expired', text: 'Ask the site that sent you here to start again.' },
  revoked: { title: 'Consent withdrawn', text: 'This consent was withdrawn; it is no longer used.' },
};

/**
 * The hosted decision page: shows the decision through its kind's view (a consent's screens, an approval), moving it
 * only through the participant API, and tells the host page about every step with protocol v2 messages posted to the
 * exact embed origin (never `*`). Without a target origin each message is dropped and reported to the server.
 *
 * @summary The participant's side of one decision, rendered from the server's `svc-decision-data` block.
 */
export class DecisionPage extends LitElement {
  static override styles = decisionPageStyles;

  @state() private data?: PageData;
  @state() private progress?: PageProgress;
  @state() private busy = false;
  @state() private error: string | null = null;
  @state() private announcement = '';
  @state() private sandboxCode: string | null = null;
  @state() private remaining: number | null = null;
  /** The person (or the host) set a decision that cannot be cancelled aside: nothing was sent, the link still works. */
  @state() private setAside = false;

  private view?: KindView;
  private port?: FramePort;
  private clock?: DeadlineClock;
  private resizeObserver?: ResizeObserver;
  private lastHeight = -1;
  private focusKey = '';
  private pendingDrops = new Map<PostMessageDroppedMetric['labels']['reason'], number>();

  override connectedCallback(): void {
    super.connectedCallback();
    const block = document.getElementById('svc-decision-data');
    try {
      this.data = JSON.parse(block?.textContent ?? '') as PageData;
    } catch {
      this.data = undefined;
      return;
    }
    this.progress = {
      status: this.data.status,
      step_index: this.data.step_index,
      total_steps: this.data.total_steps,
      outcome: this.data.outcome,
      subject_email: this.data.subject_email,
      completed_at: this.data.completed_at,
    };
    this.view = viewOf(this.pageHost(), this.data.kind);
    // Without its kind's part the page cannot show the decision: as if the data were unreadable.
    if (!this.view) {
      this.data = undefined;
      return;
    }
    if (this.data.mode !== 'redirect') {
      this.port = createFramePort({
        targetOrigin: this.data.target_origin,
        mode: this.data.mode,
        kind: this.data.kind,
        onCancel: (message) => void this.handleHostCancel(message.payload.reason),
        onMetric: (metric) => this.queueDrop(metric.labels.reason),
      });
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.clock?.cancel();
    this.resizeObserver?.disconnect();
    this.port?.dispose();
  }

  protected override firstUpdated(): void {
    const data = this.data;
    if (!data) return;
    this.post('svc:ready', {
      kind: data.kind,
      session_token: data.session_token,
      deadline_at: data.deadline_at,
      branding: { name: data.branding.name },
      mode: data.mode,
      locale: data.locale,
    });
    this.resizeObserver = new ResizeObserver(() => this.handleResize());
    this.resizeObserver.observe(this);
    this.handleResize();
    const status = this.progress!.status;
    if (TERMINAL.has(status)) {
      this.postEnded(status, data.deadline_at);
    } else {
      // The deadline is on the server's clock (which tests may move): read time as the server sees it.
      const skew = Date.parse(data.server_now) - Date.now();
      this.clock = createDeadlineClock({
        deadlineAt: data.deadline_at,
        now: () => Date.now() + skew,
        onDeadline: (payload) => this.handleDeadline(payload),
      });
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const key = `${this.progress?.status}:${this.progress?.step_index}:${this.view?.focusKey}:${this.setAside}`;
    if (key !== this.focusKey) {
      const first = this.focusKey === '';
      this.focusKey = key;
      // Move focus to the new screen's heading so keyboard and screen reader users start at its top.
      if (!first) this.renderRoot.querySelector<HTMLElement>('[data-focus]')?.focus();
      // The ending is shorter than the screen before it: tell the host now, so its frame shrinks with it.
      if (!first) this.handleResize();
    }
  }

  /**
   * A page loaded for a decision that is already over tells the host at once, as a fatal `svc:error`:
   * `decision_expired` (after `svc:deadline` at T-0, as a live page would have said) or `decision_completed`.
   */
  private postEnded(status: PageStatus, deadlineAt: string): void {
    if (status === 'expired') {
      this.post('svc:deadline', { remaining_seconds: 0, level: 'expired', deadline_at: deadlineAt });
      this.postFatal('decision_expired', 'This decision has expired.');
      return;
    }
    this.postFatal('decision_completed', `This decision is already ${status}: create a new decision to ask again.`);
  }

  /** A fatal `svc:error`: this decision cannot go on, so the host's way out is a new decision. */
  private postFatal(code: string, message: string): void {
    this.post('svc:error', { code, message, fatal: true, recoverable_via: 'new_decision' });
  }

  /** Posts a protocol message through the frame port (redirect mode has no window to post to). */
  private post(type: Parameters<FramePort['post']>[0], payload: unknown): void {
    try {
      (this.port?.post as (t: string, p: unknown) => boolean | undefined)?.(type, payload);
    } catch (error) {
      console.warn('[svc] message not posted', type, error);
    }
  }

  private queueDrop(reason: PostMessageDroppedMetric['labels']['reason']): void {
    const queued = this.pendingDrops.size > 0;
    this.pendingDrops.set(reason, (this.pendingDrops.get(reason) ?? 0) + 1);
    if (queued) return;
    // Batched: one report per burst of messages.
    setTimeout(() => {
      for (const [r, count] of this.pendingDrops) reportDrops(this.data!.api, r, count);
      this.pendingDrops.clear();
    }, 0);
  }

  private handleResize(): void {
    const height = Math.ceil(this.getBoundingClientRect().height);
    if (height === this.lastHeight) return;
    this.lastHeight = height;
    this.post('svc:resize', { height });
  }

  private handleDeadline(payload: { remaining_seconds: number; level: 'warning' | 'expired'; deadline_at: string }): void {
    this.post('svc:deadline', payload);
    if (payload.level === 'warning') {
      this.remaining = payload.remaining_seconds;
      this.announcement = `${payload.remaining_seconds} seconds left to decide.`;
      return;
    }
    const progress = this.progress!;
    if (TERMINAL.has(progress.status)) return;
    const last = progress.total_steps - 1;
    this.post('svc:state', this.view!.statePayload(progress.status, 'expired', last, progress.total_steps));
    this.progress = { ...progress, status: 'expired', step_index: last };
    this.remaining = null;
    this.announcement = 'This request has expired.';
    // Said as an error too, as when the page is loaded late, so a host with no clock of its own knows it is over.
    this.postFatal('decision_expired', 'This decision has expired.');
  }

  /** What the kind's view may use of the page. */
  private pageHost(): PageHost {
    const page = this;
    return {
      get data() {
        return page.data!;
      },
      get progress() {
        return page.progress!;
      },
      get busy() {
        return page.busy;
      },
      get sandboxCode() {
        return page.sandboxCode;
      },
      act: (request, announce) => this.act(request, announce),
      submit: (event, build) => this.handleSubmit(event, build),
      field: (name) => this.field(name),
      showError: (message) => {
        this.error = message;
      },
      requestUpdate: () => this.requestUpdate(),
    };
  }

  private endingOf(status: PageStatus): Ending | undefined {
    return this.view!.endings[status] ?? endings[status];
  }

  private async handleHostCancel(reason: string): Promise<void> {
    if (TERMINAL.has(this.progress!.status) || this.setAside) return;
    if (this.view!.cancellable === false) {
      this.putAside('host');
      return;
    }
    await this.act({ action: 'cancel', cancelled_by: 'host', reason: reason.slice(0, 200) }, 'The site cancelled this request.');
  }

  /** "Decide later" on a decision that stays open until its deadline: leave it as it is and say the link still works. */
  private putAside(by: 'user' | 'host'): void {
    this.clock?.cancel();
    this.setAside = true;
    this.remaining = null;
    this.error = null;
    if (by === 'user') this.post('svc:cancel', { reason: 'user_cancelled', cancelled_by: 'user' });
    this.announcement = 'Nothing was recorded. You can come back to this link later.';
  }

  private decideLater(): void {
    if (this.view!.cancellable === false) this.putAside('user');
    else void this.act({ action: 'cancel', cancelled_by: 'user', reason: 'user_cancelled' }, 'Cancelled.');
  }

  /** Sends one step to the server, then tells the host what changed. */
  private async act(request: TransitionRequest, announce?: string): Promise<TransitionResult | undefined> {
    if (this.busy) return undefined;
    this.busy = true;
    this.error = null;
    let result: TransitionResult;
    try {
      result = await sendTransition(this.data!.api, { ...request, step_index: this.progress!.step_index });
    } catch (error) {
      this.handleError(error);
      return undefined;
    } finally {
      this.busy = false;
    }
    const data = this.data!;
    this.progress = result.progress;
    if (result.sandbox_code) this.sandboxCode = result.sandbox_code;
    if (result.transition) {
      const { from, to, step_index, total_steps } = result.transition;
      this.post('svc:state', this.view!.statePayload(from, to, step_index, total_steps));
    }
    if (result.completion) {
      this.clock?.cancel();
      this.post('svc:complete', result.completion);
    }
    if (request.action === 'cancel' && request.cancelled_by === 'user') {
      this.clock?.cancel();
      this.post('svc:cancel', { reason: request.reason ?? 'user_cancelled', cancelled_by: 'user' });
    }
    this.announcement =
      announce ?? (TERMINAL.has(result.progress.status) ? this.endingOf(result.progress.status)!.title : stepAnnouncement(this.view!));
    // Opened from the inbox, the page stays to offer the way back there.
    if (TERMINAL.has(result.progress.status) && data.mode === 'redirect' && !data.return_to) this.leave(result.progress.status);
    return result;
  }

  private handleError(error: unknown): void {
    const e = error instanceof ParticipantError ? error : new ParticipantError('unexpected_error', String(error), 0);
    // Mistakes a person can fix are shown on the screen; only failures are the host's business.
    const local = ['wrong_code', 'wrong_answer', 'code_required', 'email_required', 'required_purpose_missing', 'validation_failed'];
    this.error = e.message;
    if (local.includes(e.code)) return;
    const fatal = ['decision_expired', 'decision_completed', 'not_found'].includes(e.code);
    if (fatal) this.postFatal(e.code, e.message);
    else this.post('svc:error', { code: e.code, message: e.message, fatal, recoverable_via: 'retry' });
    if (e.code === 'decision_expired') {
      this.progress = { ...this.progress!, status: 'expired', step_index: this.progress!.total_steps - 1 };
    }
  }

  /** Redirect mode: back to the site, with no parameters added on success and `error=access_denied` otherwise. */
  private leave(status: PageStatus): void {
    const data = this.data!;
    const target = status === this.view!.success ? data.redirect_uri : data.redirect_uri_denied;
    if (target) setTimeout(() => window.location.assign(target), 600);
  }

  private handleSubmit(event: SubmitEvent, request: () => TransitionRequest | undefined): void {
    event.preventDefault();
    const built = request();
    if (built) void this.act(built);
  }

  private field(name: string): string {
    return this.renderRoot.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`)?.value.trim() ?? '';
  }

  // Rendering

  /** "Back to inbox", when the page was opened from the inbox (a same-origin path the server checked). */
  private renderBackToInbox(): TemplateResult | typeof nothing {
    const to = this.data!.return_to;
    return to ? html`<div class="actions"><a class="button primary" href=${to}>Back to inbox</a></div>` : nothing;
  }

  private renderSetAside(): TemplateResult {
    const data = this.data!;
    const until = new Date(data.deadline_at);
    return html`
      <h2 id="screen-title" tabindex="-1" data-focus>Nothing was recorded yet</h2>
      <p>You can come back to this link until <time datetime=${data.deadline_at}>${until.toUTCString()}</time> to decide.</p>
      ${
        data.return_to
          ? this.renderBackToInbox()
          : data.mode === 'popup'
            ? html`<p>You can close this window.</p><div class="actions"><button type="button" @click=${() => window.close()}>Close window</button></div>`
            : data.mode === 'redirect'
              ? html`<p>You can close this page.</p>`
              : nothing
      }`;
  }

  private renderEnding(status: PageStatus): TemplateResult {
    const data = this.data!;
    const ending = this.endingOf(status) ?? { title: status, text: '' };
    const back = status === this.view!.success ? data.redirect_uri : data.redirect_uri_denied;
    return html`
      <section aria-labelledby="screen-title">
        <h2 id="screen-title" tabindex="-1" data-focus>${ending.title}</h2>
        <p>${ending.text}</p>
        ${
          data.return_to
            ? this.renderBackToInbox()
            : data.mode === 'redirect' && back
              ? html`<p><a href=${back}>Return to the site</a></p>`
              : data.mode === 'popup'
                ? html`<p>You can close this window.</p><div class="actions"><button type="button" @click=${() => window.close()}>Close window</button></div>`
                : nothing
        }
      </section>`;
  }

  protected override render(): TemplateResult {
    const data = this.data;
    const progress = this.progress;
    const view = this.view;
    if (!data || !progress || !view) {
      return html`<main class="base"><h1>Something went wrong</h1><p>This page could not read its decision. Reload it, or ask the site for a new link.</p></main>`;
    }
    const terminal = TERMINAL.has(progress.status) || this.setAside;
    const title = view.title;
    const step = terminal ? null : view.stepLabel();
    return html`
      <main class="base ${data.mode === 'embed' ? 'frame' : ''}" aria-label=${`${title} · ${data.branding.name}`} aria-busy=${this.busy ? 'true' : 'false'}>
        <header>
          <p class="brand">${data.branding.name}</p>
          <h1>${title}</h1>
          ${step ? html`<p class="progress">${step}</p>` : nothing}
          ${this.remaining !== null && !terminal ? html`<p class="deadline">${this.remaining} seconds left</p>` : nothing}
        </header>
        <section aria-labelledby="screen-title">
          ${this.setAside ? this.renderSetAside() : terminal ? this.renderEnding(progress.status) : view.render()}
        </section>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        ${
          !terminal
            ? html`<div class="actions"><button type="button" class="link" ?disabled=${this.busy}
              @click=${() => this.decideLater()}>Decide later</button></div>`
            : nothing
        }
        <p class="sr-only" role="status" aria-live="polite">${this.announcement}</p>
      </main>`;
  }
}
