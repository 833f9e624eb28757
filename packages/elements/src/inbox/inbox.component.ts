import { ContextConsumer } from '@lit/context';
import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import type { InboxErrorDetail, InboxRow, SvcInboxOpenDetail } from '../events/svc-inbox-open.js';
import type { AccessTokenProvider } from '../internal/access-token.js';
import { askAgainOn429 } from '../internal/ask-again.js';
import { configDefaults, svcConfigContext } from '../internal/config.js';
import { inboxStyles } from './inbox.styles.js';

/**
 * Where the element stands: `idle` (no access token or no service URL yet), `loading`, `ready` (rows shown),
 * `empty` (nothing waits), `signed-out` (the service refused the token) or `error`.
 */
export type InboxStatus = 'idle' | 'loading' | 'ready' | 'empty' | 'signed-out' | 'error';

/** Gives the person's access token (the OAuth helper's `accessToken()`), asked before every request. */
export type InboxTokenProvider = AccessTokenProvider;

const KINDS: Record<string, string> = { consent: 'Consent', approval: 'Approval', signature_request: 'Signature request' };
const FILTERS = ['kind', 'trigger', 'application_id', 'sort', 'limit'] as const;

/**
 * The signed-in person's Trust Inbox inside an application's own page: the consent, approval and signature decisions
 * that wait for them, from every organisation (`GET /api/v1/inbox` with their access token, which needs the
 * `inbox:read` scope), soonest deadline first. Each row opens its decision in a popup through `<svc-decision
 * mode="popup">`, whose events (`svc-complete`, `svc-cancel`, `svc-error`, ...) pass through; the list refreshes once
 * a decision ends or its window closes. A decision's completion reaches this page only when it is the page's own
 * application's (the hosted page posts to that application's origins alone); the service records every answer
 * wherever it was made.
 *
 * @summary Lists the decisions that wait for the signed-in person and opens each in a popup.
 *
 * @slot empty - Shown when nothing waits (default: "Nothing waits for you.").
 * @slot signed-out - Shown without an access token, or when the service refused it (default: one sentence).
 * @slot error - Shown when the inbox cannot be read (default: one sentence, and a retry button).
 *
 * @fires {SvcInboxOpenEvent} svc-inbox-open - A row is about to open (cancelable: `preventDefault()` keeps the popup shut); detail is the row.
 * @fires {SvcInboxErrorEvent} svc-error - The inbox could not be read; detail has `code` (`unauthorized`, `forbidden`, `network`, `http`, `invalid_configuration`), `message`, `fatal`, `recoverable_via`.
 *
 * @csspart base - The wrapper of everything else.
 * @csspart list - The list of rows.
 * @csspart row - One row.
 * @csspart title - The row's `<svc-decision>`, whose button (its `button` part) carries the title.
 * @csspart summary - The row's one-line summary.
 * @csspart meta - What kind of decision, who asks and by when.
 * @csspart more - The button that loads the next page.
 * @csspart retry - The button that tries again after an error.
 * @csspart status - The live region announcing loading and changes.
 *
 * @cssprop [--svc-inbox-gap=.75rem] - Space between rows.
 * @cssprop [--svc-inbox-border=1px solid color-mix(in srgb, currentColor 20%, transparent)] - Border of each row.
 * @cssprop [--svc-inbox-radius=var(--svc-radius, 0.6rem)] - Corner radius of rows and buttons.
 * @cssprop [--svc-inbox-accent=var(--svc-accent, #2f4fb5)] - Colour of the buttons (and of the rows' `<svc-decision>` buttons, secondary).
 * @cssprop [--svc-inbox-color=inherit] - Text colour.
 * @cssprop [--svc-inbox-font=400 100%/1.5 var(--svc-font-family, system-ui, …)] - Font (its own stack, not the page's).
 */
export class SvcInbox extends LitElement {
  static override styles = inboxStyles;

  static override properties: PropertyDeclarations = {
    baseUrl: { attribute: 'base-url' },
    trustUrl: { attribute: 'trust-url' },
    kind: {},
    trigger: {},
    applicationId: { attribute: 'application-id' },
    sort: {},
    limit: { type: Number },
    accessToken: { attribute: false },
    getAccessToken: { attribute: false },
    fetch: { attribute: false },
    phase: { attribute: false },
    rows: { attribute: false },
    next: { attribute: false },
    announcement: { attribute: false },
  };

  /** @internal Milliseconds between a decision's end and the refresh that drops its row. */
  static refreshDelayMs = 600;

