import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import type { AccessTokenProvider } from '../internal/access-token.js';
import { PersonList, type PersonListStatus, when } from '../internal/person-list.js';
import { personListStyles } from '../internal/person-list.styles.js';
import { dataOffersStyles } from './data-offers.styles.js';
import type { DataDealAnswer, DataLicenseRow, DataOfferRow, SvcDataOffersAnswerDetail } from './events.js';
import { EN } from './strings.js';

/**
 * Where the element stands: `idle` (no way to get a token, or no service URL yet), `loading`, `ready`, `empty`,
 * `signed-out` (the service or the token URL refused) or `error`.
 */
export type DataOffersStatus = PersonListStatus;

/** Gives the person's access token (the OAuth helper's `accessToken()`), asked before every request. */
export type DataOffersTokenProvider = AccessTokenProvider;

type Row = DataOfferRow | DataLicenseRow;
const STRINGS = EN;
const isOffer = (row: Row): row is DataOfferRow => 'rounds' in row;

/**
 * The signed-in person's data deals, from every organisation, inside any page. `view="offers"` (the default): the
 * offers they negotiate for their data (`GET /api/v1/me/data_offers`, scope `data_offers:read`), each with the data
 * it covers and the terms on the table in plain words; when the organisation answered with its own terms, Accept
 * (at once) or Decline (after a confirm step in place: focus moves to it, Escape cancels and focus goes back), `POST
 * .../accept|decline` (scope `data_offers:write`). `view="licenses"`: the licences organisations hold over their data
 * (`GET /api/v1/me/data_licenses`): who may use it, how often, under which agreement, until revoked; Revoke after a
 * confirm step. Each row is updated in place from the service's answer, and a polite live region says what happened.
 *
 * The token comes from `getAccessToken` (asked before every request), else `accessToken`, else `token-url`: a
 * same-origin URL the element POSTs to with the page's cookies for `{access_token, expires_in}`.
 *
 * @summary Lists the offers for the signed-in person's data and the licences over it, to accept, decline or revoke.
 *
 * @slot empty - Shown when there is nothing to list (default: one sentence).
 * @slot signed-out - Shown without a token, or when it was refused (default: one sentence).
 * @slot error - Shown when the list cannot be read (default: one sentence, and a retry button).
 *
 * @fires {SvcDataOffersAnswerEvent} svc-data-offers-answer - The service recorded the person's answer; detail has `action` (`accept`, `decline`, `revoke`), `id` and the updated `data_offer` or `data_license`.
 * @fires {SvcDataOffersErrorEvent} svc-error - The list could not be read or an answer failed; detail has `code` (`unauthorized`, `forbidden`, `network`, `http`, `invalid_configuration`), `message`, `fatal`, `recoverable_via`.
 *
 * @csspart base - The wrapper of everything else.
 * @csspart list - The list of offers or licences.
 * @csspart offer - One data offer.
 * @csspart license - One licence.
 * @csspart heading - The organisation and its application.
 * @csspart organisation - The organisation's name.
 * @csspart application - The application's name.
 * @csspart meta - Where the offer or licence stands, in plain words, and its dates.
 * @csspart categories - The data an offer covers.
 * @csspart terms - The terms on the table (or of the licence), one plain sentence each.
 * @csspart note - The organisation's note with its terms, or the reason a decline gave.
 * @csspart actions - The row's buttons.
 * @csspart accept - The button that accepts an organisation's terms.
 * @csspart decline - The button that declines them.
 * @csspart revoke - The button that revokes a licence.
 * @csspart confirm - The confirm step (a group named by its question).
 * @csspart confirm-button - The button that confirms (the one filled button).
 * @csspart cancel-button - The button that cancels it.
 * @csspart more - The button that loads the next page.
 * @csspart retry - The button that tries again after an error.
 * @csspart status - The live region announcing loading and what happened.
 *
 * @cssprop [--svc-data-offers-gap=.75rem] - Space between rows.
 * @cssprop [--svc-data-offers-border=1px solid color-mix(in srgb, currentColor 20%, transparent)] - Border of each row.
 * @cssprop [--svc-data-offers-radius=var(--svc-radius, 0.6rem)] - Corner radius of rows and buttons.
 * @cssprop [--svc-data-offers-accent=var(--svc-accent, #2f4fb5)] - Colour of the buttons.
 * @cssprop [--svc-data-offers-color=inherit] - Text colour.
 * @cssprop [--svc-data-offers-font=400 100%/1.5 var(--svc-font-family, system-ui, …)] - Font (its own stack, not the page's).
 */
export class SvcDataOffers extends PersonList<Row, DataDealAnswer> {
  static override styles = [personListStyles('data-offers'), dataOffersStyles];

  static override properties: PropertyDeclarations = {
    view: { reflect: true },
  };

  /** What is listed: `offers` (the default), or `licenses` (the licences over the person's data). */
  view?: string;

  /** The offers or licences shown, in order, as they read now. */
  get items(): readonly Row[] {
    return this.rows;
  }

