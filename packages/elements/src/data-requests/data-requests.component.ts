import { ContextConsumer } from '@lit/context';
import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { type AccessTokenProvider, TokenFromUrl, TokenUrlError } from '../internal/access-token.js';
import { askAgainOn429 } from '../internal/ask-again.js';
import { configDefaults, svcConfigContext } from '../internal/config.js';
import { dataRequestsStyles } from './data-requests.styles.js';
import type {
  DataRequestOrganisation,
  DataRequestRow,
  DataRequestsErrorDetail,
  DataRequestType,
  SvcDataRequestsFileDetail,
} from './events.js';
import { EN } from './strings.js';

/**
 * Where the element stands: `idle` (no way to get a token, or no service URL yet), `loading`, `ready` (requests
 * shown), `empty` (none yet), `signed-out` (the service or the token URL refused) or `error`.
 */
export type DataRequestsStatus = 'idle' | 'loading' | 'ready' | 'empty' | 'signed-out' | 'error';

/** Gives the person's access token (the OAuth helper's `accessToken()`), asked before every request. */
export type DataRequestsTokenProvider = AccessTokenProvider;

/** The new request being written: the form's choices, and whether the confirm step is open (and sending). */
interface Draft {
  organisation: string;
  type: DataRequestType | '';
  details: string;
  confirming: boolean;
  busy: boolean;
}

type Outcome = { body: Record<string, unknown> } | { failed: DataRequestsErrorDetail; signedOut: boolean } | { idle: true };

const STRINGS = EN;
const API = '/api/v1/me/data_requests';
const TYPES: readonly DataRequestType[] = ['access', 'erasure', 'portability', 'rectification'];
const QUESTION = 'svc-data-requests-question';
const DAY = 86_400_000;

/**
 * The signed-in person's own data requests (access, erasure, portability, rectification) from every organisation,
 * inside any page (`GET /api/v1/me/data_requests` with their access token, scope `data_requests:read`): each with
 * its status in plain words and when the answer is due ("Answer due by 12 March 2027", "Overdue by 3 days",
 * "Extended to … because …"), and the export of an answered access request. "New request" opens a form
 * (organisation, what they want, optional details), then a confirm step (focus moves to it, Escape cancels and focus
 * goes back), then `POST /api/v1/me/data_requests` (scope `data_requests:write`); the new request appears first and
 * a polite live region says what happened.
 *
 * The token comes from `getAccessToken` (asked before every request), else `accessToken`, else `token-url` (a
 * same-origin URL answering a POST with the page's cookies with `{access_token, expires_in}`).
 *
 * @summary Lists the signed-in person's data requests and lets them file a new one.
 *
 * @slot empty - Shown when the person has no requests (default: one sentence).
 * @slot signed-out - Shown without a token, or when it was refused (default: one sentence).
 * @slot error - Shown when the requests cannot be read (default: one sentence, and a retry button).
 *
 * @fires {SvcDataRequestsFileEvent} svc-data-requests-file - The service received a request the person confirmed; detail has the `data_request`.
 * @fires {SvcDataRequestsErrorEvent} svc-error - The requests could not be read or filing failed; detail has `code`, `message`, `fatal`, `recoverable_via`.
 *
 * @csspart base - The wrapper of everything else.
 * @csspart new - The button that opens the new request form.
 * @csspart form - The new request form.
 * @csspart form-title - The form's heading.
 * @csspart confirm - The confirm step (a group named by its question).
 * @csspart confirm-button - The button that sends the request (the one filled button).
 * @csspart cancel-button - The buttons that cancel the form or the confirm step.
 * @csspart list - The list of requests.
 * @csspart request - One request.
 * @csspart organisation - The organisation's name.
 * @csspart type - What the request asks for.
 * @csspart meta - The request's status and when it was sent.
 * @csspart due - When the answer is due, or what the answer was.
 * @csspart download - The button that downloads an answered access request's export.
 * @csspart more - The button that loads the next page.
 * @csspart retry - The button that tries again after an error.
 * @csspart status - The live region announcing loading and what happened.
 *
 * @cssprop [--svc-data-requests-gap=.75rem] - Space between requests.
 * @cssprop [--svc-data-requests-border=1px solid color-mix(in srgb, currentColor 20%, transparent)] - Border of each request and of the form.
 * @cssprop [--svc-data-requests-radius=var(--svc-radius, 0.6rem)] - Corner radius of requests and buttons.
 * @cssprop [--svc-data-requests-accent=var(--svc-accent, #2f4fb5)] - Colour of the buttons.
 * @cssprop [--svc-data-requests-color=inherit] - Text colour.
 * @cssprop [--svc-data-requests-font=400 100%/1.5 var(--svc-font-family, system-ui, …)] - Font (its own stack, not the page's).
 */
