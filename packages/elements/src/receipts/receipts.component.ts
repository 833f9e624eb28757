import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import type { AccessTokenProvider } from '../internal/access-token.js';
import { PersonList, type PersonListStatus, when } from '../internal/person-list.js';
import { personListStyles } from '../internal/person-list.styles.js';
import type { AuthorizationReceiptRow, DisclosureReceiptRow, ReceiptVerdict, SvcReceiptsVerifyDetail } from './events.js';
import { receiptsStyles } from './receipts.styles.js';
import { EN } from './strings.js';

/** Where the element stands: `idle`, `loading`, `ready`, `empty`, `signed-out` or `error`. */
export type ReceiptsStatus = PersonListStatus;

/** Gives the person's access token (the OAuth helper's `accessToken()`), asked before every request. */
export type ReceiptsTokenProvider = AccessTokenProvider;

/** A JWK Set, such as the service's `/.well-known/jwks.json`. */
export interface ReceiptsJwks {
  keys: object[];
}

type Row = AuthorizationReceiptRow | DisclosureReceiptRow;
type Checker = typeof import('./check.js').checkReceipt;

const STRINGS = EN;
/** The verifier (jose and the receipt schema), imported on the first check only. */
let checker: Promise<Checker> | undefined;
/** Each service's JWK Set, fetched once per page. */
const keySets = new Map<string, Promise<ReceiptsJwks | undefined>>();

/**
 * The receipts of the signed-in person, inside any page: with `view=authorization` (the default) what agents and
 * delegates did in their name (`GET /api/v1/me/authorization_receipts`: each grant or approval with its eight bounds
 * and every action's verdict), with `view=disclosure` the agents organisations disclosed to them (`GET
 * /api/v1/me/disclosure_receipts`); scope `receipts:read`. Each receipt opens with its offline check: its signature
 * verified in the browser against the service's JWK Set (the `jwks` property, else `/.well-known/jwks.json` fetched
 * once), with no call about that receipt. A drop zone checks any receipt file the person drops or chooses (a consent
 * receipt too) and says in plain words whether it is valid, tampered, not signed by this service or malformed.
 * Receipts are records: there is nothing to change on them (revoking a grant is `<svc-delegations>`).
 *
 * @summary Lists what was done in the signed-in person's name (or the agents disclosed to them), each receipt checked offline.
 *
 * @slot empty - Shown when the person has no receipts (default: one sentence).
 * @slot signed-out - Shown without a token, or when it was refused (default: one sentence).
 * @slot error - Shown when the receipts cannot be read (default: one sentence, and a retry button).
 *
 * @fires {SvcReceiptsVerifyEvent} svc-receipts-verify - A receipt was checked offline; detail has `source` (`list` or `file`), `verdict` (`valid`, `tampered`, `not_this_service`, `malformed`, `unchecked`), `record_id` and, for a file, `file_name`.
 * @fires {SvcReceiptsErrorEvent} svc-error - The receipts could not be read; detail has `code` (`unauthorized`, `forbidden`, `network`, `http`, `invalid_configuration`), `message`, `fatal`, `recoverable_via`.
 *
 * @csspart base - The wrapper of the list.
 * @csspart list - The list of receipts.
 * @csspart receipt - One receipt.
 * @csspart heading - Who acted (or the organisation that disclosed).
 * @csspart organisation - The organisation the receipt is with.
 * @csspart meta - What kind of receipt and when.
 * @csspart check - The receipt's offline check, in plain words.
 * @csspart bounds - The eight bounds of an authorization.
 * @csspart bound - One bound: its name and its limit in plain words.
 * @csspart actions - What was done under it: counts and the recent actions with their verdicts.
 * @csspart agents - The agents a receipt disclosed.
 * @csspart drop - The drop zone that checks a receipt file.
 * @csspart file - The file input in it.
 * @csspart file-verdict - What the check of the file found.
 * @csspart more - The button that loads the next page.
 * @csspart retry - The button that tries again after an error.
 * @csspart status - The live region announcing loading and what happened.
 *
 * @cssprop [--svc-receipts-gap=.75rem] - Space between receipts.
 * @cssprop [--svc-receipts-border=1px solid color-mix(in srgb, currentColor 20%, transparent)] - Border of each receipt and of the drop zone.
 * @cssprop [--svc-receipts-radius=var(--svc-radius, 0.6rem)] - Corner radius of receipts and buttons.
 * @cssprop [--svc-receipts-accent=var(--svc-accent, #2f4fb5)] - Colour of the buttons and of the drop zone when a file is over it.
 * @cssprop [--svc-receipts-color=inherit] - Text colour.
 * @cssprop [--svc-receipts-font=400 100%/1.5 var(--svc-font-family, system-ui, …)] - Font (its own stack, not the page's).
 */
