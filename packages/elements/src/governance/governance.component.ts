import type { GovernanceSettings, ModuleKey } from '@svc/schemas';
import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import type { AccessTokenProvider } from '../internal/access-token.js';
import { httpFailure, type Outcome, PersonList, type PersonListStatus } from '../internal/person-list.js';
import { personListStyles } from '../internal/person-list.styles.js';
import type {
  AuditEventRow,
  GovernanceApplication,
  GovernanceChangeRow,
  GovernanceErrorDetail,
  GovernanceVerdict,
  GovernanceView,
  ModuleRow,
  SvcGovernanceChangeDetail,
} from './events.js';
import { governanceStyles } from './governance.styles.js';
import { at, settingsForm, settingsList, settingsPatch } from './settings.js';
import { EN } from './strings.js';

/** Where the element stands: `idle`, `loading`, `ready`, `empty`, `signed-out` or `error`. */
export type GovernanceStatus = PersonListStatus;

/** Gives the console's access token, asked before every request. */
export type GovernanceTokenProvider = AccessTokenProvider;

type Row = ModuleRow | GovernanceChangeRow | AuditEventRow;
type Settings = GovernanceSettings & { updated_at: string | null; updated_by: string | null };
type Verifier = typeof import('./verify.js').verifyTrail;

const PATHS: Record<GovernanceView, [string, string]> = {
  modules: ['/api/v1/modules', 'modules'],
  governance: ['/api/v1/governance/changes', 'governance_changes'],
  audit: ['/api/v1/audit/events', 'audit_events'],
};
const FORM_ERROR = 'svc-governance-form-error';
let verifier: Promise<Verifier> | undefined;

/** Who an audit event's data names as its actor, if it names one. */
function actorOf(data: Record<string, unknown>): string | undefined {
  const actor = data.actor;
  if (typeof actor === 'string') return actor;
  if (actor && typeof actor === 'object' && typeof (actor as { id?: unknown }).id === 'string')
    return EN.actor({ kind: String((actor as { kind?: unknown }).kind ?? ''), id: (actor as { id: string }).id });
  return typeof data.actor_id === 'string' ? data.actor_id : undefined;
}

