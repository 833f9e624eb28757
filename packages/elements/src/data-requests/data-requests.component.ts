import { html, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import type { AccessTokenProvider } from '../internal/access-token.js';
import { httpFailure, PersonList, type PersonListStatus } from '../internal/person-list.js';
import { personListStyles } from '../internal/person-list.styles.js';
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
export type DataRequestsStatus = PersonListStatus;

/** Gives the person's access token (the OAuth helper's `accessToken()`), asked before every request. */
export type DataRequestsTokenProvider = AccessTokenProvider;

/** The new request being written: the form's choices. The confirm step is the list's pending step on it. */
interface Draft {
  organisation: string;
  type: DataRequestType | '';
  details: string;
}

const STRINGS = EN;
const API = '/api/v1/me/data_requests';
const TYPES: readonly DataRequestType[] = ['access', 'erasure', 'portability', 'rectification'];
const DAY = 86_400_000;
/** The key of the form's "Continue", where focus goes back when the confirm step closes. */
const CONTINUE = 'continue';

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
export class SvcDataRequests extends PersonList<DataRequestRow, Draft> {
  static override styles = [personListStyles('data-requests'), dataRequestsStyles];

  static override properties: PropertyDeclarations = {
    organisations: { attribute: false },
    draft: { attribute: false },
  };

  /** The requests shown, newest first. */
  get requests(): readonly DataRequestRow[] {
    return this.rows;
  }

  private organisations: DataRequestOrganisation[] = [];
  private draft: Draft | undefined;

  protected override get listPath(): string {
    return API;
  }

  protected override get listKey(): string {
    return 'data_requests';
  }

  protected override get strings(): typeof STRINGS {
    return STRINGS;
  }

  protected override received(page: Record<string, unknown>): void {
    if (Array.isArray(page.organisations)) this.organisations = page.organisations as DataRequestOrganisation[];
  }

  /** A 404 or 422 is the request's own (no such organisation, a refused request): `not_found`, `invalid`. */
  protected override refusal(status: number, message: string | undefined): { failed: DataRequestsErrorDetail; signedOut: boolean } {
    const { failed, signedOut } = httpFailure(status, message);
    const code = status === 404 ? 'not_found' : status === 422 ? 'invalid' : (failed.code as DataRequestsErrorDetail['code']);
    return { failed: { ...failed, code }, signedOut };
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    // Signed out or failed: the form goes with the list.
    if (this.phase === 'idle' || this.phase === 'signed-out' || this.phase === 'error') this.draft = undefined;
  }

  async #focus(selector: string): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  /** Opens the form, its organisation chosen when there is only one; focus moves to its first field. */
  async #open(): Promise<void> {
    const only = this.organisations.length === 1 ? this.organisations[0]!.id : '';
    this.draft = { organisation: only, type: '', details: '' };
    this.announcement = '';
    await this.#focus('[part=form] :is(select, input)');
  }

  /** Closes the form without a request; focus goes back to "New request". */
  async #close(): Promise<void> {
    if (this.pending?.busy) return;
    this.draft = undefined;
    this.announcement = STRINGS.cancelled;
    await this.focusKey('new');
  }

  /** The form's "Continue": the browser checks the required fields, then the confirm step takes focus. */
  async #continue(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    this.draft = {
      organisation: String(data.get('organisation') ?? ''),
      type: String(data.get('type') ?? '') as DataRequestType,
      details: String(data.get('details') ?? '').trim(),
    };
    await this.confirm({ id: '' }, this.draft, CONTINUE);
  }

  /** The confirmed request: the POST, then the new row first in the list. */
  async #file(): Promise<void> {
    const pending = this.begin(STRINGS.filing);
    if (!pending) return;
    const { organisation, type, details } = pending.ask;
    const body = { organisation_id: organisation, dsar_type: type, ...(details ? { scope: details } : {}) };
    const filed = await this.act<DataRequestRow>(API, body, pending.from, 'data_request');
    if (!filed) return;
    this.addRow(filed);
    this.draft = undefined;
    this.announcement = STRINGS.filed(STRINGS.type[filed.dsar_type]?.label ?? filed.dsar_type, filed.organisation.name);
    const detail: SvcDataRequestsFileDetail = { data_request: filed };
    this.dispatchEvent(new CustomEvent('svc-data-requests-file', { bubbles: true, composed: true, detail }));
    await this.focusKey(`row ${filed.id}`);
  }

  /** Downloads an answered access request's export as a JSON file. */
  async #download(row: DataRequestRow): Promise<void> {
    const outcome = await this.call(`${API}/${encodeURIComponent(row.id)}/export`);
    if (!('body' in outcome)) {
      if ('failed' in outcome) this.error(outcome.failed);
      return;
    }
    const url = URL.createObjectURL(new Blob([JSON.stringify(outcome.body, null, 2)], { type: 'application/json' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: `${row.id}.json` });
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  #form(draft: Draft): TemplateResult {
    if (!this.organisations.length) return html`<p part=form>${STRINGS.noOrganisations}</p>`;
    const pending = this.pending;
    const organisation = this.organisations.find((o) => o.id === draft.organisation)?.name ?? draft.organisation;
    return html`<form part=form aria-labelledby=svc-data-requests-form-title @submit=${this.#continue}>
      <p part=form-title id=svc-data-requests-form-title>${STRINGS.formTitle}</p>
      <label>${STRINGS.organisation}
        <select name=organisation required ?disabled=${!!pending}>
          <option value="" ?selected=${!draft.organisation}></option>
          ${this.organisations.map((o) => html`<option value=${o.id} ?selected=${o.id === draft.organisation}>${o.name}</option>`)}
        </select>
      </label>
      <fieldset ?disabled=${!!pending}>
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
        <textarea name=details rows=3 maxlength=1000 ?disabled=${!!pending} .value=${draft.details}></textarea>
      </label>
      ${
        pending
          ? this.confirmStep(STRINGS.confirm(draft.type ? STRINGS.type[draft.type].label : '', organisation), STRINGS.confirmButton, () =>
              this.#file(),
            )
          : html`<div part=actions>
              <button class=primary type=submit data-key=${CONTINUE}>${STRINGS.next}</button>
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

  protected override renderTop(): TemplateResult {
    return this.draft
      ? this.#form(this.draft)
      : html`<button part=new type=button data-key=new @click=${() => this.#open()}>${STRINGS.newRequest}</button>`;
  }

  protected override renderRow(row: DataRequestRow): TemplateResult {
    const details = typeof row.scope === 'string' ? row.scope : Array.isArray(row.scope) ? row.scope.join(', ') : '';
    return html`<li part=request tabindex=-1 data-id=${row.id} data-key=${`row ${row.id}`}>
      <p><span part=organisation>${row.organisation.name}</span><span class=vh>: </span>
        <span part=type>${STRINGS.type[row.dsar_type]?.label ?? row.dsar_type}</span></p>
      ${details ? html`<p class=hint>${details}</p>` : nothing}
      <p part=meta>${STRINGS.status[row.status] ?? row.status} · ${STRINGS.sent(when(row.received_at))}</p>
      <p part=due class=${row.overdue ? 'overdue' : ''}>${this.#due(row)}</p>
      ${row.status === 'completed' && row.completion_note ? html`<p>${row.completion_note}</p>` : nothing}
      ${row.export_url ? html`<button part=download type=button @click=${() => this.#download(row)}>${STRINGS.download}</button>` : nothing}
    </li>`;
  }
}

/** A date as "12 March 2027" (the strings' locale, not the browser's), or the text as it came when it is not one. */
function when(iso: string): TemplateResult {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(STRINGS.locale, { dateStyle: 'long' });
  return html`<time datetime=${iso}>${text}</time>`;
}
