import { html, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { type ChartData, chartFrame, chartStyles, chartTable, type DrawnChart, drawChart } from '../internal/chart.js';
import { httpFailure, PersonList, type PersonListStatus, when } from '../internal/person-list.js';
import { personListStyles } from '../internal/person-list.styles.js';
import type {
  ActivityApplication,
  CleanRoomQueryRow,
  CleanRoomRow,
  DataLicenseRow,
  PoliciesChangeKind,
  PoliciesConsentActivity,
  PoliciesErrorDetail,
  PolicyRow,
  PolicyTemplateRow,
  SvcPoliciesChangeDetail,
} from './events.js';
import { policiesStyles } from './policies.styles.js';
import { EN, EN_ACTIVITY, EN_ROOMS } from './strings.js';

/** Where the element stands, as every people's and console list: `idle`, `loading`, `ready`, `empty`, `signed-out` or `error`. */
export type PoliciesStatus = PersonListStatus;

/** `policies` (default), `clean_rooms` or `consent_activity`. */
export type PoliciesView = 'policies' | 'clean_rooms' | 'consent_activity';

type Row = PolicyRow | CleanRoomRow | ActivityApplication;
/** What a confirm step would do: revoke a policy or a data license, or close a clean room. */
type Ask = 'policy' | 'license' | 'room';
/** A part read after the main list (data licenses, a room's queries, the activity): where it stands. */
type Side<T> = { state: 'loading' } | { state: 'error' } | { state: 'ready'; value: T };

const DAY = 86_400;
const enc = encodeURIComponent;
const licenseeOf = (l: DataLicenseRow) => (typeof l.terms.licensee === 'string' ? l.terms.licensee : l.agreement_id);
const purposeOf = (l: DataLicenseRow) => (typeof l.terms.purpose === 'string' ? l.terms.purpose : undefined);

/**
 * The organisation's policies, data licenses, clean rooms and consent activity, in its console or its own account
 * pages, with an organisation's token (the console's `token-url`, or an API token as `accessToken`). `view="policies"`
 * (the default): the account's policies (`GET /api/v1/policies`, with their template's name from
 * `GET /api/v1/policy_templates`) and data licenses (`GET /api/v1/data_licenses`), each active one with Revoke and a
 * confirm step in place. `view="clean_rooms"`: the clean rooms (`GET /api/v1/clean_rooms`) with their participants,
 * expiry and the privacy budget left, their queries on demand, and Close (confirm step). `view="consent_activity"`:
 * consent given, refused and withdrawn per day over the last `days` days (default 30) for one purpose of one
 * application (`GET /api/v1/applications/{id}/consent_activity`), drawn as a chart beside a text table of the same
 * numbers, which is always there. `readonly` (a viewer) shows no change controls; a refused change says the service's
 * words. A polite live region says what happened.
 *
 * @summary The organisation's policies and data licenses, clean rooms, or consent activity chart.
 *
 * @slot empty - Shown when there is nothing to list (default: one sentence).
 * @slot signed-out - Shown without a token, or when it was refused (default: one sentence).
 * @slot error - Shown when the list cannot be read (default: one sentence, and a retry button).
 *
 * @fires {SvcPoliciesChangeEvent} svc-policies-change - A policy or data license was revoked, or a clean room closed; detail has `kind`, `id` and `status`.
 * @fires {SvcPoliciesErrorEvent} svc-error - A list could not be read or an action failed; detail has `code`, `message`, `fatal`, `recoverable_via`.
 *
 * @csspart base - The wrapper of everything else.
 * @csspart heading - A section's heading (policies, data licenses).
 * @csspart list - The list of policies, clean rooms or data licenses.
 * @csspart policy - One policy.
 * @csspart data-license - One data license.
 * @csspart clean-room - One clean room.
 * @csspart title - A row's name.
 * @csspart meta - A row's status, template, dates, accesses or participants.
 * @csspart budget - A clean room's privacy budget left.
 * @csspart revoke - The button that revokes a policy or a data license.
 * @csspart close - The button that closes a clean room.
 * @csspart toggle-queries - The button that shows or hides a clean room's queries.
 * @csspart queries - A clean room's queries.
 * @csspart confirm - The confirm step (a group named by its question).
 * @csspart actions - The buttons of the confirm step.
 * @csspart confirm-button - The button that confirms (the one filled button).
 * @csspart cancel-button - The button that closes the confirm step.
 * @csspart filters - The application and purpose selects of the consent activity.
 * @csspart chart - The consent activity chart (hidden from assistive technology).
 * @csspart chart-table - The text table of the chart's numbers.
 * @csspart totals - The period's totals in one sentence.
 * @csspart more - The button that loads the next page.
 * @csspart retry - The button that tries again after an error.
 * @csspart status - The live region announcing loading and what happened.
 *
 * @cssprop [--svc-policies-gap=.75rem] - Space between rows.
 * @cssprop [--svc-policies-border=1px solid color-mix(in srgb, currentColor 20%, transparent)] - Border of each row.
 * @cssprop [--svc-policies-radius=var(--svc-radius, 0.6rem)] - Corner radius of rows and buttons.
 * @cssprop [--svc-policies-accent=var(--svc-accent, #2f4fb5)] - Colour of the buttons.
 * @cssprop [--svc-policies-color=inherit] - Text colour.
 * @cssprop [--svc-policies-font=400 100%/1.5 var(--svc-font-family, system-ui, …)] - Font (its own stack, not the page's).
 * @cssprop [--svc-chart-1=#1d5fbf] - Colour of the chart's "Given" line (`--svc-chart-2`, `--svc-chart-3`: "Refused", "Withdrawn").
 */
export class SvcPolicies extends PersonList<Row, Ask> {
  static override styles = [personListStyles('policies'), chartStyles, policiesStyles];

  static override properties: PropertyDeclarations = {
    view: {},
    readonly: { type: Boolean, reflect: true },
    applicationId: { attribute: 'application-id' },
    days: { type: Number },
    licenses: { attribute: false },
    templates: { attribute: false },
    queries: { attribute: false },
    activity: { attribute: false },
    purpose: { attribute: false },
  };

  /** `policies` (default), `clean_rooms` or `consent_activity`. */
  view?: string;
  /** A viewer: no change controls at all. */
  readonly = false;
  /** The application whose consent activity is shown first (default: the account's first). */
  applicationId?: string;
  /** Days of consent activity, 1 to 90 (default 30). */
  days?: number;

  private licenses: Side<DataLicenseRow[]> = { state: 'loading' };
  private templates: Record<string, string> = {};
  private queries: Record<string, Side<CleanRoomQueryRow[]>> = {};
  private activity: Side<PoliciesConsentActivity> = { state: 'loading' };
  private purpose = '';
  /** The service's words when it last refused. */
  #refusal = '';
  #chart: DrawnChart | undefined;
  #charted = '';
  /** The application whose activity was last asked for. */
  #reading = '';

  /** The policies shown (policies view). */
  get policies(): readonly PolicyRow[] {
    return this.#view() === 'policies' ? (this.rows as PolicyRow[]) : [];
  }

  /** The data licenses shown (policies view). */
  get dataLicenses(): readonly DataLicenseRow[] {
    return this.#view() === 'policies' && this.licenses.state === 'ready' ? this.licenses.value : [];
  }

  /** The clean rooms shown (clean rooms view). */
  get cleanRooms(): readonly CleanRoomRow[] {
    return this.#view() === 'clean_rooms' ? (this.rows as CleanRoomRow[]) : [];
  }

  /** The consent activity shown (consent activity view), once read. */
  get consentActivity(): PoliciesConsentActivity | undefined {
    return this.#view() === 'consent_activity' && this.activity.state === 'ready' ? this.activity.value : undefined;
  }

  #view(): PoliciesView {
    return this.view === 'clean_rooms' || this.view === 'consent_activity' ? this.view : 'policies';
  }

  protected override get listPath(): string {
    const view = this.#view();
    return view === 'clean_rooms' ? '/api/v1/clean_rooms' : view === 'consent_activity' ? '/api/v1/applications' : '/api/v1/policies';
  }

  protected override get listKey(): string {
    const view = this.#view();
    return view === 'clean_rooms' ? 'clean_rooms' : view === 'consent_activity' ? 'applications' : 'policies';
  }

  protected override get strings(): typeof EN | typeof EN_ROOMS | typeof EN_ACTIVITY {
    const view = this.#view();
    return view === 'clean_rooms' ? EN_ROOMS : view === 'consent_activity' ? EN_ACTIVITY : EN;
  }

  /** A 404 or 409 is the action's own (no such thing, already revoked or closed); the service's words are kept. */
  protected override refusal(status: number, message: string | undefined): { failed: PoliciesErrorDetail; signedOut: boolean } {
    this.#refusal = message ?? '';
    const { failed, signedOut } = httpFailure(status, message);
    const code = status === 404 ? 'not_found' : status === 409 ? 'invalid' : (failed.code as PoliciesErrorDetail['code']);
    return { failed: { ...failed, code }, signedOut };
  }

  /** After the first page: the policies view reads its data licenses and templates, the activity view its counts. */
  protected override received(page: Record<string, unknown>): void {
    const view = this.#view();
    if (view === 'policies') void this.#readPolicyExtras();
    if (view === 'consent_activity' && Array.isArray(page.applications)) {
      const apps = page.applications as ActivityApplication[];
      const chosen = apps.find((a) => a.id === this.applicationId) ?? apps[0];
      if (chosen) void this.#readActivity(chosen.id);
    }
    this.queries = {};
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#undraw();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (this.#view() !== 'consent_activity' || this.phase !== 'ready' || !this.#reading) return;
    const moved = changed.has('applicationId') && this.applicationId && this.applicationId !== this.#reading;
    if (moved || changed.has('days')) void this.#readActivity(moved ? this.applicationId! : this.#reading);
  }

  protected override updated(): void {
    super.updated();
    void this.#drawActivity();
  }

  async #readPolicyExtras(): Promise<void> {
    this.licenses = { state: 'loading' };
    const [licenses, templates] = await Promise.all([
      this.call('/api/v1/data_licenses?limit=100'),
      this.call('/api/v1/policy_templates?limit=100'),
    ]);
    const list = 'body' in licenses ? licenses.body.data_licenses : undefined;
    this.licenses = Array.isArray(list) ? { state: 'ready', value: list as DataLicenseRow[] } : { state: 'error' };
    const known = 'body' in templates ? templates.body.policy_templates : undefined;
    if (Array.isArray(known)) this.templates = Object.fromEntries((known as PolicyTemplateRow[]).map((t) => [t.id, t.name]));
  }

  async #readActivity(applicationId: string): Promise<void> {
    this.#reading = applicationId;
    this.applicationId = applicationId;
    this.activity = { state: 'loading' };
    const days = Math.min(90, Math.max(1, Math.trunc(this.days ?? 30)));
    const outcome = await this.call(`/api/v1/applications/${enc(applicationId)}/consent_activity?days=${days}`);
    if (this.#reading !== applicationId) return;
    const answer = 'body' in outcome ? (outcome.body.consent_activity as PoliciesConsentActivity | undefined) : undefined;
    if (!answer || !Array.isArray(answer.days)) {
      this.activity = { state: 'error' };
      if ('failed' in outcome) this.error(outcome.failed);
      return;
    }
    this.activity = { state: 'ready', value: answer };
    const purposes = purposesOf(answer);
    if (!purposes.includes(this.purpose)) this.purpose = purposes[0] ?? '';
  }

  async #toggleQueries(room: CleanRoomRow): Promise<void> {
    if (this.queries[room.id]) {
      const { [room.id]: _, ...rest } = this.queries;
      this.queries = rest;
      return;
    }
    this.queries = { ...this.queries, [room.id]: { state: 'loading' } };
    const outcome = await this.call(`/api/v1/clean_rooms/${enc(room.id)}/queries?limit=100`);
    const list = 'body' in outcome ? outcome.body.queries : undefined;
    const side: Side<CleanRoomQueryRow[]> = Array.isArray(list)
      ? { state: 'ready', value: list as CleanRoomQueryRow[] }
      : { state: 'error' };
    if (this.queries[room.id]) this.queries = { ...this.queries, [room.id]: side };
  }

  #changed(kind: PoliciesChangeKind, id: string, status: string): void {
    const detail: SvcPoliciesChangeDetail = { kind, id, status };
    this.dispatchEvent(new CustomEvent('svc-policies-change', { bubbles: true, composed: true, detail }));
  }

  /** The confirmed revocation or closing: the POST, then the row as the service answers it. */
  async #act(): Promise<void> {
    const ask = this.pending?.ask;
    const said = ask === 'room' ? EN_ROOMS.closing : EN.revoking;
    const pending = this.begin(said);
    if (!pending || !ask) return;
    const [path, envelope] = {
      policy: [`/api/v1/policies/${enc(pending.row)}/revoke`, 'policy'],
      license: [`/api/v1/data_licenses/${enc(pending.row)}/revoke`, 'data_license'],
      room: [`/api/v1/clean_rooms/${enc(pending.row)}/close`, 'clean_room'],
    }[ask];
    this.#refusal = '';
    const done = await this.act<{ id: string; status: string }>(path!, {}, pending.from, envelope!);
    if (!done) {
      if (this.#refusal && this.phase !== 'signed-out' && this.phase !== 'idle') this.announcement = this.strings.refused(this.#refusal);
      return;
    }
    if (ask === 'license' && this.licenses.state === 'ready') {
      const value = this.licenses.value.map((l) => (l.id === done.id ? (done as DataLicenseRow) : l));
      this.licenses = { state: 'ready', value };
      this.announcement = EN.revoked(licenseeOf(done as DataLicenseRow));
    } else {
      this.replaceRow(done as Row);
      this.announcement = ask === 'room' ? EN_ROOMS.closed((done as CleanRoomRow).agreement_id) : EN.revoked((done as PolicyRow).title);
    }
    this.#changed(ask === 'room' ? 'clean_room' : ask === 'license' ? 'data_license' : 'policy', done.id, done.status);
    await this.focusKey(pending.from);
  }

  /** A button that opens the confirm step, unless read-only or the row is no longer active. */
  #button(row: { id: string; status: string }, ask: Ask, part: string, label: string, name: string): unknown {
    if (this.readonly || row.status !== 'active') return nothing;
    const key = `${part} ${row.id}`;
    return html`<button part=${part} type=button data-key=${key} aria-label=${name}
      @click=${() => this.confirm(row, ask, key)}>${label}</button>`;
  }

  #confirmFor(id: string, question: string, yes: string): unknown {
    return this.pending?.row === id ? this.confirmStep(question, yes, () => this.#act()) : nothing;
  }

  #policy(row: PolicyRow): TemplateResult {
    const template = this.templates[row.template_id] ?? row.template_id;
    return html`<li part=policy tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=title>${row.title}</p>
      <p part=meta>${EN.status[row.status] ?? row.status} · ${EN.template(template)} · ${EN.made} ${when(row.created_at)}</p>
      ${this.#button(row, 'policy', 'revoke', EN.revoke, EN.revokePolicyNamed(row.title))}
      ${this.#confirmFor(row.id, EN.confirmPolicy(row.title), EN.confirmButton)}
    </li>`;
  }

  #license(row: DataLicenseRow): TemplateResult {
    const licensee = licenseeOf(row);
    return html`<li part=data-license tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=title>${EN.licensee}: ${licensee}</p>
      <p part=meta>${EN.purpose}: ${purposeOf(row) ?? EN.noPurpose} · ${EN.status[row.status] ?? row.status} ·
        ${EN.accesses(row.access_count, row.max_access_count)}</p>
      ${this.#button(row, 'license', 'revoke', EN.revoke, EN.revokeLicenseNamed(licensee))}
      ${this.#confirmFor(row.id, EN.confirmLicense(licensee), EN.confirmButton)}
    </li>`;
  }

  #licenses(): TemplateResult {
    const side = this.licenses;
    let body: unknown = html`<p>${EN.loading}</p>`;
    if (side.state === 'error') body = html`<p>${EN.error}</p>`;
    if (side.state === 'ready') {
      body = side.value.length ? html`<ul part=list>${side.value.map((l) => this.#license(l))}</ul>` : html`<p>${EN.noLicenses}</p>`;
    }
    return html`<section aria-labelledby=svc-policies-licenses>
      <h3 part=heading id=svc-policies-licenses>${EN.licensesHeading}</h3>${body}
    </section>`;
  }

  #queries(room: CleanRoomRow): unknown {
    const side = this.queries[room.id];
    if (!side) return nothing;
    if (side.state !== 'ready')
      return html`<p part=queries>${side.state === 'loading' ? EN_ROOMS.queriesLoading : EN_ROOMS.queriesFailed}</p>`;
    if (!side.value.length) return html`<p part=queries>${EN_ROOMS.noQueries}</p>`;
    return html`<ul part=queries>${side.value.map(
      (q) => html`<li>${EN_ROOMS.query(q.computation_type, q.status)}${q.submitted_at ? html` · ${when(q.submitted_at)}` : nothing}</li>`,
    )}</ul>`;
  }

  #room(row: CleanRoomRow): TemplateResult {
    const { epsilon_remaining, epsilon_total } = row.privacy_budget;
    const open = !!this.queries[row.id];
    return html`<li part=clean-room tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=title>${EN_ROOMS.heading(row.agreement_id)}</p>
      <p part=meta>${EN_ROOMS.status[row.status] ?? row.status} · ${EN_ROOMS.expires}
        ${row.expires_at ? when(row.expires_at) : EN_ROOMS.noExpiry}</p>
      <p part=meta>${EN_ROOMS.participants}: ${row.participants.join(', ')}</p>
      <p part=budget>${EN_ROOMS.budgetLabel}: ${EN_ROOMS.budget(epsilon_remaining, epsilon_total)}</p>
      <div part=actions>
        <button part=toggle-queries type=button aria-expanded=${open ? 'true' : 'false'} @click=${() => this.#toggleQueries(row)}>
          ${open ? EN_ROOMS.hideQueries : EN_ROOMS.queries}</button>
        ${this.#button(row, 'room', 'close', EN_ROOMS.close, EN_ROOMS.closeNamed(row.agreement_id))}
      </div>
      ${this.#queries(row)}
      ${this.#confirmFor(row.id, EN_ROOMS.confirm(row.agreement_id), EN_ROOMS.confirmButton)}
    </li>`;
  }

  protected override renderTop(): unknown {
    return this.#view() === 'policies' ? html`<h3 part=heading>${EN.policiesHeading}</h3>` : nothing;
  }

  protected override renderRow(row: Row): TemplateResult {
    return 'privacy_budget' in row ? this.#room(row) : this.#policy(row as PolicyRow);
  }

  /** The chart's numbers for the chosen purpose: every day of the period, oldest first, zero where none. */
  #chartData(activity: PoliciesConsentActivity): ChartData {
    const start = Date.parse(`${activity.from}T00:00:00Z`) / 1000;
    const end = Date.parse(`${activity.to}T00:00:00Z`) / 1000;
    const x: number[] = [];
    for (let day = start; day <= end && x.length < 366; day += DAY) x.push(day);
    const index = new Map(x.map((day, i) => [new Date(day * 1000).toISOString().slice(0, 10), i]));
    const series = (['granted', 'denied', 'withdrawn'] as const).map((key) => ({ key, label: EN_ACTIVITY[key], values: x.map(() => 0) }));
    for (const day of activity.days) {
      const at = index.get(day.date);
      if (day.purpose !== this.purpose || at === undefined) continue;
      for (const s of series) s.values[at] = day[s.key];
    }
    return {
      label: EN_ACTIVITY.caption(this.purpose, activity.from, activity.to),
      x,
      series: series.map(({ label, values }) => ({ label, values })),
    };
  }

  #filters(activity: PoliciesConsentActivity | undefined): TemplateResult {
    const apps = this.rows as ActivityApplication[];
    const purposes = activity ? purposesOf(activity) : [];
    const pick = (event: Event) => void this.#readActivity((event.target as HTMLSelectElement).value);
    return html`<div part=filters>
      <label>${EN_ACTIVITY.application}
        <select @change=${pick}>${apps.map((a) => html`<option value=${a.id} ?selected=${a.id === this.applicationId}>${a.name}</option>`)}</select>
      </label>
      ${
        purposes.length
          ? html`<label>${EN_ACTIVITY.purpose}
              <select @change=${(event: Event) => (this.purpose = (event.target as HTMLSelectElement).value)}>
                ${purposes.map((p) => html`<option value=${p} ?selected=${p === this.purpose}>${p}</option>`)}
              </select></label>`
          : nothing
      }
    </div>`;
  }

  #activityBody(): TemplateResult {
    const side = this.activity;
    if (side.state === 'loading') return html`<p>${EN_ACTIVITY.activityLoading}</p>`;
    if (side.state === 'error') return html`<p>${EN_ACTIVITY.activityFailed}</p>`;
    if (!this.purpose) return html`<p>${EN_ACTIVITY.none}</p>`;
    const data = this.#chartData(side.value);
    const [granted, denied, withdrawn] = data.series.map((s) => s.values.reduce((a, b) => a + b, 0));
    return html`${chartFrame(true)}<div class=table-scroll>${chartTable(data)}</div>
      <p part=totals>${EN_ACTIVITY.totals(granted ?? 0, denied ?? 0, withdrawn ?? 0)}</p>`;
  }

  /** Draws the chart once its frame is in place, again when its numbers change; never fails the element. */
  async #drawActivity(): Promise<void> {
    const frame = this.renderRoot.querySelector<HTMLElement>('[part=chart]');
    const activity = this.consentActivity;
    const key = frame && activity ? `${this.applicationId} ${this.purpose} ${JSON.stringify(activity.days)}` : '';
    if (key === this.#charted) return;
    this.#undraw();
    this.#charted = key;
    if (!frame || !activity) return;
    try {
      const drawn = await drawChart(frame, this.#chartData(activity));
      if (this.#charted === key && frame.isConnected) this.#chart = drawn;
      else drawn.destroy();
    } catch {
      // The table says the same numbers.
    }
  }

  #undraw(): void {
    this.#chart?.destroy();
    this.#chart = undefined;
    this.#charted = '';
  }

  protected override render(): TemplateResult {
    const view = this.#view();
    if (view === 'policies' && (this.phase === 'ready' || this.phase === 'empty')) {
      return html`${super.render()}${this.#licenses()}`;
    }
    if (view !== 'consent_activity' || this.phase !== 'ready') return super.render();
    const activity = this.consentActivity;
    return html`<div part=base class=ready>${this.#filters(activity)}${this.#activityBody()}
      <p part=status role=status>${this.announcement}</p></div>`;
  }
}

/** The purposes with any activity, in the order the service first names them. */
function purposesOf(activity: PoliciesConsentActivity): string[] {
  return [...new Set(activity.days.map((d) => d.purpose))];
}
