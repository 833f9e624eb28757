import { ContextConsumer } from '@lit/context';
import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import type {
  DelegationChange,
  DelegationRow,
  DelegationsErrorDetail,
  SvcDelegationsChangeDetail,
} from '../events/svc-delegations-change.js';
import { type AccessTokenProvider, TokenFromUrl, TokenUrlError } from '../internal/access-token.js';
import { askAgainOn429 } from '../internal/ask-again.js';
import { configDefaults, svcConfigContext } from '../internal/config.js';
import { delegationsStyles } from './delegations.styles.js';
import { EN } from './strings.js';

/**
 * Where the element stands: `idle` (no way to get a token, or no service URL yet), `loading`, `ready` (grants
 * shown), `empty` (no grants), `signed-out` (the service or the token URL refused) or `error`.
 */
export type DelegationsStatus = 'idle' | 'loading' | 'ready' | 'empty' | 'signed-out' | 'error';

/** Gives the person's access token (the OAuth helper's `accessToken()`), asked before every request. */
export type DelegationsTokenProvider = AccessTokenProvider;

/** A change under way (or, to revoke, waiting for its confirm step): on which grant, from which button. */
interface Pending {
  grant: string;
  action: DelegationChange;
  from: string;
  busy: boolean;
}

/** What a call to the API came to: the answer's body, or why there is none. */
type Outcome = { body: Record<string, unknown> } | { failed: DelegationsErrorDetail; signedOut: boolean } | { idle: true };

const STRINGS = EN;
const QUESTION = 'svc-delegations-question';
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
 * @csspart actions - The grant's buttons.
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
export class SvcDelegations extends LitElement {
  static override styles = delegationsStyles;

  static override properties: PropertyDeclarations = {
    trustUrl: { attribute: 'trust-url' },
    tokenUrl: { attribute: 'token-url' },
    grantStatus: { attribute: 'grant-status' },
    limit: { type: Number },
    accessToken: { attribute: false },
    getAccessToken: { attribute: false },
    fetch: { attribute: false },
    phase: { attribute: false },
    rows: { attribute: false },
    next: { attribute: false },
    announcement: { attribute: false },
    pending: { attribute: false },
  };

  /** Where the service lives (its API and trust URL); defaults to the `<svc-provider>`'s, then the script tag's service. */
  trustUrl?: string;
  /** A same-origin URL that answers a POST (with the page's cookies) with `{access_token, expires_in}`. */
  tokenUrl?: string;
  /** Only grants that read with this status now: `active`, `suspended`, `revoked` or `expired`. */
  grantStatus?: string;
  /** Grants per page, 1 to 100 (default 20). */
  limit?: number;
  /** The person's access token (scopes `delegations:read`, `delegations:write`). Never an attribute: set the property, `getAccessToken` or `token-url`. */
  accessToken?: string;
  /** Asked for the access token before every request (e.g. the OAuth helper's, which refreshes it); wins over `accessToken` and `token-url`. */
  getAccessToken?: DelegationsTokenProvider;
  /** The `fetch` the element calls the API and the token URL with (default: the page's). */
  fetch?: typeof fetch;

  /** Where the element stands; also exposed to CSS as a custom state, e.g. `svc-delegations:state(empty)`. */
  get status(): DelegationsStatus {
    return this.phase;
  }

  /** The grants shown, in order, as they read now. */
  get delegations(): readonly DelegationRow[] {
    return this.rows;
  }

  private phase: DelegationsStatus = 'idle';
  private rows: DelegationRow[] = [];
  private next: string | null = null;
  private announcement = '';
  private pending: Pending | undefined;

  readonly #provided = new ContextConsumer(this, { context: svcConfigContext, subscribe: true });
  readonly #internals = this.attachInternals?.();
  readonly #tokens = new TokenFromUrl();
  /** What the shown grants answer (service, token URL, filters); a change reloads. */
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
    if (this.grantStatus) params.set('status', this.grantStatus);
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
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
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

  /** Reads a page: the first (replacing the grants) or the one after `cursor` (appended). */
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
    const outcome = await this.#call(`${API}${query ? `?${query}` : ''}`);
    if (load !== this.#load) return;
    if ('idle' in outcome) return this.#show([], null, 'idle', '');
    const page = 'body' in outcome ? outcome.body : {};
    if ('failed' in outcome || !Array.isArray(page.delegations)) {
      const failed = 'failed' in outcome ? outcome : httpFailure(502, 'The service answered without delegations.');
      return this.#fail(failed.failed, failed.signedOut);
    }
    const more = page.delegations as DelegationRow[];
    const rows = cursor ? [...this.rows, ...more] : more;
    const next = typeof page.next_cursor === 'string' ? page.next_cursor : null;
    this.#show(rows, next, rows.length ? 'ready' : 'empty', cursor ? STRINGS.moreShown(more.length) : STRINGS.shown(rows.length, !!next));
  }

