// What every person-facing list element shares (<svc-records>, <svc-delegations>, …): where it gets the person's
// token, how it calls the service (asking again after a 429), paging, its states, its live region, its own
// `svc-error`, and the confirm step of a destructive action. An element adds its path, its rows and its actions.
import { ContextConsumer } from '@lit/context';
import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { type AccessTokenProvider, TokenFromUrl, TokenUrlError } from './access-token.js';
import { askAgainOn429 } from './ask-again.js';
import { configDefaults, svcConfigContext } from './config.js';

/**
 * Where a list element stands: `idle` (no way to get a token, or no service URL yet), `loading`, `ready` (rows
 * shown), `empty` (none), `signed-out` (the service or the token URL refused) or `error`.
 */
export type PersonListStatus = 'idle' | 'loading' | 'ready' | 'empty' | 'signed-out' | 'error';

/** Detail of an `svc-error` from a person-facing list element itself. */
export interface PersonListErrorDetail {
  /**
   * `unauthorized` (the token was refused), `forbidden` (the token lacks the scope), `network`, `http` or
   * `invalid_configuration`; `not_found` and `invalid` only from an element whose {@link PersonList.refusal} says so.
   */
  code: 'unauthorized' | 'forbidden' | 'network' | 'http' | 'invalid_configuration' | 'not_found' | 'invalid';
  /** Human-readable explanation, for logs rather than people. */
  message: string;
  /** True when trying again cannot help (the person must sign in again, or the token lacks the scope). */
  fatal: boolean;
  /** The way out (`retry`, `sign_in`), or null when there is none. */
  recoverable_via: string | null;
}

/** What every list says, whatever it lists. */
export interface PersonListStrings {
  loading: string;
  signedOut: string;
  signInAgain: string;
  empty: string;
  error: string;
  retry: string;
  more: string;
  moreShown: (count: number) => string;
  shown: (count: number, more: boolean) => string;
  cancel: string;
  /** Said when a confirm step is cancelled. */
  cancelled: string;
  /** Said when an action failed for a reason other than being signed out. */
  failed: string;
}

/** What a call to the API came to: the answer's body, or why there is none. */
export type Outcome = { body: Record<string, unknown> } | { failed: PersonListErrorDetail; signedOut: boolean } | { idle: true };

/** The confirm step open on one row: what it would do, and the key of the button that opened it. */
export interface Pending<Ask> {
  row: string;
  ask: Ask;
  from: string;
  busy: boolean;
}

/**
 * A list of the signed-in person's own things, read from `listPath` with their access token: from
 * `getAccessToken` (asked before every request), else `accessToken`, else `token-url` (a same-origin URL the
 * element POSTs to with the page's cookies for `{access_token, expires_in}`). Rows carry `data-key="row <id>"`, the
 * buttons `data-key="<what> <id> …"`, so focus can go back to the button (or its row) after an action.
 */
