import { ContextConsumer } from '@lit/context';
import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import type { RecordPurpose, RecordRow, RecordsErrorDetail, SvcRecordsWithdrawDetail } from '../events/svc-records-withdraw.js';
import { type AccessTokenProvider, TokenFromUrl, TokenUrlError } from '../internal/access-token.js';
import { askAgainOn429 } from '../internal/ask-again.js';
import { configDefaults, svcConfigContext } from '../internal/config.js';
import { recordsStyles } from './records.styles.js';
import { EN } from './strings.js';

/**
 * Where the element stands: `idle` (no way to get a token, or no service URL yet), `loading`, `ready` (records
 * shown), `empty` (no records), `signed-out` (the service or the token URL refused) or `error`.
 */
export type RecordsStatus = 'idle' | 'loading' | 'ready' | 'empty' | 'signed-out' | 'error';

/** Gives the person's access token (the OAuth helper's `accessToken()`), asked before every request. */
export type RecordsTokenProvider = AccessTokenProvider;

/** The confirm step open on one record: what it would withdraw, and the button that opened it. */
interface Confirming {
  record: string;
  purposes: RecordPurpose[];
  from: string;
  busy: boolean;
}

/** What a call to the API came to: the answer's body, or why there is none. */
type Outcome = { body: Record<string, unknown> } | { failed: RecordsErrorDetail; signedOut: boolean } | { idle: true };

const STRINGS = EN;
const QUESTION = 'svc-records-question';

/**
 * The signed-in person's own consent records, from every organisation, inside any page (`GET
 * /api/v1/me/consent_records` with their access token, scope `records:read`), with withdrawal as easy as consent: a
 * "Withdraw" button on each purpose they can withdraw and "Withdraw all" on each record, a confirm step in place
 * (focus moves to it, Escape cancels and focus goes back), then `POST .../withdraw` (scope `records:write`); the
 * record is updated in place from the answer and a polite live region says what happened.
 *
 * The token comes from `getAccessToken` (asked before every request), else `accessToken`, else `token-url`: a
 * same-origin URL the element POSTs to with the page's cookies for `{access_token, expires_in}`, kept until shortly
 * before it expires (how the service's own signed-in pages use it, with no script of their own).
 *
 * @summary Lists the signed-in person's consent records and lets them withdraw any purpose.
 *
 * @slot empty - Shown when the person has no records (default: one sentence).
 * @slot signed-out - Shown without a token, or when it was refused (default: one sentence).
 * @slot error - Shown when the records cannot be read (default: one sentence, and a retry button).
 *
 * @fires {SvcRecordsWithdrawEvent} svc-records-withdraw - The service recorded a withdrawal; detail has `record_id`, `purposes` and the updated `consent_record`.
 * @fires {SvcRecordsErrorEvent} svc-error - The records could not be read or a withdrawal failed; detail has `code` (`unauthorized`, `forbidden`, `network`, `http`, `invalid_configuration`), `message`, `fatal`, `recoverable_via`.
 *
 * @csspart base - The wrapper of everything else.
 * @csspart list - The list of records.
 * @csspart record - One record.
 * @csspart heading - The record's organisation and title.
 * @csspart organisation - The organisation's name.
 * @csspart title - The title of what was agreed to (or the application's name).
 * @csspart meta - The record's status and when it was given (and until when).
 * @csspart purposes - The list of the record's purposes.
 * @csspart purpose - One purpose: its label, its outcome in plain words, and its withdraw button.
 * @csspart purpose-label - A purpose's label.
 * @csspart outcome - A purpose's outcome in plain words.
 * @csspart withdraw - The button that withdraws one purpose.
 * @csspart withdraw-all - The button that withdraws every purpose of a record that can be withdrawn.
 * @csspart confirm - The confirm step (a group named by its question).
 * @csspart confirm-button - The button that confirms the withdrawal (the one filled button).
 * @csspart cancel-button - The button that cancels it.
 * @csspart more - The button that loads the next page.
 * @csspart retry - The button that tries again after an error.
 * @csspart status - The live region announcing loading and what happened.
 *
 * @cssprop [--svc-records-gap=.75rem] - Space between records.
 * @cssprop [--svc-records-border=1px solid color-mix(in srgb, currentColor 20%, transparent)] - Border of each record and between purposes.
 * @cssprop [--svc-records-radius=var(--svc-radius, 0.6rem)] - Corner radius of records and buttons.
 * @cssprop [--svc-records-accent=var(--svc-accent, #2f4fb5)] - Colour of the buttons.
 * @cssprop [--svc-records-color=inherit] - Text colour.
 * @cssprop [--svc-records-font=400 100%/1.5 var(--svc-font-family, system-ui, …)] - Font (its own stack, not the page's).
 */
