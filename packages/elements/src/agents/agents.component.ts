import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import type { AccessTokenProvider } from '../internal/access-token.js';
import {
  type ChartData,
  chartFrame,
  chartStyles,
  chartTable,
  countPerDay,
  type DrawnChart,
  dayOf,
  drawChart,
  lastDays,
} from '../internal/chart.js';
import { httpFailure, PersonList, type PersonListStatus, when } from '../internal/person-list.js';
import { personListStyles } from '../internal/person-list.styles.js';
import { agentsStyles } from './agents.styles.js';
import type {
  AgentDetails,
  AgentRow,
  AgentsAction,
  AgentsErrorDetail,
  AgentsView,
  EscalationRow,
  GrantRow,
  SvcAgentsChangeDetail,
} from './events.js';
import { EN_AGENTS, EN_AUTHORITIES, EN_GRANTS } from './strings.js';

/**
 * Where the element stands: `idle` (no way to get a token, or no service URL yet), `loading`, `ready` (rows shown),
 * `empty` (none), `signed-out` (the service or the token URL refused) or `error`.
 */
export type AgentsStatus = PersonListStatus;

/** Gives the console's access token, asked before every request. */
export type AgentsTokenProvider = AccessTokenProvider;

type Row = AgentRow | GrantRow | EscalationRow;

const AGENTS = '/api/v1/agent_identities';
const GRANTS = '/api/v1/delegations';
const ESCALATIONS = '/api/v1/oap/escalations';
/** The escalations' outcomes, in the order the chart and its table list them. */
const OUTCOMES = ['approved', 'denied', 'countered', 'pending', 'expired'] as const;
/** Days the authorities chart covers, today included. */
const CHART_DAYS = 14;
/** Pages of 100 the chart reads at most for its days (10,000 escalations); beyond, it counts what it read. */
const CHART_PAGES = 100;

const SOURCES: Record<AgentsView, { path: string; key: string }> = {
  agent_identities: { path: AGENTS, key: 'agent_identities' },
  application_agents: { path: GRANTS, key: 'delegation_grants' },
  authorities: { path: ESCALATIONS, key: 'escalations' },
};

/**
 * An organisation's agents, in its console or its own account pages, with the console's token (an API token of the
 * account user's role). `view="agent_identities"` (the default): each agent (`GET /api/v1/agent_identities`) with its
 * status, its pinned capability manifests (`GET …/{id}/manifests`: version, scopes, when pinned) and its trust score
 * (`GET …/{id}/trust_score`); Suspend and Resume, and Revoke after a confirm step in place. `view="application_agents"`:
 * what each agent may do, the delegation grants (`GET /api/v1/delegations`): the agent, the person it acts for (by id),
 * scopes, bounds, status and expiry, and Revoke after a confirm step (suspending and resuming a grant are the person's
 * own: the API refuses them to an organisation). `view="authorities"`: the escalations (`GET /api/v1/oap/escalations`):
 * the agent, the action, its outcome and when, with a chart of escalations by outcome per day over the last 14 days
 * and, always, the same numbers as a table. `readonly` (a viewer) shows no change controls; a refusal the service
 * answers anyway (403 `insufficient_permissions`) is said in its own words. A polite live region says what happened.
 *
 * The token comes from `getAccessToken` (asked before every request), else `accessToken`, else `token-url` (on the
 * console `/console/access_token`, a same-origin URL answering a POST with the page's cookies with
 * `{access_token, expires_in}`).
 *
 * @summary Lists an organisation's agents, what they may do, and the authority they asked for; suspends, resumes and revokes.
 *
 * @slot empty - Shown when there is nothing to list (default: one sentence).
 * @slot signed-out - Shown without a token, or when it was refused (default: one sentence).
 * @slot error - Shown when the list cannot be read (default: one sentence, and a retry button).
 *
 * @fires {SvcAgentsChangeEvent} svc-agents-change - The service recorded a change; detail has `kind` (`agent_identity`, `delegation_grant`), `id`, `action` (`suspend`, `resume`, `revoke`) and `status`.
 * @fires {SvcAgentsErrorEvent} svc-error - A list could not be read or a change failed; detail has `code`, `message`, `fatal`, `recoverable_via`.
 *
 * @csspart base - The wrapper of everything else.
 * @csspart list - The list of agents, grants or escalations.
 * @csspart agent - One agent identity.
 * @csspart grant - One delegation grant.
 * @csspart escalation - One escalation.
 * @csspart heading - The row's first line: who, and what.
 * @csspart badge - The row's status or outcome (`data-status` names it).
 * @csspart meta - The row's kind, id and dates.
 * @csspart trust-score - An agent's trust score.
 * @csspart manifests - An agent's pinned capability manifests.
 * @csspart scopes - A grant's scopes.
 * @csspart bounds - A grant's bounds, one a line.
 * @csspart reason - Why an escalation was asked.
 * @csspart actions - The buttons of a row, and of the confirm step.
 * @csspart suspend - The button that suspends an agent.
 * @csspart resume - The button that resumes an agent.
 * @csspart revoke - The button that revokes an agent or a grant (asks first).
 * @csspart confirm - The confirm step (a group named by its question).
 * @csspart confirm-button - The button that confirms the revocation (the one filled button).
 * @csspart cancel-button - The button that closes the confirm step.
 * @csspart overview - The chart and its table (a region that scrolls sideways when narrower than the table).
 * @csspart chart - The chart of escalations per day (hidden from assistive technology: the table says the same).
 * @csspart chart-table - The chart's numbers as a table, always shown.
 * @csspart more - The button that loads the next page.
 * @csspart retry - The button that tries again after an error.
 * @csspart status - The live region announcing loading and what happened.
 *
 * @cssprop [--svc-agents-gap=.75rem] - Space between rows.
 * @cssprop [--svc-agents-border=1px solid color-mix(in srgb, currentColor 20%, transparent)] - Border of each row.
 * @cssprop [--svc-agents-radius=var(--svc-radius, 0.6rem)] - Corner radius of rows and buttons.
 * @cssprop [--svc-agents-accent=var(--svc-accent, #2f4fb5)] - Colour of the buttons.
 * @cssprop [--svc-agents-warning=#8a5a00] - Colour of a suspended, pending or countered badge.
 * @cssprop [--svc-agents-danger=#b3261e] - Colour of a revoked, denied or expired badge.
 * @cssprop [--svc-agents-color=inherit] - Text colour.
 * @cssprop [--svc-agents-font=400 100%/1.5 var(--svc-font-family, system-ui, …)] - Font (its own stack, not the page's).
 * @cssprop [--svc-chart-1=#1d5fbf] - Colour of the chart's first series (`--svc-chart-2`… the next ones).
 */