export abstract class PersonList<Row extends { id: string }, Ask = unknown> extends LitElement {
  static override properties: PropertyDeclarations = {
    trustUrl: { attribute: 'trust-url' },
    tokenUrl: { attribute: 'token-url' },
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
  /** Rows per page, 1 to 100 (default 20). */
  limit?: number;
  /** The person's access token. Never an attribute: set the property, `getAccessToken` or `token-url`. */
  accessToken?: string;
  /** Asked for the access token before every request (e.g. the OAuth helper's, which refreshes it); wins over `accessToken` and `token-url`. */
  getAccessToken?: AccessTokenProvider;
  /** The `fetch` the element calls the API and the token URL with (default: the page's). */
  fetch?: typeof fetch;

  /** Where the element stands; also exposed to CSS as a custom state, e.g. `svc-records:state(empty)`. */
  get status(): PersonListStatus {
    return this.phase;
  }

  protected phase: PersonListStatus = 'idle';
  protected rows: Row[] = [];
  protected next: string | null = null;
  protected announcement = '';
  protected pending: Pending<Ask> | undefined;

  /** The API path of the list (`/api/v1/me/consent_records`). */
  protected abstract get listPath(): string;
  /** The key of the list in its answer (`consent_records`). */
  protected abstract get listKey(): string;
  protected abstract get strings(): PersonListStrings;
  /** One row, as an `<li>` with `data-key="row <id>"` and `tabindex=-1`. */
  protected abstract renderRow(row: Row): TemplateResult;

  /** Adds the element's filters (`status`, …) to the list's query. */
  protected filters(_params: URLSearchParams): void {}

  /** Reads what else a page of the list carries (the organisations one may ask, say); called before it is shown. */
  protected received(_page: Record<string, unknown>): void {}

  /** The failure an HTTP status stands for; an element whose service says more (404, 422) overrides it. */
  protected refusal(status: number, message: string | undefined): { failed: PersonListErrorDetail; signedOut: boolean } {
    return httpFailure(status, message);
  }

  /** What is shown above the list when it is ready or empty (a form to add one, say). */
  protected renderTop(): unknown {
    return nothing;
  }

  readonly #provided = new ContextConsumer(this, { context: svcConfigContext, subscribe: true });
  readonly #internals = this.attachInternals?.();
  readonly #tokens = new TokenFromUrl();
  /** What the shown rows answer (service, token URL, path, filters); a change reloads. */
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
    const query = `${this.#api()} ${this.tokenUrl} ${this.listPath}?${this.#search()}`;
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

  /** The service's URL (no trailing slash), for what an element reads that is not the person's (its JWKS, say). */
  protected get serviceUrl(): string | undefined {
    return this.#api();
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
    this.filters(params);
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
  protected async call(path: string, init: RequestInit = {}): Promise<Outcome> {
    const api = this.#api();
    let token: string | undefined;
    try {
      token = await this.#token();
    } catch (error) {
      return tokenUrlFailure(error, (status, message) => this.refusal(status, message));
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
    return this.refusal(answer.status, typeof body.message === 'string' ? body.message : undefined);
  }

  /**
   * POSTs an action (`body` as JSON) and answers the object under `envelope` in the service's answer, or undefined
   * once a failure was handled: a refused token signs out; anything else says `failed`, fires `svc-error` and puts
   * focus back on `from`.
   */
  protected async act<T>(path: string, body: unknown, from: string, envelope: string): Promise<T | undefined> {
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) };
    const outcome = await this.call(path, init);
    this.pending = undefined;
    if ('idle' in outcome) {
      this.showIdle();
      return undefined;
    }
    const answered = 'body' in outcome ? outcome.body[envelope] : undefined;
    if (answered && typeof answered === 'object') return answered as T;
    const failed = 'failed' in outcome ? outcome : httpFailure(502, `The service answered without ${envelope}.`);
    if (failed.signedOut) {
      this.fail(failed.failed, true);
      return undefined;
    }
    this.announcement = this.strings.failed;
    this.error(failed.failed);
    await this.focusKey(from);
    return undefined;
  }

  /** Shows the signed-out state without a failure: the token is gone (an action whose outcome was `idle`). */
  protected showIdle(): void {
    this.#show([], null, 'idle', '');
  }

  /** Puts `row` in place of the shown row with its id. */
  protected replaceRow(row: Row): void {
    this.rows = this.rows.map((shown) => (shown.id === row.id ? row : shown));
  }

  /** Adds `row` at the top of the list (a new request, a new vouch). */
  protected addRow(row: Row): void {
    this.rows = [row, ...this.rows.filter((shown) => shown.id !== row.id)];
    this.phase = 'ready';
  }

  /** Reads a page: the first (replacing the rows) or the one after `cursor` (appended). */
  async #read(cursor: string | undefined): Promise<void> {
    const load = ++this.#load;
    if (!this.getAccessToken && !this.accessToken && !this.tokenUrl) return this.#show([], null, 'idle', '');
    if (!cursor) {
      this.phase = 'loading';
      this.announcement = this.strings.loading;
    }
    const params = this.#search();
    if (cursor) params.set('cursor', cursor);
    const query = `${params}`;
    const outcome = await this.call(`${this.listPath}${query ? `?${query}` : ''}`);
    if (load !== this.#load) return;
    if ('idle' in outcome) return this.#show([], null, 'idle', '');
    const page = 'body' in outcome ? outcome.body : {};
    const list = page[this.listKey];
    if ('failed' in outcome || !Array.isArray(list)) {
      const failed = 'failed' in outcome ? outcome : httpFailure(502, `The service answered without ${this.listKey}.`);
      return this.fail(failed.failed, failed.signedOut);
    }
    this.received(page);
    const rows = cursor ? [...this.rows, ...(list as Row[])] : (list as Row[]);
    const next = typeof page.next_cursor === 'string' ? page.next_cursor : null;
    const said = cursor ? this.strings.moreShown(list.length) : this.strings.shown(rows.length, !!next);
    this.#show(rows, next, rows.length ? 'ready' : 'empty', said);
  }

  #show(rows: Row[], next: string | null, phase: PersonListStatus, announcement: string): void {
    this.rows = rows;
    this.next = next;
    this.phase = phase;
    this.announcement = announcement;
    if (!rows.length) this.pending = undefined;
  }

  /** Shows the failure (signed out, or an error with a retry button) and fires `svc-error`. */
  protected fail(detail: PersonListErrorDetail, signedOut = false): void {
    this.#show([], null, signedOut ? 'signed-out' : 'error', signedOut ? this.strings.signInAgain : this.strings.error);
    this.error(detail);
  }

  /** Fires the element's own `svc-error`. */
  protected error(detail: PersonListErrorDetail): void {
    this.dispatchEvent(new CustomEvent('svc-error', { bubbles: true, composed: true, detail }));
  }

