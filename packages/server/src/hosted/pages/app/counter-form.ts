// The counter-proposal form the approval and signing views share: the person says what they would accept instead.
import { html, type TemplateResult } from 'lit';
import type { PageHost } from './kind-view.js';

/** The form, with the kind's own hint and where "Back" returns to. */
export function counterForm(host: PageHost, hint: string, back: () => void): TemplateResult {
  return html`
    <form @submit=${(e: SubmitEvent) =>
      host.submit(e, () => {
        const proposal = host.field('proposal');
        if (!proposal) {
          host.showError('Write your counter-proposal first.');
          return undefined;
        }
        return { action: 'counter', proposal };
      })}>
      <div class="field">
        <label for="proposal">Your counter-proposal</label>
        <textarea id="proposal" name="proposal" maxlength="1000" required aria-describedby="proposal-hint"></textarea>
        <span class="hint" id="proposal-hint">${hint}</span>
      </div>
      <div class="actions">
        <button class="primary" ?disabled=${host.busy}>Send counter-proposal</button>
        <button type="button" ?disabled=${host.busy} @click=${back}>Back</button>
      </div>
    </form>`;
}
