import { html, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import type { AccessTokenProvider } from '../internal/access-token.js';
import { httpFailure, PersonList, type PersonListStatus, when } from '../internal/person-list.js';
import { personListStyles } from '../internal/person-list.styles.js';
import type { SvcVouchesChangeDetail, TrustScoreRow, VouchChange, VouchesErrorDetail, VouchRow } from './events.js';
import { EN, EN_SCORES } from './strings.js';
import { vouchesStyles } from './vouches.styles.js';

/**
 * Where the element stands: `idle` (no way to get a token, or no service URL yet), `loading`, `ready` (rows shown),
 * `empty` (none), `signed-out` (the service or the token URL refused) or `error`.
 */
export type VouchesStatus = PersonListStatus;

/** Gives the person's access token (the OAuth helper's `accessToken()`), asked before every request. */
export type VouchesTokenProvider = AccessTokenProvider;

type Row = VouchRow | TrustScoreRow;

const API = '/api/v1/me/vouches';
const SCORES = '/api/v1/me/trust_scores';
/** What the API takes as a vouchee: a person's or an agent identity's id. */
const SUBJECT_ID = /^(?:prs|agt)_[A-Za-z0-9_]{1,60}$/;
const ERROR_ID = 'svc-vouches-vouchee-error';

/**
 * The signed-in person's vouches and trust scores, inside any page, with their access token. `view="vouches"` (the
 * default): the vouches they gave and received at every organisation that knows them (`GET /api/v1/me/vouches`,
 * scope `vouches:read`), a small form to vouch for someone by the id on that person's (or agent's) page (`POST
 * /api/v1/me/vouches`, scope `vouches:write`; its errors are tied to the field), and "Withdraw" on each active vouch
 * they gave, with a confirm step in place (focus moves to it, Escape cancels and focus goes back), then `POST
 * .../{id}/revoke`. `view="trust_scores"`: their score at each organisation (`GET /api/v1/me/trust_scores`) with what
 * moved it in plain words, and their id there, to give someone who will vouch for them. A polite live region says
 * what happened.
 *
 * The token comes from `getAccessToken` (asked before every request), else `accessToken`, else `token-url` (a
 * same-origin URL answering a POST with the page's cookies with `{access_token, expires_in}`).
 *
 * @summary Lists the signed-in person's vouches (or trust scores) and lets them vouch for someone or withdraw a vouch.
 *
 * @slot empty - Shown when there is nothing to list (default: one sentence).
 * @slot signed-out - Shown without a token, or when it was refused (default: one sentence).
 * @slot error - Shown when the list cannot be read (default: one sentence, and a retry button).
 *
 * @fires {SvcVouchesChangeEvent} svc-vouches-change - The service recorded a vouch the person gave or a withdrawal they confirmed; detail has `vouch_id`, `action` (`vouch`, `revoke`) and the `vouch`.
 * @fires {SvcVouchesErrorEvent} svc-error - The list could not be read or an action failed; detail has `code`, `message`, `fatal`, `recoverable_via`.
 *
 * @csspart base - The wrapper of everything else.
 * @csspart new - The button that opens the vouch form.
 * @csspart form - The vouch form.
 * @csspart form-title - The form's heading.
 * @csspart field-error - Why the id cannot be vouched for (tied to its field).
 * @csspart submit - The form's Vouch button.
 * @csspart actions - The buttons of the form, and of the confirm step.
 * @csspart cancel-button - The buttons that close the form or the confirm step.
 * @csspart list - The list of vouches or scores.
 * @csspart vouch - One vouch.
 * @csspart organisation - The organisation's name.
 * @csspart heading - Who vouches for whom.
 * @csspart statement - What the voucher said.
 * @csspart meta - The vouch's status and dates.
 * @csspart withdraw - The button that withdraws a vouch the person gave.
 * @csspart confirm - The confirm step (a group named by its question).
 * @csspart confirm-button - The button that confirms the withdrawal (the one filled button).
 * @csspart intro - What a trust score is for (the scores view).
 * @csspart trust-score - One organisation's score.
 * @csspart score - The score, of 100.
 * @csspart subject - The person's id at that organisation.
 * @csspart factors - What moved the score.
 * @csspart factor - One factor, in plain words, and what it counted.
 * @csspart more - The button that loads the next page.
 * @csspart retry - The button that tries again after an error.
 * @csspart status - The live region announcing loading and what happened.
 *
 * @cssprop [--svc-vouches-gap=.75rem] - Space between rows.
 * @cssprop [--svc-vouches-border=1px solid color-mix(in srgb, currentColor 20%, transparent)] - Border of each row and of the form.
 * @cssprop [--svc-vouches-radius=var(--svc-radius, 0.6rem)] - Corner radius of rows and buttons.
 * @cssprop [--svc-vouches-accent=var(--svc-accent, #2f4fb5)] - Colour of the buttons.
 * @cssprop [--svc-vouches-error=#b3261e] - Colour of the form's error.
 * @cssprop [--svc-vouches-color=inherit] - Text colour.
 * @cssprop [--svc-vouches-font=400 100%/1.5 var(--svc-font-family, system-ui, …)] - Font (its own stack, not the page's).
 */
export class SvcVouches extends PersonList<Row, VouchChange> {
  static override styles = [personListStyles('vouches'), vouchesStyles];

  static override properties: PropertyDeclarations = {
    view: {},
    formOpen: { attribute: false },
    fieldError: { attribute: false },
    sending: { attribute: false },
  };

  /** `vouches` (default): what the person gave and received; `trust_scores`: their score at each organisation. */
  view?: string;

  private formOpen = false;
  private fieldError = '';
  private sending = false;
  /** The status of the service's last refusal, so a 422 is said at the field. */
  #refused = 0;

  /** The vouches shown, most recent first (empty in the trust scores view). */
  get vouches(): readonly VouchRow[] {
    return this.#scores() ? [] : (this.rows as VouchRow[]);
  }

  /** The trust scores shown, one per organisation (empty in the vouches view). */
  get trustScores(): readonly TrustScoreRow[] {
    return this.#scores() ? (this.rows as TrustScoreRow[]) : [];
  }

  #scores(): boolean {
    return this.view === 'trust_scores';
  }

  protected override get listPath(): string {
    return this.#scores() ? SCORES : API;
  }

  protected override get listKey(): string {
    return this.#scores() ? 'trust_scores' : 'vouches';
  }

  protected override get strings(): typeof EN | typeof EN_SCORES {
    return this.#scores() ? EN_SCORES : EN;
  }

  /** A score is keyed in the list by the person's id at its organisation. */
  protected override received(page: Record<string, unknown>): void {
    if (!Array.isArray(page.trust_scores)) return;
    for (const score of page.trust_scores as TrustScoreRow[]) score.id ??= score.subject_id;
  }

  /** A 404 or 422 is the action's own (no such vouch, nobody to vouch for): `not_found`, `invalid`. */
  protected override refusal(status: number, message: string | undefined): { failed: VouchesErrorDetail; signedOut: boolean } {
    this.#refused = status;
    const { failed, signedOut } = httpFailure(status, message);
    const code = status === 404 ? 'not_found' : status === 422 ? 'invalid' : (failed.code as VouchesErrorDetail['code']);
    return { failed: { ...failed, code }, signedOut };
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    // Signed out, failed or another view: the form goes with the list.
    if (this.phase === 'idle' || this.phase === 'signed-out' || this.phase === 'error' || this.#scores()) this.formOpen = false;
  }

  #changed(action: VouchChange, vouch: VouchRow): void {
    const detail: SvcVouchesChangeDetail = { vouch_id: vouch.id, action, vouch };
    this.dispatchEvent(new CustomEvent('svc-vouches-change', { bubbles: true, composed: true, detail }));
  }

  async #open(): Promise<void> {
    this.formOpen = true;
    this.fieldError = '';
    this.announcement = '';
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part=form] input')?.focus();
  }

  async #close(): Promise<void> {
    if (this.sending) return;
    this.formOpen = false;
    this.announcement = EN.cancelled;
    await this.focusKey('new');
  }

  /** Says what is wrong at the field, and puts focus there. */
  async #invalid(message: string): Promise<void> {
    this.fieldError = message;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part=form] input')?.focus();
  }

  /**
   * The form's Vouch: the id checked here first, then the POST; the vouch goes first in the list. The button stays
   * enabled while it runs (a second press does nothing) so focus can come back to it when the service refuses.
   */
  async #vouch(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this.sending) return;
    const data = new FormData(event.target as HTMLFormElement);
    const vouchee = String(data.get('vouchee_id') ?? '').trim();
    const statement = String(data.get('statement') ?? '').trim();
    if (!SUBJECT_ID.test(vouchee)) return this.#invalid(EN.badId);
    this.fieldError = '';
    this.sending = true;
    this.announcement = EN.sending;
    this.#refused = 0;
    const body = { vouchee_id: vouchee, ...(statement ? { statement } : {}) };
    const vouch = await this.act<VouchRow>(API, body, 'submit', 'vouch');
    this.sending = false;
    if (!vouch) {
      if (this.#refused === 422) await this.#invalid(EN.refused);
      return;
    }
    const already = this.rows.some((row) => row.id === vouch.id);
    this.addRow(vouch);
    this.formOpen = false;
    const name = EN.counterpart(vouch);
    this.announcement = already ? EN.already(name, vouch.organisation.name) : EN.vouched(name, vouch.organisation.name);
    this.#changed('vouch', vouch);
    await this.focusKey(`row ${vouch.id}`);
  }

  /** The confirmed withdrawal: the POST, then the vouch as the service answers it. */
  async #revoke(): Promise<void> {
    const pending = this.begin(EN.withdrawing);
    const row = this.rows.find((r) => r.id === pending?.row) as VouchRow | undefined;
    if (!pending || !row) return;
    const vouch = await this.act<VouchRow>(`${API}/${encodeURIComponent(row.id)}/revoke`, {}, pending.from, 'vouch');
    if (!vouch) return;
    this.replaceRow(vouch);
    this.announcement = EN.withdrawn(EN.counterpart(vouch), vouch.organisation.name);
    this.#changed('revoke', vouch);
    await this.focusKey(pending.from);
  }

  #form(): TemplateResult {
    const invalid = !!this.fieldError;
    return html`<form part=form aria-labelledby=svc-vouches-form-title novalidate @submit=${this.#vouch}>
      <p part=form-title id=svc-vouches-form-title>${EN.formTitle}</p>
      <label for=svc-vouches-vouchee>${EN.vouchee}</label>
      <span class=hint id=svc-vouches-vouchee-hint>${EN.voucheeHint}</span>
      <input id=svc-vouches-vouchee name=vouchee_id required autocomplete=off spellcheck=false maxlength=64
        aria-invalid=${invalid ? 'true' : 'false'}
        aria-describedby=${invalid ? `${ERROR_ID} svc-vouches-vouchee-hint` : 'svc-vouches-vouchee-hint'}>
      ${invalid ? html`<p part=field-error id=${ERROR_ID}>${this.fieldError}</p>` : nothing}
      <label for=svc-vouches-statement>${EN.statement}</label>
      <textarea id=svc-vouches-statement name=statement rows=3 maxlength=500></textarea>
      <div part=actions>
        <button part=submit class=primary type=submit data-key=submit aria-busy=${this.sending ? 'true' : 'false'}>${EN.submit}</button>
        <button part=cancel-button type=button @click=${() => this.#close()}>${EN.cancel}</button>
      </div>
    </form>`;
  }

  protected override renderTop(): unknown {
    if (this.#scores()) return html`<p part=intro>${EN_SCORES.intro}</p>`;
    return this.formOpen ? this.#form() : html`<button part=new type=button data-key=new @click=${() => this.#open()}>${EN.open}</button>`;
  }

  #score(row: TrustScoreRow): TemplateResult {
    return html`<li part=trust-score tabindex=-1 data-key=${`row ${row.id}`}>
      <p><span part=organisation>${row.organisation.name}</span><span part=score>${EN_SCORES.score(row.score)}</span></p>
      <p part=subject>${EN_SCORES.yourId} <code>${row.subject_id}</code></p>
      <ul part=factors>${row.factors.map(
        (f) => html`<li part=factor><span>${f.description}</span> <span class=hint>${EN_SCORES.counted(f)}</span></li>`,
      )}</ul>
    </li>`;
  }

  protected override renderRow(row: Row): TemplateResult {
    if (!('direction' in row)) return this.#score(row);
    const key = `withdraw ${row.id}`;
    const name = EN.counterpart(row);
    const pending = this.pending?.row === row.id;
    return html`<li part=vouch tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=organisation>${row.organisation.name}</p>
      <p part=heading>${EN.heading(row)}</p>
      ${row.statement ? html`<p part=statement>“${row.statement}”</p>` : nothing}
      <p part=meta>${EN.status[row.status] ?? row.status} · ${EN.given(when(row.created_at))}${
        row.revoked_at ? html` · ${EN.withdrawnOn(when(row.revoked_at))}` : nothing
      }</p>
      ${
        row.direction === 'given' && row.status === 'active'
          ? html`<button part=withdraw type=button data-key=${key} aria-label=${EN.withdrawNamed(name)}
              @click=${() => this.confirm(row, 'revoke', key)}>${EN.withdraw}</button>`
          : nothing
      }
      ${pending ? this.confirmStep(EN.confirm(name, row.organisation.name), EN.confirmButton, () => this.#revoke()) : nothing}
    </li>`;
  }
}
