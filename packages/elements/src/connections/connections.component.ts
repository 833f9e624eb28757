import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import type { AccessTokenProvider } from '../internal/access-token.js';
import { httpFailure, type Outcome, PersonList, type PersonListStatus, when } from '../internal/person-list.js';
import { personListStyles } from '../internal/person-list.styles.js';
import { connectionsStyles } from './connections.styles.js';
import type { ConnectionRow, ConnectionsAction, DeviceLinkRow, SvcConnectionsChangeDetail, TrustPairingRow } from './events.js';
import { type ConnectionsView, EN } from './strings.js';

/**
 * Where the element stands: `idle` (no way to get a token, or no service URL yet), `loading`, `ready` (rows
 * shown), `empty` (none), `signed-out` (the service or the token URL refused) or `error`.
 */
export type ConnectionsStatus = PersonListStatus;

/** Gives the person's access token (the OAuth helper's `accessToken()`), asked before every request. */
export type ConnectionsTokenProvider = AccessTokenProvider;

type Row = ConnectionRow | DeviceLinkRow | TrustPairingRow;

const STRINGS = EN;
const ME = '/api/v1/me';
const VIEWS: readonly ConnectionsView[] = ['connections', 'device_links', 'trust_pairings'];

const isConnection = (row: Row): row is ConnectionRow => 'trust_tier' in row;
const isLink = (row: Row): row is DeviceLinkRow => 'attempts_remaining' in row;

/**
 * The signed-in person's connections to applications, from every organisation (`GET /api/v1/me/connections` with
 * their access token, scope `connections:read`), with what each holds from them in plain words; "Disconnect" asks
 * first, in place (focus moves to it, Escape cancels and focus goes back), then `POST .../{id}/disconnect` (scope
 * `connections:write`): final, it withdraws the consent given to the application and revokes the grants to act for
 * the person, and the element lists what stopped. `view="device_links"` lists the person's device links: a pending
 * one takes the code the other device shows (`POST .../{id}/claim`), pairing this device with it, or is cancelled
 * (asked first). `view="trust_pairings"` lists the devices paired, each unpaired after asking. A polite live region
 * says what happened.
 *
 * The token comes from `getAccessToken` (asked before every request), else `accessToken`, else `token-url`: a
 * same-origin URL the element POSTs to with the page's cookies for `{access_token, expires_in}`.
 *
 * @summary Lists the applications and devices the signed-in person is connected to, and lets them disconnect, link and unpair.
 *
 * @slot empty - Shown when there is nothing to list (default: one sentence).
 * @slot signed-out - Shown without a token, or when it was refused (default: one sentence).
 * @slot error - Shown when the list cannot be read (default: one sentence, and a retry button).
 *
 * @fires {SvcConnectionsChangeEvent} svc-connections-change - The service recorded an action; detail has `action` (`disconnect`, `claim`, `cancel`, `revoke`), `id` and the row as it reads now (`connection` with `warnings`, `device_link`, `trust_pairing`).
 * @fires {SvcConnectionsErrorEvent} svc-error - The list could not be read or an action failed; detail has `code` (`unauthorized`, `forbidden`, `network`, `http`, `invalid`, `invalid_configuration`), `message`, `fatal`, `recoverable_via`.
 *
 * @csspart base - The wrapper of everything else.
 * @csspart list - The list.
 * @csspart connection - One connection.
 * @csspart device-link - One device link.
 * @csspart trust-pairing - One pairing of two devices.
 * @csspart heading - A row's application or device, and its organisation.
 * @csspart application - The application's name.
 * @csspart device - The device's name (or the two paired devices).
 * @csspart organisation - The organisation's name.
 * @csspart meta - A row's status and dates.
 * @csspart policies - What the application holds from the person (consent, grants).
 * @csspart warnings - What a disconnection stopped, in the service's words.
 * @csspart actions - A row's buttons.
 * @csspart disconnect - The button that disconnects (asks first).
 * @csspart claim - The button that opens the code form of a pending device link.
 * @csspart claim-form - The form that takes the other device's code and this device's name.
 * @csspart claim-button - The button that sends the code.
 * @csspart cancel-link - The button that cancels a pending device link (asks first).
 * @csspart unpair - The button that unpairs two devices (asks first).
 * @csspart confirm - The confirm step (a group named by its question).
 * @csspart confirm-button - The button that confirms (the one filled button).
 * @csspart cancel-button - The button that cancels the confirm step.
 * @csspart more - The button that loads the next page.
 * @csspart retry - The button that tries again after an error.
 * @csspart status - The live region announcing loading and what happened.
 *
 * @cssprop [--svc-connections-gap=.75rem] - Space between rows.
 * @cssprop [--svc-connections-border=1px solid color-mix(in srgb, currentColor 20%, transparent)] - Border of each row and of the inputs.
 * @cssprop [--svc-connections-radius=var(--svc-radius, 0.6rem)] - Corner radius of rows and buttons.
 * @cssprop [--svc-connections-accent=var(--svc-accent, #2f4fb5)] - Colour of the buttons.
 * @cssprop [--svc-connections-color=inherit] - Text colour.
 * @cssprop [--svc-connections-font=400 100%/1.5 var(--svc-font-family, system-ui, …)] - Font (its own stack, not the page's).
 */
