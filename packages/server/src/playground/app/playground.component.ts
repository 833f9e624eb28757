import { createHostChannel, type HostChannel, type SvcMessage } from '@svc/protocol';
import { css, html, LitElement, nothing, type TemplateResult } from 'lit';
import { query, state } from 'lit/decorators.js';
import type { PlaygroundData } from '../routes.js';

interface LoggedMessage {
  at: string;
  type: string;
  payload: unknown;
}

type Variant = { kind: 'consent'; flow: 'standard' | 'informed' } | { kind: 'approval' };

/**
 * The playground's host page, written by hand the way an organisation's page would embed a decision: it asks its
 * own server (the playground endpoints) for a decision, shows the hosted page in an iframe or a popup, listens with
 * `createHostChannel`, and on `svc:complete` hands the exchange token back to its server. `<svc-decision>` replaces
 * this code in a later issue.
 *
 * @summary A sandbox host page for hosted decisions.
 */
export class Playground extends LitElement {
  static override styles = css`
    :host { display: block; font: inherit; color: CanvasText; }
    h1 { font-size: 1.5rem; margin: 0 0 0.25rem; }
    h2 { font-size: 1.1rem; margin: 0 0 0.5rem; }
    p { margin: 0 0 0.75rem; }
    .controls { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin-bottom: 1rem; }
    fieldset { border: 1px solid color-mix(in srgb, CanvasText 20%, transparent); border-radius: 0.5rem; padding: 0.5rem 0.75rem; }
    legend { font-weight: 600; }
    button { font: inherit; padding: 0.45rem 0.9rem; border-radius: 0.4rem; border: 1px solid #2f4fb5; background: #2f4fb5; color: #fff; cursor: pointer; }
    button.secondary { background: transparent; color: inherit; }
    button:focus-visible, input:focus-visible { outline: 3px solid #2f4fb5; outline-offset: 2px; }
    .grid { display: grid; grid-template-columns: minmax(18rem, 28rem) 1fr; gap: 1rem; align-items: start; }
    @media (max-width: 50rem) { .grid { grid-template-columns: 1fr; } }
    iframe { width: 100%; border: 1px solid color-mix(in srgb, CanvasText 20%, transparent); border-radius: 0.6rem; background: Canvas; }
    ol { list-style: none; padding: 0; margin: 0; font-family: ui-monospace, monospace; font-size: 0.8rem; display: grid; gap: 0.35rem; }
    li { border-left: 3px solid #2f4fb5; padding: 0.2rem 0.5rem; overflow-wrap: anywhere; }
    pre { font-size: 0.8rem; white-space: pre-wrap; overflow-wrap: anywhere; background: color-mix(in srgb, CanvasText 6%, Canvas); padding: 0.6rem; border-radius: 0.4rem; }
    .placeholder { padding: 2rem; text-align: center; color: color-mix(in srgb, CanvasText 65%, Canvas); border: 1px dashed color-mix(in srgb, CanvasText 25%, transparent); border-radius: 0.6rem; }
  `;

  @state() private data?: PlaygroundData;
  @state() private mode: 'embed' | 'popup' = 'embed';
  @state() private decision?: { session_token: string; embed_url: string; url: string; kind: string };
  @state() private log: LoggedMessage[] = [];
  @state() private result: unknown;
  @state() private error = '';
  @state() private frameHeight = 420;
  @query('iframe') private frame?: HTMLIFrameElement;

  private channel?: HostChannel;
  private popup: Window | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    try {
      this.data = JSON.parse(document.getElementById('svc-playground-data')?.textContent ?? '') as PlaygroundData;
    } catch {
      this.error = 'The playground could not read its data.';
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.channel?.dispose();
  }