export class SvcRecords extends LitElement {
  static override styles = recordsStyles;

  static override properties: PropertyDeclarations = {
    trustUrl: { attribute: 'trust-url' },
    tokenUrl: { attribute: 'token-url' },
    recordStatus: { attribute: 'record-status' },
    limit: { type: Number },
    accessToken: { attribute: false },
    getAccessToken: { attribute: false },
    fetch: { attribute: false },
    phase: { attribute: false },
    rows: { attribute: false },
    next: { attribute: false },
    announcement: { attribute: false },
    confirming: { attribute: false },
  };

  /** Where the service lives (its API and trust URL); defaults to the `<svc-provider>`'s, then the script tag's service. */
  trustUrl?: string;
  /** A same-origin URL that answers a POST (with the page's cookies) with `{access_token, expires_in}`. */
  tokenUrl?: string;
  /** Only records that read with this status now: `fulfilled`, `revoked` or `expired`. */
  recordStatus?: string;
  /** Records per page, 1 to 100 (default 20). */
  limit?: number;
  /** The person's access token (scopes `records:read`, `records:write`). Never an attribute: set the property, `getAccessToken` or `token-url`. */
  accessToken?: string;
  /** Asked for the access token before every request (e.g. the OAuth helper's, which refreshes it); wins over `accessToken` and `token-url`. */
  getAccessToken?: RecordsTokenProvider;
  /** The `fetch` the element calls the API and the token URL with (default: the page's). */
  fetch?: typeof fetch;

  /** Where the element stands; also exposed to CSS as a custom state, e.g. `svc-records:state(empty)`. */
  get status(): RecordsStatus {
    return this.phase;
  }

  /** The records shown, in order, as they read now. */
  get records(): readonly RecordRow[] {
    return this.rows;
  }

  private phase: RecordsStatus = 'idle';
  private rows: RecordRow[] = [];
  private next: string | null = null;
  private announcement = '';
  private confirming: Confirming | undefined;

  readonly #provided = new ContextConsumer(this, { context: svcConfigContext, subscribe: true });
  readonly #internals = this.attachInternals?.();
  readonly #tokens = new TokenFromUrl();
  /** What the shown records answer (service, token URL, filters); a change reloads. */
  #query = '';
  /** Counts loads, so an answer that a newer load overtook is dropped. */
  #load = 0;

  override connectedCallback(): void {
    super.connectedCallback();
    this.#query = '';
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#load += 1;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const query = `${this.#api()} ${this.tokenUrl} ${this.#search()}`;
    if (query !== this.#query || changed.has('accessToken') || changed.has('getAccessToken')) {
      this.#query = query;
      void this.refresh();
    }
  }

  protected override updated(): void {
    try {
      this.#internals?.states.clear();
      this.#internals?.states.add(this.phase);
    } catch {
      // Browsers without custom states.
    }
  }

  /** Reads the first page again; resolves once it is shown. */
  async refresh(): Promise<void> {
    await this.#read(undefined);
  }

