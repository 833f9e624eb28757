import { html, LitElement, nothing, type TemplateResult } from 'lit';
import { decisionPageStyles } from '../../../hosted/pages/app/decision-page.styles.js';
import type { OAuthPageData } from '../page-data.js';

/**
 * The service's sign-in and consent page for OAuth: who is signing in (an email, then the code sent to it), then
 * what the application asks. Every step is a plain form that posts to the server, which keeps the state; this
 * element only renders it, in the decision pages' look.
 *
 * @summary Sign-in and consent of one OAuth authorization, rendered from the `svc-oauth-data` block.
 */
export class OAuthPage extends LitElement {
  static override styles = decisionPageStyles;

  private data?: OAuthPageData;

  override connectedCallback(): void {
    super.connectedCallback();
    try {
      this.data = JSON.parse(document.getElementById('svc-oauth-data')?.textContent ?? '') as OAuthPageData;
    } catch {
      this.data = undefined;
    }
  }

  protected override firstUpdated(): void {
    // The first field (or the heading on the consent screen) takes the focus, so a keyboard user starts there.
    (this.renderRoot.querySelector<HTMLElement>('input:not([type=hidden])') ?? this.renderRoot.querySelector<HTMLElement>('h1'))?.focus();
  }

  protected override render(): TemplateResult {
    const data = this.data;
    if (!data) return html`<main class="base"><h1>Sign-in cannot continue</h1><p>Go back to the application and start again.</p></main>`;
    const action = (step: string) => `/oauth/interaction/${encodeURIComponent(data.uid)}/${step}`;
    const error = data.error ? html`<p class="error" role="alert">${data.error}</p>` : nothing;
    let body: TemplateResult;
    if (data.step === 'email') {
      body = html`<h1 tabindex="-1">Sign in to continue to ${data.client_name}</h1>${error}
        <form method="post" action=${action('sign_in')}>
          <div class="field">
            <label for="email">Email address</label>
            <input id="email" name="email" type="email" autocomplete="email" required aria-describedby="email-hint">
            <span class="hint" id="email-hint">Sandbox: no email is sent; your code is shown on the next screen.</span>
          </div>
          <div class="actions"><button class="primary">Continue</button></div>
        </form>`;
    } else if (data.step === 'code') {
      body = html`<h1 tabindex="-1">Confirm it is you</h1>${error}
        <p>Enter the 6-digit code we sent to <strong>${data.email}</strong>.</p>
        ${data.sandbox_code ? html`<p class="sandbox">Sandbox: no email was sent. Your code is <code>${data.sandbox_code}</code></p>` : nothing}
        <form method="post" action=${action('verify')}>
          <div class="field">
            <label for="code">Code</label>
            <input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required>
          </div>
          <div class="actions"><button class="primary">Verify</button></div>
        </form>
        <form method="post" action=${action('sign_in')}>
          <input type="hidden" name="email" .value=${data.email ?? ''}>
          <button class="link">Send a new code</button>
        </form>`;
    } else {
      body = html`<h1 tabindex="-1">Allow ${data.client_name} to act for you?</h1>${error}
        <p>${data.client_name} asks to:</p>
        <ul class="purposes">${data.scopes.map(
          (scope) => html`<li><span class="purpose__label">${scope.description}</span>
          <span class="purpose__basis">${scope.name}</span></li>`,
        )}</ul>
        <p class="hint">You can take this back at any time; the application is told when you do.</p>
        <form method="post" action=${action('consent')}>
          <div class="actions">
            <button class="primary" name="decision" value="allow">Allow</button>
            <button name="decision" value="deny">Deny</button>
          </div>
        </form>`;
    }
    return html`<main class="base">${body}</main>`;
  }
}