  /** Opens the confirm step of `ask` on `row` (`{id: ''}` for one not listed yet) unless one is under way; focus moves to it. */
  protected async confirm(row: Pick<Row, 'id'>, ask: Ask, from: string): Promise<void> {
    if (this.pending?.busy) return;
    this.pending = { row: row.id, ask, from, busy: false };
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('[part=confirm]')?.focus();
  }

  /** Closes the confirm step without a request; focus goes back to the button that opened it. */
  protected async cancel(): Promise<void> {
    const from = this.pending?.from;
    if (!from || this.pending?.busy) return;
    this.pending = undefined;
    this.announcement = this.strings.cancelled;
    await this.focusKey(from);
  }

  /** The open confirm step as busy (its buttons disabled) while its request runs; undefined when none is open. */
  protected begin(said: string): Pending<Ask> | undefined {
    const pending = this.pending;
    if (!pending || pending.busy) return undefined;
    this.pending = { ...pending, busy: true };
    this.announcement = said;
    return pending;
  }

  /** Focus on the element keyed `key`, else on its row (the button may be gone). */
  protected async focusKey(key: string): Promise<void> {
    await this.updateComplete;
    const keyed = [...this.renderRoot.querySelectorAll<HTMLElement>('[data-key]')];
    const row = key.split(' ')[1];
    (keyed.find((el) => el.dataset.key === key) ?? keyed.find((el) => el.dataset.key === `row ${row}`))?.focus();
  }

  /**
   * The confirm step in place: a group named by `question`, focused when it opens, with `yes` (the one filled
   * button, which calls `onYes`) and Cancel; Escape cancels.
   */
  protected confirmStep(question: string, yes: string, onYes: () => unknown): TemplateResult {
    const busy = this.pending?.busy ?? false;
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      void this.cancel();
    };
    return html`<div part=confirm role=group tabindex=-1 aria-labelledby=question @keydown=${escape}>
      <p id=question>${question}</p>
      <div part=actions>
        <button part=confirm-button class=primary type=button ?disabled=${busy} @click=${onYes}>${yes}</button>
        <button part=cancel-button type=button ?disabled=${busy} @click=${() => this.cancel()}>${this.strings.cancel}</button>
      </div>
    </div>`;
  }

  protected override render(): TemplateResult {
    const { phase, strings } = this;
    let body: unknown = nothing;
    if (phase === 'ready') {
      body = html`${this.renderTop()}<ul part=list>${this.rows.map((row) => this.renderRow(row))}</ul>${
        this.next
          ? html`<button part=more type=button @click=${() => this.#read(this.next ?? undefined)}>${strings.more}</button>`
          : nothing
      }`;
    } else if (phase === 'empty') {
      body = html`${this.renderTop()}<slot name=empty><p>${strings.empty}</p></slot>`;
    } else if (phase === 'idle' || phase === 'signed-out') {
      body = html`<slot name=signed-out><p>${strings.signedOut}</p></slot>`;
    } else if (phase === 'error') {
      body = html`<slot name=error><p>${strings.error}</p></slot><button part=retry type=button @click=${this.refresh}>${strings.retry}</button>`;
    }
    return html`<div part=base class=${phase}>${body}<p part=status role=status>${this.announcement}</p></div>`;
  }
}

/** A date as the person's browser writes it, in a `<time>`, or the text as it came when it is not one. */
export function when(iso: string): TemplateResult {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
  return html`<time datetime=${iso}>${text}</time>`;
}

/** The failure an HTTP status stands for: 401 signs out, 403 cannot be retried, the rest can. */
export function httpFailure(status: number, message: string | undefined): { failed: PersonListErrorDetail; signedOut: boolean } {
  const signedOut = status === 401;
  const detail: PersonListErrorDetail = {
    code: signedOut ? 'unauthorized' : status === 403 ? 'forbidden' : 'http',
    message: message ?? `The service answered ${status}.`,
    fatal: signedOut || status === 403,
    recoverable_via: signedOut ? 'sign_in' : status === 403 ? null : 'retry',
  };
  return { failed: detail, signedOut };
}

/** The token URL's failure: no session (401, 403) signs out; another origin is a configuration error. */
function tokenUrlFailure(error: unknown, refusal: typeof httpFailure): { failed: PersonListErrorDetail; signedOut: boolean } {
  if (!(error instanceof TokenUrlError)) {
    return {
      failed: { code: 'network', message: `The token URL could not be reached: ${String(error)}`, fatal: false, recoverable_via: 'retry' },
      signedOut: false,
    };
  }
  if (error.status === 0)
    return { failed: { code: 'invalid_configuration', message: error.message, fatal: true, recoverable_via: null }, signedOut: false };
  return refusal(error.status === 403 ? 401 : error.status, error.message);
}