  #show(rows: DelegationRow[], next: string | null, phase: DelegationsStatus, announcement: string): void {
    this.rows = rows;
    this.next = next;
    this.phase = phase;
    this.announcement = announcement;
    if (!rows.length) this.pending = undefined;
  }

  #fail(detail: DelegationsErrorDetail, signedOut = false): void {
    this.#show([], null, signedOut ? 'signed-out' : 'error', signedOut ? STRINGS.signInAgain : STRINGS.error);
    this.#error(detail);
  }

  #error(detail: DelegationsErrorDetail): void {
    this.dispatchEvent(new CustomEvent('svc-error', { bubbles: true, composed: true, detail }));
  }

  /** Opens the confirm step of revoking `grant` and moves focus to it. */
  async #ask(grant: DelegationRow, from: string): Promise<void> {
    if (this.pending?.busy) return;
    this.pending = { grant: grant.id, action: 'revoke', from, busy: false };
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part=confirm]')?.focus();
  }

  /** Closes the confirm step without a request; focus goes back to the button that opened it. */
  async #cancel(): Promise<void> {
    const from = this.pending?.from;
    if (!from || this.pending?.busy) return;
    this.pending = undefined;
    this.announcement = STRINGS.cancelled;
    await this.#focus(from);
  }

  /** Focus on the element keyed `key`, else on the grant it belonged to (its button may be gone). */
  async #focus(key: string): Promise<void> {
    await this.updateComplete;
    const keyed = [...this.renderRoot.querySelectorAll<HTMLElement>('[data-key]')];
    const grant = key.split(' ')[1];
    (keyed.find((el) => el.dataset.key === key) ?? keyed.find((el) => el.dataset.key === `grant ${grant}`))?.focus();
  }

  /** The change (confirmed, to revoke): the POST, then the grant as the service answers it. */
  async #change(grant: DelegationRow, action: DelegationChange, from: string): Promise<void> {
    if (this.pending?.busy) return;
    this.pending = { grant: grant.id, action, from, busy: true };
    this.announcement = STRINGS.working[action];
    const outcome = await this.#call(`${API}/${encodeURIComponent(grant.id)}/${action}`, { method: 'POST' });
    const updated = 'body' in outcome ? (outcome.body.delegation as DelegationRow | undefined) : undefined;
    this.pending = undefined;
    if (!updated || updated.id !== grant.id) {
      if ('idle' in outcome) return this.#show([], null, 'idle', '');
      const failed = 'failed' in outcome ? outcome : httpFailure(502, 'The service answered without the delegation.');
      if (failed.signedOut) return this.#fail(failed.failed, true);
      this.announcement = STRINGS.failed;
      this.#error(failed.failed);
      return this.#focus(from);
    }
    this.rows = this.rows.map((row) => (row.id === grant.id ? updated : row));
    this.announcement = STRINGS.done[action](grant.delegate.name);
    const detail: SvcDelegationsChangeDetail = { delegation_id: grant.id, action, delegation: updated };
    this.dispatchEvent(new CustomEvent('svc-delegations-change', { bubbles: true, composed: true, detail }));
    // Pausing puts "Resume" where "Pause" was (and back); a revoked grant has no buttons left, so the grant itself.
    const toggled = { suspend: 'resume', resume: 'suspend', revoke: 'revoke' }[action];
    await this.#focus(`${toggled} ${grant.id}`);
  }

  #confirmStep(grant: DelegationRow, pending: Pending): TemplateResult {
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      void this.#cancel();
    };
    return html`<div part=confirm role=group tabindex=-1 aria-labelledby=${QUESTION} @keydown=${escape}>
      <p id=${QUESTION}>${STRINGS.confirmRevoke(grant.delegate.name, grant.organisation.name)}</p>
      <div part=confirm-actions>
        <button part=confirm-button class=primary type=button ?disabled=${pending.busy}
          @click=${() => this.#change(grant, 'revoke', pending.from)}>${STRINGS.confirm}</button>
        <button part=cancel-button type=button ?disabled=${pending.busy} @click=${() => this.#cancel()}>${STRINGS.cancel}</button>
      </div>
    </div>`;
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
      ${button('revoke', (key) => void this.#ask(grant, key))}
    </div>`;
  }

  #grant(grant: DelegationRow): TemplateResult {
    const pending = this.pending?.grant === grant.id && this.pending.action === 'revoke' ? this.pending : undefined;
    const bounds = STRINGS.bounds(grant, day);
    return html`<li part=grant tabindex=-1 data-key=${`grant ${grant.id}`}>
      <p part=heading><span part=delegate>${grant.delegate.name}</span><span class=vh>, </span>
        <span part=organisation>${grant.organisation.name}</span></p>
      <p part=meta>${STRINGS.kind(grant)} · ${STRINGS.status[grant.status] ?? grant.status} · ${STRINGS.since(when(grant.created_at))}${
        grant.expires_at ? html` · ${STRINGS.until(when(grant.expires_at))}` : nothing
      }</p>
      ${bounds.length ? html`<ul part=bounds>${bounds.map((bound) => html`<li part=bound>${bound}</li>`)}</ul>` : nothing}
      ${this.#actions(grant)}
      ${pending ? this.#confirmStep(grant, pending) : nothing}
    </li>`;
  }

  protected override render(): TemplateResult {
    const { phase } = this;
    let body: TemplateResult | typeof nothing = nothing;
    if (phase === 'ready') {
      body = html`<ul part=list>${this.rows.map((grant) => this.#grant(grant))}</ul>${
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
function day(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function when(iso: string): TemplateResult {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
  return html`<time datetime=${iso}>${text}</time>`;
}

/** The failure an HTTP status stands for: 401 signs out, 403 cannot be retried, the rest can. */
function httpFailure(status: number, message: string | undefined): { failed: DelegationsErrorDetail; signedOut: boolean } {
  const signedOut = status === 401;
  const detail: DelegationsErrorDetail = {
    code: signedOut ? 'unauthorized' : status === 403 ? 'forbidden' : 'http',
    message: message ?? `The service answered ${status}.`,
    fatal: signedOut || status === 403,
    recoverable_via: signedOut ? 'sign_in' : status === 403 ? null : 'retry',
  };
  return { failed: detail, signedOut };
}

/** The token URL's failure: no session (401, 403) signs out; another origin is a configuration error. */
function tokenUrlFailure(error: unknown): { failed: DelegationsErrorDetail; signedOut: boolean } {
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