  /** Where the service's REST API lives; defaults to the `<svc-provider>`'s `base-url`, then the trust URL. */
  baseUrl?: string;
  /** Where the hosted decision pages live; defaults to the `<svc-provider>`'s, then the base URL. */
  trustUrl?: string;
  /** Only decisions of this kind: `consent`, `approval` or `signature_request`. */
  kind?: string;
  /** Only approvals answering an agent's escalation of this trigger type (`scope`, `action`, `value`, `time`, `escalation`, `reputation`). */
  trigger?: string;
  /** Only decisions of this application. */
  applicationId?: string;
  /** `deadline` (soonest first, the default) or `newest`. */
  sort?: string;
  /** Rows per page, 1 to 100 (default 20). */
  limit?: number;
  /** The person's access token (scope `inbox:read`). Never an attribute: set the property, or `getAccessToken`. */
  accessToken?: string;
  /** Asked for the access token before every request (e.g. the OAuth helper's, which refreshes it); wins over `accessToken`. */
  getAccessToken?: InboxTokenProvider;
  /** The `fetch` the element calls the API with (default: the page's). */
  fetch?: typeof fetch;

  /** Where the element stands; also exposed to CSS as a custom state, e.g. `svc-inbox:state(empty)`. */
  get status(): InboxStatus {
    return this.phase;
  }

  /** The rows shown, in order. */
  get decisions(): readonly InboxRow[] {
    return this.rows;
  }

  private phase: InboxStatus = 'idle';
  private rows: InboxRow[] = [];
  private next: string | null = null;
  private announcement = '';

  readonly #provided = new ContextConsumer(this, { context: svcConfigContext, subscribe: true });
  readonly #internals = this.attachInternals?.();
  /** The query the shown rows answer; a change reloads. */
  #query = '';
  /** Counts loads, so an answer that a newer load overtook is dropped. */
  #load = 0;
  #refresh: ReturnType<typeof setTimeout> | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    this.#query = '';
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#refresh);
    this.#load += 1;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const query = this.#search();
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

  /** Reads the first page again (what a row's end does on its own); resolves once it is shown. */
  async refresh(): Promise<void> {
    await this.#read(undefined);
  }

