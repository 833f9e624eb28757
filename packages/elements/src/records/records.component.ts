import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import type { RecordPurpose, RecordRow, SvcRecordsWithdrawDetail } from '../events/svc-records-withdraw.js';
import type { AccessTokenProvider } from '../internal/access-token.js';
import { PersonList, type PersonListStatus, when } from '../internal/person-list.js';
import { personListStyles } from '../internal/person-list.styles.js';
import { recordsStyles } from './records.styles.js';
import { EN } from './strings.js';

/**
 * Where the element stands: `idle` (no way to get a token, or no service URL yet), `loading`, `ready` (records
 * shown), `empty` (no records), `signed-out` (the service or the token URL refused) or `error`.
 */
export type RecordsStatus = PersonListStatus;

/** Gives the person's access token (the OAuth helper's `accessToken()`), asked before every request. */
export type RecordsTokenProvider = AccessTokenProvider;

const STRINGS = EN;

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
export class SvcRecords extends PersonList<RecordRow, RecordPurpose[]> {
  static override styles = [personListStyles('records'), recordsStyles];

  static override properties: PropertyDeclarations = {
    recordStatus: { attribute: 'record-status' },
  };

  /** Only records that read with this status now: `fulfilled`, `revoked` or `expired`. */
  recordStatus?: string;

  /** The records shown, in order, as they read now. */
  get records(): readonly RecordRow[] {
    return this.rows;
  }

  protected override get listPath(): string {
    return '/api/v1/me/consent_records';
  }

  protected override get listKey(): string {
    return 'consent_records';
  }

  protected override get strings(): typeof STRINGS {
    return STRINGS;
  }

  protected override filters(params: URLSearchParams): void {
    if (this.recordStatus) params.set('status', this.recordStatus);
  }

  /** The confirmed withdrawal: the POST, then the record as the service answers it. */
  async #withdraw(): Promise<void> {
    const pending = this.begin(STRINGS.withdrawing);
    const record = this.rows.find((row) => row.id === pending?.row);
    if (!pending || !record) return;
    const purposes = pending.ask.map((p) => p.key);
    const path = `/api/v1/me/consent_records/${encodeURIComponent(record.id)}/withdraw`;
    const updated = await this.act<RecordRow>(path, { purposes }, pending.from, 'consent_record');
    if (!updated) return;
    this.replaceRow(updated);
    this.announcement = STRINGS.withdrawn(
      pending.ask.map((p) => p.label),
      record.organisation.name,
    );
    const detail: SvcRecordsWithdrawDetail = { record_id: record.id, purposes, consent_record: updated };
    this.dispatchEvent(new CustomEvent('svc-records-withdraw', { bubbles: true, composed: true, detail }));
    await this.focusKey(pending.from);
  }

  #purpose(record: RecordRow, purpose: RecordPurpose): TemplateResult {
    const key = `one ${record.id} ${purpose.key}`;
    return html`<li part=purpose>
      <span><span part=purpose-label>${purpose.label}</span><span part=outcome>${STRINGS.outcome(purpose)}</span></span>
      ${
        purpose.withdrawable
          ? html`<button part=withdraw type=button data-key=${key} aria-label=${STRINGS.withdrawNamed(purpose.label)}
              @click=${() => this.confirm(record, [purpose], key)}>${STRINGS.withdraw}</button>`
          : nothing
      }
    </li>`;
  }

  protected override renderRow(record: RecordRow): TemplateResult {
    const withdrawable = record.purposes.filter((p) => p.withdrawable);
    const all = `all ${record.id}`;
    const pending = this.pending?.row === record.id ? this.pending : undefined;
    let question = '';
    if (pending) {
      const labels = pending.ask.map((p) => p.label);
      question =
        labels.length === 1 && !pending.from.startsWith('all')
          ? STRINGS.confirmOne(labels[0]!, record.organisation.name)
          : STRINGS.confirmAll(labels, record.organisation.name);
    }
    return html`<li part=record tabindex=-1 data-key=${`row ${record.id}`}>
      <p part=heading><span part=organisation>${record.organisation.name}</span><span class=vh>: </span>
        <span part=title>${record.title ?? record.application.name}</span></p>
      <p part=meta>${STRINGS.status[record.status] ?? record.status} · ${STRINGS.given(when(record.captured_at))}${
        record.expires_at ? html` · ${STRINGS.until(when(record.expires_at))}` : nothing
      }</p>
      <ul part=purposes>${record.purposes.map((purpose) => this.#purpose(record, purpose))}</ul>
      ${
        withdrawable.length
          ? html`<button part=withdraw-all type=button data-key=${all} aria-label=${STRINGS.withdrawAllNamed(record.organisation.name)}
              @click=${() => this.confirm(record, withdrawable, all)}>${STRINGS.withdrawAll}</button>`
          : nothing
      }
      ${pending ? this.confirmStep(question, STRINGS.confirm, () => this.#withdraw()) : nothing}
    </li>`;
  }
}
