import { html, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import type { AccessTokenProvider } from '../internal/access-token.js';
import { httpFailure, PersonList, type PersonListStatus, type PersonListStrings, when } from '../internal/person-list.js';
import { personListStyles } from '../internal/person-list.styles.js';
import { credentialsStyles } from './credentials.styles.js';
import type {
  CredentialClaim,
  CredentialRow,
  CredentialsErrorDetail,
  MadePresentation,
  PresentationRow,
  SvcCredentialsPresentDetail,
} from './events.js';
import { EN } from './strings.js';

/**
 * Where the element stands: `idle` (no way to get a token, or no service URL yet), `loading`, `ready`, `empty`,
 * `signed-out` (the service or the token URL refused) or `error`.
 */
export type CredentialsStatus = PersonListStatus;

/** Gives the person's access token (the OAuth helper's `accessToken()`), asked before every request. */
export type CredentialsTokenProvider = AccessTokenProvider;

/** The selective-disclosure step open on one credential (the list's pending step): what is chosen, for whom. */
interface Choosing {
  chosen: Set<string>;
  audience: string;
  problem: string;
}

const STRINGS = EN;
const QUESTION = 'svc-credentials-question';
const RESULT = 'svc-credentials-result';

/** What the list says in each view, in the words every people's list has (nothing is said from a failed step). */
function listStrings(presentations: boolean): PersonListStrings {
  return {
    ...STRINGS,
    empty: presentations ? STRINGS.emptyPresentations : STRINGS.empty,
    shown: (count, more) => STRINGS.shown(count, more, presentations),
    failed: STRINGS.cancelled,
  };
}
const SAYS = { credentials: listStrings(false), presentations: listStrings(true) };

/**
 * The signed-in person's own credentials (`GET /api/v1/me/credentials`, scope `credentials:read`), each with its
 * claims, and selective disclosure in place: "Present" opens a step (focus moves to it, Escape cancels and focus goes
 * back) with a checkbox per claim (the ones the issuer always shows are marked and cannot be unticked), who it is for,
 * and a summary of exactly what will be shared with whom; then `POST /api/v1/me/credentials/{id}/presentations`
 * (scope `credentials:write`) and the presentation ready to copy, with what the service's verifier made of it. With
 * `view="presentations"`, what the person presented, to whom and when (`GET /api/v1/me/presentations`).
 *
 * The token comes from `getAccessToken` (asked before every request), else `accessToken`, else `token-url`: a
 * same-origin URL the element POSTs to with the page's cookies for `{access_token, expires_in}`.
 *
 * @summary Lists the signed-in person's credentials and lets them present one, sharing only the claims they choose.
 *
 * @slot empty - Shown when there is nothing to list (default: one sentence).
 * @slot signed-out - Shown without a token, or when it was refused (default: one sentence).
 * @slot error - Shown when the credentials cannot be read (default: one sentence, and a retry button).
 *
 * @fires {SvcCredentialsPresentEvent} svc-credentials-present - The service made a presentation; detail has `credential_id`, `audience`, `disclosed` (paths) and `presentation`.
 * @fires {SvcCredentialsErrorEvent} svc-error - The credentials could not be read or presenting failed; detail has `code`, `message`, `fatal`, `recoverable_via`.
 *
 * @csspart base - The wrapper of everything else.
 * @csspart list - The list of credentials or presentations.
 * @csspart credential - One credential.
 * @csspart heading - A credential's name and issuer, or to whom a presentation went.
 * @csspart meta - A credential's status and dates, or when and what a presentation was.
 * @csspart claims - The list of a credential's (or a presentation's) claims.
 * @csspart claim - One claim: its label, its value, and whether it is always shared.
 * @csspart required - The "Always shared" mark.
 * @csspart present - The button that opens the selective-disclosure step.
 * @csspart step - The selective-disclosure step (a form named by its question).
 * @csspart audience - The field that names who the presentation is for.
 * @csspart choice - One claim's checkbox and label.
 * @csspart summary - What will be shared, with whom.
 * @csspart confirm-button - The button that presents (the one filled button).
 * @csspart cancel-button - The button that closes the step.
 * @csspart result - The presentation made: what was shared, whether it verifies, the text to hand over.
 * @csspart presentation - The presentation's text.
 * @csspart copy - The button that copies it.
 * @csspart presentation-row - One presentation of the history.
 * @csspart more - The button that loads the next page.
 * @csspart retry - The button that tries again after an error.
 * @csspart status - The live region announcing loading and what happened.
 *
 * @cssprop [--svc-credentials-gap=.75rem] - Space between credentials.
 * @cssprop [--svc-credentials-border=1px solid color-mix(in srgb, currentColor 20%, transparent)] - Border of each credential and between claims.
 * @cssprop [--svc-credentials-radius=var(--svc-radius, 0.6rem)] - Corner radius of credentials and buttons.
 * @cssprop [--svc-credentials-accent=var(--svc-accent, #2f4fb5)] - Colour of the buttons.
 * @cssprop [--svc-credentials-color=inherit] - Text colour.
 * @cssprop [--svc-credentials-font=400 100%/1.5 var(--svc-font-family, system-ui, …)] - Font (its own stack, not the page's).
 */
export class SvcCredentials extends PersonList<CredentialRow | PresentationRow, Choosing> {
  static override styles = [personListStyles('credentials'), credentialsStyles];

  static override properties: PropertyDeclarations = {
    view: {},
    audience: {},
    made: { attribute: false },
  };

  /** `credentials` (default: the person's credentials, each presentable) or `presentations` (what they presented). */
  view?: string;
  /** Who presentations are for, filled in for the person (an organisation embedding the element names itself). */
  audience?: string;

  /** The credentials shown (empty in the presentations view). */
  get credentials(): readonly CredentialRow[] {
    return this.#history() ? [] : (this.rows as CredentialRow[]);
  }

  /** The presentations shown (empty in the credentials view). */
  get presentations(): readonly PresentationRow[] {
    return this.#history() ? (this.rows as PresentationRow[]) : [];
  }

  private made: MadePresentation | undefined;

  #history(): boolean {
    return this.view === 'presentations';
  }

  protected override get listPath(): string {
    return `/api/v1/me/${this.listKey}`;
  }

  protected override get listKey(): string {
    return this.#history() ? 'presentations' : 'credentials';
  }

  protected override get strings(): PersonListStrings {
    return this.#history() ? SAYS.presentations : SAYS.credentials;
  }

  /** A 404 or 422 is the service refusing the presentation: `invalid`, which trying again cannot mend. */
  protected override refusal(status: number, message: string | undefined): { failed: CredentialsErrorDetail; signedOut: boolean } {
    const { failed, signedOut } = httpFailure(status, message);
    if (status !== 404 && status !== 422) return { failed: failed as CredentialsErrorDetail, signedOut };
    return { failed: { ...failed, code: 'invalid', recoverable_via: null }, signedOut };
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    // Nothing listed (signed out, failed, empty): no result either.
    if (!this.rows.length) this.made = undefined;
  }

  /** Opens the selective-disclosure step on `credential` (nothing chosen yet) and moves focus to it. */
  async #open(credential: CredentialRow): Promise<void> {
    if (this.pending?.busy) return;
    this.made = undefined;
    const ask = { chosen: new Set<string>(), audience: this.audience ?? '', problem: '' };
    this.pending = { row: credential.id, ask, from: `present ${credential.id}`, busy: false };
    // Focus is on the step once the element has updated (not a tick later, as the base's confirm would put it).
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part=step]')?.focus();
  }

  /** Closes the step (as Cancel does) or the result; focus goes back to the credential's Present button. */
  async #close(): Promise<void> {
    if (this.pending) return this.cancel();
    const id = this.made?.credential_id;
    if (!id) return;
    this.made = undefined;
    this.announcement = '';
    await this.focusKey(`present ${id}`);
  }

  /** Changes what the open step would share or for whom. */
  #choose(change: Partial<Choosing>): void {
    if (this.pending) this.pending = { ...this.pending, ask: { ...this.pending.ask, ...change } };
  }

  #toggle(path: string, on: boolean): void {
    const chosen = new Set(this.pending?.ask.chosen);
    if (on) chosen.add(path);
    else chosen.delete(path);
    this.#choose({ chosen });
  }

  /** The POST of the chosen claims; then the result, or the service's refusal inside the step. */
  async #present(credential: CredentialRow): Promise<void> {
    const pending = this.begin(STRINGS.presenting);
    if (!pending) return;
    this.#choose({ problem: '' });
    const disclose = credential.claims.filter((c) => !c.required && pending.ask.chosen.has(c.path)).map((c) => c.path);
    const outcome = await this.call(`/api/v1/me/credentials/${encodeURIComponent(credential.id)}/presentations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ disclose, audience: pending.ask.audience.trim() }),
    });
    const made = 'body' in outcome ? (outcome.body.presentation as MadePresentation | undefined) : undefined;
    if (!made || typeof made.presentation !== 'string') {
      if ('idle' in outcome) return this.showIdle();
      const failed = 'failed' in outcome ? outcome : this.refusal(502, 'The service answered without the presentation.');
      if (failed.signedOut) return this.fail(failed.failed, true);
      const problem = STRINGS.failed(failed.failed.message);
      this.pending = { ...pending, busy: false, ask: { ...pending.ask, problem } };
      this.announcement = problem;
      return this.error(failed.failed);
    }
    this.pending = undefined;
    this.made = made;
    this.announcement = STRINGS.presented(
      made.audience,
      made.disclosed.map((c) => c.label),
    );
    const detail: SvcCredentialsPresentDetail = {
      credential_id: credential.id,
      audience: made.audience,
      disclosed: made.disclosed.map((c) => c.path),
      presentation: made,
    };
    this.dispatchEvent(new CustomEvent('svc-credentials-present', { bubbles: true, composed: true, detail }));
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part=result]')?.focus();
  }

  async #copy(): Promise<void> {
    const text = this.made?.presentation ?? '';
    try {
      await navigator.clipboard.writeText(text);
      this.announcement = STRINGS.copied;
    } catch {
      this.renderRoot.querySelector<HTMLTextAreaElement>('[part=presentation]')?.select();
      this.announcement = STRINGS.copyFailed;
    }
  }

  #escape(event: KeyboardEvent): void {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    void this.#close();
  }

  #step(credential: CredentialRow, choosing: Choosing, busy: boolean): TemplateResult {
    const always = credential.claims.filter((c) => c.required).map((c) => c.label);
    const chosen = credential.claims.filter((c) => !c.required && choosing.chosen.has(c.path)).map((c) => c.label);
    const submit = (event: SubmitEvent) => {
      event.preventDefault();
      void this.#present(credential);
    };
    const audience = (event: Event) => this.#choose({ audience: (event.target as HTMLInputElement).value });
    return html`<form part=step tabindex=-1 aria-labelledby=${QUESTION} aria-busy=${busy} @submit=${submit}
        @keydown=${(event: KeyboardEvent) => this.#escape(event)}>
      <p id=${QUESTION}>${STRINGS.choose(credential.name)}</p>
      <label class=field>${STRINGS.audience}
        <input part=audience name=audience required maxlength=200 autocomplete=off .value=${choosing.audience} @input=${audience}></label>
      <fieldset part=choices><legend>${STRINGS.claims}</legend>
        ${credential.claims.map(
          (claim) => html`<label part=choice><input type=checkbox name=claim value=${claim.path}
            .checked=${claim.required || choosing.chosen.has(claim.path)} ?disabled=${claim.required}
            @change=${(event: Event) => this.#toggle(claim.path, (event.target as HTMLInputElement).checked)}>
            <span>${claim.label}${claim.required ? html` <span part=required>(${STRINGS.alwaysShared})</span>` : nothing}</span></label>`,
        )}
      </fieldset>
      <p part=summary>${STRINGS.summary(chosen, always, choosing.audience)}</p>
      ${choosing.problem ? html`<p part=problem>${choosing.problem}</p>` : nothing}
      <div part=actions>
        <button part=confirm-button class=primary type=submit ?disabled=${busy}>${STRINGS.confirm}</button>
        <button part=cancel-button type=button ?disabled=${busy} @click=${() => this.#close()}>${STRINGS.cancel}</button>
      </div>
    </form>`;
  }

  #result(made: MadePresentation): TemplateResult {
    const verified = made.verification?.valid === true;
    return html`<div part=result role=group tabindex=-1 aria-labelledby=${RESULT} @keydown=${(event: KeyboardEvent) => this.#escape(event)}>
      <p id=${RESULT}>${STRINGS.presented(
        made.audience,
        made.disclosed.map((c) => c.label),
      )}</p>
      <p part=verified class=${verified ? 'valid' : 'unchecked'}>${verified ? STRINGS.verified : STRINGS.unverified}</p>
      <label class=field>${STRINGS.presentation}<textarea part=presentation readonly rows=4 .value=${made.presentation}></textarea></label>
      <div part=actions>
        <button part=copy class=primary type=button @click=${() => this.#copy()}>${STRINGS.copy}</button>
        <button part=done type=button @click=${() => this.#close()}>${STRINGS.done}</button>
      </div>
    </div>`;
  }

  #claim(claim: CredentialClaim): TemplateResult {
    const value = claim.value === true || claim.value === null ? nothing : html`<span part=claim-value>${String(claim.value)}</span>`;
    return html`<li part=claim><span part=claim-label>${claim.label}</span>${value}${
      claim.required ? html`<span part=required>${STRINGS.alwaysShared}</span>` : nothing
    }</li>`;
  }

  #credential(credential: CredentialRow): TemplateResult {
    const pending = this.pending?.row === credential.id ? this.pending : undefined;
    const made = this.made?.credential_id === credential.id ? this.made : undefined;
    return html`<li part=credential tabindex=-1 data-key=${`row ${credential.id}`}>
      <p part=heading><span part=name>${credential.name}</span> <span part=organisation>${STRINGS.from(credential.organisation.name)}</span></p>
      <p part=meta>${STRINGS.status[credential.status] ?? credential.status} · ${STRINGS.issued(when(credential.issued_at))} · ${STRINGS.expires(
        when(credential.expires_at),
      )}</p>
      <ul part=claims>${credential.claims.map((claim) => this.#claim(claim))}</ul>
      ${
        credential.presentable
          ? pending || made
            ? nothing
            : html`<button part=present type=button data-key=${`present ${credential.id}`}
              aria-label=${STRINGS.presentNamed(credential.name, credential.organisation.name)}
              @click=${() => this.#open(credential)}>${STRINGS.present}</button>`
          : html`<p part=note>${STRINGS.notPresentable}</p>`
      }
      ${pending ? this.#step(credential, pending.ask, pending.busy) : nothing}
      ${made ? this.#result(made) : nothing}
    </li>`;
  }

  #presentation(row: PresentationRow): TemplateResult {
    return html`<li part=presentation-row>
      <p part=heading>${STRINGS.sharedWith(row.audience)}</p>
      <p part=meta>${STRINGS.presentedOn(when(row.presented_at), row.credential_name, row.organisation.name)}</p>
      <ul part=claims>${row.disclosed.map((claim) => html`<li part=claim><span part=claim-label>${claim.label}</span></li>`)}</ul>
    </li>`;
  }

  protected override renderRow(row: CredentialRow | PresentationRow): TemplateResult {
    return this.#history() ? this.#presentation(row as PresentationRow) : this.#credential(row as CredentialRow);
  }
}
