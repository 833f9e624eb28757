import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import type { AccessTokenProvider } from '../internal/access-token.js';
import { PersonList, type PersonListStatus, when } from '../internal/person-list.js';
import { personListStyles } from '../internal/person-list.styles.js';
import { agreementsStyles } from './agreements.styles.js';
import type { AgreementRow, AgreementsAction, CollaborationRow, SvcAgreementsChangeDetail } from './events.js';
import { type AgreementsView, EN } from './strings.js';

/**
 * Where the element stands: `idle` (no way to get a token, or no service URL yet), `loading`, `ready` (rows
 * shown), `empty` (none), `signed-out` (the service or the token URL refused) or `error`.
 */
export type AgreementsStatus = PersonListStatus;

/** Gives the person's access token (the OAuth helper's `accessToken()`), asked before every request. */
export type AgreementsTokenProvider = AccessTokenProvider;

export type { AgreementsView };

type Row = AgreementRow | CollaborationRow;

const STRINGS = EN;
const AGREEMENTS = '/api/v1/me/agreements';
const COLLABORATIONS = '/api/v1/me/collaborations';
const VIEWS: readonly AgreementsView[] = ['agreements', 'multi_party', 'collaborations'];

const isAgreement = (row: Row): row is AgreementRow => 'document' in row;

/**
 * The signed-in person's agreements and collaborations, from every organisation, inside any page, with their own
 * access token (scope `agreements:read`). `view` chooses the list: `agreements` (default: every agreement the person
 * is a party of, `GET /api/v1/me/agreements`), `multi_party` (those of quorum two or more, with each party's
 * outcome) or `collaborations` (`GET /api/v1/me/collaborations`: their membership and the data they share).
 *
 * Each agreement shows its document, to read in full. "Sign…" and "Decline…" ask first, in place, saying what is
 * signed (the title, the organisation, the document's fingerprint; focus moves to the question, Escape cancels and
 * focus goes back), then `POST .../{id}/sign|decline` (scope `agreements:write`; only the person themself, never a
 * delegate). A collaboration's "Sign…" and "Leave…" work the same way. The row is updated from the answer and a
 * polite live region says what happened.
 *
 * The token comes from `getAccessToken` (asked before every request), else `accessToken`, else `token-url`: a
 * same-origin URL the element POSTs to with the page's cookies for `{access_token, expires_in}`.
 *
 * @summary Lists the signed-in person's agreements (or multi-party agreements, or collaborations) and lets them sign, decline or leave.
 *
 * @slot empty - Shown when the list is empty (default: one sentence).
 * @slot signed-out - Shown without a token, or when it was refused (default: one sentence).
 * @slot error - Shown when the list cannot be read (default: one sentence, and a retry button).
 *
 * @fires {SvcAgreementsChangeEvent} svc-agreements-change - The service recorded an action; detail has `kind` (`agreement`, `collaboration`), `id`, `action` (`sign`, `decline`, `leave`) and the updated `agreement` or `collaboration`.
 * @fires {SvcAgreementsErrorEvent} svc-error - The list could not be read or an action failed; detail has `code` (`unauthorized`, `forbidden`, `network`, `http`, `invalid_configuration`), `message`, `fatal`, `recoverable_via`.
 *
 * @csspart base - The wrapper of everything else.
 * @csspart list - The list.
 * @csspart agreement - One agreement.
 * @csspart collaboration - One collaboration.
 * @csspart heading - The organisation and the title.
 * @csspart organisation - The organisation's name.
 * @csspart title - The agreement's or the collaboration's title.
 * @csspart meta - The status, the quorum or the members, and the deadline.
 * @csspart you - The person's own part: their signature, or their membership and what they share.
 * @csspart parties - The parties of a multi-party agreement and each one's outcome.
 * @csspart terms - A collaboration's terms.
 * @csspart document - The document of an agreement (a disclosure, open while its confirm step is).
 * @csspart document-text - The document's text.
 * @csspart fingerprint - The document's SHA-256.
 * @csspart actions - A row's buttons (and those of a confirm step).
 * @csspart sign - The button that asks to sign (an agreement or a collaboration).
 * @csspart decline - The button that asks to decline an agreement.
 * @csspart leave - The button that asks to leave a collaboration.
 * @csspart confirm - The confirm step (a group named by its question).
 * @csspart confirm-button - The button that confirms (the one filled button).
 * @csspart cancel-button - The button that cancels it.
 * @csspart more - The button that loads the next page.
 * @csspart retry - The button that tries again after an error.
 * @csspart status - The live region announcing loading and what happened.
 *
 * @cssprop [--svc-agreements-gap=.75rem] - Space between rows.
 * @cssprop [--svc-agreements-border=1px solid color-mix(in srgb, currentColor 20%, transparent)] - Border of each row and of the document.
 * @cssprop [--svc-agreements-radius=var(--svc-radius, 0.6rem)] - Corner radius of rows and buttons.
 * @cssprop [--svc-agreements-accent=var(--svc-accent, #2f4fb5)] - Colour of the buttons.
 * @cssprop [--svc-agreements-color=inherit] - Text colour.
 * @cssprop [--svc-agreements-font=400 100%/1.5 var(--svc-font-family, system-ui, …)] - Font (its own stack, not the page's).
 */