export class SvcDataRequests extends LitElement {
  static override styles = dataRequestsStyles;

  static override properties: PropertyDeclarations = {
    trustUrl: { attribute: 'trust-url' },
    tokenUrl: { attribute: 'token-url' },
    limit: { type: Number },
    accessToken: { attribute: false },
    getAccessToken: { attribute: false },
    fetch: { attribute: false },
    phase: { attribute: false },
    rows: { attribute: false },
    organisations: { attribute: false },
    next: { attribute: false },
    announcement: { attribute: false },
    draft: { attribute: false },
  };

  /** Where the service lives (its API); defaults to the `<svc-provider>`'s, then the script tag's service. */
  trustUrl?: string;
  /** A same-origin URL that answers a POST (with the page's cookies) with `{access_token, expires_in}`. */
  tokenUrl?: string;
  /** Requests per page, 1 to 100 (default 20). */
  limit?: number;
  /** The person's access token (scopes `data_requests:read`, `data_requests:write`). Never an attribute. */
  accessToken?: string;
  /** Asked for the access token before every request; wins over `accessToken` and `token-url`. */
  getAccessToken?: DataRequestsTokenProvider;
  /** The `fetch` the element calls the API and the token URL with (default: the page's). */
  fetch?: typeof fetch;

  /** Where the element stands; also exposed to CSS as a custom state, e.g. `svc-data-requests:state(empty)`. */
  get status(): DataRequestsStatus {
    return this.phase;
  }

  /** The requests shown, newest first. */
  get requests(): readonly DataRequestRow[] {
    return this.rows;
  }

  private phase: DataRequestsStatus = 'idle';
  private rows: DataRequestRow[] = [];
  private organisations: DataRequestOrganisation[] = [];
  private next: string | null = null;
  private announcement = '';
  private draft: Draft | undefined;

  readonly #provided = new ContextConsumer(this, { context: svcConfigContext, subscribe: true });
  readonly #internals = this.attachInternals?.();
  readonly #tokens = new TokenFromUrl();
  #query = '';
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
    const query = `${this.#api()} ${this.tokenUrl} ${this.limit}`;
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

