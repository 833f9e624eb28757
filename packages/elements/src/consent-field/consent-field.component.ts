import { ContextConsumer } from '@lit/context';
import {
  CaptureError,
  composeRequest,
  DEFAULT_TIMEOUT_MS,
  pageUrlOf,
  postCapture,
  subjectOf,
  TOKEN_FIELD,
  type CaptureResult,
  type CaptureSubject,
  type FetchLike,
  type PurposeReading,
  type SvcCaptureEvent,
} from '@svc/capture';
import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { configDefaults, svcConfigContext, type SvcConfig } from '../internal/config.js';
import { FormControlController } from '../internal/form-control.js';
import { parseAppearanceAttribute, resolveAppearance, type Appearance } from './appearance.js';
import { ConsentFieldError, type ConsentFieldErrorDetail } from './consent-field-error.js';
import { consentFieldStyles } from './consent-field.styles.js';
import { joinForm, leaveForm, refreshForm, type RegisteredField } from './form-registry.js';
import { fetchRenderData, proofExpiry, rowKind, type RenderData, type RenderPurpose, type RowKind } from './render-data.js';
import { directionOf, stringsFor } from './strings.js';

/** What the field is doing: its custom state (`:state(...)`) has the same name. */
export type ConsentFieldStatus = 'idle' | 'loading' | 'ready' | 'error' | 'duplicate';

/** The themes the field knows; anything else falls back to `light`. */
export type ConsentFieldTheme = 'light' | 'dark' | 'auto';

const THEMES = ['light', 'dark', 'auto'];
// The capture body's digest pattern; a render answer's hash that does not fit it is not sent.
const DIGEST = /^[A-Za-z0-9+/=_:.-]{1,200}$/;
// A render proof this close to its expiry is renewed before a capture.
const PROOF_MARGIN_MS = 30_000;
// Token inputs in the organisation's form, and the field each one belongs to (two flows, two inputs).
const claimedInputs = new WeakMap<HTMLInputElement, Element>();

interface Row {
  purpose: RenderPurpose;
  kind: RowKind;
  /** Index in the flow's purpose list: ids stay unique whatever the keys contain. */
  index: number;
}

// Everything a request to the service needs, in the shape both the render and the capture request take.
interface ServiceSettings {
  publishableKey: string;
  baseUrl: string;
  locale: string | undefined;
  timeoutMs: number;
  fetch: FetchLike | undefined;
}

const isHttpUrl = (value: string | null | undefined): value is string => {
  try {
    return /^https?:$/.test(new URL(value ?? '').protocol);
  } catch {
    return false;
  }
};

const keysOf = (list: string | null | undefined): string[] =>
  (list ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);

/**
 * A consent field inside the organisation's own `<form>`: it shows a flow's purposes as the service renders them
 * (consent boxes never ticked in advance, a right-to-object box for legitimate interest, notice text for the rest),
 * and on submit posts a capture authenticated by the service's signed render proof, writes the capture token into
 * the hidden input `svc_capture_token` (and submits it as its own value under `name`), then lets the form submit.
 * If the service cannot be reached the form still submits, without a token, and `svc-error` fires. One field per
 * flow per form: a later field for the same flow renders nothing and fires `svc-error` (`duplicate_field`).
 *
 * @summary The rendered consent field of one flow, form-associated.
 *
 * @slot - None: everything the field shows comes from the flow, so what the person saw is what was recorded.
 *
 * @fires {SvcCaptureEvent} svc-capture - The service accepted the capture; `detail` is the `capture` object (`session_token`, ...).
 * @fires {SvcConsentFieldErrorEvent} svc-error - Loading or capturing failed, or the field is a duplicate; `detail` is a `ConsentFieldErrorDetail`.
 * @fires {Event} change - The person ticked or unticked a box (bubbles, not composed, like a native control's).
 *
 * @csspart base - The `fieldset` around everything.
 * @csspart legend - The flow's title.
 * @csspart description - The flow's and each purpose's description.
 * @csspart row - One purpose.
 * @csspart control - A purpose's checkbox.
 * @csspart label - A purpose's label.
 * @csspart hint - The "untick to object" line of a legitimate-interest purpose.
 * @csspart policy - The privacy policy link.
 * @csspart message - What the field says when the purposes could not be loaded.
 *
 * @cssprop --svc-font-family - Font stack (the `fontFamily` appearance key sets it).
 * @cssprop --svc-font-size - Base font size (`fontSize`).
 * @cssprop --svc-text - Text colour (`text`).
 * @cssprop --svc-muted - Colour of descriptions (`muted`).
 * @cssprop --svc-accent - Colour of ticked boxes, links and the focus ring (`accent`).
 * @cssprop --svc-border - Border colour (`border`).
 * @cssprop --svc-radius - Corner radius (`radius`).
 * @cssprop --svc-space - Spacing (`density`).
 */
