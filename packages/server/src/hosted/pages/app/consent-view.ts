// A consent decision on the hosted page: the flow's screens in order, ending in the person's choices per purpose.
import { html, nothing, type TemplateResult } from 'lit';
import type { ConsentPagePart, PagePurpose, PageStatus, Screen } from '../page-data.js';
import type { KindView, PageHost } from './kind-view.js';

const basisLabel: Record<PagePurpose['basis'], string> = {
  consent: 'Your consent',
  legitimate_interest: 'Legitimate interest',
  contract: 'Needed for the service you asked for',
  legal_obligation: 'Required by law',
};

export class ConsentView implements KindView {
  readonly title: string;
  readonly focusKey = '';
  readonly success = 'fulfilled';
  readonly endings = {
    fulfilled: { title: 'Thank you', text: 'Your choices are recorded.' },
    declined: { title: 'You declined', text: 'Nothing was shared. Your answer is recorded.' },
  };

  private granted = new Set<string>();
  private objected = new Set<string>();
  private answer: number | null = null;

  constructor(
    private readonly host: PageHost,
    private readonly part: ConsentPagePart,
  ) {
    this.title = part.title;
  }

  stepLabel(): string {
    return `Step ${this.host.progress.step_index + 1} of ${this.part.screens.length}`;
  }

  statePayload(from: PageStatus, to: PageStatus, stepIndex: number, totalSteps: number): unknown {
    return { from, to, step_index: stepIndex, total_steps: totalSteps };
  }

  render(): TemplateResult | typeof nothing {
    const screen = this.part.screens[this.host.progress.step_index];
    return screen ? this.renderScreen(screen) : nothing;
  }

  private togglePurpose(set: Set<string>, key: string, event: Event): void {
    if ((event.target as HTMLInputElement).checked) set.add(key);
    else set.delete(key);
  }

  private agree(): void {
    const missing = this.part.purposes.filter((p) => p.basis === 'consent' && p.required && !this.granted.has(p.key));
    if (missing.length) {
      this.host.showError(`To continue, tick ${missing.map((p) => `"${p.label}"`).join(', ')}, or decline.`);
      return;
    }
    void this.host.act({ action: 'agree', granted: [...this.granted], objected: [...this.objected] });
  }

  private choose(index: number): void {
    this.answer = index;
    this.host.requestUpdate();
  }

