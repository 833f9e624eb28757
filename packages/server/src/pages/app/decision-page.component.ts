import { createDeadlineClock, createFramePort, type DeadlineClock, type FramePort, type PostMessageDroppedMetric } from '@svc/protocol';
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import type { PageData, PagePurpose, PageProgress, PageStatus, Screen, TransitionRequest, TransitionResult } from '../page-data.js';
import { decisionPageStyles } from './decision-page.styles.js';
import { ParticipantError, reportDrops, sendTransition } from './participant-client.js';

const TERMINAL = new Set<PageStatus>(['fulfilled', 'declined', 'approved', 'denied', 'countered', 'cancelled', 'expired']);

const basisLabel: Record<PagePurpose['basis'], string> = {
  consent: 'Your consent',
  legitimate_interest: 'Legitimate interest',
  contract: 'Needed for the service you asked for',
  legal_obligation: 'Required by law',
};

const endings: Record<string, { title: string; text: string }> = {
  fulfilled: { title: 'Thank you', text: 'Your choices are recorded.' },
  declined: { title: 'You declined', text: 'Nothing was shared. Your answer is recorded.' },
  approved: { title: 'Approved', text: 'Your approval is recorded.' },
  denied: { title: 'Denied', text: 'Your refusal is recorded.' },
  countered: { title: 'Counter-proposal sent', text: 'Your counter-proposal is recorded.' },
  cancelled: { title: 'Cancelled', text: 'No decision was recorded.' },
  expired: { title: 'This request has expired', text: 'Ask the site that sent you here to start again.' },
};

