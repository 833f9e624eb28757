// The "is it you?" code step the approval and signing views share: the 6-digit code sent to the addressee's email
// (shown on the page in the sandbox only), checked with `verify`, or sent again.
import { html, nothing, type TemplateResult } from 'lit';
import type { PageHost } from './kind-view.js';

/** The code's explanation and form, for the code sent to `email`. */
export function codeForm(host: PageHost, email: string): TemplateResult {
  return html`
    <p>Enter the 6-digit code we sent to <strong>${email}</strong>.</p>
    ${host.sandboxCode ? html`<p class="sandbox">Sandbox: no email was sent. Your code is <code>${host.sandboxCode}</code></p>` : nothing}
    <form @submit=${(e: SubmitEvent) => host.submit(e, () => ({ action: 'verify', code: host.field('code') }))}>
      <div class="field">
        <label for="code">Code</label>
        <input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required>
      </div>
      <div class="actions">
        <button class="primary" ?disabled=${host.busy}>Verify</button>
        <button type="button" ?disabled=${host.busy} @click=${() => void host.act({ action: 'send_code' }, 'A new code was sent.')}>Send a new code</button>
      </div>
    </form>`;
}