export class SvcConnections extends PersonList<Row, ConnectionsAction> {
  static override styles = [personListStyles('connections'), connectionsStyles];

  static override properties: PropertyDeclarations = {
    view: {},
    claiming: { attribute: false },
  };

  /** `connections` (default), `device_links` or `trust_pairings`. */
  view?: string;

  /** The device link whose code form is open. */
  protected claiming: string | undefined;
  /** What each disconnection stopped, by connection id (the service says it once). */
  readonly #warnings = new Map<string, string[]>();
  /** The last answer's body, and the service's own words when it refused an action. */
  #answered: Record<string, unknown> = {};
  #refused: string | undefined;

  /** The connections shown (empty in the other views). */
  get connections(): readonly ConnectionRow[] {
    return this.#view() === 'connections' ? (this.rows as ConnectionRow[]) : [];
  }

  /** The device links shown (empty in the other views). */
  get deviceLinks(): readonly DeviceLinkRow[] {
    return this.#view() === 'device_links' ? (this.rows as DeviceLinkRow[]) : [];
  }

  /** The trust pairings shown (empty in the other views). */
  get trustPairings(): readonly TrustPairingRow[] {
    return this.#view() === 'trust_pairings' ? (this.rows as TrustPairingRow[]) : [];
  }

  #view(): ConnectionsView {
    return VIEWS.find((view) => view === this.view) ?? 'connections';
  }

  protected override get listPath(): string {
    return `${ME}/${this.#view()}`;
  }

  protected override get listKey(): string {
    return this.#view();
  }

  protected override get strings() {
    return { ...STRINGS, ...STRINGS.views[this.#view()] };
  }

  protected override async call(path: string, init?: RequestInit): Promise<Outcome> {
    const outcome = await super.call(path, init);
    this.#answered = 'body' in outcome ? outcome.body : {};
    return outcome;
  }

  /** A code the service refused (wrong, used, expired, locked) is said in its own words, and can be tried again. */
  protected override refusal(status: number, message: string | undefined) {
    if (![409, 410, 422].includes(status)) return httpFailure(status, message);
    this.#refused = message;
    return {
      failed: { code: 'invalid' as const, message: message ?? `The service answered ${status}.`, fatal: false, recoverable_via: 'retry' },
      signedOut: false,
    };
  }

  #changed(detail: SvcConnectionsChangeDetail): void {
    this.dispatchEvent(new CustomEvent('svc-connections-change', { bubbles: true, composed: true, detail }));
  }

  /** Runs the confirmed action on its row: the POST, the row from the answer, the words and the event. */
  async #act(row: Row): Promise<void> {
    const action = this.pending?.ask;
    const pending = this.begin(
      action === 'disconnect' ? STRINGS.disconnecting : action === 'cancel' ? STRINGS.cancellingLink : STRINGS.unpairing,
    );
    if (!pending) return;
    this.#refused = undefined;
    const id = encodeURIComponent(row.id);
    if (isConnection(row)) {
      const done = await this.act<{ status: ConnectionRow['status']; disconnected_at: string | null }>(
        `${ME}/connections/${id}/disconnect`,
        {},
        pending.from,
        'connection',
      );
      if (!done) return this.#sayRefused();
      const warnings = Array.isArray(this.#answered.warnings) ? (this.#answered.warnings as string[]) : [];
      const connection: ConnectionRow = { ...row, ...done, trust_tier: null, active_policies: [] };
      this.#warnings.set(row.id, warnings);
      this.replaceRow(connection);
      this.announcement = STRINGS.disconnected(this.#application(row));
      this.#changed({ action: 'disconnect', id: row.id, connection, warnings });
    } else if (isLink(row)) {
      const link = await this.act<DeviceLinkRow>(`${ME}/device_links/${id}/cancel`, {}, pending.from, 'device_link');
      if (!link) return this.#sayRefused();
      this.replaceRow(link);
      this.announcement = STRINGS.linkCancelled(this.#device(row));
      this.#changed({ action: 'cancel', id: row.id, device_link: link });
    } else {
      const pairing = await this.act<TrustPairingRow>(`${ME}/trust_pairings/${id}/revoke`, {}, pending.from, 'trust_pairing');
      if (!pairing) return this.#sayRefused();
      this.replaceRow(pairing);
      this.announcement = STRINGS.unpairedSaid(this.#pair(row));
      this.#changed({ action: 'revoke', id: row.id, trust_pairing: pairing });
    }
    await this.focusKey(pending.from);
  }

  #sayRefused(): void {
    if (this.#refused) this.announcement = this.#refused;
  }

  /** Sends the other device's code: a pairing of this device with it, and the link as it reads now. */
  async #claim(event: SubmitEvent, link: DeviceLinkRow): Promise<void> {
    event.preventDefault();
    if (this.pending?.busy) return;
    const form = new FormData(event.target as HTMLFormElement);
    const from = `claim ${link.id}`;
    this.pending = { row: link.id, ask: 'claim', from, busy: true };
    this.announcement = STRINGS.claiming;
    this.#refused = undefined;
    const path = `${ME}/device_links/${encodeURIComponent(link.id)}/claim`;
    const body = { code: String(form.get('code') ?? ''), device_name: String(form.get('device_name') ?? '') };
    const pairing = await this.act<TrustPairingRow>(path, body, from, 'trust_pairing');
    if (!pairing) return this.#sayRefused();
    this.claiming = undefined;
    const read = await this.call(`${ME}/device_links/${encodeURIComponent(pairing.device_link_id)}`);
    const updated = 'body' in read ? (read.body.device_link as DeviceLinkRow | undefined) : undefined;
    if (updated) this.replaceRow(updated);
    this.announcement = STRINGS.claimed(this.#device(link));
    this.#changed({ action: 'claim', id: link.id, trust_pairing: pairing, ...(updated ? { device_link: updated } : {}) });
    await this.focusKey(`row ${link.id}`);
  }

  async #openClaim(link: DeviceLinkRow): Promise<void> {
    this.claiming = link.id;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>('[part=claim-form] input[name=code]')?.focus();
  }

  async #closeClaim(event: KeyboardEvent, link: DeviceLinkRow): Promise<void> {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    this.claiming = undefined;
    this.announcement = STRINGS.cancelled;
    await this.focusKey(`open ${link.id}`);
  }

  #application = (row: ConnectionRow) => row.application_name ?? STRINGS.unnamedApplication;
  #device = (row: DeviceLinkRow) => row.device_name ?? STRINGS.unnamedDevice;
  #pair = (row: TrustPairingRow) =>
    STRINGS.pair(row.initiator.device_name ?? STRINGS.unnamedDevice, row.claimant.device_name ?? STRINGS.unnamedDevice);

  /** A button that opens the confirm step of `action` on `row`. */
  #ask(row: Row, action: ConnectionsAction, part: string, label: string, named: string): TemplateResult {
    const key = `${action} ${row.id}`;
    return html`<button part=${part} type=button data-key=${key} ?disabled=${this.pending?.busy === true} aria-label=${named}
      @click=${() => this.confirm(row, action, key)}>${label}</button>`;
  }

  #confirming(row: Row, question: string, yes: string): TemplateResult | typeof nothing {
    const open = this.pending?.row === row.id && this.pending.ask !== 'claim';
    return open ? this.confirmStep(question, yes, () => this.#act(row)) : nothing;
  }

  protected override renderRow(row: Row): TemplateResult {
    if (isConnection(row)) return this.#connection(row);
    if (isLink(row)) return this.#link(row);
    return this.#pairing(row);
  }

  #connection(row: ConnectionRow): TemplateResult {
    const name = this.#application(row);
    const warnings = this.#warnings.get(row.id) ?? [];
    const open = row.status !== 'disconnected';
    return html`<li part=connection tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=heading><span part=application>${name}</span><span class=vh>, </span><span part=organisation>${row.organisation.name}</span></p>
      <p part=meta>${STRINGS.connectionStatus[row.status] ?? row.status}${row.trust_tier ? ` · ${STRINGS.tier[row.trust_tier]}` : ''}${
        row.connected_at ? html` · ${STRINGS.since(when(row.connected_at))}` : nothing
      }${row.disconnected_at ? html` · ${STRINGS.ended(when(row.disconnected_at))}` : row.last_active_at ? html` · ${STRINGS.lastActive(when(row.last_active_at))}` : nothing}</p>
      ${row.active_policies.length ? html`<ul part=policies>${row.active_policies.map((p) => html`<li>${STRINGS.policy(p)}</li>`)}</ul>` : nothing}
      ${warnings.length ? html`<ul part=warnings>${warnings.map((w) => html`<li>${w}</li>`)}</ul>` : nothing}
      ${open ? html`<div part=actions>${this.#ask(row, 'disconnect', 'disconnect', STRINGS.disconnect, STRINGS.disconnectNamed(name))}</div>` : nothing}
      ${this.#confirming(row, STRINGS.confirmDisconnect(name, row.organisation.name, row.active_policies.length), STRINGS.confirmYesDisconnect)}
    </li>`;
  }

  #link(row: DeviceLinkRow): TemplateResult {
    const device = this.#device(row);
    const pending = row.status === 'pending';
    const busy = this.pending?.busy === true;
    return html`<li part=device-link tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=heading><span part=device>${device}</span><span class=vh>, </span><span part=organisation>${row.organisation.name}</span></p>
      <p part=meta>${STRINGS.linkStatus[row.status] ?? row.status} · ${STRINGS.made(when(row.created_at))}${
        pending ? html` · ${STRINGS.expires(when(row.expires_at))}` : nothing
      }</p>
      ${
        pending && this.claiming !== row.id
          ? html`<div part=actions>
              <button part=claim type=button data-key=${`open ${row.id}`} ?disabled=${busy} aria-label=${STRINGS.claimNamed(device)}
                @click=${() => this.#openClaim(row)}>${STRINGS.claim}</button>
              ${this.#ask(row, 'cancel', 'cancel-link', STRINGS.cancelLink, STRINGS.cancelLinkNamed(device))}
            </div>`
          : nothing
      }
      ${
        pending && this.claiming === row.id
          ? html`<form part=claim-form @submit=${(e: SubmitEvent) => this.#claim(e, row)} @keydown=${(e: KeyboardEvent) => this.#closeClaim(e, row)}>
              <label>${STRINGS.codeLabel}<input name=code required autocomplete=one-time-code autocapitalize=characters spellcheck=false maxlength=32></label>
              <label>${STRINGS.deviceNameLabel}<input name=device_name required maxlength=100 .value=${STRINGS.thisDevice}></label>
              <div part=actions><button part=claim-button class=primary type=submit data-key=${`claim ${row.id}`} ?disabled=${busy}>${STRINGS.claimSubmit}</button></div>
            </form>`
          : nothing
      }
      ${this.#confirming(row, STRINGS.confirmCancelLink(device), STRINGS.confirmYesCancelLink)}
    </li>`;
  }

  #pairing(row: TrustPairingRow): TemplateResult {
    const pair = this.#pair(row);
    return html`<li part=trust-pairing tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=heading><span part=device>${pair}</span><span class=vh>, </span><span part=organisation>${row.organisation.name}</span></p>
      <p part=meta>${STRINGS.pairingStatus[row.status] ?? row.status} · ${STRINGS.paired(when(row.created_at))}${
        row.revoked_at ? html` · ${STRINGS.unpaired(when(row.revoked_at))}` : nothing
      }</p>
      ${row.status === 'active' ? html`<div part=actions>${this.#ask(row, 'revoke', 'unpair', STRINGS.unpair, STRINGS.unpairNamed(pair))}</div>` : nothing}
      ${this.#confirming(row, STRINGS.confirmUnpair(pair), STRINGS.confirmYesUnpair)}
    </li>`;
  }
}