/**
 * The hosted decision page: walks a consent decision through its screens (or shows an approval), moving it only
 * through the participant API, and tells the host page about every step with protocol v2 messages posted to the
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
  @state() private answer: number | null = null;
  @state() private countering = false;
  @state() private remaining: number | null = null;

  private granted = new Set<string>();
  private objected = new Set<string>();
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
    if (!TERMINAL.has(this.progress!.status)) {
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
    const key = `${this.progress?.status}:${this.progress?.step_index}:${this.countering}`;
    if (key !== this.focusKey) {
      const first = this.focusKey === '';
      this.focusKey = key;
      // Move focus to the new screen's heading so keyboard and screen reader users start at its top.
      if (!first) this.renderRoot.querySelector<HTMLElement>('[data-focus]')?.focus();
    }
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
    this.post('svc:state', this.statePayload(progress.status, 'expired', last, progress.total_steps));
    this.progress = { ...progress, status: 'expired', step_index: last };
    this.remaining = null;
    this.announcement = 'This request has expired.';
  }

  private statePayload(from: PageStatus, to: PageStatus, stepIndex: number, totalSteps: number): unknown {
    const data = this.data!;
    if (data.kind === 'consent') return { from, to, step_index: stepIndex, total_steps: totalSteps };
    return {
      from,
      to,
      kind_payload: {
        escalation_id: data.approval?.escalation_id,
        ...(this.progress?.outcome ? { outcome: this.progress.outcome } : {}),
      },
    };
  }

  private async handleHostCancel(reason: string): Promise<void> {
    if (TERMINAL.has(this.progress!.status)) return;
    await this.act({ action: 'cancel', cancelled_by: 'host', reason: reason.slice(0, 200) }, 'The site cancelled this request.');
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
      this.post('svc:state', this.statePayload(from, to, step_index, total_steps));
    }
    if (result.completion) {
      this.clock?.cancel();
      this.post('svc:complete', result.completion);
    }
    if (request.action === 'cancel' && request.cancelled_by === 'user') {
      this.clock?.cancel();
      this.post('svc:cancel', { reason: request.reason ?? 'user_cancelled', cancelled_by: 'user' });
    }
    this.announcement = announce ?? (TERMINAL.has(result.progress.status) ? endings[result.progress.status]!.title : `Step ${result.progress.step_index + 1} of ${result.progress.total_steps}.`);
    if (TERMINAL.has(result.progress.status) && data.mode === 'redirect') this.leave(result.progress.status);
    return result;
  }

  private handleError(error: unknown): void {
    const e = error instanceof ParticipantError ? error : new ParticipantError('unexpected_error', String(error), 0);
    // Mistakes a person can fix are shown on the screen; only failures are the host's business.
    const local = ['wrong_code', 'wrong_answer', 'code_required', 'email_required', 'required_purpose_missing', 'validation_failed'];
    this.error = e.message;
    if (local.includes(e.code)) return;
    const fatal = ['decision_expired', 'decision_completed', 'not_found'].includes(e.code);
    this.post('svc:error', { code: e.code, message: e.message, fatal, recoverable_via: fatal ? null : 'retry' });
    if (e.code === 'decision_expired') {
      this.progress = { ...this.progress!, status: 'expired', step_index: this.progress!.total_steps - 1 };
    }
  }

  /** Redirect mode: back to the site, with no parameters added on success and `error=access_denied` otherwise. */
  private leave(status: PageStatus): void {
    const data = this.data!;
    const target = status === 'fulfilled' || status === 'approved' ? data.redirect_uri : data.redirect_uri_denied;
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

  private togglePurpose(set: Set<string>, key: string, event: Event): void {
    if ((event.target as HTMLInputElement).checked) set.add(key);
    else set.delete(key);
  }

  private agree(): void {
    const missing = this.data!.consent!.purposes.filter((p) => p.basis === 'consent' && p.required && !this.granted.has(p.key));
    if (missing.length) {
      this.error = `To continue, tick ${missing.map((p) => `"${p.label}"`).join(', ')}, or decline.`;
      return;
    }
    void this.act({ action: 'agree', granted: [...this.granted], objected: [...this.objected] });
  }

  // Rendering

  private renderEnding(status: PageStatus): TemplateResult {
    const data = this.data!;
    const ending = endings[status] ?? { title: status, text: '' };
    const back = status === 'fulfilled' || status === 'approved' ? data.redirect_uri : data.redirect_uri_denied;
    return html`
      <section aria-labelledby="screen-title">
        <h2 id="screen-title" tabindex="-1" data-focus>${ending.title}</h2>
        <p>${ending.text}</p>
        ${data.mode === 'redirect' && back
          ? html`<p><a href=${back}>Return to the site</a></p>`
          : data.mode === 'popup'
            ? html`<p>You can close this window.</p><div class="actions"><button type="button" @click=${() => window.close()}>Close window</button></div>`
            : nothing}
      </section>`;
  }

  private renderPurposes(interactive: boolean): TemplateResult {
    const purposes = this.data!.consent!.purposes;
    if (!interactive) {
      return html`<ul class="purposes" aria-label="What this is about">${purposes.map((p) => html`<li>
        <span class="purpose__label">${p.label}</span>
        ${p.description ? html`<span class="purpose__description">${p.description}</span>` : nothing}
        <span class="purpose__basis">${basisLabel[p.basis]}</span></li>`)}</ul>`;
    }
    const asked = purposes.filter((p) => p.basis === 'consent' || p.mechanism === 'opt_out');
    const noticed = purposes.filter((p) => p.basis !== 'consent' && p.mechanism !== 'opt_out');
    const item = (p: PagePurpose) => {
      const id = `purpose-${p.key}`;
      const description = p.description ? html`<span class="purpose__description" id="${id}-description">${p.description}</span>` : nothing;
      if (p.basis === 'consent') {
        return html`<li><div class="check">
          <input type="checkbox" id=${id} name=${id} aria-describedby="${id}-description" ?checked=${this.granted.has(p.key)}
            @change=${(e: Event) => this.togglePurpose(this.granted, p.key, e)}>
          <label for=${id}>${p.label}${p.required ? ' (required to continue)' : ''}${description}</label>
        </div></li>`;
      }
      return html`<li><div class="check">
        <input type="checkbox" id=${id} name=${id} aria-describedby="${id}-description" ?checked=${this.objected.has(p.key)}
          @change=${(e: Event) => this.togglePurpose(this.objected, p.key, e)}>
        <label for=${id}>I object to: ${p.label}${description}</label>
      </div><span class="purpose__basis">${basisLabel[p.basis]}; you may object</span></li>`;
    };
    return html`
      ${asked.length ? html`<ul class="purposes" aria-label="Your choices">${asked.map(item)}</ul>` : nothing}
      ${noticed.length
        ? html`<p class="hint">We also use your data for:</p>
          <ul class="purposes" aria-label="Other purposes">${noticed.map((p) => html`<li><span class="purpose__label">${p.label}</span>${p.description ? html`<span class="purpose__description">${p.description}</span>` : nothing}<span class="purpose__basis">${basisLabel[p.basis]}</span></li>`)}</ul>`
        : nothing}`;
  }

  private renderScreen(screen: Screen): TemplateResult {
    const data = this.data!;
    const consent = data.consent!;
    const heading = (text: string) => html`<h2 id="screen-title" tabindex="-1" data-focus>${text}</h2>`;
    const decline = html`<button type="button" ?disabled=${this.busy} @click=${() => void this.act({ action: 'decline' })}>Decline</button>`;
    switch (screen.type) {
      case 'intro':
        return html`
          ${heading(`${data.branding.name} asks for your consent`)}
          ${consent.description ? html`<p>${consent.description}</p>` : nothing}
          ${this.renderPurposes(false)}
          <div class="actions">
            <button type="button" class="primary" ?disabled=${this.busy} @click=${() => void this.act({ action: 'begin' })}>Continue</button>
            ${decline}
          </div>`;
      case 'sign_in':
        return html`
          ${heading(screen.title ?? 'Sign in with your email')}
          <form @submit=${(e: SubmitEvent) => this.handleSubmit(e, () => ({ action: 'sign_in', email: this.field('email') }))}>
            <div class="field">
              <label for="email">Email address</label>
              <input id="email" name="email" type="email" autocomplete="email" required aria-describedby="email-hint">
              <span class="hint" id="email-hint">Sandbox: no email is sent; your code is shown on the next screen.</span>
            </div>
            <div class="actions"><button class="primary" ?disabled=${this.busy}>Continue</button>${decline}</div>
          </form>`;
      case 'verify': {
        const email = this.progress!.subject_email;
        return html`
          ${heading(screen.title ?? 'Confirm it is you')}
          ${email
            ? html`<p>Enter the 6-digit code we sent to <strong>${email}</strong>.</p>`
            : html`<form @submit=${(e: SubmitEvent) => this.handleSubmit(e, () => ({ action: 'send_code', email: this.field('email') }))}>
                <div class="field"><label for="email">Email address</label><input id="email" name="email" type="email" autocomplete="email" required></div>
                <div class="actions"><button ?disabled=${this.busy}>Send code</button></div></form>`}
          ${this.sandboxCode ? html`<p class="sandbox">Sandbox: no email was sent. Your code is <code>${this.sandboxCode}</code></p>` : nothing}
          <form @submit=${(e: SubmitEvent) => this.handleSubmit(e, () => ({ action: 'verify', code: this.field('code') }))}>
            <div class="field">
              <label for="code">Code</label>
              <input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required>
            </div>
            <div class="actions">
              <button class="primary" ?disabled=${this.busy}>Verify</button>
              ${email ? html`<button type="button" ?disabled=${this.busy} @click=${() => void this.act({ action: 'send_code' }, 'A new code was sent.')}>Send a new code</button>` : nothing}
              ${decline}
            </div>
          </form>`;
      }
      case 'disclosure':
        return html`
          ${heading(screen.title)}
          <p class="disclosure">${screen.body}</p>
          <div class="actions">
            <button type="button" class="primary" ?disabled=${this.busy} @click=${() => void this.act({ action: 'acknowledge' })}>I have read this</button>
            ${decline}
          </div>`;
      case 'comprehension_check':
        return html`
          ${heading('Check your understanding')}
          <form @submit=${(e: SubmitEvent) => this.handleSubmit(e, () => {
            if (this.answer === null) {
              this.error = 'Choose an answer.';
              return undefined;
            }
            return { action: 'answer', answer: this.answer };
          })}>
            <fieldset>
              <legend>${screen.question}</legend>
              ${screen.choices.map((choice, index) => html`
                <div class="check">
                  <input type="radio" id="choice-${index}" name="answer" .value=${String(index)} ?checked=${this.answer === index}
                    @change=${() => { this.answer = index; }}>
                  <label for="choice-${index}">${choice}</label>
                </div>`)}
            </fieldset>
            <div class="actions"><button class="primary" ?disabled=${this.busy}>Check answer</button>${decline}</div>
          </form>`;
      case 'review':
      case 'confirm':
        return html`
          ${heading(screen.type === 'review' ? (screen.title ?? 'Review and decide') : 'Give your consent')}
          <p>Tick what you agree to. Nothing is ticked for you.</p>
          ${this.renderPurposes(true)}
          ${consent.policy_url ? html`<p><a href=${consent.policy_url} target="_blank" rel="noopener noreferrer">Read the privacy policy</a></p>` : nothing}
          <div class="actions">
            <button type="button" class="primary" ?disabled=${this.busy} @click=${() => this.agree()}>Agree</button>
            ${decline}
          </div>`;
    }
  }

  private renderApproval(): TemplateResult {
    const approval = this.data!.approval!;
    if (this.countering) {
      return html`
        <h2 id="screen-title" tabindex="-1" data-focus>Make a counter-proposal</h2>
        <form @submit=${(e: SubmitEvent) => this.handleSubmit(e, () => {
          const proposal = this.field('proposal');
          if (!proposal) {
            this.error = 'Write your counter-proposal first.';
            return undefined;
          }
          return { action: 'counter', proposal };
        })}>
          <div class="field">
            <label for="proposal">Your counter-proposal</label>
            <textarea id="proposal" name="proposal" maxlength="1000" required aria-describedby="proposal-hint"></textarea>
            <span class="hint" id="proposal-hint">Say what you would approve instead (at most 1000 characters).</span>
          </div>
          <div class="actions">
            <button class="primary" ?disabled=${this.busy}>Send counter-proposal</button>
            <button type="button" ?disabled=${this.busy} @click=${() => { this.countering = false; this.error = null; }}>Back</button>
          </div>
        </form>`;
    }
    return html`
      <h2 id="screen-title" tabindex="-1" data-focus>What is asked</h2>
      <dl>
        ${approval.agent ? html`
          <dt>Asked by</dt><dd>${approval.agent.name} (an AI agent acting for you)</dd>
          <dt>Action</dt><dd>${approval.agent.description} (${approval.agent.action})</dd>
          ${approval.agent.amount ? html`<dt>Amount</dt><dd>${approval.agent.amount}</dd>` : nothing}
          ${approval.agent.jurisdiction ? html`<dt>Where</dt><dd>${approval.agent.jurisdiction}</dd>` : nothing}
          <dt>Why you are asked</dt><dd>${approval.agent.reason}</dd>` : nothing}
        ${approval.state ? html`<dt>Action</dt><dd>${approval.state}</dd>` : nothing}
        ${approval.scope ? html`<dt>Permission</dt><dd>${approval.scope}</dd>` : nothing}
        <dt>Reference</dt><dd>${approval.escalation_id}</dd>
        ${approval.meeting_id ? html`<dt>Meeting</dt><dd>${approval.meeting_id}</dd>` : nothing}
      </dl>
      <div class="actions">
        <button type="button" class="primary" ?disabled=${this.busy} @click=${() => void this.act({ action: 'approve' })}>Approve</button>
        <button type="button" ?disabled=${this.busy} @click=${() => void this.act({ action: 'deny' })}>Deny</button>
        <button type="button" ?disabled=${this.busy} @click=${() => { this.countering = true; this.error = null; }}>Counter…</button>
      </div>`;
  }

  protected override render(): TemplateResult {
    const data = this.data;
    const progress = this.progress;
    if (!data || !progress) {
      return html`<main class="base"><h1>Something went wrong</h1><p>This page could not read its decision. Reload it, or ask the site for a new link.</p></main>`;
    }
    const terminal = TERMINAL.has(progress.status);
    const screen = data.consent?.screens[progress.step_index];
    const title = data.consent ? data.consent.title : 'Approval requested';
    const steps = data.consent ? data.consent.screens.length : 0;
    return html`
      <main class="base ${data.mode === 'embed' ? 'frame' : ''}" aria-label=${`${title} · ${data.branding.name}`} aria-busy=${this.busy ? 'true' : 'false'}>
        <header>
          <p class="brand">${data.branding.name}</p>
          <h1>${title}</h1>
          ${data.consent && !terminal ? html`<p class="progress">Step ${progress.step_index + 1} of ${steps}</p>` : nothing}
          ${this.remaining !== null && !terminal ? html`<p class="deadline">${this.remaining} seconds left</p>` : nothing}
        </header>
        <section aria-labelledby="screen-title">
          ${terminal ? this.renderEnding(progress.status) : data.consent && screen ? this.renderScreen(screen) : this.renderApproval()}
        </section>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        ${!terminal
          ? html`<div class="actions"><button type="button" class="link" ?disabled=${this.busy}
              @click=${() => void this.act({ action: 'cancel', cancelled_by: 'user', reason: 'user_cancelled' }, 'Cancelled.')}>Decide later</button></div>`
          : nothing}
        <p class="sr-only" role="status" aria-live="polite">${this.announcement}</p>
      </main>`;
  }
}