  private renderPurposes(interactive: boolean): TemplateResult {
    const purposes = this.part.purposes;
    if (!interactive) {
      return html`<ul class="purposes" aria-label="What this is about">${purposes.map(
        (p) => html`<li>
        <span class="purpose__label">${p.label}</span>
        ${p.description ? html`<span class="purpose__description">${p.description}</span>` : nothing}
        <span class="purpose__basis">${basisLabel[p.basis]}</span></li>`,
      )}</ul>`;
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
      ${
        noticed.length
          ? html`<p class="hint">We also use your data for:</p>
          <ul class="purposes" aria-label="Other purposes">${noticed.map((p) => html`<li><span class="purpose__label">${p.label}</span>${p.description ? html`<span class="purpose__description">${p.description}</span>` : nothing}<span class="purpose__basis">${basisLabel[p.basis]}</span></li>`)}</ul>`
          : nothing
      }`;
  }

  private renderScreen(screen: Screen): TemplateResult {
    const host = this.host;
    const part = this.part;
    const heading = (text: string) => html`<h2 id="screen-title" tabindex="-1" data-focus>${text}</h2>`;
    const decline = html`<button type="button" ?disabled=${host.busy} @click=${() => void host.act({ action: 'decline' })}>Decline</button>`;
    switch (screen.type) {
      case 'intro':
        return html`
          ${heading(`${host.data.branding.name} asks for your consent`)}
          ${part.description ? html`<p>${part.description}</p>` : nothing}
          ${this.renderPurposes(false)}
          <div class="actions">
            <button type="button" class="primary" ?disabled=${host.busy} @click=${() => void host.act({ action: 'begin' })}>Continue</button>
            ${decline}
          </div>`;
      case 'sign_in':
        return html`
          ${heading(screen.title ?? 'Sign in with your email')}
          <form @submit=${(e: SubmitEvent) => host.submit(e, () => ({ action: 'sign_in', email: host.field('email') }))}>
            <div class="field">
              <label for="email">Email address</label>
              <input id="email" name="email" type="email" autocomplete="email" required aria-describedby="email-hint">
              <span class="hint" id="email-hint">Sandbox: no email is sent; your code is shown on the next screen.</span>
            </div>
            <div class="actions"><button class="primary" ?disabled=${host.busy}>Continue</button>${decline}</div>
          </form>`;
      case 'verify': {
        const email = host.progress.subject_email;
        return html`
          ${heading(screen.title ?? 'Confirm it is you')}
          ${
            email
              ? html`<p>Enter the 6-digit code we sent to <strong>${email}</strong>.</p>`
              : html`<form @submit=${(e: SubmitEvent) => host.submit(e, () => ({ action: 'send_code', email: host.field('email') }))}>
                <div class="field"><label for="email">Email address</label><input id="email" name="email" type="email" autocomplete="email" required></div>
                <div class="actions"><button ?disabled=${host.busy}>Send code</button></div></form>`
          }
          ${host.sandboxCode ? html`<p class="sandbox">Sandbox: no email was sent. Your code is <code>${host.sandboxCode}</code></p>` : nothing}
          <form @submit=${(e: SubmitEvent) => host.submit(e, () => ({ action: 'verify', code: host.field('code') }))}>
            <div class="field">
              <label for="code">Code</label>
              <input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required>
            </div>
            <div class="actions">
              <button class="primary" ?disabled=${host.busy}>Verify</button>
              ${email ? html`<button type="button" ?disabled=${host.busy} @click=${() => void host.act({ action: 'send_code' }, 'A new code was sent.')}>Send a new code</button>` : nothing}
              ${decline}
            </div>
          </form>`;
      }
      case 'disclosure':
        return html`
          ${heading(screen.title)}
          <p class="disclosure">${screen.body}</p>
          <div class="actions">
            <button type="button" class="primary" ?disabled=${host.busy} @click=${() => void host.act({ action: 'acknowledge' })}>I have read this</button>
            ${decline}
          </div>`;
      case 'comprehension_check':
        return html`
          ${heading('Check your understanding')}
          <form @submit=${(e: SubmitEvent) =>
            host.submit(e, () => {
              if (this.answer === null) {
                host.showError('Choose an answer.');
                return undefined;
              }
              return { action: 'answer', answer: this.answer };
            })}>
            <fieldset>
              <legend>${screen.question}</legend>
              ${screen.choices.map(
                (choice, index) => html`
                <div class="check">
                  <input type="radio" id="choice-${index}" name="answer" .value=${String(index)} ?checked=${this.answer === index}
                    @change=${() => this.choose(index)}>
                  <label for="choice-${index}">${choice}</label>
                </div>`,
              )}
            </fieldset>
            <div class="actions"><button class="primary" ?disabled=${host.busy}>Check answer</button>${decline}</div>
          </form>`;
      case 'review':
      case 'confirm':
        return html`
          ${heading(screen.type === 'review' ? (screen.title ?? 'Review and decide') : 'Give your consent')}
          <p>Tick what you agree to. Nothing is ticked for you.</p>
          ${this.renderPurposes(true)}
          ${part.policy_url ? html`<p><a href=${part.policy_url} target="_blank" rel="noopener noreferrer">Read the privacy policy</a></p>` : nothing}
          <div class="actions">
            <button type="button" class="primary" ?disabled=${host.busy} @click=${() => this.agree()}>Agree</button>
            ${decline}
          </div>`;
    }
  }
}
