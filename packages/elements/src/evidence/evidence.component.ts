import type { ResidencyPosture } from '@svc/schemas';
import { html, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import type { AccessTokenProvider } from '../internal/access-token.js';
import { httpFailure, type Outcome, PersonList, type PersonListStatus } from '../internal/person-list.js';
import { personListStyles } from '../internal/person-list.styles.js';
import { evidenceStyles } from './evidence.styles.js';
import type {
  EvidenceErrorDetail,
  EvidencePackageAnswer,
  EvidencePackageRow,
  EvidenceVerdict,
  EvidenceView,
  ResidencyCountryRow,
  SvcEvidenceChangeDetail,
  TransferRow,
} from './events.js';
import { EN } from './strings.js';

/** Where the element stands: `idle`, `loading`, `ready`, `empty`, `signed-out` or `error`. */
export type EvidenceStatus = PersonListStatus;

/** Gives the console's access token, asked before every request. */
export type EvidenceTokenProvider = AccessTokenProvider;

type Row = EvidencePackageRow | TransferRow | ResidencyCountryRow;
type Checker = typeof import('./check.js').checkEvidence;

const PACKAGES = '/api/v1/evidence_packages';
const REGISTER = '/api/v1/transfer_register';
const POSTURE = '/api/v1/residency_posture';
const PATHS: Record<EvidenceView, [string, string]> = {
  evidence_packages: [PACKAGES, 'evidence_packages'],
  transfer_register: [REGISTER, 'transfers'],
  residency_posture: [POSTURE, 'countries'],
};
/** Far larger than any package the service draws (at most 5,000 register entries): a bigger file is not one. */
const MAX_FILE = 16 * 1024 * 1024;
/** How long a download's object URL lives: long enough for every browser to have started reading it. */
const URL_LIFETIME_MS = 10_000;
let checker: Promise<Checker> | undefined;

const regions = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(undefined, { type: 'region' }) : undefined;
/** A country by its name in the reader's language, and its code. */
function country(code: string): string {
  try {
    const name = regions?.of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

/** A date and time as the reader's browser writes it, in a `<time>`. */
function at(iso: string): TemplateResult {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return html`<time datetime=${iso}>${text}</time>`;
}

/** The service's package answer, when `body` is one. */
function packageOf(body: Record<string, unknown>): EvidencePackageAnswer | undefined {
  const { evidence_package_id, format_type, package: jws } = body;
  if (typeof evidence_package_id !== 'string' || typeof format_type !== 'string' || typeof jws !== 'string') return undefined;
  return body as EvidencePackageAnswer;
}

/**
 * An organisation's console view of its Comply evidence, with the console's token (an API token of the account
 * user's role). `view="evidence_packages"` (the default): the evidence packages drawn before, newest first (`GET
 * /api/v1/evidence_packages`), each with **Download** (the package exactly as the service answers it at `GET
 * …/{id}`, as a `.json` file) and **Verify** (`@svc/client`'s `verifyEvidencePackage`, here in the browser, against
 * the service's published keys, its verdict said in plain words), and "Check a package file", which verifies a
 * package file chosen or dropped, without uploading it. `view="transfer_register"`: every cross-border transfer with
 * its countries, lawful basis and adequacy verdict (`GET /api/v1/transfer_register`); `view="residency_posture"`:
 * each country storing the organisation's subjects' data, with its assurance (`GET /api/v1/residency_posture`). Both
 * have **Draw an evidence package** (`POST …/evidence_package`), the package then downloadable and verifiable in
 * place. `readonly` (a viewer's page) shows no Draw button; a refusal (403 `insufficient_permissions`) is said in the
 * service's words. A polite live region says what happened.
 *
 * @summary The console's transfer register, residency posture and signed evidence packages, verified in the browser.
 *
 * @slot empty - Shown when there is nothing to list (default: one sentence).
 * @slot signed-out - Shown without a token, or when it was refused (default: one sentence).
 * @slot error - Shown when the list cannot be read (default: one sentence, and a retry button).
 *
 * @fires {SvcEvidenceChangeEvent} svc-evidence-change - The service drew an evidence package; detail has `evidence_package_id`, `format_type` and `action` (`draw`), never the package.
 * @fires {SvcEvidenceErrorEvent} svc-error - A list could not be read, or drawing or reading a package failed; detail has `code`, `message`, `fatal`, `recoverable_via`.
 *
 * @csspart base - The wrapper of everything else.
 * @csspart list - The list of packages, transfers or countries.
 * @csspart package - One evidence package drawn before.
 * @csspart transfer - One transfer of the register.
 * @csspart country - One country of the residency posture.
 * @csspart heading - A row's first line.
 * @csspart meta - A row's details and dates.
 * @csspart posture - The overall residency assurance (also `verified` or `attention`).
 * @csspart assurance - A country's assurance (also `verified` or `attention`).
 * @csspart draw - The Draw an evidence package button.
 * @csspart drawn - The package just drawn, with its actions.
 * @csspart row-actions - A package's Download and Verify buttons.
 * @csspart download - The button that downloads a package.
 * @csspart verify - The button that verifies a package.
 * @csspart verdict - What Verify or the file check found (also `verified` or `not-verified`).
 * @csspart check - The "Check a package file" section.
 * @csspart check-title - Its label.
 * @csspart file - Its file input.
 * @csspart refusal - The service's refusal of the last action, in its words.
 * @csspart more - The button that loads the next page.
 * @csspart retry - The button that tries again after an error.
 * @csspart status - The live region announcing loading and what happened.
 *
 * @cssprop [--svc-evidence-gap=.75rem] - Space between rows.
 * @cssprop [--svc-evidence-border=1px solid color-mix(in srgb, currentColor 20%, transparent)] - Border of each row and box.
 * @cssprop [--svc-evidence-radius=var(--svc-radius, 0.6rem)] - Corner radius of rows and buttons.
 * @cssprop [--svc-evidence-accent=var(--svc-accent, #2f4fb5)] - Colour of the buttons.
 * @cssprop [--svc-evidence-error=#b3261e] - Colour of a refusal, of a package that does not verify and of attention.
 * @cssprop [--svc-evidence-ok=#1b6e3a] - Colour of a package that verifies.
 * @cssprop [--svc-evidence-color=inherit] - Text colour.
 * @cssprop [--svc-evidence-font=400 100%/1.5 var(--svc-font-family, system-ui, …)] - Font (its own stack, not the page's).
 */
export class SvcEvidence extends PersonList<Row> {
  static override styles = [personListStyles('evidence'), evidenceStyles];

  static override properties: PropertyDeclarations = {
    view: {},
    readonly: { type: Boolean, reflect: true },
    drawing: { attribute: false },
    drawn: { attribute: false },
    problem: { attribute: false },
    verdicts: { attribute: false },
    working: { attribute: false },
    fileVerdict: { attribute: false },
  };

  /** `evidence_packages` (default), `transfer_register` or `residency_posture`. */
  view?: string;
  /** A viewer's page: no Draw button. Download and Verify stay (they only read). */
  readonly = false;

  private drawing = false;
  /** The package just drawn (not a secret: anyone may hold and verify it). */
  private drawn: EvidencePackageAnswer | undefined;
  /** The service's refusal of the last action, shown until the next one. */
  private problem = '';
  private verdicts: ReadonlyMap<string, EvidenceVerdict> = new Map();
  /** The key of the Download or Verify under way. */
  private working = '';
  private fileVerdict: { said: string; verified: boolean } | undefined;
  #posture: ResidencyPosture | undefined;
  #packages = new Map<string, EvidencePackageAnswer>();
  #jwks: Promise<{ keys: object[] }> | undefined;
  #urls = new Set<string>();

  /** The residency posture shown (residency view), or undefined. */
  get posture(): Readonly<ResidencyPosture> | undefined {
    return this.#view === 'residency_posture' ? this.#posture : undefined;
  }

  /** The package drawn last in this view, as the service answered it, or undefined. */
  get drawnPackage(): Readonly<EvidencePackageAnswer> | undefined {
    return this.drawn;
  }

  /** What Verify found for each package verified, by its id. */
  get verifications(): ReadonlyMap<string, EvidenceVerdict> {
    return this.verdicts;
  }

  get #view(): EvidenceView {
    return this.view === 'transfer_register' || this.view === 'residency_posture' ? this.view : 'evidence_packages';
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

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('view') && changed.get('view') !== undefined) {
      this.drawn = undefined;
      this.problem = '';
      this.fileVerdict = undefined;
    }
    super.willUpdate(changed);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const url of this.#urls) URL.revokeObjectURL(url);
    this.#urls.clear();
    this.#jwks = undefined;
  }

  /** A 404 or 422 is an action's own: `not_found`, `invalid`. */
  protected override refusal(status: number, message: string | undefined): { failed: EvidenceErrorDetail; signedOut: boolean } {
    const { failed, signedOut } = httpFailure(status, message);
    const code = status === 404 ? 'not_found' : status === 422 ? 'invalid' : (failed.code as EvidenceErrorDetail['code']);
    return { failed: { ...failed, code }, signedOut };
  }

  /** The residency posture is one object, not a list: its countries are listed, keyed by country, and it is kept. */
  protected override async call(path: string, init: RequestInit = {}): Promise<Outcome> {
    const outcome = await super.call(path, init);
    if (init.method || path.split('?')[0] !== POSTURE || !('body' in outcome)) return outcome;
    const posture = outcome.body.residency_posture as ResidencyPosture | undefined;
    if (!posture || !Array.isArray(posture.countries)) return outcome;
    this.#posture = posture;
    return { body: { countries: posture.countries.map((c) => ({ ...c, id: c.country })), next_cursor: null } };
  }

  /** Says a failure that is not the list's: signed out ends the view; anything else is said (in the service's words). */
  async #failed(outcome: Outcome, said: (message: string) => string, from: string): Promise<void> {
    if ('idle' in outcome) return this.showIdle();
    const failed = 'failed' in outcome ? outcome : httpFailure(502, 'The service answered without a package.');
    if (failed.signedOut) return this.fail(failed.failed, true);
    this.problem = said(failed.failed.message);
    this.announcement = this.problem;
    this.error(failed.failed);
    await this.focusKey(from);
  }

  /** Draws the view's evidence package; it is shown with its actions, and focus goes to it. */
  async #draw(): Promise<void> {
    if (this.drawing || this.readonly) return;
    const path = `${this.#view === 'residency_posture' ? POSTURE : REGISTER}/evidence_package`;
    this.drawing = true;
    this.problem = '';
    this.announcement = EN.drawing;
    const outcome = await this.call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    this.drawing = false;
    const drawn = 'body' in outcome ? packageOf(outcome.body) : undefined;
    if (!drawn) return this.#failed(outcome, EN.refused, 'draw');
    this.drawn = drawn;
    this.#packages.set(drawn.evidence_package_id, drawn);
    this.announcement = EN.drawn(EN.kind(drawn.format_type), drawn.evidence_package_id);
    const detail: SvcEvidenceChangeDetail = {
      evidence_package_id: drawn.evidence_package_id,
      format_type: drawn.format_type,
      action: 'draw',
    };
    this.dispatchEvent(new CustomEvent('svc-evidence-change', { bubbles: true, composed: true, detail }));
    await this.focusKey(`drawn ${drawn.evidence_package_id}`);
  }

  /** The package `id` exactly as the service answers it (kept once read), or undefined once its failure was said. */
  async #package(id: string, from: string): Promise<EvidencePackageAnswer | undefined> {
    const kept = this.#packages.get(id);
    if (kept) return kept;
    const outcome = await this.call(`${PACKAGES}/${encodeURIComponent(id)}`);
    const found = 'body' in outcome ? packageOf(outcome.body) : undefined;
    if (!found) {
      await this.#failed(outcome, EN.cannotRead, from);
      return undefined;
    }
    this.#packages.set(id, found);
    return found;
  }

  /** Runs `task` as the action keyed `key` (one at a time), clearing the last refusal. */
  async #run(key: string, task: () => Promise<void>): Promise<void> {
    if (this.working) return;
    this.working = key;
    this.problem = '';
    try {
      await task();
    } finally {
      this.working = '';
    }
  }

  /** Saves the package as `<id>.json` through a Blob URL and an `<a download>`; the URL is revoked soon after. */
  #download(id: string): Promise<void> {
    const key = `download ${id}`;
    return this.#run(key, async () => {
      const evidence = await this.#package(id, key);
      if (!evidence) return;
      const url = URL.createObjectURL(new Blob([JSON.stringify(evidence)], { type: 'application/json' }));
      this.#urls.add(url);
      const link = document.createElement('a');
      link.href = url;
      link.download = `${id}.json`;
      link.hidden = true;
      this.renderRoot.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => {
        if (this.#urls.delete(url)) URL.revokeObjectURL(url);
      }, URL_LIFETIME_MS);
      this.announcement = EN.downloaded(id);
    });
  }

  /** The service's published keys (read once per connection). */
  #keys(): Promise<{ keys: object[] }> {
    this.#jwks ??= (this.fetch ?? fetch)(`${this.serviceUrl}/.well-known/jwks.json`, { credentials: 'omit' }).then(async (answer) => {
      if (!answer.ok) throw new Error(`${answer.status}`);
      return (await answer.json()) as { keys: object[] };
    });
    this.#jwks.catch(() => {
      this.#jwks = undefined;
    });
    return this.#jwks;
  }

  /** The verdict on `evidence` (the answer, or a file's text) against the service's keys. */
  async #check(evidence: unknown): Promise<EvidenceVerdict> {
    checker ??= import('./check.js').then((m) => m.checkEvidence);
    let jwks: { keys: object[] };
    try {
      jwks = await this.#keys();
    } catch (error) {
      return { verified: false, check: 'keys', message: String(error) };
    }
    return (await checker)(evidence, jwks);
  }

  #verify(id: string): Promise<void> {
    const key = `verify ${id}`;
    return this.#run(key, async () => {
      const evidence = await this.#package(id, key);
      if (!evidence) return;
      this.announcement = EN.verifying;
      const verdict = await this.#check(evidence);
      this.verdicts = new Map([...this.verdicts, [id, verdict]]);
      this.announcement = this.#said(verdict);
    });
  }

  /** Checks a package file chosen or dropped: read here, never uploaded. */
  async #checkFile(file: File | undefined): Promise<void> {
    if (!file || this.working) return;
    await this.#run('file', async () => {
      this.fileVerdict = undefined;
      this.announcement = EN.checking(file.name);
      let said: { said: string; verified: boolean };
      if (file.size > MAX_FILE) said = { said: EN.tooLarge, verified: false };
      else {
        let text: string | undefined;
        try {
          text = await file.text();
        } catch {
          text = undefined;
        }
        const verdict: EvidenceVerdict = text === undefined ? { verified: false, check: 'file', message: '' } : await this.#check(text);
        said = { said: this.#said(verdict), verified: verdict.verified };
      }
      this.fileVerdict = { said: EN.fileResult(file.name, said.said), verified: said.verified };
      this.announcement = this.fileVerdict.said;
    });
  }

  #said(verdict: EvidenceVerdict): string {
    return verdict.verified ? EN.verified(verdict) : EN.notVerified(verdict);
  }

  #chosen(event: Event): void {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = ''; // the same file may be chosen again
    void this.#checkFile(file);
  }

  #dropped(event: DragEvent): void {
    event.preventDefault();
    void this.#checkFile(event.dataTransfer?.files[0]);
  }

  #checkSection(): TemplateResult {
    const verdict = this.fileVerdict;
    return html`<section part=check aria-labelledby=svc-evidence-check-title @dragover=${(e: DragEvent) => e.preventDefault()}
      @drop=${this.#dropped}>
      <label part=check-title id=svc-evidence-check-title for=svc-evidence-file>${EN.checkTitle}</label>
      <span class=hint id=svc-evidence-check-hint>${EN.checkHint}</span>
      <input part=file id=svc-evidence-file type=file accept=".json,application/json" data-key=file
        aria-describedby=svc-evidence-check-hint aria-busy=${this.working === 'file' ? 'true' : 'false'} @change=${this.#chosen}>
      ${verdict ? html`<p part="verdict ${verdict.verified ? 'verified' : 'not-verified'}">${verdict.said}</p>` : nothing}
    </section>`;
  }

  /** A package's Download and Verify, and what Verify found. */
  #actions(id: string, formatType: string): TemplateResult {
    const kind = EN.kind(formatType);
    const verdict = this.verdicts.get(id);
    const busy = (key: string) => (this.working === key ? 'true' : 'false');
    return html`<div part=row-actions>
        <button part=download type=button data-key=${`download ${id}`} aria-label=${EN.downloadNamed(kind, id)}
          aria-busy=${busy(`download ${id}`)} @click=${() => this.#download(id)}>${EN.download}</button>
        <button part=verify type=button data-key=${`verify ${id}`} aria-label=${EN.verifyNamed(kind, id)}
          aria-busy=${busy(`verify ${id}`)} @click=${() => this.#verify(id)}>${EN.verify}</button>
      </div>
      ${verdict ? html`<p part="verdict ${verdict.verified ? 'verified' : 'not-verified'}">${this.#said(verdict)}</p>` : nothing}`;
  }

  #drawnBox(drawn: EvidencePackageAnswer): TemplateResult {
    return html`<div part=drawn tabindex=-1 data-key=${`drawn ${drawn.evidence_package_id}`}>
      <p part=heading>${EN.drawn(EN.kind(drawn.format_type), drawn.evidence_package_id)}</p>
      ${this.#actions(drawn.evidence_package_id, drawn.format_type)}
    </div>`;
  }

  protected override renderTop(): unknown {
    const view = this.#view;
    const problem = this.problem ? html`<p part=refusal>${this.problem}</p>` : nothing;
    if (view === 'evidence_packages') return html`${problem}${this.#checkSection()}`;
    const posture = view === 'residency_posture' ? this.#posture : undefined;
    return html`${posture ? html`<p part="posture ${posture.assurance}">${EN.overall[posture.assurance] ?? posture.assurance}</p>` : nothing}
      ${
        this.readonly
          ? nothing
          : html`<button part=draw class=primary type=button data-key=draw aria-busy=${this.drawing ? 'true' : 'false'}
              @click=${() => this.#draw()}>${EN.draw}</button>`
      }
      ${problem}${this.drawn ? this.#drawnBox(this.drawn) : nothing}`;
  }

  protected override renderRow(row: Row): TemplateResult {
    if ('format_type' in row) return this.#packageRow(row);
    if ('lawful_basis' in row) return this.#transfer(row);
    return this.#country(row);
  }

  #packageRow(row: EvidencePackageRow): TemplateResult {
    return html`<li part=package tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=heading>${EN.kind(row.format_type)}</p>
      <p part=meta>${EN.drawnOn(at(row.created_at))} · <code>${row.id}</code></p>
      ${this.#actions(row.id, row.format_type)}
    </li>`;
  }

  #transfer(row: TransferRow): TemplateResult {
    return html`<li part=transfer tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=heading>${EN.route(country(row.from_country), country(row.to_country))}: ${EN.category(row.category)}</p>
      <p>${EN.basisLabel} ${EN.basis(row.lawful_basis)}</p>
      <p>${EN.adequacyLabel} ${EN.adequacy(row.adequacy)}</p>
      <p part=meta>${EN.application(row.application_id)} · ${EN.recorded(at(row.created_at))}</p>
    </li>`;
  }

  #country(row: ResidencyCountryRow): TemplateResult {
    return html`<li part=country tabindex=-1 data-key=${`row ${row.id}`}>
      <p part=heading>${country(row.country)}</p>
      <p part="assurance ${row.assurance}">${EN.assurance(row.assurance, row.rows_homed_elsewhere)}</p>
      <p part=meta>${EN.storedIn(row.storage_locations.map(country).join(', '))} · ${EN.counts(row)}</p>
    </li>`;
  }
}