/**
 * An organisation's console view of its governance, with the console's token (an API token of the account user's
 * role). `view="governance"` (the default): the governance settings (`GET /api/v1/governance`), a form to change
 * them (`PATCH`, admin; the service's refusal said at the form) and the change log (`GET
 * /api/v1/governance/changes?sort=newest`): who changed what, when, from what to what, the latest first. `view="modules"`: the account's modules
 * (`GET /api/v1/modules`), enabled or not and since when; Enable, and Disable after a confirm step (`PATCH
 * /api/v1/modules/{key}`). `view="audit"`: an application's audit trail (`GET /api/v1/audit/events`, the application
 * chosen in a labelled select from `GET /api/v1/applications`) and **Verify the chain**: every event and anchor read
 * and checked in the browser by `@svc/client`'s `verifyAuditChain`, its verdict said in plain words. `readonly` (a
 * viewer's page) shows no change controls; a refused change (403 `insufficient_permissions`) is said with the
 * service's message. A polite live region says what happened.
 *
 * @summary The console's modules, governance settings and change log, and an application's verifiable audit trail.
 *
 * @slot empty - Shown when there is nothing to list (default: one sentence).
 * @slot signed-out - Shown without a token, or when it was refused (default: one sentence).
 * @slot error - Shown when the list cannot be read (default: one sentence, and a retry button).
 *
 * @fires {SvcGovernanceChangeEvent} svc-governance-change - The service recorded a module enabled or disabled (`{kind: 'module', key, enabled}`) or settings changed (`{kind: 'governance', settings}`, their names).
 * @fires {SvcGovernanceErrorEvent} svc-error - A list could not be read or a change failed; detail has `code`, `message`, `fatal`, `recoverable_via`.
 *
 * @csspart base - The wrapper of everything else.
 * @csspart list - The list of modules, changes or events.
 * @csspart module - One module.
 * @csspart change - One entry of the change log.
 * @csspart event - One audit event (also `broken` where the chain breaks).
 * @csspart heading - A row's first line.
 * @csspart description - What a module covers.
 * @csspart meta - A row's dates and who.
 * @csspart enable - The button that enables a module.
 * @csspart disable - The button that disables a module (after the confirm step).
 * @csspart confirm - The confirm step (a group named by its question).
 * @csspart confirm-button - The button that confirms (the one filled button).
 * @csspart cancel-button - The buttons that close the confirm step or the form.
 * @csspart actions - The buttons of the confirm step and of the form.
 * @csspart refusal - The service's refusal of the last change, in its words.
 * @csspart settings - The governance settings.
 * @csspart title - The heading of the settings and of the change log.
 * @csspart edit - The button that opens the settings form.
 * @csspart form - The settings form.
 * @csspart form-error - Why the service refused the settings.
 * @csspart save - The form's Save button.
 * @csspart changes - What one change changed, each setting from and to.
 * @csspart toolbar - The application select and the Verify button.
 * @csspart application - The application select.
 * @csspart verify - The Verify the chain button.
 * @csspart verdict - What Verify found (also `verifies` or `breaks`).
 * @csspart actor - Who an audit event names as its actor.
 * @csspart more - The button that loads the next page.
 * @csspart retry - The button that tries again after an error.
 * @csspart status - The live region announcing loading and what happened.
 *
 * @cssprop [--svc-governance-gap=.75rem] - Space between rows.
 * @cssprop [--svc-governance-border=1px solid color-mix(in srgb, currentColor 20%, transparent)] - Border of each row and of the form.
 * @cssprop [--svc-governance-radius=var(--svc-radius, 0.6rem)] - Corner radius of rows and buttons.
 * @cssprop [--svc-governance-accent=var(--svc-accent, #2f4fb5)] - Colour of the buttons.
 * @cssprop [--svc-governance-error=#b3261e] - Colour of a refusal and of a broken chain.
 * @cssprop [--svc-governance-ok=#1b6e3a] - Colour of a chain that verifies.
 * @cssprop [--svc-governance-color=inherit] - Text colour.
 * @cssprop [--svc-governance-font=400 100%/1.5 var(--svc-font-family, system-ui, …)] - Font (its own stack, not the page's).
 */
export class SvcGovernance extends PersonList<Row, 'disable'> {
  static override styles = [personListStyles('governance'), governanceStyles];

  static override properties: PropertyDeclarations = {
    view: {},
    readonly: { type: Boolean, reflect: true },
    applicationId: { attribute: 'application-id' },
    settings: { attribute: false },
    settingsFailed: { attribute: false },
    applications: { attribute: false },
    editing: { attribute: false },
    saving: { attribute: false },
    problem: { attribute: false },
    verdict: { attribute: false },
    verifying: { attribute: false },
  };

  /** `governance` (default): settings and change log; `modules`; `audit`: an application's audit trail. */
  view?: string;
  /** A viewer's page: no change controls at all. */
  readonly = false;
  /** The application whose audit trail is shown (default: the account's first). */
  applicationId?: string;

  private settings: Settings | undefined;
  private settingsFailed = false;
  private applications: GovernanceApplication[] | undefined;
  private editing = false;
  private saving = false;
  /** The service's refusal of the last change, shown until the next one. */
  private problem = '';
  private verdict: GovernanceVerdict | undefined;
  private verifying = false;

  /** The governance settings shown (governance view), or undefined. */
  get governance(): Readonly<Settings> | undefined {
    return this.settings;
  }

  /** What the last Verify the chain found (audit view), or undefined. */
  get verification(): GovernanceVerdict | undefined {
    return this.verdict;
  }

