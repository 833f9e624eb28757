// An approval on the hosted page: what is asked, answered approve, deny, or with a counter-proposal. One addressed to
// someone is answered only once this browser has shown it is them: their signed-in session, or the code step here.
import { html, nothing, type TemplateResult } from 'lit';
import type { ApprovalPagePart, PageStatus } from '../page-data.js';
import { codeForm } from './code-form.js';
import { counterForm } from './counter-form.js';
import type { KindView, PageHost } from './kind-view.js';

export class ApprovalView implements KindView {
  readonly title = 'Approval requested';
  readonly success = 'approved';
  readonly endings = {
    approved: { title: 'Approved', text: 'Your approval is recorded.' },
    denied: { title: 'Denied', text: 'Your refusal is recorded.' },
    countered: { title: 'Counter-proposal sent', text: 'Your counter-proposal is recorded.' },
  };

  private countering = false;

  constructor(
    private readonly host: PageHost,
    private readonly part: ApprovalPagePart,
  ) {}

  get focusKey(): string {
    return String(this.countering);
  }

  stepLabel(): null {
    return null;
  }

  statePayload(from: PageStatus, to: PageStatus): unknown {
    const outcome = this.host.progress.outcome;
    return { from, to, kind_payload: { escalation_id: this.part.escalation_id, ...(outcome ? { outcome } : {}) } };
  }

  private setCountering(countering: boolean): void {
    this.countering = countering;
    this.host.showError(null);
    this.host.requestUpdate();
  }

  render(): TemplateResult {
    const host = this.host;
    const approval = this.part;
    if (this.countering) {
      return html`
        <h2 id="screen-title" tabindex="-1" data-focus>Make a counter-proposal</h2>
        ${counterForm(host, 'Say what you would approve instead (at most 1000 characters).', () => this.setCountering(false))}`;
    }
    return html`
      <h2 id="screen-title" tabindex="-1" data-focus>What is asked</h2>
      <dl>
        ${
          approval.agent
            ? html`
          <dt>Asked by</dt><dd>${approval.agent.name} (an AI agent acting for you)</dd>
          <dt>Action</dt><dd>${approval.agent.description} (${approval.agent.action})</dd>
          ${approval.agent.amount ? html`<dt>Amount</dt><dd>${approval.agent.amount}</dd>` : nothing}
          ${approval.agent.jurisdiction ? html`<dt>Where</dt><dd>${approval.agent.jurisdiction}</dd>` : nothing}
          <dt>Why you are asked</dt><dd>${approval.agent.reason}</dd>`
            : nothing
        }
        ${approval.state ? html`<dt>Action</dt><dd>${approval.state}</dd>` : nothing}
        ${approval.scope ? html`<dt>Permission</dt><dd>${approval.scope}</dd>` : nothing}
        <dt>Reference</dt><dd>${approval.escalation_id}</dd>
        ${approval.meeting_id ? html`<dt>Meeting</dt><dd>${approval.meeting_id}</dd>` : nothing}
      </dl>
      ${
        this.confirming
          ? this.renderConfirm()
          : html`<div class="actions">
        <button type="button" class="primary" ?disabled=${host.busy} @click=${() => void host.act({ action: 'approve' })}>Approve</button>
        <button type="button" ?disabled=${host.busy} @click=${() => void host.act({ action: 'deny' })}>Deny</button>
        <button type="button" ?disabled=${host.busy} @click=${() => this.setCountering(true)}>Counter…</button>
      </div>`
      }`;
  }

  /** Addressed to someone this browser has not shown to be: they confirm it is them before any answer. */
  private get confirming(): boolean {
    const addressee = this.host.data.addressee;
    return addressee !== null && !addressee.proven && this.host.progress.status !== 'reviewing';
  }

  private renderConfirm(): TemplateResult {
    const host = this.host;
    const addressee = host.data.addressee!;
    return html`
      <h3>Confirm it is you</h3>
      ${
        addressee.signed_in_as
          ? html`<p role="note">You are signed in as <strong>${addressee.signed_in_as}</strong>. This request is for
        <strong>${addressee.email}</strong>: only they can answer it.</p>`
          : nothing
      }
      ${
        host.progress.status === 'verifying'
          ? codeForm(host, addressee.email)
          : html`
        <p id="confirm-hint">Only <strong>${addressee.email}</strong> can answer this request. We send a 6-digit code to that address to confirm it is you.</p>
        <div class="actions">
          <button type="button" class="primary" aria-describedby="confirm-hint" ?disabled=${host.busy}
            @click=${() => void host.act({ action: 'send_code' }, 'A code was sent.')}>Email me a code</button>
        </div>`
      }`;
  }
}