  get #licenses(): boolean {
    return this.view === 'licenses';
  }

  protected override get listPath(): string {
    return this.#licenses ? '/api/v1/me/data_licenses' : '/api/v1/me/data_offers';
  }

  protected override get listKey(): string {
    return this.#licenses ? 'data_licenses' : 'data_offers';
  }

  protected override get strings(): typeof STRINGS {
    return this.#licenses ? { ...STRINGS, empty: STRINGS.emptyLicenses } : STRINGS;
  }

  /** Sends the answer (accept at once; decline and revoke once confirmed), then shows the row as the service answers. */
  async #answer(row: Row, action: DataDealAnswer, from: string): Promise<void> {
    if (action === 'accept') {
      if (this.pending?.busy) return;
      this.pending = { row: row.id, ask: action, from, busy: true };
      this.announcement = STRINGS.working;
    } else if (!this.begin(STRINGS.working)) return;
    const path = `${this.listPath}/${encodeURIComponent(row.id)}/${action}`;
    const envelope = action === 'revoke' ? 'data_license' : 'data_offer';
    const updated = await this.act<Row>(path, {}, from, envelope);
    if (!updated) return;
    this.replaceRow(updated);
    this.announcement = STRINGS.done[action](row.organisation.name);
    const detail: SvcDataOffersAnswerDetail = { action, id: row.id, [envelope]: updated };
    this.dispatchEvent(new CustomEvent('svc-data-offers-answer', { bubbles: true, composed: true, detail }));
    await this.focusKey(from);
  }

  #button(row: Row, action: DataDealAnswer, label: string, named: string): TemplateResult {
    const key = `${action} ${row.id}`;
    const busy = this.pending?.busy ?? false;
    const click = () => (action === 'accept' ? this.#answer(row, action, key) : this.confirm(row, action, key));
    return html`<button part=${action} type=button data-key=${key} aria-label=${named} ?disabled=${busy} @click=${click}>${label}</button>`;
  }

  #terms(terms: Record<string, unknown>): TemplateResult | typeof nothing {
    const entries = Object.entries(terms);
    if (!entries.length) return nothing;
    return html`<ul part=terms>${entries.map(([key, value]) => html`<li>${STRINGS.term(key, value)}</li>`)}</ul>`;
  }

  #heading(row: Row): TemplateResult {
    return html`<p part=heading><span part=organisation>${row.organisation.name}</span><span class=vh>: </span>
      <span part=application>${row.application.name}</span></p>`;
  }

  #confirmFor(row: Row): TemplateResult | typeof nothing {
    const pending = this.pending?.row === row.id && this.pending.ask !== 'accept' ? this.pending : undefined;
    if (!pending) return nothing;
    const revoke = pending.ask === 'revoke';
    const question = revoke ? STRINGS.confirmRevoke(row.organisation.name) : STRINGS.confirmDecline(row.organisation.name);
    return this.confirmStep(question, revoke ? STRINGS.yesRevoke : STRINGS.yesDecline, () => this.#answer(row, pending.ask, pending.from));
  }

  #offer(offer: DataOfferRow): TemplateResult {
    const last = offer.rounds.at(-1);
    const note = offer.decline_reason
      ? STRINGS.declineReason(offer.decline_reason)
      : last?.by === 'organisation' && last.message && offer.answerable
        ? STRINGS.theirMessage(last.message)
        : '';
    const open = offer.turn !== null && offer.status !== 'draft' && offer.expires_at;
    return html`<li part=offer tabindex=-1 data-key=${`row ${offer.id}`}>
      ${this.#heading(offer)}
      <p part=meta>${STRINGS.offerStatus[offer.status] ?? offer.status}${
        open
          ? html` · ${STRINGS.answerBy(when(offer.expires_at!))}`
          : offer.decided_at
            ? html` · ${STRINGS.decided(when(offer.decided_at))}`
            : nothing
      }</p>
      <p part=categories>${STRINGS.categories(offer.policy.data_categories)}</p>
      ${this.#terms(offer.terms)}
      ${note ? html`<p part=note>${note}</p>` : nothing}
      ${
        offer.answerable
          ? html`<div part=actions>
              ${this.#button(offer, 'accept', STRINGS.accept, STRINGS.acceptNamed(offer.organisation.name))}
              ${this.#button(offer, 'decline', STRINGS.decline, STRINGS.declineNamed(offer.organisation.name))}
            </div>`
          : nothing
      }
      ${this.#confirmFor(offer)}
    </li>`;
  }

  #license(license: DataLicenseRow): TemplateResult {
    const signed = license.agreement.signed_at ? when(license.agreement.signed_at) : null;
    return html`<li part=license tabindex=-1 data-key=${`row ${license.id}`}>
      ${this.#heading(license)}
      <p part=meta>${STRINGS.licenseStatus[license.status] ?? license.status}${
        license.revoked_at ? html` · ${STRINGS.revokedOn(when(license.revoked_at))}` : nothing
      }${license.last_accessed_at ? html` · ${STRINGS.lastUsed(when(license.last_accessed_at))}` : nothing}</p>
      <p part=categories>${STRINGS.uses(license)}</p>
      <p part=note>${STRINGS.underAgreement(license.agreement.title, signed)}</p>
      ${this.#terms(license.terms)}
      ${
        license.revocable
          ? html`<div part=actions>${this.#button(license, 'revoke', STRINGS.revoke, STRINGS.revokeNamed(license.organisation.name))}</div>`
          : nothing
      }
      ${this.#confirmFor(license)}
    </li>`;
  }

  protected override renderRow(row: Row): TemplateResult {
    return isOffer(row) ? this.#offer(row) : this.#license(row);
  }
}
