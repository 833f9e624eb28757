import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { DelegationAction, DelegationChange, DelegationRow, SvcDelegationsChangeDetail } from '../events/svc-delegations-change.js';
import type { AccessTokenProvider } from '../internal/access-token.js';
import { httpFailure, type Outcome, PersonList, type PersonListStatus, when } from '../internal/person-list.js';
import { personListStyles } from '../internal/person-list.styles.js';
import { delegationsStyles } from './delegations.styles.js';
import { draftOf, EMPTY_FORM, type MakeDraft, type MakeField, type MakeForm, type MakeProblem, problemsOf } from './make.js';
import { EN } from './strings.js';

/**
 * Where the element stands: `idle` (no way to get a token, or no service URL yet), `loading`, `ready` (grants
 * shown), `empty` (no grants), `signed-out` (the service or the token URL refused) or `error`.
 */
export type DelegationsStatus = PersonListStatus;

/** Gives the person's access token (the OAuth helper's `accessToken()`), asked before every request. */
export type DelegationsTokenProvider = AccessTokenProvider;

const STRINGS = EN;
/** Cancelling the confirm step of a new grant says nothing was made (not revoked). */
const MAKING = { ...EN, cancelled: EN.notMade };
const API = '/api/v1/me/delegations';
/** The key of the form's Continue button, where focus returns from the confirm step of a new grant. */
const CONTINUE = 'continue new';
const KINDS: DelegationRow['delegation_type'][] = ['peer', 'caregiver', 'guardian', 'power_of_attorney', 'it_admin', 'ai_agent'];