  /** The service: own attribute, then the provider, then the script tag's default. */
  #api(): string | undefined {
    const provider = this.closest('svc-provider');
    const provided = this.#provided.value ?? { trustUrl: provider?.getAttribute('trust-url'), baseUrl: provider?.getAttribute('base-url') };
    return (this.trustUrl || provided.trustUrl || provided.baseUrl || configDefaults().trustUrl)?.replace(/\/+$/, '');
  }

  #search(): URLSearchParams {
    const params = new URLSearchParams();
    if (this.limit) params.set('limit', String(this.limit));
    if (this.recordStatus) params.set('status', this.recordStatus);
    return params;
  }

  /** The person's token: `getAccessToken`, then `accessToken`, then the token URL (which may throw {@link TokenUrlError}). */
  async #token(): Promise<string | undefined> {
    if (this.getAccessToken) {
      try {
        return (await this.getAccessToken()) || undefined;
      } catch {
        return undefined;
      }
    }
    if (this.accessToken) return this.accessToken;
    if (this.tokenUrl) return this.#tokens.get(this.tokenUrl, this.fetch ?? fetch);
    return undefined;
  }

  /** Asks the API with the person's token: the answer's body, `signed-out` for a refused token, or a failure. */
  async #call(path: string, init: RequestInit = {}): Promise<Outcome> {
    const api = this.#api();
    let token: string | undefined;
    try {
      token = await this.#token();
    } catch (error) {
      return tokenUrlFailure(error);
    }
    if (!token) return { idle: true };
    if (!api) {
      const message = 'No service URL: set trust-url, or wrap the element in <svc-provider trust-url>.';
      return { failed: { code: 'invalid_configuration', message, fatal: true, recoverable_via: null }, signedOut: false };
    }
    let answer: Response;
    try {
      answer = await askAgainOn429(this.fetch ?? fetch, `${api}${path}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}`, accept: 'application/json' },
        credentials: 'omit',
      });
    } catch (error) {
      const message = `The service could not be reached: ${String(error)}`;
      return { failed: { code: 'network', message, fatal: false, recoverable_via: 'retry' }, signedOut: false };
    }
    let body: Record<string, unknown> = {};
    try {
      body = await answer.json();
    } catch {
      // Not JSON: judged by the status.
    }
    if (answer.ok) return { body };
    if (answer.status === 401) this.#tokens.forget();
    return httpFailure(answer.status, typeof body.message === 'string' ? body.message : undefined);
  }

  /** Reads a page: the first (replacing the records) or the one after `cursor` (appended). */
  async #read(cursor: string | undefined): Promise<void> {
    const load = ++this.#load;
    if (!this.getAccessToken && !this.accessToken && !this.tokenUrl) {
      this.#show([], null, 'idle', '');
      return;
    }
    if (!cursor) {
      this.phase = 'loading';
      this.announcement = STRINGS.loading;
    }
    const params = this.#search();
    if (cursor) params.set('cursor', cursor);
    const query = `${params}`;
    const outcome = await this.#call(`/api/v1/me/consent_records${query ? `?${query}` : ''}`);
    if (load !== this.#load) return;
    if ('idle' in outcome) return this.#show([], null, 'idle', '');
    const page = 'body' in outcome ? outcome.body : {};
    if ('failed' in outcome || !Array.isArray(page.consent_records)) {
      const failed = 'failed' in outcome ? outcome : httpFailure(502, 'The service answered without consent_records.');
      return this.#fail(failed.failed, failed.signedOut);
    }
    const more = page.consent_records as RecordRow[];
    const rows = cursor ? [...this.rows, ...more] : more;
    const next = typeof page.next_cursor === 'string' ? page.next_cursor : null;
    this.#show(rows, next, rows.length ? 'ready' : 'empty', cursor ? STRINGS.moreShown(more.length) : STRINGS.shown(rows.length, !!next));
  }

  #show(rows: RecordRow[], next: string | null, phase: RecordsStatus, announcement: string): void {
    this.rows = rows;
    this.next = next;
    this.phase = phase;
    this.announcement = announcement;
    if (!rows.length) this.confirming = undefined;
  }

  #fail(detail: RecordsErrorDetail, signedOut = false): void {
    this.#show([], null, signedOut ? 'signed-out' : 'error', signedOut ? STRINGS.signInAgain : STRINGS.error);
    this.#error(detail);
  }

  #error(detail: RecordsErrorDetail): void {
    this.dispatchEvent(new CustomEvent('svc-error', { bubbles: true, composed: true, detail }));
  }

  /** Opens the confirm step for `purposes` of `record` and moves focus to it. */
  async #ask(record: RecordRow, purposes: RecordPurpose[], from: string): Promise<void> {
    this.confirming = { record: record.id, purposes, from, busy: false };
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part=confirm]')?.focus();
  }

  /** Closes the confirm step without a request; focus goes back to the button that opened it. */
  async #cancel(): Promise<void> {
    const from = this.confirming?.from;
    if (!from || this.confirming?.busy) return;
    this.confirming = undefined;
    this.announcement = STRINGS.cancelled;
    await this.#focus(from);
  }

  /** Focus on the element keyed `key`, else on the record it belonged to. */
  async #focus(key: string): Promise<void> {
    await this.updateComplete;
    const keyed = [...this.renderRoot.querySelectorAll<HTMLElement>('[data-key]')];
    const record = key.split(' ')[1];
    (keyed.find((el) => el.dataset.key === key) ?? keyed.find((el) => el.dataset.key === `record ${record}`))?.focus();
  }

  /** The confirmed withdrawal: the POST, then the record as the service answers it. */
  async #withdraw(): Promise<void> {
    const confirming = this.confirming;
    const record = this.rows.find((row) => row.id === confirming?.record);
    if (!confirming || !record || confirming.busy) return;
    this.confirming = { ...confirming, busy: true };
    this.announcement = STRINGS.withdrawing;
    const purposes = confirming.purposes.map((p) => p.key);
    const outcome = await this.#call(`/api/v1/me/consent_records/${encodeURIComponent(record.id)}/withdraw`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ purposes }),
    });
    const updated = 'body' in outcome ? (outcome.body.consent_record as RecordRow | undefined) : undefined;
    if (!updated || updated.id !== record.id) {
      if ('idle' in outcome) return this.#show([], null, 'idle', '');
      const failed = 'failed' in outcome ? outcome : httpFailure(502, 'The service answered without the consent_record.');
      if (failed.signedOut) return this.#fail(failed.failed, true);
      this.confirming = undefined;
      this.announcement = STRINGS.failed;
      this.#error(failed.failed);
      return this.#focus(confirming.from);
    }
    this.rows = this.rows.map((row) => (row.id === record.id ? updated : row));
    this.confirming = undefined;
    this.announcement = STRINGS.withdrawn(
      confirming.purposes.map((p) => p.label),
      record.organisation.name,
    );
    const detail: SvcRecordsWithdrawDetail = { record_id: record.id, purposes, consent_record: updated };
    this.dispatchEvent(new CustomEvent('svc-records-withdraw', { bubbles: true, composed: true, detail }));
    await this.#focus(confirming.from);
  }

  #confirmStep(record: RecordRow, confirming: Confirming): TemplateResult {
    const labels = confirming.purposes.map((p) => p.label);
    const question =
      labels.length === 1 && !confirming.from.startsWith('all')
        ? STRINGS.confirmOne(labels[0]!, record.organisation.name)
        : STRINGS.confirmAll(labels, record.organisation.name);
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      void this.#cancel();
    };
    return html`<div part=confirm role=group tabindex=-1 aria-labelledby=${QUESTION} @keydown=${escape}>
      <p id=${QUESTION}>${question}</p>
      <div part=actions>
        <button part=confirm-button class=primary type=button ?disabled=${confirming.busy} @click=${() => this.#withdraw()}>${STRINGS.confirm}</button>
        <button part=cancel-button type=button ?disabled=${confirming.busy} @click=${() => this.#cancel()}>${STRINGS.cancel}</button>
      </div>
    </div>`;
  }

  #purpose(record: RecordRow, purpose: RecordPurpose): TemplateResult {
    const key = `one ${record.id} ${purpose.key}`;
    return html`<li part=purpose>
      <span><span part=purpose-label>${purpose.label}</span><span part=outcome>${STRINGS.outcome(purpose)}</span></span>
      ${
        purpose.withdrawable
          ? html`<button part=withdraw type=button data-key=${key} aria-label=${STRINGS.withdrawNamed(purpose.label)}
              @click=${() => this.#ask(record, [purpose], key)}>${STRINGS.withdraw}</button>`
          : nothing
      }
    </li>`;
  }

  #record(record: RecordRow): TemplateResult {
    const withdrawable = record.purposes.filter((p) => p.withdrawable);
    const all = `all ${record.id}`;
    const confirming = this.confirming?.record === record.id ? this.confirming : undefined;
    return html`<li part=record tabindex=-1 data-key=${`record ${record.id}`}>
      <p part=heading><span part=organisation>${record.organisation.name}</span><span class=vh>: </span>
        <span part=title>${record.title ?? record.application.name}</span></p>
      <p part=meta>${STRINGS.status[record.status] ?? record.status} · ${STRINGS.given(when(record.captured_at))}${
        record.expires_at ? html` · ${STRINGS.until(when(record.expires_at))}` : nothing
      }</p>
      <ul part=purposes>${record.purposes.map((purpose) => this.#purpose(record, purpose))}</ul>
      ${
        withdrawable.length
          ? html`<button part=withdraw-all type=button data-key=${all} aria-label=${STRINGS.withdrawAllNamed(record.organisation.name)}
              @click=${() => this.#ask(record, withdrawable, all)}>${STRINGS.withdrawAll}</button>`
          : nothing
      }
      ${confirming ? this.#confirmStep(record, confirming) : nothing}
    </li>`;
  }

  protected override render(): TemplateResult {
    const { phase } = this;
    let body: TemplateResult | typeof nothing = nothing;
    if (phase === 'ready') {
      body = html`<ul part=list>${this.rows.map((record) => this.#record(record))}</ul>${
        this.next
          ? html`<button part=more type=button @click=${() => this.#read(this.next ?? undefined)}>${STRINGS.more}</button>`
          : nothing
      }`;
    } else if (phase === 'empty') {
      body = html`<slot name=empty><p>${STRINGS.empty}</p></slot>`;
    } else if (phase === 'idle' || phase === 'signed-out') {
      body = html`<slot name=signed-out><p>${STRINGS.signedOut}</p></slot>`;
    } else if (phase === 'error') {
      body = html`<slot name=error><p>${STRINGS.error}</p></slot><button part=retry type=button @click=${this.refresh}>${STRINGS.retry}</button>`;
    }
    return html`<div part=base class=${phase}>${body}<p part=status role=status>${this.announcement}</p></div>`;
  }
}

/** A date as the person's browser writes it, or the text as it came when it is not one. */
function when(iso: string): TemplateResult {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
  return html`<time datetime=${iso}>${text}</time>`;
}

/** The failure an HTTP status stands for: 401 signs out, 403 cannot be retried, the rest can. */
function httpFailure(status: number, message: string | undefined): { failed: RecordsErrorDetail; signedOut: boolean } {
  const signedOut = status === 401;
  const detail: RecordsErrorDetail = {
    code: signedOut ? 'unauthorized' : status === 403 ? 'forbidden' : 'http',
    message: message ?? `The service answered ${status}.`,
    fatal: signedOut || status === 403,
    recoverable_via: signedOut ? 'sign_in' : status === 403 ? null : 'retry',
  };
  return { failed: detail, signedOut };
}

/** The token URL's failure: no session (401, 403) signs out; another origin is a configuration error. */
function tokenUrlFailure(error: unknown): { failed: RecordsErrorDetail; signedOut: boolean } {
  if (!(error instanceof TokenUrlError)) {
    return {
      failed: { code: 'network', message: `The token URL could not be reached: ${String(error)}`, fatal: false, recoverable_via: 'retry' },
      signedOut: false,
    };
  }
  if (error.status === 0)
    return { failed: { code: 'invalid_configuration', message: error.message, fatal: true, recoverable_via: null }, signedOut: false };
  return httpFailure(error.status === 403 ? 401 : error.status, error.message);
}