export class SvcConsentField extends LitElement {
  static override styles = consentFieldStyles;
  /** Takes part in its form's submission, validation and reset, like a native control. */
  static formAssociated = true;
  static override shadowRootOptions: ShadowRootInit = { ...LitElement.shadowRootOptions, delegatesFocus: true };
  // Declared here rather than with decorators: no decorator helpers in the bundle. The documented fields below
  // carry the types and defaults.
  static override properties: PropertyDeclarations = {
    name: { reflect: true },
    flow: { reflect: true },
    locale: { reflect: true },
    appearance: { converter: { fromAttribute: parseAppearanceAttribute } },
    purposes: {},
    theme: { reflect: true },
    publishableKey: { attribute: 'publishable-key' },
    baseUrl: { attribute: 'base-url' },
    trustUrl: { attribute: 'trust-url' },
    commit: { type: Boolean, reflect: true },
    disabled: { type: Boolean, reflect: true },
    timeoutMs: { attribute: false },
    subject: { attribute: false },
    fetch: { attribute: false },
    // Internal reactive state. `attribute: false` is what `state: true` amounts to, and unlike it the manifest
    // analyzer reads it, so these do not show up as attributes in custom-elements.json.
    providerConfig: { attribute: false },
    status: { attribute: false },
    data: { attribute: false },
    checked: { attribute: false },
  };

  /** The name the capture token is submitted under (besides the hidden input `svc_capture_token`). */
  name = '';

  /** The flow whose purposes the field shows (`flw_...`). */
  flow = '';

  /** BCP 47 language to ask the flow's wording in; default the provider's, then the closest `lang`. */
  locale?: string;

  /** Appearance keys (`fontFamily`, `fontSize`, `text`, `muted`, `accent`, `border`, `radius`, `density`); JSON in the attribute. */
  appearance?: Appearance;

  /** Comma-separated purpose keys: only these rows show (default all of the flow's). */
  purposes?: string;

  /** `light` (default), `dark`, or `auto` (follows `prefers-color-scheme`); default the provider's. */
  theme?: string;

  /** The application's publishable key; default the enclosing `<svc-provider>`'s. */
  publishableKey?: string;

  /** The service's API base URL; default the provider's, then `trust-url`. */
  baseUrl?: string;

  /** The service's trust URL, used for the API when no base URL is set. */
  trustUrl?: string;

  /** Ask the service to commit the capture from the browser (the application must allow it). */
  commit = false;

  /** Disables the field: its boxes cannot change and it captures nothing. */
  disabled = false;

  /** Milliseconds to wait for the service before giving up (loading, and capturing on submit). */
  timeoutMs: number = DEFAULT_TIMEOUT_MS;

  /** Who the capture is about; default the form's fields marked `data-svc-subject="email"` / `"external_id"`. */
  subject?: CaptureSubject;

  /** The `fetch` used to reach the service; default the page's own (tests, instrumented clients). */
  fetch?: FetchLike;

  // Reactive state (see `properties`): the enclosing provider's configuration, what the field is doing, the render
  // answer, and the boxes' states by purpose key.
  private providerConfig?: SvcConfig;
  private status: ConsentFieldStatus = 'idle';
  private data?: RenderData;
  private checked: Record<string, boolean> = {};