export class SvcAgreements extends PersonList<Row, AgreementsAction> {
  static override styles = [personListStyles('agreements'), agreementsStyles];

  static override properties: PropertyDeclarations = {
    view: { reflect: true },
  };

  /** Which list: `agreements` (default), `multi_party` or `collaborations`. */
  view: AgreementsView = 'agreements';

  /** The rows shown, in order, as they read now (agreements, or collaborations in that view). */
  get items(): readonly Row[] {
    return this.rows;
  }

  get #view(): AgreementsView {
    return VIEWS.includes(this.view) ? this.view : 'agreements';
  }

  protected override get listPath(): string {
    return this.#view === 'collaborations' ? COLLABORATIONS : AGREEMENTS;
  }

  protected override get listKey(): string {
    return this.#view === 'collaborations' ? 'collaborations' : 'agreements';
  }

  protected override get strings() {
    return STRINGS.lists[this.#view];
  }

  protected override filters(params: URLSearchParams): void {
    if (this.#view === 'multi_party') params.set('multi_party', 'true');
  }

  /** The confirmed action: the POST, then the row as the service answers it. */
  async #act(): Promise<void> {
    const row = this.rows.find((shown) => shown.id === this.pending?.row);
    const action = this.pending?.ask;
    if (!row || !action) return;
    const agreement = isAgreement(row);
    const title = agreement ? row.title : STRINGS.collaborationTitle(row);
    const pending = this.begin(
      { sign: agreement ? STRINGS.signing : STRINGS.joining, decline: STRINGS.declining, leave: STRINGS.leaving }[action],
    );
    if (!pending) return;
    const path = `${agreement ? AGREEMENTS : COLLABORATIONS}/${encodeURIComponent(row.id)}/${action}`;
    const envelope = agreement ? 'agreement' : 'collaboration';
    const updated = await this.act<Row>(path, {}, pending.from, envelope);
    if (!updated) return;
    this.replaceRow(updated);
    const said = agreement
      ? { sign: STRINGS.signed, decline: STRINGS.declined, leave: STRINGS.left }
      : { sign: STRINGS.joined, decline: STRINGS.left, leave: STRINGS.left };
    this.announcement = said[action](title);
    const detail: SvcAgreementsChangeDetail = agreement
      ? { kind: 'agreement', id: row.id, action, agreement: updated as AgreementRow }
      : { kind: 'collaboration', id: row.id, action, collaboration: updated as CollaborationRow };
    this.dispatchEvent(new CustomEvent('svc-agreements-change', { bubbles: true, composed: true, detail }));
    // The buttons are gone once done, so focus goes to the row.
    await this.focusKey(pending.from);
  }

  #button(row: Row, action: AgreementsAction, label: string, named: string): TemplateResult {
    const key = `${action} ${row.id}`;
    return html`<button part=${action} type=button data-key=${key} ?disabled=${this.pending?.busy === true}
      aria-label=${named} @click=${() => this.confirm(row, action, key)}>${label}</button>`;
  }

  #agreement(row: AgreementRow): TemplateResult {
    const pending = this.pending?.row === row.id ? this.pending : undefined;
    const org = row.organisation.name;
    return html`<li part=agreement tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=heading><span part=organisation>${org}</span><span class=vh>: </span> <span part=title>${row.title}</span></p>
      <p part=meta>${STRINGS.agreementStatus[row.status] ?? row.status} · ${STRINGS.quorum(row)}${
        row.can_sign && row.expires_at ? html` · ${STRINGS.until(when(row.expires_at))}` : nothing
      }</p>
      <p part=you>${STRINGS.you[row.you.status] ?? row.you.status}${row.you.decided_at ? html` · ${when(row.you.decided_at)}` : nothing}</p>
      ${
        row.multi_party
          ? html`<ul part=parties>${row.parties.map(
              (p) =>
                html`<li>${p.is_you ? STRINGS.yourself : (p.name ?? STRINGS.someone)}: ${STRINGS.partyStatus[p.status] ?? p.status}</li>`,
            )}</ul>`
          : nothing
      }
      <details part=document ?open=${pending?.ask === 'sign'}>
        <summary>${STRINGS.document}</summary>
        <pre part=document-text>${row.document.text}</pre>
        <p part=fingerprint>${STRINGS.fingerprint(row.document.sha256)}</p>
      </details>
      ${
        row.can_sign
          ? html`<div part=actions>${this.#button(row, 'sign', STRINGS.sign, STRINGS.signNamed(row.title))}${this.#button(
              row,
              'decline',
              STRINGS.decline,
              STRINGS.declineNamed(row.title),
            )}</div>`
          : nothing
      }
      ${
        pending?.ask === 'sign'
          ? this.confirmStep(STRINGS.confirmSign(row.title, org, row.document.sha256), STRINGS.yesSign, () => this.#act())
          : pending?.ask === 'decline'
            ? this.confirmStep(STRINGS.confirmDecline(row.title, org), STRINGS.yesDecline, () => this.#act())
            : nothing
      }
    </li>`;
  }

  #collaboration(row: CollaborationRow): TemplateResult {
    const pending = this.pending?.row === row.id ? this.pending : undefined;
    const title = STRINGS.collaborationTitle(row);
    const org = row.organisation.name;
    const terms = Object.entries(row.terms).filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean');
    const { membership: m } = row;
    return html`<li part=collaboration tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=heading><span part=organisation>${org}</span><span class=vh>: </span> <span part=title>${title}</span></p>
      <p part=meta>${STRINGS.collaborationStatus[row.status] ?? row.status} · ${STRINGS.members(row)} · ${when(row.created_at)}</p>
      <p part=you>${STRINGS.role[m.role] ?? m.role}, ${STRINGS.membership[m.status] ?? m.status} · ${STRINGS.shares(m.shared_data_categories)}</p>
      ${terms.length ? html`<ul part=terms>${terms.map(([k, v]) => html`<li>${k}: ${String(v)}</li>`)}</ul>` : nothing}
      ${
        row.can_sign || row.can_leave
          ? html`<div part=actions>${row.can_sign ? this.#button(row, 'sign', STRINGS.join, STRINGS.joinNamed(title)) : nothing}${
              row.can_leave ? this.#button(row, 'leave', STRINGS.leave, STRINGS.leaveNamed(title)) : nothing
            }</div>`
          : nothing
      }
      ${
        pending?.ask === 'sign'
          ? this.confirmStep(STRINGS.confirmJoin(title, org, m.shared_data_categories), STRINGS.yesJoin, () => this.#act())
          : pending?.ask === 'leave'
            ? this.confirmStep(STRINGS.confirmLeave(title, org), STRINGS.yesLeave, () => this.#act())
            : nothing
      }
    </li>`;
  }

  protected override renderRow(row: Row): TemplateResult {
    return isAgreement(row) ? this.#agreement(row) : this.#collaboration(row);
  }
}