  get #view(): GovernanceView {
    return this.view === 'modules' || this.view === 'audit' ? this.view : 'governance';
  }

  protected override get listPath(): string {
    return PATHS[this.#view][0];
  }

  protected override get listKey(): string {
    return PATHS[this.#view][1];
  }

  protected override get strings() {
    return EN.lists[this.#view];
  }

  protected override filters(params: URLSearchParams): void {
    if (this.#view === 'audit' && this.applicationId) params.set('application_id', this.applicationId);
    // The latest changes first: the log answers oldest first by default, whose first page misses them once it is long.
    if (this.#view === 'governance') params.set('sort', 'newest');
  }

  /** A module is keyed in the list by its key. */
  protected override received(page: Record<string, unknown>): void {
    if (this.#view !== 'modules' || !Array.isArray(page.modules)) return;
    for (const module of page.modules as ModuleRow[]) module.id ??= module.key;
  }

  /** A 404 or 422 is a change's own: `not_found`, `invalid`. */
  protected override refusal(status: number, message: string | undefined): { failed: GovernanceErrorDetail; signedOut: boolean } {
    const { failed, signedOut } = httpFailure(status, message);
    const code = status === 404 ? 'not_found' : status === 422 ? 'invalid' : (failed.code as GovernanceErrorDetail['code']);
    return { failed: { ...failed, code }, signedOut };
  }

  /** Reads the list again, and what the view shows above it (the settings, the applications). */
  override async refresh(): Promise<void> {
    this.verdict = undefined;
    await Promise.all([super.refresh(), this.#readTop()]);
  }

  async #readTop(): Promise<void> {
    const view = this.#view;
    if (view === 'modules') return;
    const outcome = await this.call(view === 'governance' ? '/api/v1/governance' : '/api/v1/applications?limit=100');
    if ('idle' in outcome) return;
    const body = 'body' in outcome ? outcome.body : {};
    if (view === 'governance') {
      this.settings = body.governance && typeof body.governance === 'object' ? (body.governance as Settings) : undefined;
      this.settingsFailed = !this.settings;
    } else {
      this.applications = Array.isArray(body.applications) ? (body.applications as GovernanceApplication[]) : undefined;
    }
  }

  #changed(detail: SvcGovernanceChangeDetail): void {
    this.dispatchEvent(new CustomEvent('svc-governance-change', { bubbles: true, composed: true, detail }));
  }

  /** PATCHes `body` to `path`: the object under `envelope`, the service's refusal in its words, or undefined once signed out. */
  async #patch(path: string, body: unknown, envelope: string): Promise<{ ok: Record<string, unknown> } | { refused: string } | undefined> {
    const init = { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    const outcome = await this.call(path, init);
    if ('idle' in outcome) {
      this.showIdle();
      return undefined;
    }
    const answered = 'body' in outcome ? outcome.body[envelope] : undefined;
    if (answered && typeof answered === 'object') return { ok: answered as Record<string, unknown> };
    const failed = 'failed' in outcome ? outcome : httpFailure(502, `The service answered without ${envelope}.`);
    if (failed.signedOut) {
      this.fail(failed.failed, true);
      return undefined;
    }
    this.error(failed.failed);
    return { refused: failed.failed.message };
  }

  /** Enables or disables `row`; focus goes to the button that now stands in its place (or back to `from`). */
  async #setModule(row: ModuleRow, enabled: boolean, from: string): Promise<void> {
    this.problem = '';
    if (enabled) this.announcement = EN.enabling;
    const answer = await this.#patch(`/api/v1/modules/${encodeURIComponent(row.key)}`, { module: { enabled } }, 'module');
    this.pending = undefined;
    if (!answer) return;
    if ('refused' in answer) {
      this.problem = EN.refused(answer.refused);
      this.announcement = this.problem;
      return this.focusKey(from);
    }
    const module = { ...(answer.ok as unknown as ModuleRow), id: row.key };
    this.replaceRow(module);
    this.announcement = EN.moduleDone(module.name, module.enabled);
    this.#changed({ kind: 'module', key: module.key as ModuleKey, enabled: module.enabled });
    await this.focusKey(`${module.enabled ? 'disable' : 'enable'} ${row.key}`);
  }

  async #disable(): Promise<void> {
    const pending = this.begin(EN.disabling);
    const row = this.rows.find((r) => r.id === pending?.row) as ModuleRow | undefined;
    if (pending && row) await this.#setModule(row, false, pending.from);
  }

  async #edit(open: boolean): Promise<void> {
    if (this.saving) return;
    this.editing = open;
    this.problem = '';
    if (!open) this.announcement = EN.lists.governance.cancelled;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(open ? '[part=form] input' : '[part=edit]')?.focus();
  }

  /** Saves what the form changed (only that), then reads the change log again. */
  async #save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this.saving || !this.settings) return;
    const patch = settingsPatch(this.settings, new FormData(event.target as HTMLFormElement));
    const names = Object.keys(patch);
    if (!names.length) {
      this.announcement = EN.unchanged;
      return;
    }
    this.problem = '';
    this.saving = true;
    this.announcement = EN.saving;
    const answer = await this.#patch('/api/v1/governance', { governance: patch }, 'governance');
    this.saving = false;
    if (!answer) return;
    if ('refused' in answer) {
      this.problem = EN.refused(answer.refused);
      this.announcement = this.problem;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>(`#${FORM_ERROR}`)?.focus();
      return;
    }
    this.settings = answer.ok as unknown as Settings;
    this.editing = false;
    this.#changed({ kind: 'governance', settings: names });
    await super.refresh();
    this.announcement = EN.saved(names.length);
    await this.focusKey('edit');
  }

  /** Reads the whole trail and verifies it here; says the verdict and marks the event where it breaks. */
  async #verify(): Promise<void> {
    if (this.verifying) return;
    this.verifying = true;
    this.verdict = undefined;
    this.announcement = EN.verifying;
    verifier ??= import('./verify.js').then((m) => m.verifyTrail);
    const read = async (path: string) => {
      const outcome: Outcome = await this.call(path);
      if ('body' in outcome) return { body: outcome.body };
      if ('failed' in outcome) this.error(outcome.failed);
      return { failed: 'failed' in outcome ? outcome.failed.message : EN.lists.audit.signedOut };
    };
    const jwks = async () => {
      const answer = await (this.fetch ?? fetch)(`${this.serviceUrl}/.well-known/jwks.json`, { credentials: 'omit' });
      if (!answer.ok) throw new Error(`${answer.status}`);
      return (await answer.json()) as { keys: object[] };
    };
    const result = await (await verifier)(read, jwks, this.applicationId);
    this.verifying = false;
    if ('failed' in result) {
      this.announcement = EN.cannotVerify(result.failed);
      return;
    }
    this.verdict = result;
    this.announcement = this.#said(result);
  }

  #said(verdict: GovernanceVerdict): string {
    if (verdict.ok) return verdict.events ? EN.verifies(verdict.events, verdict.anchors) : EN.nothingToVerify;
    return EN.breaks(verdict.sequence, EN.reasons[verdict.reason] ?? verdict.message);
  }

  #choose(event: Event): void {
    this.applicationId = (event.target as HTMLSelectElement).value || undefined;
  }

  #toolbar(): TemplateResult {
    const apps = this.applications;
    const shown = this.applicationId ?? (this.rows[0] as AuditEventRow | undefined)?.application_id ?? apps?.[0]?.id;
    const verdict = this.verdict;
    return html`<div part=toolbar>
      ${
        apps?.length
          ? html`<label for=svc-governance-application>${EN.application}</label>
            <select id=svc-governance-application part=application @change=${this.#choose}>${apps.map(
              (app) => html`<option value=${app.id} ?selected=${app.id === shown}>${app.name} (${app.id})</option>`,
            )}</select>`
          : apps
            ? nothing
            : html`<p>${EN.applicationsError}</p>`
      }
      <button part=verify type=button data-key=verify aria-busy=${this.verifying ? 'true' : 'false'}
        @click=${() => this.#verify()}>${EN.verify}</button>
    </div>
    ${verdict ? html`<p part="verdict ${verdict.ok ? 'verifies' : 'breaks'}">${this.#said(verdict)}</p>` : nothing}`;
  }

  #governanceTop(): TemplateResult {
    const settings = this.settings;
    const editable = !this.readonly && settings;
    return html`<section part=settings aria-labelledby=svc-governance-settings-title>
        <p part=title id=svc-governance-settings-title>${EN.settingsTitle}</p>
        ${settings ? settingsList(settings) : this.settingsFailed ? html`<p>${EN.settingsError}</p>` : nothing}
        ${
          editable && this.editing
            ? settingsForm(settings, {
                saving: this.saving,
                problem: this.problem,
                errorId: FORM_ERROR,
                onSubmit: (e) => this.#save(e),
                onCancel: () => this.#edit(false),
              })
            : editable
              ? html`<button part=edit type=button data-key=edit @click=${() => this.#edit(true)}>${EN.edit}</button>`
              : nothing
        }
      </section>
      <p part=title>${EN.changeLog}</p>`;
  }

  protected override renderTop(): unknown {
    const view = this.#view;
    const problem = this.problem && !(view === 'governance' && this.editing) ? html`<p part=refusal>${this.problem}</p>` : nothing;
    if (view === 'audit') return this.#toolbar();
    if (view === 'governance') return html`${problem}${this.#governanceTop()}`;
    return problem;
  }

  protected override renderRow(row: Row): TemplateResult {
    if ('sequence' in row) return this.#event(row);
    if ('changes' in row) return this.#change(row);
    return this.#module(row);
  }

  #module(row: ModuleRow): TemplateResult {
    const key = `${row.enabled ? 'disable' : 'enable'} ${row.key}`;
    const since = row.enabled ? EN.enabled(at(row.enabled_at ?? '')) : EN.disabled(row.disabled_at ? at(row.disabled_at) : null);
    const control = row.enabled
      ? html`<button part=disable type=button data-key=${key} aria-label=${EN.disableNamed(row.name)}
          @click=${() => this.confirm(row, 'disable', key)}>${EN.disable}</button>`
      : html`<button part=enable type=button data-key=${key} aria-label=${EN.enableNamed(row.name)}
          @click=${() => this.#setModule(row, true, key)}>${EN.enable}</button>`;
    return html`<li part=module tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=heading>${row.name}</p>
      <p part=description>${row.description}</p>
      <p part=meta>${since}</p>
      ${this.readonly ? nothing : control}
      ${
        this.pending?.row === row.id && !this.readonly
          ? this.confirmStep(EN.confirmDisable(row.name), EN.confirmDisableButton, () => this.#disable())
          : nothing
      }
    </li>`;
  }

  #change(row: GovernanceChangeRow): TemplateResult {
    return html`<li part=change tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=heading>${EN.changeType[row.type] ?? row.type}</p>
      <p part=meta>${EN.by(at(row.created_at), EN.actor(row.actor))}</p>
      <ul part=changes>${Object.entries(row.changes).map(([name, { from, to }]) => html`<li>${EN.changed(name, from, to)}</li>`)}</ul>
    </li>`;
  }

  #event(row: AuditEventRow): TemplateResult {
    const broken = this.verdict && !this.verdict.ok && this.verdict.sequence === row.sequence;
    const actor = actorOf(row.data);
    return html`<li part=${broken ? 'event broken' : 'event'} tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=heading>${EN.eventHeading(row.sequence, row.type)}</p>
      <p part=meta>${at(row.occurred_at)}</p>
      ${actor ? html`<p part=actor>${EN.eventActor(actor)}</p>` : nothing}
    </li>`;
  }
}