/**
 * Who may act for the signed-in person: the delegation grants they made, to a person or an agent, from every
 * organisation (`GET /api/v1/me/delegations` with their access token, scope `delegations:read`), each with its
 * bounds in plain words ("Up to 500.00 EUR per action", "Only: calendar.read, mail.send"). "Pause" and "Resume" act
 * at once; "Revoke" asks first, in place (focus moves to it, Escape cancels and focus goes back); each is `POST
 * .../{id}/{suspend|resume|revoke}` (scope `delegations:write`), the grant is updated from the answer and a polite
 * live region says what happened. A revoked grant stops the delegate's tokens at once.
 *
 * "Let someone act for you" opens a form (labelled fields; each problem is said under its field and tied to it with
 * `aria-describedby`): where (when the person may choose among organisations), who they are (a person by email, or
 * an agent by its `agt_` id), what they may do (scopes) and, optionally, the most an agent may spend per action and
 * until which day. Continue says the grant's bounds in plain words in a confirm step; confirming is `POST
 * /api/v1/me/delegations` (scope `delegations:write`), and the new grant is shown first.
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
 * @fires {SvcDelegationsChangeEvent} svc-delegations-change - The service recorded a change; detail has `delegation_id`, `action` (`create`, `suspend`, `resume`, `revoke`) and the new or updated `delegation`.
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
 * @csspart add - The button that opens the form to let someone act for the person.
 * @csspart form - The form to make a grant.
 * @csspart field - One field of the form: its label, its control, and what is wrong with it.
 * @csspart field-error - What is wrong with a field.
 * @csspart form-error - Why the service did not make the grant.
 * @csspart confirm - The confirm step of a new grant or of a revocation (a group named by its question).
 * @csspart confirm-button - The button that confirms (the one filled button).
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
export class SvcDelegations extends PersonList<DelegationRow, DelegationAction> {
  static override styles = [personListStyles('delegations'), delegationsStyles];

  static override properties: PropertyDeclarations = {
    grantStatus: { attribute: 'grant-status' },
    organisations: { attribute: false },
    making: { attribute: false },
    problems: { attribute: false },
    refused: { attribute: false },
  };

  /** The organisations the person may make a grant in, as the service last listed them. */
  protected organisations: { id: string; name: string }[] = [];
  /** The form as typed, while it is open. */
  protected making: MakeForm | undefined;
  protected problems: Partial<Record<MakeField, MakeProblem>> = {};
  /** Why the service did not make the last grant, in its words. */
  protected refused = '';
  /** The checked form waiting for its confirm step, and the Idempotency-Key that makes it once. */
  #draft: { draft: MakeDraft; key: string | undefined } | undefined;

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

  /** Set while the confirm step of a new grant is being cancelled. */
  #unmaking = false;

  protected override get strings(): typeof STRINGS {
    return this.#unmaking ? MAKING : STRINGS;
  }

  protected override cancel(): Promise<void> {
    // The base says `strings.cancelled` before its first await, once the step is closed: which step it was is kept here.
    this.#unmaking = this.pending?.ask === 'create';
    const cancelled = super.cancel();
    this.#unmaking = false;
    return cancelled;
  }

  /** Every call the base makes; a list's answer also names the organisations a grant can be made in. */
  protected override async call(path: string, init: RequestInit = {}): Promise<Outcome> {
    const outcome = await super.call(path, init);
    if (!init.method && 'body' in outcome && Array.isArray(outcome.body.organisations)) {
      this.organisations = outcome.body.organisations as { id: string; name: string }[];
    }
    return outcome;
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

  /** Opens the form (focus on its first field) or closes it. */
  async #toggle(): Promise<void> {
    if (this.pending?.ask === 'create') return;
    this.making = this.making ? undefined : { ...EMPTY_FORM };
    this.problems = {};
    this.refused = '';
    if (!this.making) return this.focusKey('add new');
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part=form] :is(input, select)')?.focus();
  }

  #set(field: MakeField, value: string): void {
    if (this.making) this.making = { ...this.making, [field]: value };
  }

  /** Checks the form: its first problem gets focus; without one, the confirm step says what the grant will allow. */
  async #continue(event: Event): Promise<void> {
    event.preventDefault();
    if (!this.making || this.pending) return;
    this.problems = problemsOf(this.making, this.organisations.length);
    this.refused = '';
    const wrong = Object.keys(this.problems);
    if (wrong.length) {
      this.announcement = STRINGS.fix(wrong.length);
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>(`#${wrong[0]}`)?.focus();
      return;
    }
    this.#draft = { draft: draftOf(this.making, this.organisations), key: globalThis.crypto?.randomUUID?.() };
    this.pending = { row: 'new', ask: 'create', from: CONTINUE, busy: false };
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part=confirm]')?.focus();
  }

  /** The confirmed grant: the POST (once, whatever retries), then the grant first in the list. */
  async #make(): Promise<void> {
    const made = this.#draft;
    if (!made || !this.begin(STRINGS.creating)) return;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (made.key) headers['idempotency-key'] = made.key;
    const outcome = await this.call(API, { method: 'POST', headers, body: JSON.stringify(made.draft.body) });
    const grant = 'body' in outcome ? (outcome.body.delegation as DelegationRow | undefined) : undefined;
    if (grant && typeof grant === 'object') return this.#made(grant);
    this.pending = undefined;
    if ('idle' in outcome) return void this.refresh();
    const failed = 'failed' in outcome ? outcome : httpFailure(502, 'The service answered without the delegation.');
    if (failed.signedOut) return this.fail(failed.failed, true);
    // A refusal (an unknown email, a revoked agent) is the service's to explain; anything else, ours.
    this.refused = failed.failed.code === 'http' ? `${STRINGS.notMade} ${failed.failed.message}` : STRINGS.notMadeFailed;
    this.announcement = STRINGS.notMadeFailed;
    this.error(failed.failed);
    await this.focusKey(CONTINUE);
  }

  async #made(grant: DelegationRow): Promise<void> {
    this.pending = undefined;
    this.#draft = undefined;
    this.making = undefined;
    this.addRow(grant);
    this.announcement = STRINGS.made(grant.delegate.name);
    const detail: SvcDelegationsChangeDetail = { delegation_id: grant.id, action: 'create', delegation: grant };
    this.dispatchEvent(new CustomEvent('svc-delegations-change', { bubbles: true, composed: true, detail }));
    await this.focusKey(`row ${grant.id}`);
  }

  /** One labelled field, with its hint and its problem tied to the control by `aria-describedby`. */
  #field(name: MakeField, label: string, control: (describedBy: string | undefined) => TemplateResult, hint?: string): TemplateResult {
    const problem = this.problems[name];
    const described = [hint ? `${name}-hint` : '', problem ? `${name}-error` : ''].filter(Boolean).join(' ') || undefined;
    return html`<div part=field>
      <label for=${name}>${label}</label>${hint ? html`<span class=hint id=${`${name}-hint`}>${hint}</span>` : nothing}
      ${control(described)}
      ${problem ? html`<p part=field-error id=${`${name}-error`}>${STRINGS.invalid[problem]}</p>` : nothing}
    </div>`;
  }

  #input(name: MakeField, type: string, extra: { autocomplete?: string; inputmode?: string } = {}) {
    return (describedBy: string | undefined) =>
      html`<input id=${name} name=${name} type=${type} .value=${this.making?.[name] ?? ''} autocomplete=${ifDefined(extra.autocomplete)}
        inputmode=${ifDefined(extra.inputmode)} aria-invalid=${this.problems[name] ? 'true' : 'false'} aria-describedby=${ifDefined(describedBy)}
        @input=${(e: Event) => this.#set(name, (e.target as HTMLInputElement).value)}>`;
  }

  #select(name: MakeField, options: [string, string][]) {
    return (describedBy: string | undefined) =>
      html`<select id=${name} name=${name} aria-invalid=${this.problems[name] ? 'true' : 'false'} aria-describedby=${ifDefined(describedBy)}
        @change=${(e: Event) => this.#set(name, (e.target as HTMLSelectElement).value)}>
        ${options.map(([value, label]) => html`<option value=${value} ?selected=${this.making?.[name] === value}>${label}</option>`)}
      </select>`;
  }

  #form(form: MakeForm): TemplateResult {
    const agent = form.kind === 'ai_agent';
    const confirming = this.pending?.ask === 'create' ? this.pending : undefined;
    const draft = this.#draft?.draft;
    const organisations: [string, string][] = [
      ['', STRINGS.chooseOrganisation],
      ...this.organisations.map((o): [string, string] => [o.id, o.name]),
    ];
    return html`<form part=form id=make novalidate aria-label=${STRINGS.add} @submit=${(e: Event) => this.#continue(e)}>
      <fieldset ?disabled=${!!confirming}>
        ${this.organisations.length > 1 ? this.#field('organisation', STRINGS.labels.organisation, this.#select('organisation', organisations)) : nothing}
        ${this.#field(
          'kind',
          STRINGS.labels.kind,
          this.#select(
            'kind',
            KINDS.map((k): [string, string] => [k, STRINGS.kindOption[k]]),
          ),
        )}
        ${this.#field('delegate', agent ? STRINGS.labels.agent : STRINGS.labels.email, this.#input('delegate', agent ? 'text' : 'email', { autocomplete: 'off' }))}
        ${this.#field('scopes', STRINGS.labels.scopes, this.#input('scopes', 'text', { autocomplete: 'off' }), STRINGS.hints.scopes)}
        ${
          agent
            ? html`${this.#field('amount', STRINGS.labels.amount, this.#input('amount', 'text', { inputmode: 'decimal' }), STRINGS.hints.amount)}
              ${this.#field('currency', STRINGS.labels.currency, this.#input('currency', 'text', { autocomplete: 'off' }))}`
            : nothing
        }
        ${this.#field('until', STRINGS.labels.until, this.#input('until', 'date'))}
        ${this.refused ? html`<p part=form-error id=form-error>${this.refused}</p>` : nothing}
        <div part=actions>
          <button class=primary type=submit data-key=${CONTINUE} aria-describedby=${ifDefined(this.refused ? 'form-error' : undefined)}>${STRINGS.continue}</button>
          <button type=button @click=${() => this.#toggle()}>${STRINGS.close}</button>
        </div>
      </fieldset>
      ${
        confirming && draft
          ? this.confirmStep(
              STRINGS.confirmCreate(
                draft.preview.delegate.name,
                draft.organisation,
                STRINGS.kind(draft.preview),
                STRINGS.bounds(draft.preview, day),
                draft.preview.expires_at
                  ? new Date(draft.preview.expires_at).toLocaleDateString(undefined, { dateStyle: 'medium' })
                  : undefined,
              ),
              STRINGS.confirmMake,
              () => this.#make(),
            )
          : nothing
      }
    </form>`;
  }

  protected override renderTop(): TemplateResult {
    return html`<div class=make>
      <button part=add type=button data-key="add new" aria-expanded=${this.making ? 'true' : 'false'} aria-controls=make
        @click=${() => this.#toggle()}>${STRINGS.add}</button>
      ${this.making ? this.#form(this.making) : nothing}
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
