import { ContextConsumer } from '@lit/context';
import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { type AccessTokenProvider, TokenFromUrl, TokenUrlError } from '../internal/access-token.js';
import { askAgainOn429 } from '../internal/ask-again.js';
import { configDefaults, svcConfigContext } from '../internal/config.js';
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
export type CredentialsStatus = 'idle' | 'loading' | 'ready' | 'empty' | 'signed-out' | 'error';

/** Gives the person's access token (the OAuth helper's `accessToken()`), asked before every request. */
export type CredentialsTokenProvider = AccessTokenProvider;

/** The selective-disclosure step open on one credential. */
interface Choosing {
  credential: string;
  chosen: Set<string>;
  audience: string;
  busy: boolean;
  problem: string;
}

type Outcome = { body: Record<string, unknown> } | { failed: CredentialsErrorDetail; signedOut: boolean } | { idle: true };

const STRINGS = EN;
const QUESTION = 'svc-credentials-question';
const RESULT = 'svc-credentials-result';

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
export class SvcCredentials extends LitElement {
  static override styles = credentialsStyles;

  static override properties: PropertyDeclarations = {
    trustUrl: { attribute: 'trust-url' },
    tokenUrl: { attribute: 'token-url' },
    view: {},
    audience: {},
    limit: { type: Number },
    accessToken: { attribute: false },
    getAccessToken: { attribute: false },
    fetch: { attribute: false },
    phase: { attribute: false },
    rows: { attribute: false },
    next: { attribute: false },
    announcement: { attribute: false },
    choosing: { attribute: false },
    made: { attribute: false },
  };

  /** Where the service lives; defaults to the `<svc-provider>`'s, then the script tag's service. */
  trustUrl?: string;
  /** A same-origin URL that answers a POST (with the page's cookies) with `{access_token, expires_in}`. */
  tokenUrl?: string;
  /** `credentials` (default: the person's credentials, each presentable) or `presentations` (what they presented). */
  view?: string;
  /** Who presentations are for, filled in for the person (an organisation embedding the element names itself). */
  audience?: string;
  /** Rows per page, 1 to 100 (default 20). */
  limit?: number;
  /** The person's access token (scopes `credentials:read`, `credentials:write`). Never an attribute. */
  accessToken?: string;
  /** Asked for the access token before every request; wins over `accessToken` and `token-url`. */
  getAccessToken?: CredentialsTokenProvider;
  /** The `fetch` the element calls the API and the token URL with (default: the page's). */
  fetch?: typeof fetch;

  /** Where the element stands; also a custom state, e.g. `svc-credentials:state(empty)`. */
  get status(): CredentialsStatus {
    return this.phase;
  }

  /** The credentials shown (empty in the presentations view). */
  get credentials(): readonly CredentialRow[] {
    return this.#history() ? [] : (this.rows as CredentialRow[]);
  }

  /** The presentations shown (empty in the credentials view). */
  get presentations(): readonly PresentationRow[] {
    return this.#history() ? (this.rows as PresentationRow[]) : [];
  }

  private phase: CredentialsStatus = 'idle';
  private rows: (CredentialRow | PresentationRow)[] = [];
  private next: string | null = null;
  private announcement = '';
  private choosing: Choosing | undefined;
  private made: MadePresentation | undefined;

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
    const query = `${this.#api()} ${this.tokenUrl} ${this.#history()} ${this.limit}`;
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

  #history(): boolean {
    return this.view === 'presentations';
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

  /** Reads a page: the first (replacing the rows) or the one after `cursor` (appended). */
  async #read(cursor: string | undefined): Promise<void> {
    const load = ++this.#load;
    if (!this.getAccessToken && !this.accessToken && !this.tokenUrl) return this.#show([], null, 'idle', '');
    if (!cursor) {
      this.phase = 'loading';
      this.announcement = STRINGS.loading;
    }
    const history = this.#history();
    const key = history ? 'presentations' : 'credentials';
    const params = new URLSearchParams();
    if (this.limit) params.set('limit', String(this.limit));
    if (cursor) params.set('cursor', cursor);
    const outcome = await this.#call(`/api/v1/me/${key}${params.size ? `?${params}` : ''}`);
    if (load !== this.#load) return;
    if ('idle' in outcome) return this.#show([], null, 'idle', '');
    const page = 'body' in outcome ? outcome.body : {};
    if ('failed' in outcome || !Array.isArray(page[key])) {
      const failed = 'failed' in outcome ? outcome : httpFailure(502, `The service answered without ${key}.`);
      return this.#fail(failed.failed, failed.signedOut);
    }
    const more = page[key] as CredentialRow[];
    const rows = cursor ? [...this.rows, ...more] : more;
    const next = typeof page.next_cursor === 'string' ? page.next_cursor : null;
    const said = cursor ? STRINGS.moreShown(more.length) : STRINGS.shown(rows.length, !!next, history);
    this.#show(rows, next, rows.length ? 'ready' : 'empty', said);
  }

