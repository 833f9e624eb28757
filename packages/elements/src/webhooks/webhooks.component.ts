import { html, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
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
import { httpFailure, type Outcome, PersonList, type PersonListErrorDetail, type PersonListStatus } from '../internal/person-list.js';
import { personListStyles } from '../internal/person-list.styles.js';
import type {
  DeliveryFilter,
  SvcWebhooksChangeDetail,
  WebhookApplication,
  WebhookDeliveryRow,
  WebhookEndpointRow,
  WebhooksErrorDetail,
} from './events.js';
import { EN } from './strings.js';
import { webhooksStyles } from './webhooks.styles.js';

/**
 * Where the element stands: `idle` (no way to get a token, or no service URL yet), `loading`, `ready` (rows shown),
 * `empty` (none), `signed-out` (the service or the token URL refused) or `error`.
 */
export type WebhooksStatus = PersonListStatus;

/** Gives the console's access token, asked before every request. */
export type WebhooksTokenProvider = AccessTokenProvider;

/** What a confirm step would do to an endpoint. */
type Ask = 'disable' | 'delete' | 'rotate';
/** An endpoint's deliveries: `all` (the chart's), `shown` (the filter's; undefined while read), and whether they could be read. */
interface Deliveries {
  filter: DeliveryFilter;
  all: WebhookDeliveryRow[];
  shown: WebhookDeliveryRow[] | undefined;
  failed: boolean;
}
/** A signing secret, shown once: never an attribute, an event detail, storage or the log. */
interface Secret {
  id: string;
  url: string;
  value: string;
}

const APPS = '/api/v1/applications';
const FILTERS: readonly DeliveryFilter[] = ['all', 'failed', 'succeeded', 'pending'];
const STATUS_OF: Record<DeliveryFilter, string | undefined> = {
  all: undefined,
  failed: 'failed',
  succeeded: 'acknowledged',
  pending: 'pending',
};
const CHART_DAYS = 14;

/** The deliveries an answer lists, or undefined when it lists none (a failure). */
const listed = (outcome: Outcome | undefined): WebhookDeliveryRow[] | undefined =>
  outcome && 'body' in outcome && Array.isArray(outcome.body.deliveries) ? (outcome.body.deliveries as WebhookDeliveryRow[]) : undefined;
/** Pages of 100 the chart reads at most per endpoint (10,000 deliveries); beyond, it counts the newest it read. */
const CHART_PAGES = 100;

/** A date and time as the reader's browser writes it, in a `<time>`. */
function at(iso: string): TemplateResult {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return html`<time datetime=${iso}>${text}</time>`;
}

/**
 * An application's webhook endpoints and their deliveries, for the console's `/applications` page or an
 * organisation's own account pages, with the console's token. Each endpoint (`GET
 * /api/v1/applications/{id}/webhook_endpoints`) with its URL, events, status and failures in a row; a form to add one
 * (its signing secret shown once); Enable, Disable (after a confirm step), Delete (after a confirm step), Rotate
 * signing secret (after a confirm step; the new secret shown once, with a copy button, until dismissed) and Send a
 * test event. Under each endpoint its deliveries (`GET .../deliveries`), filtered by a labelled select (all, failed,
 * succeeded, pending), each with its event type, attempts, last status code, last error and next attempt, and
 * Redeliver on a failed one (`POST .../deliveries/{delivery_id}/redeliver`). Above, a chart of deliveries succeeded
 * and failed per day over the last 14 days, with the same numbers in a table. Without `application`, a labelled select
 * of the account's applications (`GET /api/v1/applications`) chooses one, the first at first. With `readonly` (a
 * viewer) there are no change controls; a refusal of the role (403) is said with the service's message. A polite
 * live region says what happened.
 *
 * The token comes from `getAccessToken` (asked before every request), else `accessToken`, else `token-url` (on the
 * console, `/console/access_token`: a same-origin URL answering a POST with the page's cookies with
 * `{access_token, expires_in}`).
 *
 * @summary Lists an application's webhook endpoints and their deliveries, and changes them.
 *
 * @slot empty - Shown when there is nothing to list (default: one sentence).
 * @slot signed-out - Shown without a token, or when it was refused (default: one sentence).
 * @slot error - Shown when the list cannot be read (default: one sentence, or the service's refusal, and a retry button).
 *
 * @fires {SvcWebhooksChangeEvent} svc-webhooks-change - The service recorded a change; detail has `action` (`create`, `enable`, `disable`, `delete`, `rotate`, `test`, `redeliver`), `application_id`, `webhook_endpoint_id`, `delivery_id` and the new `status`, never a secret.
 * @fires {SvcWebhooksErrorEvent} svc-error - A list could not be read or an action failed; detail has `code`, `message`, `fatal`, `recoverable_via`.
 *
 * @csspart base - The wrapper of everything else.
 * @csspart application-select - The select of the account's applications (without `application`).
 * @csspart overview - The chart and its table.
 * @csspart chart - The chart of deliveries per day (hidden from assistive technology: the table says the same).
 * @csspart chart-table - The chart's numbers as a table, always shown.
 * @csspart new - The button that opens the form.
 * @csspart form - The form that adds an endpoint.
 * @csspart form-title - The form's heading.
 * @csspart field-error - Why the endpoint cannot be added (tied to its field).
 * @csspart submit - The form's Add button.
 * @csspart secret - A signing secret, shown once (a group named by its title).
 * @csspart secret-value - The secret itself.
 * @csspart copy - The button that copies the secret.
 * @csspart dismiss - The button that forgets the secret.
 * @csspart list - The list of endpoints.
 * @csspart endpoint - One endpoint.
 * @csspart heading - An endpoint's URL.
 * @csspart meta - An endpoint's status, events and failures.
 * @csspart actions - The buttons of an endpoint, a form, the secret and the confirm step.
 * @csspart enable - The button that enables an endpoint.
 * @csspart disable - The button that disables an endpoint.
 * @csspart delete - The button that deletes an endpoint.
 * @csspart rotate - The button that rotates an endpoint's signing secret.
 * @csspart test - The button that sends a test event.
 * @csspart deliveries - An endpoint's deliveries, with their filter.
 * @csspart filter - The select of which deliveries are shown.
 * @csspart delivery - One delivery.
 * @csspart delivery-error - A delivery's last error.
 * @csspart redeliver - The button that queues a failed delivery again.
 * @csspart confirm - The confirm step (a group named by its question).
 * @csspart confirm-button - The button that confirms (the one filled button).
 * @csspart cancel-button - The buttons that close the form or the confirm step.
 * @csspart more - The button that loads the next page.
 * @csspart retry - The button that tries again after an error.
 * @csspart status - The live region announcing loading and what happened.
 *
 * @cssprop [--svc-webhooks-gap=.75rem] - Space between rows.
 * @cssprop [--svc-webhooks-border=1px solid color-mix(in srgb, currentColor 20%, transparent)] - Border of each row and form.
 * @cssprop [--svc-webhooks-radius=var(--svc-radius, 0.6rem)] - Corner radius of rows and buttons.
 * @cssprop [--svc-webhooks-accent=var(--svc-accent, #2f4fb5)] - Colour of the buttons.
 * @cssprop [--svc-webhooks-error=#b3261e] - Colour of a failure and a refusal.
 * @cssprop [--svc-webhooks-color=inherit] - Text colour.
 * @cssprop [--svc-webhooks-font=400 100%/1.5 var(--svc-font-family, system-ui, …)] - Font (its own stack, not the page's).
 * @cssprop [--svc-chart-1=#1d5fbf] - Colour of the chart's succeeded series (`--svc-chart-2`, failed).
 */
export class SvcWebhooks extends PersonList<WebhookEndpointRow, Ask> {
  static override styles = [personListStyles('webhooks'), chartStyles, webhooksStyles];

  static override properties: PropertyDeclarations = {
    application: {},
    readonly: { type: Boolean },
    applications: { attribute: false },
    selected: { attribute: false },
    details: { attribute: false },
    formOpen: { attribute: false },
    fieldError: { attribute: false },
    sending: { attribute: false },
  };

  /** The application whose endpoints are shown; without it, a select of the account's applications. */
  application?: string;
  /** No change controls (a viewer's console). */
  readonly = false;

  /** The account's applications, read when there is no `application` attribute. */
  private applications: WebhookApplication[] | undefined;
  private selected = '';
  private details = new Map<string, Deliveries>();
  private formOpen = false;
  private fieldError = '';
  private sending = false;
  #secret: Secret | undefined;
  /** The service's last refusal, so it is said where it belongs. */
  #refused: { status: number; message: string } | undefined;
  /** The service's message when it refused to list (403), said in place of the generic error. */
  #forbidden: string | undefined;
  /** A change under way outside a confirm step (enable, test, redeliver): a second press does nothing. */
  #changing = false;
  #chart: DrawnChart | undefined;
  #charted = '';
  #draws = 0;

  /** The endpoints shown, never with their secrets. */
  get endpoints(): readonly WebhookEndpointRow[] {
    return this.#app() ? this.rows : [];
  }

  /** The deliveries shown under endpoint `id` (per its filter). */
  deliveriesOf(id: string): readonly WebhookDeliveryRow[] {
    return this.details.get(id)?.shown ?? [];
  }

  /** Deliveries succeeded and failed per UTC day they were made, over the last 14 days, from every endpoint's (what the chart shows). */
  get chartData(): ChartData {
    const all = [...this.details.values()].flatMap((d) => d.all);
    return countPerDay(EN.chartLabel, lastDays(CHART_DAYS), [EN.succeeded, EN.failedSeries], all, (d) => [
      dayOf(d.created_at),
      d.status === 'acknowledged' ? EN.succeeded : d.status === 'failed' ? EN.failedSeries : undefined,
    ]);
  }

  #app(): string {
    return this.application || this.selected;
  }

  #endpoints(rest = ''): string {
    return `${APPS}/${encodeURIComponent(this.#app())}/webhook_endpoints${rest}`;
  }

  /** Without an application yet, the list read is the account's applications, to choose the first. */
  protected override get listPath(): string {
    return this.#app() ? this.#endpoints() : APPS;
  }

  protected override get listKey(): string {
    return this.#app() ? 'webhook_endpoints' : 'applications';
  }

  protected override get strings(): typeof EN {
    const strings = this.#app() ? EN : { ...EN, empty: EN.noApplications };
    return this.#forbidden ? { ...strings, error: strings.notShown(this.#forbidden) } : strings;
  }

  protected override filters(params: URLSearchParams): void {
    if (!this.#app()) params.set('limit', '100');
  }

  override async refresh(): Promise<void> {
    this.#forbidden = undefined;
    await super.refresh();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#secret = undefined;
    this.#forgetChart();
  }

  /**
   * The applications are kept for the select and the first one chosen (which reads its endpoints); their list is
   * emptied so they are never shown as endpoints. Each endpoint's deliveries are read once the endpoints are in.
   */
  protected override received(page: Record<string, unknown>): void {
    if (Array.isArray(page.applications)) {
      const apps = page.applications as WebhookApplication[];
      this.applications = apps.map(({ id, name, environment }) => ({ id, name, environment }));
      this.selected = apps[0]?.id ?? '';
      apps.length = 0;
      return;
    }
    if (!Array.isArray(page.webhook_endpoints)) return;
    for (const endpoint of page.webhook_endpoints as WebhookEndpointRow[]) {
      void this.#loadDeliveries(endpoint.id, this.details.get(endpoint.id)?.filter ?? 'all');
    }
  }

  /** A 404, 409 or 422 is the action's own: `not_found`, `invalid`; the status and message are kept to say it in place. */
  protected override refusal(status: number, message: string | undefined): { failed: WebhooksErrorDetail; signedOut: boolean } {
    const { failed, signedOut } = httpFailure(status, message);
    this.#refused = { status, message: failed.message };
    const code = status === 404 ? 'not_found' : status === 409 || status === 422 ? 'invalid' : (failed.code as WebhooksErrorDetail['code']);
    return { failed: { ...failed, code }, signedOut };
  }

  protected override fail(detail: PersonListErrorDetail, signedOut = false): void {
    this.#forbidden = detail.code === 'forbidden' ? detail.message : undefined;
    super.fail(detail, signedOut);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('application') || changed.has('selected' as keyof SvcWebhooks)) {
      this.details = new Map();
      this.#secret = undefined;
      this.pending = undefined;
    }
    super.willUpdate(changed);
    // Signed out or failed: the form and a shown secret go with the list.
    if (this.phase === 'idle' || this.phase === 'signed-out' || this.phase === 'error') {
      this.formOpen = false;
      this.fieldError = '';
      this.#secret = undefined;
    }
  }

  protected override updated(): void {
    super.updated();
    const target = this.renderRoot.querySelector<HTMLElement>('.chart');
    if (!target) return this.#forgetChart();
    const data = this.chartData;
    const key = JSON.stringify(data);
    if (key === this.#charted && target.firstChild) return;
    this.#forgetChart();
    this.#charted = key;
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
  }

  /**
   * Reads an endpoint's deliveries: every one of the chart's days (the chart's) and, filtered, those the filter shows
   * (a page of 100; unfiltered, the first page of the chart's).
   */
  async #loadDeliveries(id: string, filter: DeliveryFilter): Promise<void> {
    const app = this.#app();
    const path = `${this.#endpoints(`/${encodeURIComponent(id)}/deliveries`)}?limit=100`;
    const status = STATUS_OF[filter];
    const [all, shown] = await Promise.all([this.#chartDays(path), status ? this.call(`${path}&status=${status}`) : undefined]);
    if (app !== this.#app()) return;
    if (this.details.get(id)?.filter !== filter && this.details.has(id)) return; // another filter was chosen since
    const filtered = status ? listed(shown) : all?.first;
    this.#setDetails(id, { filter, all: all?.days ?? [], shown: filtered ?? [], failed: !all || !filtered });
  }

  /**
   * An endpoint's deliveries from the first page of `path` on (newest first), page by page while they reach into the
   * chart's days (at most {@link CHART_PAGES}): all of them, and the first page; undefined when the first failed.
   */
  async #chartDays(path: string): Promise<{ days: WebhookDeliveryRow[]; first: WebhookDeliveryRow[] } | undefined> {
    const since = lastDays(CHART_DAYS)[0]! * 1000;
    let outcome = await this.call(path);
    const first = listed(outcome);
    if (!first) return undefined;
    const days = [...first];
    for (let page = 1; page < CHART_PAGES; page += 1) {
      const cursor = 'body' in outcome && typeof outcome.body.next_cursor === 'string' ? outcome.body.next_cursor : '';
      const oldest = days[days.length - 1];
      if (!cursor || !oldest || Date.parse(oldest.created_at) < since) break;
      outcome = await this.call(`${path}&cursor=${encodeURIComponent(cursor)}`);
      // A later page that failed: the chart counts what was read.
      days.push(...(listed(outcome) ?? []));
    }
    return { days, first };
  }

  #setDetails(id: string, deliveries: Deliveries): void {
    this.details = new Map(this.details).set(id, deliveries);
  }

  /** Puts `delivery` in place in its endpoint's lists (first, when it is new). */
  #placeDelivery(delivery: WebhookDeliveryRow): void {
    const id = delivery.webhook_endpoint_id;
    const details = this.details.get(id) ?? { filter: 'all' as const, all: [], shown: [], failed: false };
    const place = (list: WebhookDeliveryRow[]) =>
      list.some((d) => d.id === delivery.id) ? list.map((d) => (d.id === delivery.id ? delivery : d)) : [delivery, ...list];
    // A delivery stays where it is shown even when it no longer matches the filter, so it does not vanish under focus.
    const matches = details.filter === 'all' || STATUS_OF[details.filter] === delivery.status;
    const shown = details.shown && (matches || details.shown.some((d) => d.id === delivery.id)) ? place(details.shown) : details.shown;
    this.#setDetails(id, { ...details, all: place(details.all), shown });
  }

  #changed(detail: Omit<SvcWebhooksChangeDetail, 'application_id'>): void {
    const full: SvcWebhooksChangeDetail = { application_id: this.#app(), ...detail };
    this.dispatchEvent(new CustomEvent('svc-webhooks-change', { bubbles: true, composed: true, detail: full }));
  }

  /** Says the last refusal in the service's words (a 403, 404, 409 or 422), anything else as a failure. */
  #said(): void {
    const refused = this.#refused;
    if (refused && [403, 404, 409, 422].includes(refused.status)) this.announcement = EN.refused(refused.message);
  }

  /**
   * Sends `method` to `path` (with `body` as JSON): the object under `envelope`, `true` for an answer without one
   * (a DELETE), or undefined once a failure was handled as `act` handles one, said in the service's words.
   */
  async #send<T>(method: string, path: string, body: unknown, from: string, envelope?: string): Promise<T | true | undefined> {
    this.#refused = undefined;
    const init: RequestInit =
      body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    const outcome = await this.call(path, init);
    this.pending = undefined;
    if ('idle' in outcome) {
      this.showIdle();
      return undefined;
    }
    if ('body' in outcome) {
      const answered = envelope ? outcome.body[envelope] : true;
      if (answered && typeof answered === 'object') return answered as T;
      if (answered === true) return true;
    }
    const failed = 'failed' in outcome ? outcome : httpFailure(502, `The service answered without ${envelope}.`);
    if (failed.signedOut) {
      this.fail(failed.failed, true);
      return undefined;
    }
    this.announcement = this.strings.failed;
    this.#said();
    this.error(failed.failed);
    await this.focusKey(from);
    return undefined;
  }

  async #focus(selector: string): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }

  /** Keeps a secret the service showed once, and answers the endpoint without it. */
  #reveal({ secret, ...row }: WebhookEndpointRow & { secret?: string }): WebhookEndpointRow {
    this.#secret = secret ? { id: row.id, url: row.url, value: secret } : undefined;
    return row;
  }

  // Adding an endpoint.

  async #add(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this.sending) return;
    const data = new FormData(event.target as HTMLFormElement);
    const url = String(data.get('url') ?? '').trim();
    const events = String(data.get('events') ?? '')
      .split(/[\s,]+/)
      .filter(Boolean);
    if (!url) {
      this.fieldError = EN.noUrl;
      return this.#focus('#webhook-url');
    }
    this.fieldError = '';
    this.sending = true;
    this.announcement = EN.adding;
    const body = { webhook_endpoint: { url, events: events.length ? events : ['*'] } };
    const made = await this.#send<WebhookEndpointRow & { secret?: string }>('POST', this.#endpoints(), body, 'submit', 'webhook_endpoint');
    this.sending = false;
    if (made === true) return;
    if (!made) {
      const refused = this.#refused;
      if (refused && refused.status !== 401) {
        this.fieldError = refused.status === 403 ? EN.refused(refused.message) : refused.message;
        await this.#focus('#webhook-url');
      }
      return;
    }
    this.formOpen = false;
    const row = this.#reveal(made);
    this.addRow(row);
    this.#setDetails(row.id, { filter: 'all', all: [], shown: [], failed: false });
    this.announcement = EN.added(row.url);
    this.#changed({ action: 'create', webhook_endpoint_id: row.id, status: row.status });
    await this.#focus('[part=secret]');
  }

  async #open(): Promise<void> {
    this.formOpen = true;
    this.fieldError = '';
    this.announcement = '';
    await this.#focus('#webhook-url');
  }

  async #close(): Promise<void> {
    if (this.sending) return;
    this.formOpen = false;
    this.fieldError = '';
    this.announcement = EN.cancelled;
    await this.focusKey('new');
  }

  // Changing an endpoint.

  /** Enables (at once) or disables (after its confirm step) an endpoint. */
  async #status(row: WebhookEndpointRow, status: WebhookEndpointRow['status'], from: string): Promise<void> {
    const body = { webhook_endpoint: { status } };
    const updated = await this.#send<WebhookEndpointRow>(
      'PATCH',
      this.#endpoints(`/${encodeURIComponent(row.id)}`),
      body,
      from,
      'webhook_endpoint',
    );
    if (!updated || updated === true) return;
    this.replaceRow(updated);
    this.announcement = status === 'enabled' ? EN.enabled(updated.url) : EN.disabled(updated.url);
    this.#changed({ action: status === 'enabled' ? 'enable' : 'disable', webhook_endpoint_id: updated.id, status: updated.status });
    await this.focusKey(`${status === 'enabled' ? 'disable' : 'enable'} ${updated.id}`);
  }

  async #enable(row: WebhookEndpointRow): Promise<void> {
    if (this.#changing) return;
    this.#changing = true;
    this.announcement = EN.enabling;
    await this.#status(row, 'enabled', `enable ${row.id}`);
    this.#changing = false;
  }

  /** The confirmed step: disable, delete or rotate. */
  async #confirmed(): Promise<void> {
    const ask = this.pending?.ask;
    const pending = this.begin(ask === 'disable' ? EN.disabling : ask === 'delete' ? EN.deleting : EN.rotating);
    const row = this.rows.find((r) => r.id === pending?.row);
    if (!pending || !row) return;
    if (pending.ask === 'disable') return this.#status(row, 'disabled', pending.from);
    if (pending.ask === 'delete') return this.#delete(row, pending.from);
    const rotated = await this.#send<WebhookEndpointRow>(
      'POST',
      this.#endpoints(`/${encodeURIComponent(row.id)}/rotate_secret`),
      {},
      pending.from,
      'webhook_endpoint',
    );
    if (!rotated || rotated === true) return;
    this.replaceRow(this.#reveal(rotated));
    this.announcement = EN.rotated(rotated.url);
    this.#changed({ action: 'rotate', webhook_endpoint_id: rotated.id, status: rotated.status });
    await this.#focus('[part=secret]');
  }

  async #delete(row: WebhookEndpointRow, from: string): Promise<void> {
    if (!(await this.#send('DELETE', this.#endpoints(`/${encodeURIComponent(row.id)}`), undefined, from))) return;
    this.rows = this.rows.filter((r) => r.id !== row.id);
    if (!this.rows.length) this.phase = 'empty';
    const details = new Map(this.details);
    details.delete(row.id);
    this.details = details;
    if (this.#secret?.id === row.id) this.#secret = undefined;
    this.announcement = EN.deleted(row.url);
    this.#changed({ action: 'delete', webhook_endpoint_id: row.id, status: 'deleted' });
    await this.focusKey('new');
  }

  async #test(row: WebhookEndpointRow): Promise<void> {
    if (this.#changing) return;
    this.#changing = true;
    this.announcement = EN.testing;
    const from = `test ${row.id}`;
    const path = this.#endpoints(`/${encodeURIComponent(row.id)}/test`);
    const delivery = await this.#send<WebhookDeliveryRow>('POST', path, {}, from, 'delivery');
    this.#changing = false;
    if (!delivery || delivery === true) return;
    this.#placeDelivery(delivery);
    this.announcement = EN.tested(delivery);
    this.#changed({ action: 'test', webhook_endpoint_id: row.id, delivery_id: delivery.id, status: delivery.status });
    await this.focusKey(from);
  }

  async #redeliver(delivery: WebhookDeliveryRow): Promise<void> {
    if (this.#changing) return;
    this.#changing = true;
    this.announcement = EN.redelivering;
    const from = `redeliver ${delivery.id}`;
    const path = this.#endpoints(
      `/${encodeURIComponent(delivery.webhook_endpoint_id)}/deliveries/${encodeURIComponent(delivery.id)}/redeliver`,
    );
    const queued = await this.#send<WebhookDeliveryRow>('POST', path, {}, from, 'delivery');
    this.#changing = false;
    if (!queued || queued === true) return;
    this.#placeDelivery(queued);
    this.announcement = EN.redelivered(queued.event_type);
    this.#changed({ action: 'redeliver', webhook_endpoint_id: queued.webhook_endpoint_id, delivery_id: queued.id, status: queued.status });
    await this.focusKey(`delivery ${queued.id}`);
  }

  // The secret shown once.

  async #copy(): Promise<void> {
    const value = this.#secret?.value;
    if (!value) return;
    try {
      await navigator.clipboard.writeText(value);
      this.announcement = EN.copied;
    } catch {
      this.announcement = EN.copyFailed;
    }
  }

  async #dismiss(): Promise<void> {
    const id = this.#secret?.id;
    this.#secret = undefined;
    this.announcement = EN.dismissed;
    this.requestUpdate();
    if (id) await this.focusKey(`row ${id}`);
  }

  // Rendering.

  #select(): unknown {
    const apps = this.applications;
    if (this.application || !apps?.length) return nothing;
    const choose = (event: Event) => {
      this.selected = (event.target as HTMLSelectElement).value;
    };
    return html`<p class=field><label for=webhook-application>${EN.application}</label>
      <select part=application-select id=webhook-application @change=${choose}>
        ${apps.map((app) => html`<option value=${app.id} ?selected=${app.id === this.selected}>${app.name}</option>`)}
      </select></p>`;
  }

  #secretShown(secret: Secret): TemplateResult {
    return html`<div part=secret role=group tabindex=-1 aria-labelledby=secret-title aria-describedby=secret-once>
      <p id=secret-title>${EN.secretTitle(secret.url)}</p>
      <code part=secret-value>${secret.value}</code>
      <p id=secret-once>${EN.secretOnce}</p>
      <div part=actions>
        <button part=copy class=primary type=button @click=${() => this.#copy()}>${EN.copy}</button>
        <button part=dismiss type=button @click=${() => this.#dismiss()}>${EN.dismiss}</button>
      </div>
    </div>`;
  }

  #form(): TemplateResult {
    const error = this.fieldError;
    return html`<form part=form aria-labelledby=webhook-form-title novalidate @submit=${this.#add}>
      <p part=form-title id=webhook-form-title>${EN.formTitle}</p>
      <label for=webhook-url>${EN.url}</label>
      <span class=hint id=webhook-url-hint>${EN.urlHint}</span>
      <input id=webhook-url name=url type=url inputmode=url autocomplete=off spellcheck=false maxlength=2000
        aria-invalid=${error ? 'true' : 'false'} aria-describedby=${error ? 'webhook-error webhook-url-hint' : 'webhook-url-hint'}>
      ${error ? html`<p part=field-error id=webhook-error>${error}</p>` : nothing}
      <label for=webhook-events>${EN.eventsLabel}</label>
      <span class=hint id=webhook-events-hint>${EN.eventsHint}</span>
      <input id=webhook-events name=events value="*" autocomplete=off spellcheck=false maxlength=2000 aria-describedby=webhook-events-hint>
      <div part=actions>
        <button part=submit class=primary type=submit data-key=submit aria-busy=${this.sending ? 'true' : 'false'}>${EN.submit}</button>
        <button part=cancel-button type=button @click=${() => this.#close()}>${EN.cancel}</button>
      </div>
    </form>`;
  }

  protected override renderTop(): unknown {
    const overview =
      this.#app() && this.rows.length ? html`<div part=overview>${chartFrame(true)}${chartTable(this.chartData)}</div>` : nothing;
    const secret = this.#secret ? this.#secretShown(this.#secret) : nothing;
    if (this.readonly || !this.#app()) return html`${this.#select()}${overview}`;
    const form = this.formOpen
      ? this.#form()
      : html`<button part=new type=button data-key=new @click=${() => this.#open()}>${EN.open}</button>`;
    return html`${this.#select()}${overview}${secret}${form}`;
  }

  #delivery(delivery: WebhookDeliveryRow): TemplateResult {
    const last = delivery.attempts.at(-1);
    const failed = delivery.status === 'failed';
    return html`<li part=delivery tabindex=-1 data-key=${`delivery ${delivery.id}`} class=${delivery.status}>
      <p><code>${delivery.event_type}</code>${delivery.test ? html` <span class=tag>${EN.testMark}</span>` : nothing}
        · <strong>${EN.deliveryStatus[delivery.status] ?? delivery.status}</strong></p>
      <p class=hint>${EN.attempts(delivery.attempt_count)} · ${EN.lastCode(last?.status_code ?? null)}${
        delivery.next_attempt_at ? html` · ${EN.nextAttempt(at(delivery.next_attempt_at))}` : nothing
      } · ${at(delivery.created_at)}</p>
      ${last?.error ? html`<p part=delivery-error>${EN.lastError}: ${last.error_message ?? last.error}</p>` : nothing}
      ${
        failed && !delivery.test && !this.readonly
          ? html`<button part=redeliver type=button data-key=${`redeliver ${delivery.id}`}
              aria-label=${EN.redeliverNamed(delivery.event_type)} @click=${() => this.#redeliver(delivery)}>${EN.redeliver}</button>`
          : nothing
      }
    </li>`;
  }

  #deliveries(row: WebhookEndpointRow): TemplateResult {
    const details = this.details.get(row.id);
    const id = `filter-${row.id}`;
    const filter = details?.filter ?? 'all';
    const choose = (event: Event) => {
      const chosen = (event.target as HTMLSelectElement).value as DeliveryFilter;
      this.#setDetails(row.id, { filter: chosen, all: details?.all ?? [], shown: undefined, failed: false });
      void this.#loadDeliveries(row.id, chosen);
    };
    const shown = details?.shown;
    let list: unknown = html`<p class=hint>${EN.loadingDeliveries}</p>`;
    if (details?.failed) list = html`<p class=hint>${EN.deliveriesUnread}</p>`;
    else if (shown && !shown.length) list = html`<p class=hint>${EN.noDeliveries[filter]}</p>`;
    else if (shown) list = html`<ul class=deliveries>${shown.map((d) => this.#delivery(d))}</ul>`;
    return html`<section part=deliveries aria-labelledby=${`deliveries-${row.id}`} aria-busy=${shown || details?.failed ? 'false' : 'true'}>
      <p class=section-title id=${`deliveries-${row.id}`}>${EN.deliveries}</p>
      <p class=field><label for=${id}>${EN.filter}</label>
        <select part=filter id=${id} @change=${choose}>
          ${FILTERS.map((f) => html`<option value=${f} ?selected=${f === filter}>${EN.filters[f]}</option>`)}
        </select></p>
      ${list}
    </section>`;
  }

  #controls(row: WebhookEndpointRow): unknown {
    if (this.readonly) return nothing;
    const button = (part: string, label: string, onClick: (key: string) => unknown) => {
      const key = `${part} ${row.id}`;
      return html`<button part=${part} type=button data-key=${key} aria-label=${EN.named(label, row.url)}
        @click=${() => onClick(key)}>${label}</button>`;
    };
    return html`<div part=actions>
      ${
        row.status === 'enabled'
          ? button('disable', EN.disable, (key) => this.confirm(row, 'disable', key))
          : button('enable', EN.enable, () => this.#enable(row))
      }
      ${button('test', EN.test, () => this.#test(row))}
      ${button('rotate', EN.rotate, (key) => this.confirm(row, 'rotate', key))}
      ${button('delete', EN.remove, (key) => this.confirm(row, 'delete', key))}
    </div>`;
  }

  #confirmation(row: WebhookEndpointRow): unknown {
    if (this.pending?.row !== row.id) return nothing;
    const ask = this.pending.ask;
    if (ask === 'disable') return this.confirmStep(EN.confirmDisable(row.url), EN.confirmDisableButton, () => this.#confirmed());
    if (ask === 'delete') return this.confirmStep(EN.confirmDelete(row.url), EN.confirmDeleteButton, () => this.#confirmed());
    return this.confirmStep(EN.confirmRotate(row.url), EN.confirmRotateButton, () => this.#confirmed());
  }

  protected override renderRow(row: WebhookEndpointRow): TemplateResult {
    const disabled = row.status === 'disabled';
    return html`<li part=endpoint tabindex=-1 data-key=${`row ${row.id}`} class=${row.status}>
      <p part=heading><code>${row.url}</code></p>
      ${row.description ? html`<p class=hint>${row.description}</p>` : nothing}
      <p part=meta><strong>${EN.status[row.status] ?? row.status}</strong>${
        disabled && row.disabled_reason ? html` ${EN.disabledBy[row.disabled_reason]}` : nothing
      } · ${EN.events(row.events)} · ${EN.failures(row.consecutive_failures)}</p>
      ${this.#controls(row)}
      ${this.#confirmation(row)}
      ${this.#deliveries(row)}
    </li>`;
  }
}