export class SvcReceipts extends PersonList<Row> {
  static override styles = [personListStyles('receipts'), receiptsStyles];

  static override properties: PropertyDeclarations = {
    view: { reflect: true },
    jwks: { attribute: false },
    checks: { attribute: false },
    fileVerdict: { attribute: false },
    dragging: { attribute: false },
  };

  /** `authorization` (what was done in the person's name; the default) or `disclosure` (agents disclosed to them). */
  view: 'authorization' | 'disclosure' = 'authorization';
  /** The service's JWK Set; when unset, `/.well-known/jwks.json` of the service is fetched once. */
  jwks?: ReceiptsJwks;

  protected checks = new Map<string, ReceiptVerdict | 'checking'>();
  protected fileVerdict = '';
  protected dragging = false;

  /** The receipts shown, in order. */
  get receipts(): readonly Row[] {
    return this.rows;
  }

  /** The offline verdict of each receipt shown, by id, once checked. */
  get verdicts(): ReadonlyMap<string, ReceiptVerdict | 'checking'> {
    return this.checks;
  }

  get #disclosures(): boolean {
    return this.view === 'disclosure';
  }

  protected override get listPath(): string {
    return this.#disclosures ? '/api/v1/me/disclosure_receipts' : '/api/v1/me/authorization_receipts';
  }

  protected override get listKey(): string {
    return this.#disclosures ? 'disclosure_receipts' : 'authorization_receipts';
  }

  protected override get strings() {
    return this.#disclosures ? STRINGS.disclosure : STRINGS.authorization;
  }

  /** Each receipt of a page is checked as it arrives. */
  protected override received(page: Record<string, unknown>): void {
    const rows = page[this.listKey];
    if (Array.isArray(rows)) for (const row of rows as Row[]) void this.#checkRow(row);
  }

  async #keys(): Promise<ReceiptsJwks | undefined> {
    if (this.jwks) return this.jwks;
    const service = this.serviceUrl;
    if (!service) return undefined;
    let keys = keySets.get(service);
    if (!keys) {
      keys = (this.fetch ?? fetch)(`${service}/.well-known/jwks.json`, { credentials: 'omit' })
        .then((res) => (res.ok ? (res.json() as Promise<ReceiptsJwks>) : undefined))
        .catch(() => undefined);
      keySets.set(service, keys);
      // A failed read is not kept: the next check asks again.
      void keys.then((read) => read || keySets.delete(service));
    }
    return keys;
  }

  /** Checks `signed` offline; the verdict and the receipt's id. */
  async #check(signed: unknown): Promise<{ verdict: ReceiptVerdict; recordId: string | null }> {
    const jwks = await this.#keys();
    if (!jwks) return { verdict: 'unchecked', recordId: null };
    checker ??= import('./check.js').then((m) => m.checkReceipt);
    try {
      return await (await checker)(signed, jwks);
    } catch {
      checker = undefined; // the verifier could not be loaded: the next check tries again
      return { verdict: 'unchecked', recordId: null };
    }
  }

  #told(detail: SvcReceiptsVerifyDetail): void {
    this.dispatchEvent(new CustomEvent('svc-receipts-verify', { bubbles: true, composed: true, detail }));
  }

  async #checkRow(row: Row): Promise<void> {
    if (this.checks.has(row.id)) return;
    this.checks = new Map(this.checks).set(row.id, 'checking');
    const { verdict } = await this.#check(row.signed_receipt);
    this.checks = new Map(this.checks).set(row.id, verdict);
    this.#told({ source: 'list', verdict, record_id: row.id });
  }

  /** Checks a file the person dropped or chose: read on the device, never sent. */
  async checkFile(file: File): Promise<ReceiptVerdict> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch {
      parsed = undefined;
    }
    const { verdict, recordId } = parsed === undefined ? { verdict: 'malformed' as const, recordId: null } : await this.#check(parsed);
    this.fileVerdict = STRINGS.fileVerdict(file.name, verdict);
    this.announcement = this.fileVerdict;
    this.#told({ source: 'file', verdict, record_id: recordId, file_name: file.name });
    return verdict;
  }

  #dropped(event: DragEvent): void {
    event.preventDefault();
    this.dragging = false;
    const file = event.dataTransfer?.files[0];
    if (file) void this.checkFile(file);
  }

  #chosen(event: Event): void {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    if (file) void this.checkFile(file);
    input.value = '';
  }

  #dropZone(): TemplateResult {
    const over = (event: DragEvent) => {
      event.preventDefault();
      this.dragging = true;
    };
    return html`<div part=drop class=${this.dragging ? 'over' : ''} @dragover=${over} @dragleave=${() => (this.dragging = false)}
      @drop=${(event: DragEvent) => this.#dropped(event)}>
      <label for=file>${STRINGS.dropLabel}</label>
      <p id=hint>${STRINGS.dropHint}</p>
      <input part=file id=file type=file accept=".json,application/json" aria-describedby=hint @change=${(e: Event) => this.#chosen(e)}>
      ${this.fileVerdict ? html`<p part=file-verdict>${this.fileVerdict}</p>` : nothing}
    </div>`;
  }

  #checkLine(row: Row): TemplateResult {
    const verdict = this.checks.get(row.id) ?? 'checking';
    const said = verdict === 'checking' ? STRINGS.checking : STRINGS.verdict[verdict];
    return html`<p part=check data-verdict=${verdict}>${said}</p>`;
  }

  #authorization(row: AuthorizationReceiptRow): TemplateResult {
    return html`<p part=heading>${row.delegate?.name ?? row.application.name}<span class=vh>: </span>
        <span part=organisation>${row.organisation.name}</span></p>
      <p part=meta>${STRINGS.kind(row)} · ${when(row.recorded_at)}</p>
      <dl part=bounds>${row.bounds.map(
        (b) =>
          html`<div part=bound data-configured=${b.configured}><dt>${STRINGS.boundName[b.bound]}</dt><dd>${STRINGS.bound(b)}</dd></div>`,
      )}</dl>
      <div part=actions><p>${STRINGS.actions(row.actions)}</p>
        ${row.actions.recent.length ? html`<ul>${row.actions.recent.map((a) => html`<li data-outcome=${a.outcome}>${when(a.at)} · ${STRINGS.action(a)}</li>`)}</ul>` : nothing}
      </div>`;
  }

  #disclosure(row: DisclosureReceiptRow): TemplateResult {
    return html`<p part=heading>${STRINGS.disclosedBy(row.organisation.name)}</p>
      <p part=meta>${row.application.name} · ${when(row.disclosed_at)}</p>
      <ul part=agents>${row.agents.map((agent) => html`<li>${STRINGS.agent(agent)}</li>`)}</ul>`;
  }

  protected override renderRow(row: Row): TemplateResult {
    return html`<li part=receipt tabindex=-1 data-key=${`row ${row.id}`}>
      ${this.#checkLine(row)}
      ${'bounds' in row ? this.#authorization(row) : this.#disclosure(row)}
    </li>`;
  }

  protected override render(): TemplateResult {
    return html`${super.render()}${this.#dropZone()}`;
  }
}
