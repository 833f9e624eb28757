import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import type { DelegationChange, DelegationRow, SvcDelegationsChangeDetail } from '../events/svc-delegations-change.js';
import type { AccessTokenProvider } from '../internal/access-token.js';
import { PersonList, type PersonListStatus, when } from '../internal/person-list.js';
import { personListStyles } from '../internal/person-list.styles.js';
import { delegationsStyles } from './delegations.styles.js';
import { EN } from './strings.js';

/**
 * Where the element stands: `idle` (no way to get a token, or no service URL yet), `loading`, `ready` (grants
 * shown), `empty` (no grants), `signed-out` (the service or the token URL refused) or `error`.
 */
export type DelegationsStatus = PersonListStatus;

/** Gives the person's access token (the OAuth helper's `accessToken()`), asked before every request. */
export type DelegationsTokenProvider = AccessTokenProvider;

const STRINGS = EN;
const API = '/api/v1/me/delegations';

/**
 * Who may act for the signed-in person: the delegation grants they made, to a person or an agent, from every
 * organisation (`GET /api/v1/me/delegations` with their access token, scope `delegations:read`), each with its
 * bounds in plain words ("Up to 500.00 EUR per action", "Only: calendar.read, mail.send"). "Pause" and "Resume" act
 * at once; "Revoke" asks first, in place (focus moves to it, Escape cancels and focus goes back); each is `POST
 * .../{id}/{suspend|resume|revoke}` (scope `delegations:write`), the grant is updated from the answer and a polite
 * live region says what happened. A revoked grant stops the delegate's tokens at once.
 *
 * The token comes from `getAccessToken` (asked before every request), else `accessToken`, else `token-url`: a
 * same-origin URL the element POSTs to with the page's cookies for `{access_token, expires_in}`.
 *
 * @summary Lists who may act for the signed-in person, with their bounds, and lets them pause, resume or revoke it.
 *
 * @slot empty - Shown when the person made no grants (default: one sentence).
 * @slot signed-out - Shown without a token, or when it was refused (default: one sentence).
 * @slot error - Shown when the grants cannot be read (default: one sentence, and a retry button).
 *
 * @fires {SvcDelegationsChangeEvent} svc-delegations-change - The service recorded a change; detail has `delegation_id`, `action` (`suspend`, `resume`, `revoke`) and the updated `delegation`.
 * @fires {SvcDelegationsErrorEvent} svc-error - The grants could not be read or a change failed; detail has `code` (`unauthorized`, `forbidden`, `network`, `http`, `invalid_configuration`), `message`, `fatal`, `recoverable_via`.
 *
 * @csspart base - The wrapper of everything else.
 * @csspart list - The list of grants.
 * @csspart grant - One grant.
 * @csspart heading - Who the delegate is, and at which organisation.
 * @csspart delegate - The delegate's name (a person's email, an agent's name).
 * @csspart organisation - The organisation's name.
 * @csspart meta - The grant's kind, status and dates.
 * @csspart bounds - The list of the grant's bounds in plain words.
 * @csspart bound - One bound.
 * @csspart actions - The grant's buttons (and those of a confirm step).
 * @csspart suspend - The button that pauses an active grant.
 * @csspart resume - The button that resumes a paused grant.
 * @csspart revoke - The button that asks to revoke a grant.
 * @csspart confirm - The confirm step of a revocation (a group named by its question).
 * @csspart confirm-button - The button that confirms the revocation (the one filled button).
 * @csspart cancel-button - The button that cancels it.
 * @csspart more - The button that loads the next page.
 * @csspart retry - The button that tries again after an error.
 * @csspart status - The live region announcing loading and what happened.
 *
 * @cssprop [--svc-delegations-gap=.75rem] - Space between grants.
 * @cssprop [--svc-delegations-border=1px solid color-mix(in srgb, currentColor 20%, transparent)] - Border of each grant.
 * @cssprop [--svc-delegations-radius=var(--svc-radius, 0.6rem)] - Corner radius of grants and buttons.
 * @cssprop [--svc-delegations-accent=var(--svc-accent, #2f4fb5)] - Colour of the buttons.
 * @cssprop [--svc-delegations-color=inherit] - Text colour.
 * @cssprop [--svc-delegations-font=400 100%/1.5 var(--svc-font-family, system-ui, …)] - Font (its own stack, not the page's).
 */