  #api(): string | undefined {
    const provider = this.closest('svc-provider');
    const provided = this.#provided.value ?? { trustUrl: provider?.getAttribute('trust-url'), baseUrl: provider?.getAttribute('base-url') };
    return (this.trustUrl || provided.trustUrl || provided.baseUrl || configDefaults().trustUrl)?.replace(/\/+$/, '');
  }

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
      return {
        failed: { code: 'network', message: `The service could not be reached: ${String(error)}`, fatal: false, recoverable_via: 'retry' },
        signedOut: false,
      };
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

  async #read(cursor: string | undefined): Promise<void> {
    const load = ++this.#load;
    if (!this.getAccessToken && !this.accessToken && !this.tokenUrl) return this.#show([], null, 'idle', '');
    if (!cursor) {
      this.phase = 'loading';
      this.announcement = STRINGS.loading;
    }
    const params = new URLSearchParams();
    if (this.limit) params.set('limit', String(this.limit));
    if (cursor) params.set('cursor', cursor);
    const query = `${params}`;
    const outcome = await this.#call(`${API}${query ? `?${query}` : ''}`);
    if (load !== this.#load) return;
    if ('idle' in outcome) return this.#show([], null, 'idle', '');
    const page = 'body' in outcome ? outcome.body : {};
    if ('failed' in outcome || !Array.isArray(page.data_requests)) {
      const failed = 'failed' in outcome ? outcome : httpFailure(502, 'The service answered without data_requests.');
      return this.#fail(failed.failed, failed.signedOut);
    }
    if (Array.isArray(page.organisations)) this.organisations = page.organisations as DataRequestOrganisation[];
    const rows = cursor ? [...this.rows, ...(page.data_requests as DataRequestRow[])] : (page.data_requests as DataRequestRow[]);
    const next = typeof page.next_cursor === 'string' ? page.next_cursor : null;
    this.#show(rows, next, rows.length ? 'ready' : 'empty', STRINGS.shown(rows.length, !!next));
  }

  #show(rows: DataRequestRow[], next: string | null, phase: DataRequestsStatus, announcement: string): void {
    this.rows = rows;
    this.next = next;
    this.phase = phase;
    this.announcement = announcement;
    if (phase !== 'ready' && phase !== 'empty') this.draft = undefined;
  }

  #fail(detail: DataRequestsErrorDetail, signedOut = false): void {
    this.#show([], null, signedOut ? 'signed-out' : 'error', signedOut ? STRINGS.signInAgain : STRINGS.error);
    this.#error(detail);
  }

  #error(detail: DataRequestsErrorDetail): void {
    this.dispatchEvent(new CustomEvent('svc-error', { bubbles: true, composed: true, detail }));
  }

  async #focus(selector: string): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  /** Opens the form, its organisation chosen when there is only one; focus moves to its first field. */
  async #open(): Promise<void> {
    const only = this.organisations.length === 1 ? this.organisations[0]!.id : '';
    this.draft = { organisation: only, type: '', details: '', confirming: false, busy: false };
    this.announcement = '';
    await this.#focus('[part=form] :is(select, input)');
  }

  /** Closes the form without a request; focus goes back to "New request". */
  async #close(): Promise<void> {
    if (this.draft?.busy) return;
    this.draft = undefined;
    this.announcement = STRINGS.cancelled;
    await this.#focus('[part=new]');
  }

  /** The form's "Continue": the browser checks the required fields, then the confirm step takes focus. */
  async #continue(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    this.draft = {
      organisation: String(data.get('organisation') ?? ''),
      type: String(data.get('type') ?? '') as DataRequestType,
      details: String(data.get('details') ?? '').trim(),
      confirming: true,
      busy: false,
    };
    await this.#focus('[part=confirm]');
  }

  /** Leaves the confirm step; focus goes back to "Continue". */
  async #back(): Promise<void> {
    if (!this.draft || this.draft.busy) return;
    this.draft = { ...this.draft, confirming: false };
    this.announcement = STRINGS.cancelled;
    await this.#focus('[part=form] button[type=submit]');
  }

  /** The confirmed request: the POST, then the new row first in the list. */
  async #file(): Promise<void> {
    const draft = this.draft;
    if (!draft?.type || draft.busy) return;
    this.draft = { ...draft, busy: true };
    this.announcement = STRINGS.filing;
    const body = { organisation_id: draft.organisation, dsar_type: draft.type, ...(draft.details ? { scope: draft.details } : {}) };
    const outcome = await this.#call(API, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const filed = 'body' in outcome ? (outcome.body.data_request as DataRequestRow | undefined) : undefined;
    if (!filed) {
      if ('idle' in outcome) return this.#show([], null, 'idle', '');
      const failed = 'failed' in outcome ? outcome : httpFailure(502, 'The service answered without the data_request.');
      if (failed.signedOut) return this.#fail(failed.failed, true);
      this.draft = { ...draft, confirming: false, busy: false };
      this.announcement = STRINGS.failed;
      this.#error(failed.failed);
      return this.#focus('[part=form] button[type=submit]');
    }
    this.rows = [filed, ...this.rows];
    this.phase = 'ready';
    this.draft = undefined;
    this.announcement = STRINGS.filed(STRINGS.type[filed.dsar_type]?.label ?? filed.dsar_type, filed.organisation.name);
    const detail: SvcDataRequestsFileDetail = { data_request: filed };
    this.dispatchEvent(new CustomEvent('svc-data-requests-file', { bubbles: true, composed: true, detail }));
    await this.#focus(`[data-id="${CSS.escape(filed.id)}"]`);
  }

  /** Downloads an answered access request's export as a JSON file. */
  async #download(row: DataRequestRow): Promise<void> {
    const outcome = await this.#call(`${API}/${encodeURIComponent(row.id)}/export`);
    if (!('body' in outcome)) {
      if ('failed' in outcome) this.#error(outcome.failed);
      return;
    }
    const url = URL.createObjectURL(new Blob([JSON.stringify(outcome.body, null, 2)], { type: 'application/json' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: `${row.id}.json` });
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  #confirmStep(draft: Draft): TemplateResult {
    const organisation = this.organisations.find((o) => o.id === draft.organisation)?.name ?? draft.organisation;
    const type = draft.type ? STRINGS.type[draft.type].label : '';
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      void this.#back();
    };
    return html`<div part=confirm role=group tabindex=-1 aria-labelledby=${QUESTION} @keydown=${escape}>
      <p id=${QUESTION}>${STRINGS.confirm(type, organisation)}</p>
      <div part=actions>
        <button part=confirm-button class=primary type=button ?disabled=${draft.busy} @click=${() => this.#file()}>${STRINGS.confirmButton}</button>
        <button part=cancel-button type=button ?disabled=${draft.busy} @click=${() => this.#back()}>${STRINGS.cancel}</button>
      </div>
    </div>`;
  }

  #form(draft: Draft): TemplateResult {
    if (!this.organisations.length) return html`<p part=form>${STRINGS.noOrganisations}</p>`;
    const locked = draft.confirming;
    return html`<form part=form aria-labelledby=svc-data-requests-form-title @submit=${this.#continue}>
      <p part=form-title id=svc-data-requests-form-title>${STRINGS.formTitle}</p>
      <label>${STRINGS.organisation}
        <select name=organisation required ?disabled=${locked}>
          <option value="" ?selected=${!draft.organisation}></option>
          ${this.organisations.map((o) => html`<option value=${o.id} ?selected=${o.id === draft.organisation}>${o.name}</option>`)}
        </select>
      </label>
      <fieldset ?disabled=${locked}>
        <legend>${STRINGS.kind}</legend>
        ${TYPES.map(
          (type) => html`<div class=choice>
            <input type=radio name=type required id=${`svc-dr-${type}`} value=${type} .checked=${draft.type === type}
              aria-describedby=${`svc-dr-${type}-hint`}>
            <label for=${`svc-dr-${type}`}>${STRINGS.type[type].label}
              <span class=hint id=${`svc-dr-${type}-hint`}>${STRINGS.type[type].explanation}</span></label>
          </div>`,
        )}
      </fieldset>
      <label>${STRINGS.details}
        <span class=hint>${STRINGS.detailsHint}</span>
        <textarea name=details rows=3 maxlength=1000 ?disabled=${locked} .value=${draft.details}></textarea>
      </label>
      ${
        locked
          ? this.#confirmStep(draft)
          : html`<div part=actions>
              <button class=primary type=submit>${STRINGS.next}</button>
              <button part=cancel-button type=button @click=${() => this.#close()}>${STRINGS.cancel}</button>
            </div>`
      }
    </form>`;
  }

  /** When the answer is due, or what it was, in plain words. */
  #due(row: DataRequestRow): TemplateResult {
    if (row.status === 'completed') return STRINGS.answered(when(row.completed_at ?? row.due_date));
    if (row.status === 'rejected') return STRINGS.refused(when(row.rejected_at ?? row.due_date), row.rejection_reason ?? '');
    if (row.overdue) return html`${STRINGS.overdue(Math.max(1, Math.floor((Date.now() - Date.parse(row.due_date)) / DAY)))}`;
    if (row.extended) return STRINGS.extended(when(row.due_date), row.extension_reason ?? '');
    return STRINGS.due(when(row.due_date));
  }

  #request(row: DataRequestRow): TemplateResult {
    const details = typeof row.scope === 'string' ? row.scope : Array.isArray(row.scope) ? row.scope.join(', ') : '';
    return html`<li part=request tabindex=-1 data-id=${row.id}>
      <p><span part=organisation>${row.organisation.name}</span><span class=vh>: </span>
        <span part=type>${STRINGS.type[row.dsar_type]?.label ?? row.dsar_type}</span></p>
      ${details ? html`<p class=hint>${details}</p>` : nothing}
      <p part=meta>${STRINGS.status[row.status] ?? row.status} · ${STRINGS.sent(when(row.received_at))}</p>
      <p part=due class=${row.overdue ? 'overdue' : ''}>${this.#due(row)}</p>
      ${row.status === 'completed' && row.completion_note ? html`<p>${row.completion_note}</p>` : nothing}
      ${row.export_url ? html`<button part=download type=button @click=${() => this.#download(row)}>${STRINGS.download}</button>` : nothing}
    </li>`;
  }

  protected override render(): TemplateResult {
    const { phase } = this;
    let body: TemplateResult | typeof nothing = nothing;
    if (phase === 'ready' || phase === 'empty') {
      const opener = this.draft
        ? this.#form(this.draft)
        : html`<button part=new type=button @click=${() => this.#open()}>${STRINGS.newRequest}</button>`;
      const list =
        phase === 'ready'
          ? html`<ul part=list>${this.rows.map((row) => this.#request(row))}</ul>${
              this.next
                ? html`<button part=more type=button @click=${() => this.#read(this.next ?? undefined)}>${STRINGS.more}</button>`
                : nothing
            }`
          : html`<slot name=empty><p>${STRINGS.empty}</p></slot>`;
      body = html`${opener}${list}`;
    } else if (phase === 'idle' || phase === 'signed-out') {
      body = html`<slot name=signed-out><p>${STRINGS.signedOut}</p></slot>`;
    } else if (phase === 'error') {
      body = html`<slot name=error><p>${STRINGS.error}</p></slot><button part=retry type=button @click=${this.refresh}>${STRINGS.retry}</button>`;
    }
    return html`<div part=base class=${phase}>${body}<p part=status role=status>${this.announcement}</p></div>`;
  }
}

/** A date as "12 March 2027", or the text as it came when it is not one. */
function when(iso: string): TemplateResult {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(STRINGS.locale, { dateStyle: 'long' });
  return html`<time datetime=${iso}>${text}</time>`;
}

/** The failure an HTTP status stands for: 401 signs out, 403 cannot be retried, a 404 or 422 is the request's own. */
function httpFailure(status: number, message: string | undefined): { failed: DataRequestsErrorDetail; signedOut: boolean } {
  const signedOut = status === 401;
  const code = signedOut
    ? 'unauthorized'
    : status === 403
      ? 'forbidden'
      : status === 404
        ? 'not_found'
        : status === 422
          ? 'invalid'
          : 'http';
  const fatal = signedOut || status === 403;
  const detail: DataRequestsErrorDetail = {
    code,
    message: message ?? `The service answered ${status}.`,
    fatal,
    recoverable_via: signedOut ? 'sign_in' : fatal ? null : 'retry',
  };
  return { failed: detail, signedOut };
}

/** The token URL's failure: no session (401, 403) signs out; another origin is a configuration error. */
function tokenUrlFailure(error: unknown): { failed: DataRequestsErrorDetail; signedOut: boolean } {
  if (!(error instanceof TokenUrlError)) {
    const message = `The token URL could not be reached: ${String(error)}`;
    return { failed: { code: 'network', message, fatal: false, recoverable_via: 'retry' }, signedOut: false };
  }
  if (error.status === 0)
    return { failed: { code: 'invalid_configuration', message: error.message, fatal: true, recoverable_via: null }, signedOut: false };
  return httpFailure(error.status === 403 ? 401 : error.status, error.message);
}