  private async post<T>(path: string, body: unknown): Promise<T> {
    const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await res.json()) as T & { message?: string };
    if (!res.ok) throw new Error(json.message ?? `HTTP ${res.status}`);
    return json;
  }

  private async start(variant: Variant): Promise<void> {
    this.channel?.dispose();
    this.popup?.close();
    this.log = [];
    this.result = undefined;
    this.error = '';
    this.decision = undefined;
    try {
      const { decision } = await this.post<{ decision: NonNullable<Playground['decision']> }>('/playground/decisions', { ...variant, delivery_mode: this.mode });
      if (this.mode === 'popup') {
        this.popup = window.open(decision.url, 'svc-decision', 'width=520,height=720');
        if (!this.popup) throw new Error('The browser blocked the popup.');
      }
      this.decision = decision;
      this.channel = createHostChannel({
        serviceOrigin: this.data!.service_origin,
        frame: () => (this.mode === 'popup' ? this.popup : this.frame?.contentWindow ?? null),
        onMessage: (message) => void this.handleMessage(message),
      });
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  private async handleMessage(message: SvcMessage): Promise<void> {
    this.log = [...this.log, { at: new Date().toISOString().slice(11, 19), type: message.type, payload: message.payload }];
    if (message.type === 'svc:resize') this.frameHeight = Math.max(200, Math.min(message.payload.height + 2, 2000));
    if (message.type === 'svc:complete' && this.decision) {
      // The browser message proves nothing: the page's own server exchanges the token and verifies the result.
      try {
        this.result = await this.post('/playground/complete', { session_token: this.decision.session_token, exchange_token: message.payload.exchange_token });
      } catch (error) {
        this.error = (error as Error).message;
      }
    }
  }

  private renderLog(): TemplateResult {
    if (!this.log.length) return html`<p>No messages yet.</p>`;
    return html`<ol aria-label="Messages from the decision page">${this.log.map((m) => html`<li><strong>${m.at} ${m.type}</strong> ${JSON.stringify(m.payload)}</li>`)}</ol>`;
  }

  protected override render(): TemplateResult {
    const flows = this.data?.flows;
    return html`
      <main>
        <h1>svc playground</h1>
        <p>Create a decision with the sandbox's credentials (on the server: this page never sees an API token), complete it
          in the hosted page, and watch the protocol v2 messages it posts. On <code>svc:complete</code> the server exchanges
          the token and verifies the consent token.</p>
        <div class="controls">
          <fieldset>
            <legend>Shown as</legend>
            <label><input type="radio" name="mode" value="embed" ?checked=${this.mode === 'embed'} @change=${() => { this.mode = 'embed'; }}> iframe</label>
            <label><input type="radio" name="mode" value="popup" ?checked=${this.mode === 'popup'} @change=${() => { this.mode = 'popup'; }}> popup</label>
          </fieldset>
          <button type="button" ?disabled=${!flows?.standard} @click=${() => void this.start({ kind: 'consent', flow: 'standard' })}>Consent: standard path</button>
          <button type="button" ?disabled=${!flows?.informed} @click=${() => void this.start({ kind: 'consent', flow: 'informed' })}>Consent: informed</button>
          <button type="button" @click=${() => void this.start({ kind: 'approval' })}>Approval</button>
          ${this.decision ? html`<button type="button" class="secondary" @click=${() => this.channel?.cancel('host_cancelled')}>Cancel from the host</button>` : nothing}
        </div>
        ${this.error ? html`<p role="alert">${this.error}</p>` : nothing}
        <div class="grid">
          <section aria-label="Decision">
            ${this.decision && this.mode === 'embed'
              ? html`<iframe title="Decision" src=${this.decision.embed_url} height=${this.frameHeight}></iframe>`
              : html`<div class="placeholder">${this.decision ? 'The decision is open in a popup.' : 'Choose a decision to start.'}</div>`}
          </section>
          <section aria-label="Messages and result">
            <h2>Messages</h2>
            ${this.renderLog()}
            ${this.result ? html`<h2>Exchanged and verified on the server</h2><pre>${JSON.stringify(this.result, null, 2)}</pre>` : nothing}
          </section>
        </div>
      </main>`;
  }
}