  /** The API's and the decisions' URLs: own attributes, then the provider, then the script tag's defaults. */
  #urls(): { api?: string; trust?: string } {
    const provider = this.closest('svc-provider');
    const provided = this.#provided.value ?? { trustUrl: provider?.getAttribute('trust-url'), baseUrl: provider?.getAttribute('base-url') };
    const fallback = configDefaults().trustUrl;
    const api = this.baseUrl || provided.baseUrl || this.trustUrl || provided.trustUrl || fallback;
    return { api: api?.replace(/\/+$/, ''), trust: (this.trustUrl || provided.trustUrl || api)?.replace(/\/+$/, '') };
  }

  #search(): string {
    const values = [this.kind, this.trigger, this.applicationId, this.sort, this.limit];
    const params = new URLSearchParams();
    FILTERS.forEach((name, i) => {
      const value = values[i];
      if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
    });
    return `${this.#urls().api}?${params}`;
  }

  /** Reads a page: the first (replacing the rows) or the one after `cursor` (appended). */
  async #read(cursor: string | undefined): Promise<void> {
    const load = ++this.#load;
    const { api } = this.#urls();
    let token: string | undefined;
    try {
      token = this.getAccessToken ? await this.getAccessToken() : this.accessToken;
    } catch {
      token = undefined;
    }
    if (load !== this.#load) return;
    if (!token || !api) {
      this.rows = [];
      this.next = null;
      this.phase = token ? 'error' : 'idle';
      if (token)
        this.#fail({
          code: 'invalid_configuration',
          message: 'No base URL: set base-url, or wrap the element in <svc-provider base-url>.',
          fatal: true,
          recoverable_via: null,
        });
      return;
    }
    if (!cursor) {
      this.phase = 'loading';
      this.announcement = 'Loading what waits for you…';
    }
    const params = new URLSearchParams(this.#query.slice(this.#query.indexOf('?') + 1));
    if (cursor) params.set('cursor', cursor);
    let answer: Response;
    try {
      answer = await askAgainOn429(this.fetch ?? fetch, `${api}/api/v1/inbox?${params}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        credentials: 'omit',
      });
    } catch (error) {
      if (load === this.#load)
        this.#fail({
          code: 'network',
          message: `The service could not be reached: ${String(error)}`,
          fatal: false,
          recoverable_via: 'retry',
        });
      return;
    }
    let body: { decisions?: InboxRow[]; next_cursor?: string | null; message?: string } = {};
    try {
      body = await answer.json();
    } catch {
      // Not JSON: judged by the status below.
    }
    if (load !== this.#load) return;
    if (!answer.ok || !Array.isArray(body.decisions)) {
      const status = answer.status;
      const signedOut = status === 401;
      this.#fail(
        {
          code: signedOut ? 'unauthorized' : status === 403 ? 'forbidden' : 'http',
          message: body.message ?? `The inbox answered ${status}.`,
          fatal: signedOut || status === 403,
          recoverable_via: signedOut ? 'sign_in' : status === 403 ? null : 'retry',
        },
        signedOut,
      );
      return;
    }
    this.rows = cursor ? [...this.rows, ...body.decisions] : body.decisions;
    this.next = body.next_cursor ?? null;
    this.phase = this.rows.length ? 'ready' : 'empty';
    const count = this.rows.length;
    this.announcement = cursor
      ? `${body.decisions.length} more shown.`
      : this.next
        ? `${count} or more decisions wait for you.`
        : count > 1
          ? `${count} decisions wait for you.`
          : count
            ? 'One decision waits for you.'
            : 'Nothing waits for you.';
  }

  #fail(detail: InboxErrorDetail, signedOut = false): void {
    this.rows = [];
    this.next = null;
    this.phase = signedOut ? 'signed-out' : 'error';
    this.announcement = signedOut ? 'Sign in again to see what waits for you.' : 'Your inbox cannot be shown right now.';
    this.dispatchEvent(new CustomEvent('svc-error', { bubbles: true, composed: true, detail }));
  }

  /** A click in a row's `<svc-decision>` (its button, or its fallback link): announced first, and the page may keep it shut. */
  #handleOpen(row: InboxRow, event: Event): void {
    const target = event.composedPath()[0] as Element | undefined;
    if (!target?.closest?.('button,a')) return;
    const detail: SvcInboxOpenDetail = { ...row };
    const open = new CustomEvent('svc-inbox-open', { bubbles: true, composed: true, cancelable: true, detail });
    if (!this.dispatchEvent(open)) {
      event.stopPropagation();
      event.preventDefault();
    }
  }

  /** A row's decision ended (or its window closed): the row is read again shortly, so it leaves once answered. */
  #handleEnd(row: InboxRow, event: Event): void {
    if (event.type === 'svc-complete') this.announcement = `Done: ${row.title}.`;
    clearTimeout(this.#refresh);
    this.#refresh = setTimeout(() => void this.refresh(), SvcInbox.refreshDelayMs);
  }

  #row(row: InboxRow, trust: string | undefined): TemplateResult {
    const deadline = new Date(row.deadline_at);
    const end = (event: Event) => this.#handleEnd(row, event);
    return html`<li part=row><svc-decision part=title mode=popup token=${row.session_token} trust-url=${trust ?? nothing}
      @click=${{ handleEvent: (event: Event) => this.#handleOpen(row, event), capture: true }}
      @svc-complete=${end} @svc-cancel=${end}>${row.title}</svc-decision>${
        row.summary ? html`<p part=summary>${row.summary}</p>` : nothing
      }<p part=meta>${KINDS[row.kind] ?? row.kind} · ${row.application_name}${row.trigger ? ` · trigger: ${row.trigger}` : ''} · answer by <time datetime=${row.deadline_at}>${
        Number.isNaN(deadline.getTime()) ? row.deadline_at : deadline.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
      }</time></p></li>`;
  }

  protected override render(): TemplateResult {
    const { phase, rows } = this;
    const trust = this.#urls().trust;
    let body: TemplateResult | typeof nothing = nothing;
    if (phase === 'ready') {
      body = html`<ul part=list>${rows.map((row) => this.#row(row, trust))}</ul>${
        this.next ? html`<button part=more type=button @click=${() => this.#read(this.next ?? undefined)}>Show more</button>` : nothing
      }`;
    } else if (phase === 'empty') {
      body = html`<slot name=empty><p>Nothing waits for you.</p></slot>`;
    } else if (phase === 'idle' || phase === 'signed-out') {
      body = html`<slot name=signed-out><p>Sign in to see what waits for you.</p></slot>`;
    } else if (phase === 'error') {
      body = html`<slot name=error><p>Your inbox cannot be shown right now.</p></slot><button part=retry type=button @click=${this.refresh}>Try again</button>`;
    }
    return html`<div part=base class=${phase}>${body}<p part=status role=status>${this.announcement}</p></div>`;
  }
}