  // Everything else is `#private`: not API, and the minifier shortens the names.
  #formControl = new FormControlController(this, {
    anchor: () => this.renderRoot?.querySelector<HTMLElement>('.row__control:not(:disabled)'),
  });
  // The enclosing <svc-provider>'s configuration, now and whenever it changes.
  #consumer = new ContextConsumer(this, {
    context: svcConfigContext,
    subscribe: true,
    callback: (config) => {
      this.providerConfig = config;
    },
  });
  // The field as its form's registry sees it; private so a page cannot mark a field duplicate or capture it.
  #member: RegisteredField = {
    element: this,
    flowId: () => this.#flowId,
    setDuplicate: (duplicate) => this.#setDuplicate(duplicate),
    captureForSubmit: () => (!this.#duplicate && !this.isDisabled && this.#flowId && this.isConnected ? this.capture() : undefined),
  };
  #token = '';
  #tokenInput?: HTMLInputElement | undefined;
  #createdTokenInput = false;
  #joinedForm: HTMLFormElement | null = null;
  #duplicate = false;
  #duplicateReported = true;
  #loadController?: AbortController | undefined;
  #inFlight?: Promise<CaptureResult> | undefined;
  #appearanceSheet?: CSSStyleSheet;
  // What the field already warned about ('appearance', 'purposes'): one console warning of each kind per element.
  #warned = new Set<string>();

  /** The form the field belongs to, or null. */
  get form(): HTMLFormElement | null {
    return this.#formControl.internals.form;
  }

  /** The field's form value: the capture token once a capture succeeded, else an empty string. */
  get value(): string {
    return this.#token;
  }

  /** Whether the field captures nothing and cannot change: its own `disabled` or a disabled `<fieldset>`. */
  get isDisabled(): boolean {
    // `:disabled` covers the fieldset (and the attribute once reflected); the property is read first for the moment
    // between setting it and its reflection.
    return this.disabled || this.matches(':disabled');
  }

  /** What the field is doing: `idle`, `loading`, `ready`, `error` or `duplicate`. */
  get state(): ConsentFieldStatus {
    return this.status;
  }

  /** The decision the field would attest now, per shown purpose that takes one (notice-only rows have none). */
  get decisions(): Record<string, 'granted' | 'declined'> {
    const out: Record<string, 'granted' | 'declined'> = {};
    for (const { entry, key } of this.#readings()) if (entry) out[key] = entry.decision;
    return out;
  }

  /** The validity state, as a native control's. Never `valueMissing`: a consent may not be required. */
  get validity(): ValidityState {
    return this.#formControl.internals.validity;
  }

  /** The browser's message for the current validity problem, or an empty string. */
  get validationMessage(): string {
    return this.#formControl.internals.validationMessage;
  }

  /** Whether the field takes part in constraint validation (false while disabled). */
  get willValidate(): boolean {
    return this.#formControl.internals.willValidate;
  }

  get #flowId(): string {
    return (this.flow ?? '').trim();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved back into the page: load again unless the purposes are already shown.
    if (this.hasUpdated && !this.#duplicate && this.status !== 'ready') void this.#load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#loadController?.abort();
    if (this.status === 'loading') this.status = 'idle';
    // A token input the field added goes with it; a token it held would attest a field no longer on the page.
    const input = this.#tokenInput;
    if (input) {
      if (this.#createdTokenInput) input.remove();
      claimedInputs.delete(input);
    }
    this.#tokenInput = undefined;
    this.#setToken('');
  }

  /** Called by the browser when the field's form changes; joins that form's registry. */
  formAssociatedCallback(form: HTMLFormElement | null): void {
    const joined = this.#joinedForm;
    if (joined && joined !== form) leaveForm(joined, this.#member);
    this.#joinedForm = form;
    if (form) joinForm(form, this.#member);
    else this.#setDuplicate(false);
  }

  /** Called by the browser when its form resets: consent boxes unticked, right-to-object boxes ticked again, no token. */
  formResetCallback(): void {
    this.checked = this.#defaults();
    this.#setToken('');
  }

  /** Called by the browser when a `<fieldset>` around the field is disabled or enabled: the boxes follow. */
  formDisabledCallback(): void {
    this.requestUpdate();
  }

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const root = super.createRenderRoot() as ShadowRoot;
    // The appearance goes into a stylesheet of its own, set through CSSOM: no inline style attribute (a strict
    // style-src allows it), no text parsed (a value cannot break out of its declaration).
    if (root.adoptedStyleSheets) {
      this.#appearanceSheet = new CSSStyleSheet();
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, this.#appearanceSheet];
    }
    return root;
  }

  protected override willUpdate(changed: PropertyValues): void {
    const first = !this.hasUpdated;
    if (first || changed.has('appearance')) this.#applyAppearance();
    if (changed.has('theme') && this.theme && !THEMES.includes(this.theme))
      this.#warnIgnored([`theme: ${JSON.stringify(this.theme)} (light, dark or auto)`]);
    if (changed.has('flow') && this.#joinedForm) refreshForm(this.#joinedForm);
    if (
      !this.#duplicate &&
      (first || ['flow', 'locale', 'publishableKey', 'baseUrl', 'trustUrl', 'providerConfig'].some((k) => changed.has(k)))
    ) {
      void this.#load();
    }
    if (changed.has('purposes') || changed.has('data')) this.#checkPurposes();
    // Last, so a status set above counts: the custom state (`:state(loading)`, ...) follows the status.
    if (changed.has('status')) {
      const states = this.#formControl.internals.states;
      states?.delete(changed.get('status') ?? '');
      states?.add(this.status);
    }
  }

  protected override updated(): void {
    if (this.#duplicate && !this.#duplicateReported && this.isConnected) {
      this.#duplicateReported = true;
      this.#emitError(
        new ConsentFieldError(
          'duplicate_field',
          `Another <svc-consent-field> for flow ${this.#flowId} comes first in this form; one consent field per flow per form.`,
          'setup',
        ),
      );
    }
  }

  // Told by the form registry whether another field for the same flow comes first in the form.
  #setDuplicate(duplicate: boolean): void {
    if (duplicate === this.#duplicate) return;
    this.#duplicate = duplicate;
    if (duplicate) {
      this.#loadController?.abort();
      this.data = undefined;
      this.#setToken('');
      this.status = 'duplicate';
      // Reported from the next update: the registry may learn it while the form is still in a detached fragment
      // (a template being cloned), where no listener of the page could hear it.
      this.#duplicateReported = false;
    } else {
      this.status = 'idle';
      void this.#load();
    }
  }

  // Events named literally: the manifest analyzer reads their names from these calls.
  #emitError(error: ConsentFieldError): void {
    this.dispatchEvent(
      new CustomEvent<ConsentFieldErrorDetail>('svc-error', { detail: error.toDetail(this.#flowId), bubbles: true, composed: true }),
    );
  }

  #settings(): ServiceSettings {
    const provided = this.providerConfig ?? {};
    const defaults = configDefaults();
    const pick = (...values: (string | null | undefined)[]) => values.map((v) => v?.trim()).find((v) => v) ?? '';
    return {
      publishableKey: pick(this.publishableKey, provided.publishableKey, defaults.publishableKey),
      // Own attributes win over the provider's, which win over the bundle's defaults; the API lives at the base URL,
      // which the trust URL stands in for when it is not given (the reference server serves both).
      baseUrl: pick(this.baseUrl, this.trustUrl, provided.baseUrl, provided.trustUrl, defaults.baseUrl, defaults.trustUrl),
      locale: pick(this.locale, provided.locale, this.closest('[lang]')?.getAttribute('lang')) || undefined,
      timeoutMs: this.timeoutMs,
      fetch: this.fetch,
    };
  }

  // Loads the render answer; a load started later (or a disconnect, or becoming a duplicate) aborts this one, which
  // then changes nothing. (An abort after the load ended is a no-op: the controller is never cleared.)
  async #load(): Promise<void> {
    this.#loadController?.abort();
    if (!this.isConnected || this.#duplicate) return;
    const settings = this.#settings();
    const { publishableKey, baseUrl } = settings;
    // What is missing or malformed, by the attribute that sets it.
    const missing = [!this.#flowId && 'flow', !publishableKey && 'publishable-key', !isHttpUrl(baseUrl) && 'an http(s) base-url'].filter(
      Boolean,
    );
    if (missing.length) {
      this.data = undefined;
      // Inside a provider that has not answered yet (its element may be defined later), wait for its configuration.
      const waiting = !!this.#flowId && !this.providerConfig && !!this.closest('svc-provider');
      this.status = waiting ? 'idle' : 'error';
      if (!waiting)
        this.#emitError(
          new ConsentFieldError(
            'invalid_configuration',
            `<svc-consent-field> cannot load: set ${missing.join(', ')} (or use <svc-provider> for the key and URL).`,
            'setup',
          ),
        );
      return;
    }
    const { signal } = (this.#loadController = new AbortController());
    this.status = 'loading';
    this.#setToken('');
    let data: RenderData | undefined;
    let error: ConsentFieldError | undefined;
    try {
      data = await fetchRenderData({ ...settings, flowId: this.#flowId, signal });
    } catch (cause) {
      error = asFieldError(cause, 'render');
    }
    if (signal.aborted) return;
    this.data = data;
    this.checked = this.#defaults();
    this.status = data ? 'ready' : 'error';
    if (error) this.#emitError(error);
  }

  // Consent boxes start unticked, always; a right-to-object box starts ticked (not objecting), as the spec allows.
  // (Notice rows have no box; their entry is never read.)
  #defaults(): Record<string, boolean> {
    return Object.fromEntries((this.data?.purposes ?? []).map((p) => [p.key, rowKind(p) === 'object']));
  }

  #rows(): Row[] {
    const only = keysOf(this.purposes);
    return (this.data?.purposes ?? [])
      .map((purpose, index) => ({ purpose, kind: rowKind(purpose), index }))
      .filter((row) => !only.length || only.includes(row.purpose.key));
  }

  #applyAppearance(): void {
    const { properties, ignored } = resolveAppearance(this.appearance);
    const sheet = this.#appearanceSheet;
    if (sheet) {
      sheet.replaceSync(':host{}');
      const { style } = sheet.cssRules[0] as CSSStyleRule;
      for (const [name, value] of properties) style.setProperty(name, value);
    }
    this.#warnIgnored(ignored);
  }

  #warn(kind: string, text: string): void {
    if (this.#warned.has(kind)) return;
    this.#warned.add(kind);
    console.warn(`[svc] <svc-consent-field flow="${this.#flowId}"> ${text}.`);
  }

  // One warning for everything presentational the field ignored (appearance values, an unknown theme).
  #warnIgnored(ignored: string[]): void {
    if (ignored.length) this.#warn('appearance', `ignores invalid appearance values: ${ignored.join('; ')}`);
  }

  // Warns once about `purposes` keys the flow does not have, and about consent purposes they leave out.
  #checkPurposes(): void {
    const only = keysOf(this.purposes);
    const purposes = this.data?.purposes;
    if (!purposes || !only.length) return;
    const unknown = only.filter((k) => !purposes.some((p) => p.key === k));
    const hiddenConsent = purposes.filter((p) => rowKind(p) === 'consent' && !only.includes(p.key)).map((p) => p.key);
    const problems = [];
    if (unknown.length) problems.push(`the flow has no purpose ${unknown.join(', ')}`);
    if (hiddenConsent.length)
      problems.push(`consent purpose ${hiddenConsent.join(', ')} is not shown, and the service refuses a capture without it`);
    if (problems.length) this.#warn('purposes', `purposes="${this.purposes}": ${problems.join('; ')}`);
  }

  #handleChange(event: Event): void {
    const input = event.target as HTMLInputElement;
    this.checked = { ...this.checked, [input.name]: input.checked };
    // A token attests the decisions of its moment; after a change it would attest something else.
    this.#setToken('');
    this.dispatchEvent(new Event('change', { bubbles: true }));
  }

  #setToken(token: string): void {
    this.#token = token;
    this.#formControl.internals.setFormValue(token || null, null);
    if (token) this.#claimTokenInput();
    if (this.#tokenInput) this.#tokenInput.value = token;
  }

  // The hidden input the spec names: the form's own unclaimed `svc_capture_token`, else one the field adds.
  #claimTokenInput(): void {
    const form = this.form;
    if (!form || this.#tokenInput?.form === form) return;
    const own = [...form.elements].find(
      (el): el is HTMLInputElement => el instanceof HTMLInputElement && el.name === TOKEN_FIELD && !claimedInputs.has(el),
    );
    let input = own;
    if (!input) {
      input = form.ownerDocument.createElement('input');
      input.type = 'hidden';
      input.name = TOKEN_FIELD;
      input.autocomplete = 'off';
      form.append(input);
    }
    this.#createdTokenInput = !own;
    this.#tokenInput = input;
    claimedInputs.set(input, this);
  }

  // Whether the person could see the field at all: a field (and its recording mark) the page hid with display,
  // visibility or opacity, or shrank to nothing, showed no choice, so its decisions are not captured.
  #markVisible(): boolean {
    return ['.field', '.mark'].every((selector) => {
      const el = this.renderRoot.querySelector(selector);
      const rect = el?.getBoundingClientRect();
      return !!rect && el!.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) && rect.width > 0 && rect.height > 0;
    });
  }

  // Reads the shown rows into what the capture helper composes a request from: the decision of each box at this
  // instant, the box as it was presented (default state, never required), and the wording shown with it.
  #readings(): PurposeReading[] {
    return this.#rows().map(({ purpose: { key, label, description }, kind, index }): PurposeReading => {
      const notices: PurposeReading['notices'] = [{ tag: kind === 'notice' ? 'p' : 'label', text: label }];
      if (description) notices.push({ tag: 'p', text: description });
      if (kind === 'notice') return { key, entry: undefined, controls: [], notices };
      const defaultChecked = kind === 'object';
      return {
        key,
        entry: { decision: this.checked[key] ? 'granted' : 'declined', default_checked: defaultChecked, mandatory: false },
        controls: [
          {
            tag: 'input',
            type: 'checkbox',
            id: `purpose-${index}`,
            name: key,
            meaning: undefined,
            checked: defaultChecked,
            required: false,
            disabled: this.isDisabled,
          },
        ],
        notices,
      };
    });
  }

  async #runCapture(): Promise<CaptureResult> {
    try {
      const data = this.data;
      if (this.#duplicate) throw new ConsentFieldError('duplicate_field', 'This field is a duplicate and captures nothing.', 'capture');
      if (this.status !== 'ready' || !data) {
        throw new ConsentFieldError(
          'not_rendered',
          'No purposes were shown (still loading, or loading failed); nothing was captured.',
          'capture',
        );
      }
      // Read before anything asynchronous, so a change while the request is under way cannot alter the decisions.
      const purposes = this.#readings();
      if (!this.#markVisible()) {
        throw new ConsentFieldError('mark_hidden', 'The field was not visible at submit; nothing was captured.', 'capture');
      }
      const settings = this.#settings();
      const proof = await this.#currentProof(data, settings);
      const form = this.form;
      const request = composeRequest({
        flowId: data.flow_id,
        purposes,
        formId: form ? form.id || form.getAttribute('name') || undefined : undefined,
        pageUrl: pageUrlOf(this.ownerDocument.URL),
        locale: data.locale,
        subject: this.subject ?? (form ? subjectOf(form) : undefined),
        commit: this.commit,
      });
      // The service's own digest of the notice the field showed; when `purposes` hid some rows the whole notice was
      // not shown, so no digest is claimed.
      if (purposes.length === data.purposes.length && DIGEST.test(data.notice_hash)) request.notice_hash = data.notice_hash;
      const result = await postCapture(request, { ...settings, renderProof: proof });
      this.#setToken(result.session_token);
      this.dispatchEvent(new CustomEvent('svc-capture', { detail: result, bubbles: true, composed: true }) as SvcCaptureEvent);
      return result;
    } catch (cause) {
      const error = asFieldError(cause, 'capture');
      this.#setToken('');
      this.#emitError(error);
      throw error;
    }
  }

  // The render proof to send: the one the field rendered with, or, when it is about to expire, a fresh one for
  // exactly the same wording (a changed wording is not what the person saw).
  async #currentProof(data: RenderData, settings: ServiceSettings): Promise<string> {
    const expiry = proofExpiry(data);
    if (expiry === undefined || expiry - PROOF_MARGIN_MS > Date.now()) return data.render_proof;
    const fresh = await fetchRenderData({ ...settings, flowId: data.flow_id, locale: data.locale });
    if (fresh.notice_hash !== data.notice_hash || fresh.version !== data.version) {
      throw new ConsentFieldError('wording_changed', 'The flow’s wording changed since it was shown; nothing was captured.', 'capture');
    }
    // Kept for the next capture (nothing renders the proof, so no update).
    data.render_proof = fresh.render_proof;
    data.render_proof_expires_at = fresh.render_proof_expires_at;
    return fresh.render_proof;
  }

  /**
   * Captures the field's decisions now without submitting the form: posts the capture, writes the token, fires
   * `svc-capture` or `svc-error`, and resolves with the `capture` object or rejects with a `ConsentFieldError`.
   */
  capture(): Promise<CaptureResult> {
    return (this.#inFlight ??= this.#runCapture().finally(() => {
      this.#inFlight = undefined;
    }));
  }

  /** Loads the flow's purposes again (after a network failure, for example); the person's choices start over. */
  reload(): Promise<void> {
    return this.#load();
  }

  /** Checks validity; fires `invalid` when not valid (only a custom validity message makes it so). */
  checkValidity(): boolean {
    return this.#formControl.internals.checkValidity();
  }

  /** Checks validity and shows the browser's message when not valid. */
  reportValidity(): boolean {
    return this.#formControl.internals.reportValidity();
  }

  /** Sets a custom validity message, as a native control's; an empty string clears it. */
  setCustomValidity(message: string): void {
    this.#formControl.setCustomValidity(message);
  }

  override render() {
    const { status, data } = this;
    if (status === 'duplicate' || (status === 'idle' && !data)) return nothing;
    const locale = data?.locale ?? this.#settings().locale;
    const strings = stringsFor(locale);
    const theme = [this.theme, this.providerConfig?.theme].find((t) => t && THEMES.includes(t)) ?? 'light';
    // Plain class strings, not the classMap directive: the shadow root is the field's own, so nothing else sets
    // classes here, and the directive would only add its code to every bundle.
    const classes = `field${theme === 'light' ? '' : ` field--${theme}`} field--${status}`;
    const dir = directionOf(locale) ?? nothing;
    if (status === 'error') {
      return html`<div class=${classes} dir=${dir}><p part="message" class="field__message">${strings.unavailable}</p></div>`;
    }
    const disabled = this.isDisabled;
    // `.checked` without the live directive: every change of a box goes through #handleChange into `checked`, so
    // the value last rendered is always the box's own.
    const row = ({ purpose: { key, label, description }, kind, index }: Row) => {
      const id = `purpose-${index}`;
      const describedBy = [description && `${id}-description`, kind === 'object' && `${id}-hint`].filter(Boolean).join(' ');
      // A notice row has no box: its label is plain text.
      return html`
        <div part="row" class="row row--${kind}">
          ${
            kind === 'notice'
              ? html`<p class="row__label">${label}</p>`
              : html`
            <input part="control" class="row__control" type="checkbox" id=${id} name=${key} .checked=${this.checked[key] === true}
              ?disabled=${disabled} aria-describedby=${describedBy || nothing} @change=${this.#handleChange}>
            <label part="label" class="row__label" for=${id}>${label}</label>`
          }
          ${description ? html`<p part="description" class="row__description" id="${id}-description">${description}</p>` : nothing}
          ${kind === 'object' ? html`<p part="hint" class="row__hint" id="${id}-hint">${strings.object}</p>` : nothing}
        </div>`;
    };
    // The policy link opens apart from the form; `noreferrer` implies `noopener`.
    return html`
      <fieldset part="base" class=${classes} dir=${dir} lang=${data?.locale ?? nothing}
        aria-busy=${status === 'loading' ? 'true' : nothing} aria-describedby=${data?.description ? 'flow-description' : nothing}>
        <legend part="legend" class="field__legend">${data?.title ?? strings.loading}</legend>
        ${data?.description ? html`<p part="description" class="field__description" id="flow-description">${data.description}</p>` : nothing}
        ${data ? html`<div class="field__rows">${this.#rows().map(row)}</div>` : nothing}
        ${
          isHttpUrl(data?.policy_url)
            ? html`<p class="field__policy">
          <a part="policy" href=${data!.policy_url!} target="_blank" rel="noreferrer">${strings.policy}</a></p>`
            : nothing
        }
        <p class="mark">
          <svg viewBox="0 0 16 16" aria-hidden="true"><path d="M8 1 2 3.5v4C2 11.1 4.6 14.3 8 15c3.4-.7 6-3.9 6-7.5v-4L8 1Zm-1 10L4 8l1.2-1.2L7 8.6l3.8-3.8L12 6l-5 5Z"/></svg>${strings.mark}
        </p>
      </fieldset>
    `;
  }
}

// The capture helper's errors (network, timeout, http_<status>, invalid_response) keep their code and details, but
// for the service's refusal of the page's origin, which is the developer's to fix: `origin_not_allowed`.
function asFieldError(cause: unknown, phase: ConsentFieldErrorDetail['phase']): ConsentFieldError {
  if (cause instanceof ConsentFieldError) return cause;
  if (cause instanceof CaptureError) {
    const code = (cause.body as { code?: unknown } | undefined)?.code === 'origin_not_allowed' ? 'origin_not_allowed' : cause.code;
    return new ConsentFieldError(code, cause.message, phase, { cause, status: cause.status, body: cause.body });
  }
  return new ConsentFieldError('unexpected', 'The consent field failed unexpectedly.', phase, { cause });
}