export class SvcDelegations extends PersonList<DelegationRow, DelegationChange> {
  static override styles = [personListStyles('delegations'), delegationsStyles];

  static override properties: PropertyDeclarations = {
    grantStatus: { attribute: 'grant-status' },
  };

  /** Only grants that read with this status now: `active`, `suspended`, `revoked` or `expired`. */
  grantStatus?: string;

  /** The grants shown, in order, as they read now. */
  get delegations(): readonly DelegationRow[] {
    return this.rows;
  }

  protected override get listPath(): string {
    return API;
  }

  protected override get listKey(): string {
    return 'delegations';
  }

  protected override get strings(): typeof STRINGS {
    return STRINGS;
  }

  protected override filters(params: URLSearchParams): void {
    if (this.grantStatus) params.set('status', this.grantStatus);
  }

  /** The change (confirmed, to revoke): the POST, then the grant as the service answers it. */
  async #change(grant: DelegationRow, action: DelegationChange, from: string): Promise<void> {
    if (action === 'revoke') {
      if (!this.begin(STRINGS.working.revoke)) return;
    } else {
      if (this.pending?.busy) return;
      this.pending = { row: grant.id, ask: action, from, busy: true };
      this.announcement = STRINGS.working[action];
    }
    const path = `${API}/${encodeURIComponent(grant.id)}/${action}`;
    const updated = await this.act<DelegationRow>(path, {}, from, 'delegation');
    if (!updated) return;
    this.replaceRow(updated);
    this.announcement = STRINGS.done[action](grant.delegate.name);
    const detail: SvcDelegationsChangeDetail = { delegation_id: grant.id, action, delegation: updated };
    this.dispatchEvent(new CustomEvent('svc-delegations-change', { bubbles: true, composed: true, detail }));
    // Pausing puts "Resume" where "Pause" was (and back); a revoked grant has no buttons left, so the grant itself.
    const toggled = { suspend: 'resume', resume: 'suspend', revoke: 'revoke' }[action];
    await this.focusKey(`${toggled} ${grant.id}`);
  }

  /** The buttons a grant has in its status: pause or resume, and revoke, while it can still be used. */
  #actions(grant: DelegationRow): TemplateResult | typeof nothing {
    if (grant.status !== 'active' && grant.status !== 'suspended') return nothing;
    const toggle: DelegationChange = grant.status === 'active' ? 'suspend' : 'resume';
    const busy = this.pending?.busy === true;
    const button = (action: DelegationChange, run: (key: string) => void) => {
      const key = `${action} ${grant.id}`;
      return html`<button part=${action} type=button data-key=${key} ?disabled=${busy}
        aria-label=${STRINGS.actionNamed(action, grant.delegate.name)} @click=${() => run(key)}>${STRINGS.action[action]}</button>`;
    };
    return html`<div part=actions>
      ${button(toggle, (key) => void this.#change(grant, toggle, key))}
      ${button('revoke', (key) => void this.confirm(grant, 'revoke', key))}
    </div>`;
  }

  protected override renderRow(grant: DelegationRow): TemplateResult {
    const pending = this.pending?.row === grant.id && this.pending.ask === 'revoke' ? this.pending : undefined;
    const bounds = STRINGS.bounds(grant, day);
    return html`<li part=grant tabindex=-1 data-key=${`row ${grant.id}`}>
      <p part=heading><span part=delegate>${grant.delegate.name}</span><span class=vh>, </span>
        <span part=organisation>${grant.organisation.name}</span></p>
      <p part=meta>${STRINGS.kind(grant)} · ${STRINGS.status[grant.status] ?? grant.status} · ${STRINGS.since(when(grant.created_at))}${
        grant.expires_at ? html` · ${STRINGS.until(when(grant.expires_at))}` : nothing
      }</p>
      ${bounds.length ? html`<ul part=bounds>${bounds.map((bound) => html`<li part=bound>${bound}</li>`)}</ul>` : nothing}
      ${this.#actions(grant)}
      ${
        pending
          ? this.confirmStep(STRINGS.confirmRevoke(grant.delegate.name, grant.organisation.name), STRINGS.confirm, () =>
              this.#change(grant, 'revoke', pending.from),
            )
          : nothing
      }
    </li>`;
  }
}

/** A date and time as the person's browser writes it, or the text as it came when it is not one. */
function day(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