  #show(rows: (CredentialRow | PresentationRow)[], next: string | null, phase: CredentialsStatus, announcement: string): void {
    this.rows = rows;
    this.next = next;
    this.phase = phase;
    this.announcement = announcement;
    if (!rows.length) this.choosing = this.made = undefined;
  }

  #fail(detail: CredentialsErrorDetail, signedOut = false): void {
    this.#show([], null, signedOut ? 'signed-out' : 'error', signedOut ? STRINGS.signInAgain : STRINGS.error);
    this.#error(detail);
  }

  #error(detail: CredentialsErrorDetail): void {
    this.dispatchEvent(new CustomEvent('svc-error', { bubbles: true, composed: true, detail }));
  }

  /** Opens the selective-disclosure step on `credential` (nothing chosen yet) and moves focus to it. */
  async #open(credential: CredentialRow): Promise<void> {
    this.made = undefined;
    this.choosing = { credential: credential.id, chosen: new Set(), audience: this.audience ?? '', busy: false, problem: '' };
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part=step]')?.focus();
  }

  /** Closes the step or the result; focus goes back to the credential's Present button. */
  async #close(announcement = STRINGS.cancelled): Promise<void> {
    const id = this.choosing?.credential ?? this.made?.credential_id;
    if (!id || this.choosing?.busy) return;
    this.choosing = this.made = undefined;
    this.announcement = announcement;
    await this.updateComplete;
    const present = this.renderRoot.querySelector<HTMLElement>(`[data-key="present ${CSS.escape(id)}"]`);
    (present ?? this.renderRoot.querySelector<HTMLElement>(`[data-key="credential ${CSS.escape(id)}"]`))?.focus();
  }

  #toggle(path: string, on: boolean): void {
    const choosing = this.choosing;
    if (!choosing) return;
    const chosen = new Set(choosing.chosen);
    if (on) chosen.add(path);
    else chosen.delete(path);
    this.choosing = { ...choosing, chosen };
  }

  /** The POST of the chosen claims; then the result, or the service's refusal inside the step. */
  async #present(credential: CredentialRow): Promise<void> {
    const choosing = this.choosing;
    if (!choosing || choosing.busy) return;
    const audience = choosing.audience.trim();
    this.choosing = { ...choosing, busy: true, problem: '' };
    this.announcement = STRINGS.presenting;
    const disclose = credential.claims.filter((c) => !c.required && choosing.chosen.has(c.path)).map((c) => c.path);
    const outcome = await this.#call(`/api/v1/me/credentials/${encodeURIComponent(credential.id)}/presentations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ disclose, audience }),
    });
    const made = 'body' in outcome ? (outcome.body.presentation as MadePresentation | undefined) : undefined;
    if (!made || typeof made.presentation !== 'string') {
      if ('idle' in outcome) return this.#show([], null, 'idle', '');
      const failed = 'failed' in outcome ? outcome : httpFailure(502, 'The service answered without the presentation.');
      if (failed.signedOut) return this.#fail(failed.failed, true);
      this.choosing = { ...choosing, busy: false, problem: STRINGS.failed(failed.failed.message) };
      this.announcement = this.choosing.problem;
      return this.#error(failed.failed);
    }
    this.choosing = undefined;
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
    void this.#close(this.made ? '' : STRINGS.cancelled);
  }

  #step(credential: CredentialRow, choosing: Choosing): TemplateResult {
    const always = credential.claims.filter((c) => c.required).map((c) => c.label);
    const chosen = credential.claims.filter((c) => !c.required && choosing.chosen.has(c.path)).map((c) => c.label);
    const submit = (event: SubmitEvent) => {
      event.preventDefault();
      void this.#present(credential);
    };
    const audience = (event: Event) => {
      this.choosing = { ...choosing, audience: (event.target as HTMLInputElement).value };
    };
    return html`<form part=step tabindex=-1 aria-labelledby=${QUESTION} aria-busy=${choosing.busy} @submit=${submit}
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
        <button part=confirm-button class=primary type=submit ?disabled=${choosing.busy}>${STRINGS.confirm}</button>
        <button part=cancel-button type=button ?disabled=${choosing.busy} @click=${() => this.#close()}>${STRINGS.cancel}</button>
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
        <button part=done type=button @click=${() => this.#close('')}>${STRINGS.done}</button>
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
    const choosing = this.choosing?.credential === credential.id ? this.choosing : undefined;
    const made = this.made?.credential_id === credential.id ? this.made : undefined;
    return html`<li part=credential tabindex=-1 data-key=${`credential ${credential.id}`}>
      <p part=heading><span part=name>${credential.name}</span> <span part=organisation>${STRINGS.from(credential.organisation.name)}</span></p>
      <p part=meta>${STRINGS.status[credential.status] ?? credential.status} · ${STRINGS.issued(when(credential.issued_at))} · ${STRINGS.expires(
        when(credential.expires_at),
      )}</p>
      <ul part=claims>${credential.claims.map((claim) => this.#claim(claim))}</ul>
      ${
        credential.presentable
          ? choosing || made
            ? nothing
            : html`<button part=present type=button data-key=${`present ${credential.id}`}
              aria-label=${STRINGS.presentNamed(credential.name, credential.organisation.name)}
              @click=${() => this.#open(credential)}>${STRINGS.present}</button>`
          : html`<p part=note>${STRINGS.notPresentable}</p>`
      }
      ${choosing ? this.#step(credential, choosing) : nothing}
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

  protected override render(): TemplateResult {
    const { phase } = this;
    const history = this.#history();
    let body: TemplateResult | typeof nothing = nothing;
    if (phase === 'ready') {
      const items = history
        ? (this.rows as PresentationRow[]).map((row) => this.#presentation(row))
        : (this.rows as CredentialRow[]).map((row) => this.#credential(row));
      body = html`<ul part=list>${items}</ul>${
        this.next
          ? html`<button part=more type=button @click=${() => this.#read(this.next ?? undefined)}>${STRINGS.more}</button>`
          : nothing
      }`;
    } else if (phase === 'empty') {
      body = html`<slot name=empty><p>${history ? STRINGS.emptyPresentations : STRINGS.empty}</p></slot>`;
    } else if (phase === 'idle' || phase === 'signed-out') {
      body = html`<slot name=signed-out><p>${STRINGS.signedOut}</p></slot>`;
    } else if (phase === 'error') {
      body = html`<slot name=error><p>${STRINGS.error}</p></slot><button part=retry type=button @click=${this.refresh}>${STRINGS.retry}</button>`;
    }
    return html`<div part=base class=${phase}>${body}<p part=status role=status>${this.announcement}</p></div>`;
  }
}

/** A date as the person's browser writes it, or the text as it came when it is not one. */
function when(iso: string): TemplateResult {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
  return html`<time datetime=${iso}>${text}</time>`;
}

/** The failure an HTTP status stands for: 401 signs out, 403 cannot be retried, 4xx refusals are `invalid`. */
function httpFailure(status: number, message: string | undefined): { failed: CredentialsErrorDetail; signedOut: boolean } {
  const signedOut = status === 401;
  const code = signedOut ? 'unauthorized' : status === 403 ? 'forbidden' : status === 404 || status === 422 ? 'invalid' : 'http';
  const fatal = signedOut || status === 403;
  const detail: CredentialsErrorDetail = {
    code,
    message: message ?? `The service answered ${status}.`,
    fatal,
    recoverable_via: signedOut ? 'sign_in' : fatal || code === 'invalid' ? null : 'retry',
  };
  return { failed: detail, signedOut };
}

/** The token URL's failure: no session (401, 403) signs out; another origin is a configuration error. */
function tokenUrlFailure(error: unknown): { failed: CredentialsErrorDetail; signedOut: boolean } {
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
