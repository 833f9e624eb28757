import type { Permission } from '@svc/schemas';
import { html, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import type { AccessTokenProvider } from '../internal/access-token.js';
import { httpFailure, PersonList, type PersonListErrorDetail, type PersonListStatus, when } from '../internal/person-list.js';
import { personListStyles } from '../internal/person-list.styles.js';
import { applicationsStyles } from './applications.styles.js';
import type {
  AllowedOriginRow,
  ApiTokenRow,
  ApplicationRow,
  ApplicationsErrorDetail,
  OAuthClientRow,
  SvcApplicationsChangeDetail,
} from './events.js';
import { EN, EN_TOKENS } from './strings.js';

/**
 * Where the element stands: `idle` (no way to get a token, or no service URL yet), `loading`, `ready` (rows shown),
 * `empty` (none), `signed-out` (the service or the token URL refused) or `error`.
 */
export type ApplicationsStatus = PersonListStatus;

/** Gives the console's access token, asked before every request. */
export type ApplicationsTokenProvider = AccessTokenProvider;

type Row = ApplicationRow | ApiTokenRow;
/** What a confirm step would do: remove one allowed origin, rotate or revoke a token. */
type Ask = { kind: 'remove'; origin: string } | { kind: 'rotate' } | { kind: 'revoke' };
/** What an application's row shows besides the application: read after the list, one request each. */
interface Details {
  origins: AllowedOriginRow[];
  clients: OAuthClientRow[];
  failed: boolean;
}
/** A token's value, shown once: never an attribute, an event detail, storage or the log. */
interface Secret {
  id: string;
  name: string;
  value: string;
}

const APPS = '/api/v1/applications';
const TOKENS = '/api/v1/api_tokens';
const PERMISSIONS: readonly Permission[] = ['read', 'write', 'admin', 'audit:verify', 'disclosures:write'];
const appPath = (id: string, rest: string) => `${APPS}/${encodeURIComponent(id)}/${rest}`;
const keys = (app: ApplicationRow) => (app.publishable_keys ?? []).map((key) => key.key);

/**
 * An organisation's applications and API tokens, for the console's `/applications` page or an organisation's own
 * account pages, with the console's token. `view="applications"` (the default): each application (`GET
 * /api/v1/applications`) with its environment, its publishable keys when the service answers them, its allowed
 * origins (add one with a labelled field, the service's refusal said at the field; remove one after a confirm step)
 * and its OAuth clients (name, client id, redirect URIs; read-only). `view="api_tokens"`: the account's API tokens
 * (name, permissions, created, last used, expiry; never their values), a form to create one (its value shown once,
 * with a copy button, until dismissed), and Rotate and Revoke after a confirm step. With `readonly` (a viewer) there
 * are no change controls; a refusal of the role (403) is said with the service's message. A polite live region says
 * what happened.
 *
 * The token comes from `getAccessToken` (asked before every request), else `accessToken`, else `token-url` (on the
 * console, `/console/access_token`: a same-origin URL answering a POST with the page's cookies with
 * `{access_token, expires_in}`).
 *
 * @summary Lists an organisation's applications (allowed origins, OAuth clients) or API tokens, and changes them.
 *
 * @slot empty - Shown when there is nothing to list (default: one sentence).
 * @slot signed-out - Shown without a token, or when it was refused (default: one sentence).
 * @slot error - Shown when the list cannot be read (default: one sentence, or the service's refusal, and a retry button).
 *
 * @fires {SvcApplicationsChangeEvent} svc-applications-change - The service recorded a change; detail has `action` (`add`, `remove`, `create`, `rotate`, `revoke`), `status` and the ids (`application_id` and `origin`, or `api_token_id`), never a token's value.
 * @fires {SvcApplicationsErrorEvent} svc-error - A list could not be read or an action failed; detail has `code`, `message`, `fatal`, `recoverable_via`.
 *
 * @csspart base - The wrapper of everything else.
 * @csspart list - The list of applications or API tokens.
 * @csspart application - One application.
 * @csspart heading - An application's or a token's name.
 * @csspart meta - Environment and dates, or a token's dates.
 * @csspart keys - The publishable keys.
 * @csspart section-title - The title of a part of an application (keys, origins, clients).
 * @csspart origins - The list of allowed origins.
 * @csspart origin - One allowed origin.
 * @csspart remove - The button that removes an allowed origin.
 * @csspart origin-form - The form that allows an origin.
 * @csspart field-error - Why the service refused the origin, or the token form's field (tied to its field).
 * @csspart add - The form's Allow origin button.
 * @csspart clients - The list of OAuth clients.
 * @csspart client - One OAuth client.
 * @csspart api-token - One API token.
 * @csspart permissions - A token's permissions.
 * @csspart rotate - The button that rotates a token.
 * @csspart revoke - The button that revokes a token.
 * @csspart new - The button that opens the token form.
 * @csspart form - The token form.
 * @csspart form-title - The token form's heading.
 * @csspart form-error - The service's refusal of the token form.
 * @csspart submit - The token form's Create button.
 * @csspart secret - A new token value, shown once (a group named by its title).
 * @csspart secret-value - The value itself.
 * @csspart copy - The button that copies the value.
 * @csspart dismiss - The button that forgets the value.
 * @csspart actions - The buttons of a form, the secret and the confirm step.
 * @csspart cancel-button - The buttons that close a form or the confirm step.
 * @csspart confirm - The confirm step (a group named by its question).
 * @csspart confirm-button - The button that confirms (the one filled button).
 * @csspart more - The button that loads the next page.
 * @csspart retry - The button that tries again after an error.
 * @csspart status - The live region announcing loading and what happened.
 *
 * @cssprop [--svc-applications-gap=.75rem] - Space between rows.
 * @cssprop [--svc-applications-border=1px solid color-mix(in srgb, currentColor 20%, transparent)] - Border of each row and form.
 * @cssprop [--svc-applications-radius=var(--svc-radius, 0.6rem)] - Corner radius of rows and buttons.
 * @cssprop [--svc-applications-accent=var(--svc-accent, #2f4fb5)] - Colour of the buttons.
 * @cssprop [--svc-applications-error=#b3261e] - Colour of a refusal.
 * @cssprop [--svc-applications-color=inherit] - Text colour.
 * @cssprop [--svc-applications-font=400 100%/1.5 var(--svc-font-family, system-ui, …)] - Font (its own stack, not the page's).
 */
export class SvcApplications extends PersonList<Row, Ask> {
  static override styles = [personListStyles('applications'), applicationsStyles];

  static override properties: PropertyDeclarations = {
    view: {},
    readonly: { type: Boolean },
    details: { attribute: false },
    formOpen: { attribute: false },
    fieldError: { attribute: false },
    sending: { attribute: false },
  };

  /** `applications` (default): the applications, their origins and OAuth clients; `api_tokens`: the account's API tokens. */
  view?: string;
  /** No change controls (a viewer's console). */
  readonly = false;

  private details = new Map<string, Details>();
  private formOpen = false;
  /** The service's refusal shown at a field: the application's origin field, or the token form (`tokens`). */
  private fieldError: { at: string; message: string } | undefined;
  private sending = false;
  #secret: Secret | undefined;
  /** The service's last refusal, so a 403 or 422 is said where it belongs. */
  #refused: { status: number; message: string } | undefined;
  /** The service's message when it refused to list (403), said in place of the generic error. */
  #forbidden: string | undefined;

  /** The applications shown (empty in the API tokens view). */
  get applications(): readonly ApplicationRow[] {
    return this.#tokens() ? [] : (this.rows as ApplicationRow[]);
  }

  /** The API tokens shown, never with their values (empty in the applications view). */
  get apiTokens(): readonly ApiTokenRow[] {
    return this.#tokens() ? (this.rows as ApiTokenRow[]) : [];
  }

  #tokens(): boolean {
    return this.view === 'api_tokens';
  }

  protected override get listPath(): string {
    return this.#tokens() ? TOKENS : APPS;
  }

  protected override get listKey(): string {
    return this.#tokens() ? 'api_tokens' : 'applications';
  }

  protected override get strings(): typeof EN | typeof EN_TOKENS {
    const strings = this.#tokens() ? EN_TOKENS : EN;
    return this.#forbidden ? { ...strings, error: strings.refused(this.#forbidden) } : strings;
  }

  override async refresh(): Promise<void> {
    this.#forbidden = undefined;
    await super.refresh();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#secret = undefined;
  }

  /** A 404 or 422 is the action's own: `not_found`, `invalid`; the status and message are kept to say it in place. */
  protected override refusal(status: number, message: string | undefined): { failed: ApplicationsErrorDetail; signedOut: boolean } {
    const { failed, signedOut } = httpFailure(status, message);
    this.#refused = { status, message: failed.message };
    const code = status === 404 ? 'not_found' : status === 422 ? 'invalid' : (failed.code as ApplicationsErrorDetail['code']);
    return { failed: { ...failed, code }, signedOut };
  }

  protected override fail(detail: PersonListErrorDetail, signedOut = false): void {
    this.#forbidden = detail.code === 'forbidden' ? detail.message : undefined;
    super.fail(detail, signedOut);
  }

  /** Each application's origins and OAuth clients are read once the page of applications is in. */
  protected override received(page: Record<string, unknown>): void {
    if (!Array.isArray(page.applications)) return;
    for (const app of page.applications as ApplicationRow[]) void this.#loadDetails(app.id);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    // Signed out, failed or another view: the forms and a shown value go with the list.
    if (this.phase === 'idle' || this.phase === 'signed-out' || this.phase === 'error' || changed.has('view')) {
      this.formOpen = false;
      this.fieldError = undefined;
      this.#secret = undefined;
    }
    if (changed.has('view')) this.details = new Map();
  }

  async #loadDetails(id: string): Promise<void> {
    // A read that began before a change was shown (an origin added or removed) must not put back what it changed.
    const before = this.details.get(id);
    const [origins, clients] = await Promise.all([
      this.call(`${appPath(id, 'allowed_origins')}?limit=100`),
      this.call(`${appPath(id, 'oauth_clients')}?limit=100`),
    ]);
    const list = <T>(outcome: typeof origins, key: string) =>
      'body' in outcome && Array.isArray(outcome.body[key]) ? (outcome.body[key] as T[]) : undefined;
    const o = list<AllowedOriginRow>(origins, 'allowed_origins');
    const c = list<OAuthClientRow>(clients, 'oauth_clients');
    if (this.details.get(id) !== before) return;
    this.#setDetails(id, { origins: o ?? [], clients: c ?? [], failed: !o || !c });
  }

  #setDetails(id: string, details: Details): void {
    this.details = new Map(this.details).set(id, details);
  }

  #changed(detail: SvcApplicationsChangeDetail): void {
    this.dispatchEvent(new CustomEvent('svc-applications-change', { bubbles: true, composed: true, detail }));
  }

  /** Says the last refusal: a 403 with the service's message, anything else as a failure. */
  #said(): string {
    const refused = this.#refused;
    return refused?.status === 403 ? this.strings.refused(refused.message) : this.strings.failed;
  }

  /** DELETEs `path`: true once done; a failure is handled as `act` handles one. */
  async #delete(path: string, from: string): Promise<boolean> {
    this.#refused = undefined;
    const outcome = await this.call(path, { method: 'DELETE' });
    this.pending = undefined;
    if ('idle' in outcome) {
      this.showIdle();
      return false;
    }
    if ('body' in outcome) return true;
    if (outcome.signedOut) {
      this.fail(outcome.failed, true);
      return false;
    }
    this.announcement = this.#said();
    this.error(outcome.failed);
    await this.focusKey(from);
    return false;
  }

  async #focus(selector: string): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  /** The service's refusal at the field `at` (an application id, or `tokens`), focused. */
  async #refusedAt(at: string, selector: string): Promise<void> {
    const refused = this.#refused;
    if (!refused || refused.status === 401) return;
    const message = refused.status === 403 ? this.strings.refused(refused.message) : refused.message;
    this.fieldError = { at, message };
    if (refused.status === 403) this.announcement = message;
    await this.#focus(selector);
  }

  // The applications view.

  async #addOrigin(app: ApplicationRow, event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this.sending) return;
    const form = event.target as HTMLFormElement;
    const origin = String(new FormData(form).get('origin') ?? '').trim();
    const input = `#origin-${app.id}`;
    if (!origin) {
      this.fieldError = { at: app.id, message: EN.originHint(app.environment) };
      return this.#focus(input);
    }
    this.fieldError = undefined;
    this.sending = true;
    this.announcement = EN.adding;
    this.#refused = undefined;
    const body = { allowed_origin: { origin } };
    const made = await this.act<AllowedOriginRow>(appPath(app.id, 'allowed_origins'), body, `add ${app.id}`, 'allowed_origin');
    this.sending = false;
    if (!made) return this.#refusedAt(app.id, input);
    const details = this.details.get(app.id) ?? { origins: [], clients: [], failed: false };
    const already = details.origins.some((o) => o.origin === made.origin);
    if (!already) this.#setDetails(app.id, { ...details, origins: [...details.origins, made] });
    form.reset();
    this.announcement = already ? EN.already(made.origin, app.name) : EN.added(made.origin, app.name);
    this.#changed({ action: 'add', application_id: app.id, origin: made.origin, status: 'active' });
    await this.focusKey(`origin ${app.id} ${made.origin}`);
  }

  async #removeOrigin(): Promise<void> {
    const pending = this.begin(EN.removing);
    const app = this.rows.find((r) => r.id === pending?.row) as ApplicationRow | undefined;
    if (!pending || !app || pending.ask.kind !== 'remove') return;
    const { origin } = pending.ask;
    const path = `${appPath(app.id, 'allowed_origins')}/${encodeURIComponent(origin)}`;
    if (!(await this.#delete(path, pending.from))) return;
    const details = this.details.get(app.id);
    if (details) this.#setDetails(app.id, { ...details, origins: details.origins.filter((o) => o.origin !== origin) });
    this.announcement = EN.removed(origin, app.name);
    this.#changed({ action: 'remove', application_id: app.id, origin, status: 'removed' });
    await this.focusKey(`add ${app.id}`);
  }

  #origin(app: ApplicationRow, row: AllowedOriginRow): TemplateResult {
    const key = `remove ${app.id} ${row.origin}`;
    const pending = this.pending?.row === app.id && this.pending.ask.kind === 'remove' && this.pending.ask.origin === row.origin;
    return html`<li part=origin tabindex=-1 data-key=${`origin ${app.id} ${row.origin}`}>
      <code>${row.origin}</code> <span class=hint>${EN.lastSeen(row.last_seen_at ? when(row.last_seen_at) : null)}</span>
      ${
        this.readonly
          ? nothing
          : html`<button part=remove type=button data-key=${key} aria-label=${EN.removeNamed(row.origin)}
              @click=${() => this.confirm(app, { kind: 'remove', origin: row.origin }, key)}>${EN.remove}</button>`
      }
      ${pending ? this.confirmStep(EN.confirmRemove(row.origin, app.name), EN.confirmRemoveButton, () => this.#removeOrigin()) : nothing}
    </li>`;
  }

  #originForm(app: ApplicationRow): TemplateResult {
    const id = `origin-${app.id}`;
    const error = this.fieldError?.at === app.id ? this.fieldError.message : '';
    const described = error ? `${id}-error ${id}-hint` : `${id}-hint`;
    return html`<form part=origin-form novalidate @submit=${(event: SubmitEvent) => this.#addOrigin(app, event)}>
      <label for=${id}>${EN.originLabel}</label>
      <span class=hint id=${`${id}-hint`}>${EN.originHint(app.environment)}</span>
      <div class=inline>
        <input id=${id} name=origin type=url inputmode=url autocomplete=off spellcheck=false maxlength=300
          aria-invalid=${error ? 'true' : 'false'} aria-describedby=${described}>
        <button part=add type=submit data-key=${`add ${app.id}`} aria-busy=${this.sending ? 'true' : 'false'}>${EN.add}</button>
      </div>
      ${error ? html`<p part=field-error id=${`${id}-error`}>${error}</p>` : nothing}
    </form>`;
  }

  #client(client: OAuthClientRow): TemplateResult {
    return html`<li part=client>
      <p>${client.name}</p>
      <p class=hint>${EN.clientId}: <code>${client.client_id}</code></p>
      <p class=hint>${EN.redirectUris}:</p>
      ${
        client.redirect_uris.length
          ? html`<ul class=uris>${client.redirect_uris.map((uri) => html`<li><code>${uri}</code></li>`)}</ul>`
          : html`<p class=hint>${EN.noRedirects}</p>`
      }
    </li>`;
  }

  #sections(app: ApplicationRow): unknown {
    const details = this.details.get(app.id);
    if (!details) return html`<p class=hint>${EN.loading}</p>`;
    const title = (id: string, text: string) => html`<p part=section-title id=${`${id}-${app.id}`}>${text}</p>`;
    return html`${details.failed ? html`<p class=hint>${EN.originsUnread}</p>` : nothing}
      <section aria-labelledby=${`origins-${app.id}`}>
        ${title('origins', EN.origins)}
        ${
          details.origins.length
            ? html`<ul part=origins>${details.origins.map((o) => this.#origin(app, o))}</ul>`
            : html`<p class=hint>${EN.noOrigins}</p>`
        }
        ${this.readonly ? nothing : this.#originForm(app)}
      </section>
      <section aria-labelledby=${`clients-${app.id}`}>
        ${title('clients', EN.clients)}
        ${
          details.clients.length
            ? html`<ul part=clients>${details.clients.map((c) => this.#client(c))}</ul>`
            : html`<p class=hint>${EN.noClients}</p>`
        }
      </section>`;
  }

  #application(app: ApplicationRow): TemplateResult {
    const publishable = keys(app);
    return html`<li part=application tabindex=-1 data-key=${`row ${app.id}`}>
      <p part=heading>${app.name}</p>
      <p part=meta>${EN.environment[app.environment] ?? app.environment}${app.active ? nothing : html` · ${EN.inactive}`} ·
        <code>${app.id}</code> · ${EN.created(when(app.created_at))}</p>
      ${
        publishable.length
          ? html`<section aria-labelledby=${`keys-${app.id}`}>
              <p part=section-title id=${`keys-${app.id}`}>${EN.publishableKeys}</p>
              <ul part=keys>${publishable.map((key) => html`<li><code>${key}</code></li>`)}</ul>
            </section>`
          : nothing
      }
      ${this.#sections(app)}
    </li>`;
  }

  // The API tokens view.

  #permissionsChosen(form: HTMLFormElement): Permission[] {
    const chosen = new FormData(form).getAll('permissions').map(String);
    return PERMISSIONS.filter((p) => chosen.includes(p));
  }

  async #create(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this.sending) return;
    const form = event.target as HTMLFormElement;
    const name = String(new FormData(form).get('name') ?? '').trim();
    const permissions = this.#permissionsChosen(form);
    if (!name || !permissions.length) {
      this.fieldError = { at: 'tokens', message: name ? EN_TOKENS.noPermission : EN_TOKENS.noName };
      return this.#focus(name ? '[part=form] input[type=checkbox]' : '#token-name');
    }
    this.fieldError = undefined;
    this.sending = true;
    this.announcement = EN_TOKENS.creating;
    this.#refused = undefined;
    const made = await this.act<ApiTokenRow & { token?: string }>(TOKENS, { api_token: { name, permissions } }, 'submit', 'api_token');
    this.sending = false;
    if (!made) return this.#refusedAt('tokens', '#token-name');
    this.formOpen = false;
    this.addRow(this.#reveal(made));
    this.announcement = EN_TOKENS.created_(made.name);
    this.#changed({ action: 'create', api_token_id: made.id, status: 'active' });
    await this.#focus('[part=secret]');
  }

  /** Keeps the value to show it once, and answers the token without it. */
  #reveal({ token, ...row }: ApiTokenRow & { token?: string }): ApiTokenRow {
    this.#secret = token ? { id: row.id, name: row.name, value: token } : undefined;
    return row;
  }

  async #rotate(): Promise<void> {
    const pending = this.begin(EN_TOKENS.rotating);
    const row = this.rows.find((r) => r.id === pending?.row) as ApiTokenRow | undefined;
    if (!pending || !row) return;
    this.#refused = undefined;
    const made = await this.act<ApiTokenRow & { token?: string }>(
      `${TOKENS}/${encodeURIComponent(row.id)}/rotate`,
      {},
      pending.from,
      'api_token',
    );
    if (!made) {
      this.announcement = this.#said();
      return;
    }
    this.replaceRow(this.#reveal(made));
    this.announcement = EN_TOKENS.rotated(made.name);
    this.#changed({ action: 'rotate', api_token_id: made.id, status: 'active' });
    await this.#focus('[part=secret]');
  }

  async #revoke(): Promise<void> {
    const pending = this.begin(EN_TOKENS.revoking);
    const row = this.rows.find((r) => r.id === pending?.row) as ApiTokenRow | undefined;
    if (!pending || !row) return;
    if (!(await this.#delete(`${TOKENS}/${encodeURIComponent(row.id)}`, pending.from))) return;
    this.rows = this.rows.filter((r) => r.id !== row.id);
    if (!this.rows.length) this.phase = 'empty';
    if (this.#secret?.id === row.id) this.#secret = undefined;
    this.announcement = EN_TOKENS.revoked(row.name);
    this.#changed({ action: 'revoke', api_token_id: row.id, status: 'removed' });
    await this.focusKey('new');
  }

  async #copy(): Promise<void> {
    const value = this.#secret?.value;
    if (!value) return;
    try {
      await navigator.clipboard.writeText(value);
      this.announcement = EN_TOKENS.copied;
    } catch {
      this.announcement = EN_TOKENS.copyFailed;
    }
  }

  async #dismiss(): Promise<void> {
    const id = this.#secret?.id;
    this.#secret = undefined;
    this.announcement = EN_TOKENS.dismissed;
    this.requestUpdate();
    if (id) await this.focusKey(`row ${id}`);
  }

  async #open(): Promise<void> {
    this.formOpen = true;
    this.fieldError = undefined;
    this.announcement = '';
    await this.#focus('#token-name');
  }

  async #close(): Promise<void> {
    if (this.sending) return;
    this.formOpen = false;
    this.fieldError = undefined;
    this.announcement = EN_TOKENS.cancelled;
    await this.focusKey('new');
  }

  #form(): TemplateResult {
    const error = this.fieldError?.at === 'tokens' ? this.fieldError.message : '';
    return html`<form part=form aria-labelledby=token-form-title aria-describedby=${error ? 'token-error' : nothing} novalidate
      @submit=${this.#create}>
      <p part=form-title id=token-form-title>${EN_TOKENS.formTitle}</p>
      <label for=token-name>${EN_TOKENS.name}</label>
      <input id=token-name name=name autocomplete=off maxlength=100 aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${error ? 'token-error' : nothing}>
      <fieldset>
        <legend>${EN_TOKENS.choose}</legend>
        ${PERMISSIONS.map(
          (p) => html`<label class=check><input type=checkbox name=permissions value=${p} ?checked=${p === 'read'}>
            ${EN_TOKENS.permission[p]}</label>`,
        )}
      </fieldset>
      ${error ? html`<p part=form-error id=token-error>${error}</p>` : nothing}
      <div part=actions>
        <button part=submit class=primary type=submit data-key=submit aria-busy=${this.sending ? 'true' : 'false'}>${EN_TOKENS.submit}</button>
        <button part=cancel-button type=button @click=${() => this.#close()}>${EN_TOKENS.cancel}</button>
      </div>
    </form>`;
  }

  #secretShown(secret: Secret): TemplateResult {
    return html`<div part=secret role=group tabindex=-1 aria-labelledby=secret-title aria-describedby=secret-once>
      <p id=secret-title>${EN_TOKENS.secretTitle(secret.name)}</p>
      <code part=secret-value>${secret.value}</code>
      <p id=secret-once>${EN_TOKENS.secretOnce}</p>
      <div part=actions>
        <button part=copy class=primary type=button @click=${() => this.#copy()}>${EN_TOKENS.copy}</button>
        <button part=dismiss type=button @click=${() => this.#dismiss()}>${EN_TOKENS.dismiss}</button>
      </div>
    </div>`;
  }

  protected override renderTop(): unknown {
    if (!this.#tokens()) return nothing;
    const secret = this.#secret ? this.#secretShown(this.#secret) : nothing;
    if (this.readonly) return secret;
    const form = this.formOpen
      ? this.#form()
      : html`<button part=new type=button data-key=new @click=${() => this.#open()}>${EN_TOKENS.open}</button>`;
    return html`${secret}${form}`;
  }

  #token(row: ApiTokenRow): TemplateResult {
    const pending = this.pending?.row === row.id ? this.pending.ask.kind : undefined;
    const button = (kind: 'rotate' | 'revoke', label: string, named: string) => {
      const key = `${kind} ${row.id}`;
      return html`<button part=${kind} type=button data-key=${key} aria-label=${named}
        @click=${() => this.confirm(row, { kind }, key)}>${label}</button>`;
    };
    return html`<li part=api-token tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=heading>${row.name}</p>
      <p part=permissions><span class=vh>${EN_TOKENS.permissions}: </span>${row.permissions.map(
        (p) => html`<span class=tag>${EN_TOKENS.permission[p] ?? p}</span> `,
      )}</p>
      <p part=meta>${EN_TOKENS.created(when(row.created_at))} · ${EN_TOKENS.lastUsed(row.last_used_at ? when(row.last_used_at) : null)} ·
        ${EN_TOKENS.expires(row.expires_at ? when(row.expires_at) : null)}</p>
      ${
        this.readonly
          ? nothing
          : html`<div part=actions>${button('rotate', EN_TOKENS.rotate, EN_TOKENS.rotateNamed(row.name))}${button(
              'revoke',
              EN_TOKENS.revoke,
              EN_TOKENS.revokeNamed(row.name),
            )}</div>`
      }
      ${pending === 'rotate' ? this.confirmStep(EN_TOKENS.confirmRotate(row.name), EN_TOKENS.confirmRotateButton, () => this.#rotate()) : nothing}
      ${pending === 'revoke' ? this.confirmStep(EN_TOKENS.confirmRevoke(row.name), EN_TOKENS.confirmRevokeButton, () => this.#revoke()) : nothing}
    </li>`;
  }

  protected override renderRow(row: Row): TemplateResult {
    return 'permissions' in row ? this.#token(row) : this.#application(row);
  }
}