export class SvcAgents extends PersonList<Row, AgentsAction> {
  static override styles = [personListStyles('agents'), chartStyles, agentsStyles];

  static override properties: PropertyDeclarations = {
    view: {},
    readOnly: { type: Boolean, attribute: 'readonly', reflect: true },
    details: { attribute: false },
    names: { attribute: false },
    counted: { attribute: false },
  };

  /** `agent_identities` (default), `application_agents` (the grants) or `authorities` (the escalations). */
  view?: string;
  /** No change controls (a viewer's console): the attribute `readonly`. */
  readOnly = false;

  private details = new Map<string, AgentDetails>();
  private names = new Map<string, string>();
  /** Every escalation of the chart's days, read for the chart when the list has more than its first page. */
  private counted: EscalationRow[] | undefined;
  /** Counts the list's loads, so a chart read that a newer load overtook is dropped. */
  #counting = 0;
  /** The load whose chart read began (one per load: the pages after the first come from "Show more"). */
  #countingFor = -1;
  /** The service's words for its last refusal, said when a change is refused. */
  #refusal = '';
  /** A change under way outside a confirm step (suspend, resume): a second press does nothing. */
  #changing = false;
  #chart: DrawnChart | undefined;
  /** The numbers drawn (or being drawn), and where. */
  #charted = '';
  #frame: HTMLElement | undefined;
  #draws = 0;

  /** The agents shown (empty in the other views). */
  get agents(): readonly AgentRow[] {
    return this.#view() === 'agent_identities' ? (this.rows as AgentRow[]) : [];
  }

  /** The grants shown (`view="application_agents"`; empty in the other views). */
  get grants(): readonly GrantRow[] {
    return this.#view() === 'application_agents' ? (this.rows as GrantRow[]) : [];
  }

  /** The escalations shown (`view="authorities"`; empty in the other views). */
  get escalations(): readonly EscalationRow[] {
    return this.#view() === 'authorities' ? (this.rows as EscalationRow[]) : [];
  }

  /** The escalations shown, counted per UTC day and outcome over the last 14 days (what the chart and its table show). */
  get chartData(): ChartData {
    const labels = OUTCOMES.map((o) => EN_AUTHORITIES.outcome[o]);
    return countPerDay(EN_AUTHORITIES.chartLabel, lastDays(CHART_DAYS), labels, this.counted ?? this.escalations, (e) => [
      dayOf(e.created_at),
      EN_AUTHORITIES.outcome[e.status],
    ]);
  }

