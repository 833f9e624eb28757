// A signing session on the hosted page: the document to read (scrollable, with its SHA-256), the sign-in code sent to
// the party's own email, then "Type your full name to sign" with Sign, Decline… and Counter….
import { html, nothing, type TemplateResult } from 'lit';
import type { PageStatus, SignaturePagePart } from '../page-data.js';
import { codeForm } from './code-form.js';
import { counterForm } from './counter-form.js';
import type { KindView, PageHost } from './kind-view.js';

/** What the last screen shows: the signature form, or the decline or counter-proposal form instead of it. */
type Answer = 'sign' | 'decline' | 'counter';

export class SignatureView implements KindView {
  readonly title: string;
  readonly success = 'signed';
  readonly cancellable = false;
  readonly endings = {
    signed: { title: 'Signed', text: 'Your signature is recorded. The organisation that sent you this request is told.' },
    declined: { title: 'You declined to sign', text: 'Your answer is recorded.' },
    countered: { title: 'Counter-proposal sent', text: 'Your counter-proposal is recorded; the document stays unsigned by you.' },
  };

  private answer: Answer = 'sign';

  constructor(
    private readonly host: PageHost,
    private readonly part: SignaturePagePart,
  ) {
    this.title = part.title;
  }

  get focusKey(): string {
    return this.answer;
  }

  stepLabel(): string {
    return `Step ${this.host.progress.step_index + 1} of ${this.host.progress.total_steps - 1}`;
  }

  statePayload(from: PageStatus, to: PageStatus, stepIndex: number, totalSteps: number): unknown {
    const outcome = this.host.progress.outcome;
    return {
      from,
      to,
      kind_payload: {
        agreement_id: this.part.agreement_id,
        party_id: this.part.party.id,
        step_index: stepIndex,
        total_steps: totalSteps,
        ...(outcome ? { outcome } : {}),
      },
    };
  }

  render(): TemplateResult | typeof nothing {
    switch (this.host.progress.step_index) {
      case 0:
        return this.renderDocument();
      case 1:
        return this.renderCode();
      case 2:
        return this.answer === 'sign' ? this.renderSign() : this.answer === 'decline' ? this.renderDecline() : this.renderCounter();
      default:
        return nothing;
    }
  }

  private setAnswer(answer: Answer): void {
    this.answer = answer;
    this.host.showError(null);
    this.host.requestUpdate();
  }

  private country(code: string): string {
    try {
      const name = new Intl.DisplayNames([this.host.data.locale, 'en'], { type: 'region' }).of(code);
      return name && name !== code ? `${name} (${code})` : code;
    } catch {
      return code;
    }
  }

  private heading(text: string): TemplateResult {
    return html`<h2 id="screen-title" tabindex="-1" data-focus>${text}</h2>`;
  }

  /** The document as text (never markup) in a region keyboard users can scroll, and its digest. */
  private renderDocumentText(): TemplateResult {
    return html`
      <div class="document" id="document" role="region" aria-label=${`Document: ${this.part.title}`} tabindex="0">${this.part.document_text}</div>
      <dl>
        <dt>SHA-256</dt><dd><code class="digest" id="document-digest">${this.part.document_sha256}</code></dd>
      </dl>`;
  }

  private renderDocument(): TemplateResult {
    const { host, part } = this;
    const email = part.party.email;
    return html`
      ${this.heading('Read the document')}
      <p>${host.data.branding.name} asks you to sign this document.</p>
      ${this.renderDocumentText()}
      <dl>
        <dt>Signing as</dt><dd>${part.party.name ? html`${part.party.name}, ` : nothing}${email}</dd>
        <dt>Home country</dt><dd>${this.country(part.party.home_country)}</dd>
        <dt>Signatures</dt><dd>${part.signed_count} of the ${part.quorum} needed (${part.party_count} parties)</dd>
      </dl>
      <p class="hint" id="continue-hint">To sign, decline or propose changes, first confirm it is you with a code sent to ${email}.</p>
      <div class="actions">
        <button type="button" class="primary" aria-describedby="continue-hint" ?disabled=${host.busy}
          @click=${() => void host.act({ action: 'send_code' }, 'A code was sent.')}>Continue</button>
      </div>`;
  }

  private renderCode(): TemplateResult {
    return html`${this.heading('Confirm it is you')}${codeForm(this.host, this.part.party.email)}`;
  }

  private renderSign(): TemplateResult {
    const { host, part } = this;
    return html`
      ${this.heading('Sign the document')}
      <details>
        <summary>Show the document again</summary>
        ${this.renderDocumentText()}
      </details>
      <form @submit=${(e: SubmitEvent) =>
        host.submit(e, () => {
          const name = host.field('signed_name');
          if (!name) {
            host.showError('Type your full name to sign.');
            return undefined;
          }
          return { action: 'sign', name };
        })}>
        <div class="field">
          <label for="signed_name">Type your full name to sign</label>
          <input id="signed_name" name="signed_name" type="text" autocomplete="name" maxlength="200" required aria-describedby="sign-hint">
          <span class="hint" id="sign-hint">Typing your name and choosing Sign is your signature on the document whose SHA-256 is ${part.document_sha256}.</span>
        </div>
        <div class="actions">
          <button class="primary" ?disabled=${host.busy}>Sign</button>
          <button type="button" ?disabled=${host.busy} @click=${() => this.setAnswer('decline')}>Decline…</button>
          <button type="button" ?disabled=${host.busy} @click=${() => this.setAnswer('counter')}>Counter…</button>
        </div>
      </form>`;
  }

  private renderDecline(): TemplateResult {
    const host = this.host;
    return html`
      ${this.heading('Decline to sign')}
      <form @submit=${(e: SubmitEvent) =>
        host.submit(e, () => {
          const comment = host.field('comment');
          return comment ? { action: 'decline', comment } : { action: 'decline' };
        })}>
        <div class="field">
          <label for="comment">Why you decline (optional)</label>
          <textarea id="comment" name="comment" maxlength="1000" aria-describedby="comment-hint"></textarea>
          <span class="hint" id="comment-hint">The organisation sees your comment (at most 1000 characters).</span>
        </div>
        <div class="actions">
          <button class="primary" ?disabled=${host.busy}>Decline to sign</button>
          <button type="button" ?disabled=${host.busy} @click=${() => this.setAnswer('sign')}>Back</button>
        </div>
      </form>`;
  }

  private renderCounter(): TemplateResult {
    const host = this.host;
    return html`
      ${this.heading('Make a counter-proposal')}
      ${counterForm(host, 'Say what you would sign instead (at most 1000 characters). You do not sign this document.', () => this.setAnswer('sign'))}`;
  }
}