  #view(): AgentsView {
    return this.view === 'application_agents' || this.view === 'authorities' ? this.view : 'agent_identities';
  }

  protected override get listPath(): string {
    return SOURCES[this.#view()].path;
  }

  protected override get listKey(): string {
    return SOURCES[this.#view()].key;
  }

  protected override get strings(): typeof EN_AGENTS | typeof EN_GRANTS | typeof EN_AUTHORITIES {
    const view = this.#view();
    return view === 'agent_identities' ? EN_AGENTS : view === 'application_agents' ? EN_GRANTS : EN_AUTHORITIES;
  }

  /** The chart wants every escalation of the last days on one page: the API's largest unless `limit` says otherwise. */
  protected override filters(params: URLSearchParams): void {
    if (this.#view() === 'authorities' && !params.has('limit')) params.set('limit', '100');
  }

  /** Reads the list again from its first page, and the chart's days again if they need their own read. */
  override async refresh(): Promise<void> {
    this.counted = undefined;
    this.#counting += 1;
    await super.refresh();
  }

  /** Reads what a row shows beside itself: each agent's manifests and score, or the agents' names. */
  protected override received(page: Record<string, unknown>): void {
    if (this.#view() === 'agent_identities') void this.#readDetails(page.agent_identities as AgentRow[]);
    else void this.#readNames();
    // The list answers oldest first: with more than one page, the first misses the latest days, so the chart reads
    // its own days.
    if (this.#view() === 'authorities' && typeof page.next_cursor === 'string' && this.#countingFor !== this.#counting) {
      this.#countingFor = this.#counting;
      void this.#readChartDays(this.#counting);
    }
  }

  /** Reads every escalation created since the chart's first day, page by page (at most {@link CHART_PAGES}). */
  async #readChartDays(counting: number): Promise<void> {
    const since = new Date(lastDays(CHART_DAYS)[0]! * 1000).toISOString();
    const read: EscalationRow[] = [];
    let cursor = '';
    for (let page = 0; page < CHART_PAGES; page += 1) {
      const query = new URLSearchParams({ created_since: since, limit: '100' });
      if (cursor) query.set('cursor', cursor);
      const answer = await this.call(`${ESCALATIONS}?${query}`);
      const list = 'body' in answer ? answer.body.escalations : undefined;
      // Failed, or overtaken by a newer load: the chart keeps counting the list's rows.
      if (counting !== this.#counting || !Array.isArray(list)) return;
      read.push(...(list as EscalationRow[]));
      cursor = 'body' in answer && typeof answer.body.next_cursor === 'string' ? answer.body.next_cursor : '';
      if (!cursor) break;
    }
    this.counted = read;
  }

  /** A 404 or 409 is the change's own (no such agent or grant; not from this status): `not_found`, `invalid`. */
  protected override refusal(status: number, message: string | undefined): { failed: AgentsErrorDetail; signedOut: boolean } {
    const { failed, signedOut } = httpFailure(status, message);
    this.#refusal = message ?? '';
    const code = status === 404 ? 'not_found' : status === 409 ? 'invalid' : (failed.code as AgentsErrorDetail['code']);
    return { failed: { ...failed, code }, signedOut };
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#forgetChart();
  }

  protected override updated(): void {
    super.updated();
    const target = this.renderRoot.querySelector<HTMLElement>('.chart');
    if (!target) return this.#forgetChart();
    const data = this.chartData;
    const key = JSON.stringify(data);
    // Drawn, or being drawn, with these numbers in this frame: nothing to do.
    if (key === this.#charted && target === this.#frame) return;
    this.#forgetChart();
    this.#charted = key;
    this.#frame = target;
    const draw = ++this.#draws;
    drawChart(target, data).then(
      (chart) => (draw === this.#draws && this.isConnected ? (this.#chart = chart) : chart.destroy()),
      () => undefined, // No picture (uPlot could not load): the table says the same.
    );
  }

  #forgetChart(): void {
    this.#draws += 1;
    this.#chart?.destroy();
    this.#chart = undefined;
    this.#charted = '';
    this.#frame = undefined;
  }

  async #readDetails(agents: AgentRow[]): Promise<void> {
    await Promise.all(
      agents.map(async (agent) => {
        const path = `${AGENTS}/${encodeURIComponent(agent.id)}`;
        const [manifests, score] = await Promise.all([this.call(`${path}/manifests?limit=100`), this.call(`${path}/trust_score`)]);
        const details: AgentDetails = {
          manifests: 'body' in manifests ? ((manifests.body.capability_manifests as AgentDetails['manifests']) ?? null) : null,
          trust_score: 'body' in score ? ((score.body.trust_score as AgentDetails['trust_score']) ?? null) : null,
        };
        this.details = new Map(this.details).set(agent.id, details);
      }),
    );
  }

  /** The agents' names, so a grant or an escalation names its agent (the first 100; beyond, the id). */
  async #readNames(): Promise<void> {
    const answer = await this.call(`${AGENTS}?limit=100`);
    if (!('body' in answer) || !Array.isArray(answer.body.agent_identities)) return;
    this.names = new Map((answer.body.agent_identities as AgentRow[]).map((a) => [a.id, a.display_name]));
  }

  #agentName(id: string): string {
    return this.names.get(id) ?? id;
  }

  /**
   * POSTs a change and answers the changed row, or undefined once a failure was handled: the service's refusal is
   * said in its own words (a viewer's 403, a 409), in the live region.
   */
  async #change<T>(path: string, from: string, envelope: string): Promise<T | undefined> {
    this.#refusal = '';
    const changed = await this.act<T>(path, {}, from, envelope);
    if (!changed && this.#refusal && this.phase !== 'signed-out' && this.phase !== 'idle')
      this.announcement = this.strings.refused(this.#refusal);
    return changed;
  }

  #changed(kind: SvcAgentsChangeDetail['kind'], id: string, action: AgentsAction, status: string): void {
    const detail: SvcAgentsChangeDetail = { kind, id, action, status };
    this.dispatchEvent(new CustomEvent('svc-agents-change', { bubbles: true, composed: true, detail }));
  }

  /** Suspend or resume (no confirm step: either undoes the other), or the confirmed revocation of an agent. */
  async #agent(row: AgentRow, action: AgentsAction, from: string): Promise<void> {
    if (action === 'revoke') {
      if (!this.begin(EN_AGENTS.working)) return;
    } else {
      if (this.#changing || this.pending?.busy) return;
      this.#changing = true;
      this.announcement = EN_AGENTS.working;
    }
    const agent = await this.#change<AgentRow>(`${AGENTS}/${encodeURIComponent(row.id)}/${action}`, from, 'agent_identity');
    this.#changing = false;
    if (!agent) return;
    this.replaceRow(agent);
    this.announcement = EN_AGENTS.done(agent.display_name, EN_AGENTS.status[agent.status] ?? agent.status);
    this.#changed('agent_identity', agent.id, action, agent.status);
    const back = agent.status === 'active' ? `suspend ${agent.id}` : agent.status === 'suspended' ? `resume ${agent.id}` : from;
    await this.focusKey(back);
  }

  /** The confirmed revocation of a grant. */
  async #revokeGrant(): Promise<void> {
    const pending = this.begin(EN_GRANTS.working);
    const row = this.rows.find((r) => r.id === pending?.row) as GrantRow | undefined;
    if (!pending || !row) return;
    const grant = await this.#change<GrantRow>(`${GRANTS}/${encodeURIComponent(row.id)}/revoke`, pending.from, 'delegation_grant');
    if (!grant) return;
    this.replaceRow(grant);
    this.announcement = EN_GRANTS.done(this.#agentName(grant.delegate_id));
    this.#changed('delegation_grant', grant.id, 'revoke', grant.status);
    await this.focusKey(pending.from);
  }

  protected override renderTop(): unknown {
    if (this.#view() !== 'authorities') return nothing;
    const data = this.chartData;
    // Focusable, so the table can be scrolled by keyboard where it is wider than the page (375 px).
    return html`<div part=overview role=region tabindex=0 aria-label=${data.label}>${chartFrame(true)}${chartTable(data)}</div>`;
  }

  protected override renderRow(row: Row): TemplateResult {
    if ('delegate_id' in row) return this.#grantRow(row);
    if ('trigger' in row) return this.#escalationRow(row);
    return this.#agentRow(row as AgentRow);
  }

  #button(part: AgentsAction, row: Row, label: string, name: string, onClick: () => unknown): TemplateResult {
    const key = `${part} ${row.id}`;
    return html`<button part=${part} type=button data-key=${key} aria-label=${EN_AGENTS.named(label, name)} @click=${onClick}>${label}</button>`;
  }

  #agentControls(row: AgentRow): unknown {
    if (this.readOnly || row.status === 'revoked') return nothing;
    const name = row.display_name;
    const toggle =
      row.status === 'active'
        ? this.#button('suspend', row, EN_AGENTS.suspend, name, () => this.#agent(row, 'suspend', `suspend ${row.id}`))
        : this.#button('resume', row, EN_AGENTS.resume, name, () => this.#agent(row, 'resume', `resume ${row.id}`));
    const revoke = this.#button('revoke', row, EN_AGENTS.revoke, name, () => this.confirm(row, 'revoke', `revoke ${row.id}`));
    return html`<div part=actions>${toggle}${revoke}</div>`;
  }

  #agentDetails(row: AgentRow): unknown {
    const details = this.details.get(row.id);
    if (!details) return nothing;
    const score = details.trust_score;
    const manifests = details.manifests ?? [];
    return html`<p part=trust-score>${score ? EN_AGENTS.trustScore(score.score) : EN_AGENTS.noScore}</p>
      <div part=manifests>
        <p class=label>${EN_AGENTS.manifests}</p>
        ${
          manifests.length
            ? html`<ul>${manifests.map((m) => html`<li>${EN_AGENTS.manifest(m.version, m.manifest.delegated_scopes, when(m.pinned_at))}</li>`)}</ul>`
            : html`<p>${EN_AGENTS.noManifest}</p>`
        }
      </div>`;
  }

  #agentRow(row: AgentRow): TemplateResult {
    const pending = this.pending?.row === row.id;
    return html`<li part=agent tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=heading><span class=name>${row.display_name}</span>
        <span part=badge data-status=${row.status}>${EN_AGENTS.status[row.status] ?? row.status}</span></p>
      <p part=meta>${EN_AGENTS.type[row.agent_type] ?? row.agent_type} · <code>${row.id}</code> · ${EN_AGENTS.registered(when(row.created_at))}</p>
      ${this.#agentDetails(row)}
      ${this.#agentControls(row)}
      ${pending ? this.confirmStep(EN_AGENTS.confirm(row.display_name), EN_AGENTS.confirmButton, () => this.#agent(row, 'revoke', `revoke ${row.id}`)) : nothing}
    </li>`;
  }

  #grantRow(row: GrantRow): TemplateResult {
    const delegate = row.delegate_type === 'agent' ? this.#agentName(row.delegate_id) : row.delegate_id;
    const key = `revoke ${row.id}`;
    const open = !this.readOnly && (row.status === 'active' || row.status === 'suspended');
    const bounds = EN_GRANTS.bounds(row);
    return html`<li part=grant tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=heading><span class=name>${EN_GRANTS.heading(delegate, row.delegate_type === 'agent')}</span>
        <span part=badge data-status=${row.status}>${EN_GRANTS.status[row.status] ?? row.status}</span></p>
      <p part=meta>${EN_GRANTS.principal(row.principal_id)} · <code>${row.id}</code> · ${EN_GRANTS.expires(row.expires_at ? when(row.expires_at) : null)}</p>
      <p part=scopes>${EN_GRANTS.scopes(row.delegated_scopes)}</p>
      ${bounds.length ? html`<ul part=bounds>${bounds.map((b) => html`<li>${b}</li>`)}</ul>` : nothing}
      ${
        open
          ? html`<div part=actions><button part=revoke type=button data-key=${key} aria-label=${EN_GRANTS.named(delegate)}
              @click=${() => this.confirm(row, 'revoke', key)}>${EN_GRANTS.revoke}</button></div>`
          : nothing
      }
      ${this.pending?.row === row.id ? this.confirmStep(EN_GRANTS.confirm(delegate, row.principal_id), EN_GRANTS.confirmButton, () => this.#revokeGrant()) : nothing}
    </li>`;
  }

  #escalationRow(row: EscalationRow): TemplateResult {
    return html`<li part=escalation tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=heading><span class=name>${EN_AUTHORITIES.heading(this.#agentName(row.agent_identity_id), row.action.description)}</span>
        <span part=badge data-status=${row.status}>${EN_AUTHORITIES.outcome[row.status] ?? row.status}</span></p>
      <p part=meta>${EN_AUTHORITIES.action(row)} · ${EN_AUTHORITIES.trigger[row.trigger] ?? row.trigger} · ${EN_AUTHORITIES.asked(when(row.created_at))}${
        row.decided_at ? html` · ${EN_AUTHORITIES.decided(when(row.decided_at))}` : nothing
      }</p>
      <p part=reason>${row.reason}</p>
    </li>`;
  }
}
