// Form participation for form-associated elements, kept out of the components (like shoelace's
// FormControlController and material-web's form-associated mixin): the element declares `static formAssociated =
// true` and forwards the platform's form callbacks; this controller owns the ElementInternals behind them.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** The element a {@link FormControlController} serves: a Lit host that is form-associated. */
export type FormControlHost = ReactiveControllerHost & HTMLElement;

/** Options of {@link FormControlController}. */
export interface FormControlOptions {
  /** The element the browser focuses when it reports this control's validity problem; default the host. */
  anchor?: () => HTMLElement | null | undefined;
}

/**
 * Owns a form-associated element's `ElementInternals`: the form it belongs to, its submitted value, its validity
 * and its custom states. Construct it in the element's field initialisers (it calls `attachInternals()`, which only
 * the constructor may do before the element is upgraded and used).
 */
export class FormControlController implements ReactiveController {
  /** The host's internals; use them directly for anything this controller does not wrap. */
  readonly internals: ElementInternals;
  private readonly host: FormControlHost;
  private readonly options: FormControlOptions;
  private customMessage = '';

  /** Attaches the host's internals and registers as its controller. */
  constructor(host: FormControlHost, options: FormControlOptions = {}) {
    this.host = host;
    this.options = options;
    this.internals = host.attachInternals();
    host.addController(this);
  }

  /** Re-applies the validity after each render, so the browser points at the anchor as it is now. */
  hostUpdated(): void {
    this.updateValidity();
  }

  /** The form the host belongs to, or null. */
  get form(): HTMLFormElement | null {
    return this.internals.form;
  }

  /** The host's validity state, as a native control's `validity`. */
  get validity(): ValidityState {
    return this.internals.validity;
  }

  /** The message the browser shows for the host's current validity problem, or an empty string. */
  get validationMessage(): string {
    return this.internals.validationMessage;
  }

  /** Whether the host takes part in constraint validation (false when disabled or read-only). */
  get willValidate(): boolean {
    return this.internals.willValidate;
  }

  /** Whether the host matches `:disabled`, directly or through a disabled `<fieldset>`. */
  get disabled(): boolean {
    return this.host.matches(':disabled');
  }

  /** Checks validity; fires `invalid` on the host when it is not valid. */
  checkValidity(): boolean {
    return this.internals.checkValidity();
  }

  /** Checks validity and, when it is not valid, shows the browser's message at the anchor. */
  reportValidity(): boolean {
    return this.internals.reportValidity();
  }

  /**
   * Sets a custom validity message, as a native control's `setCustomValidity()`: a non-empty message makes the host
   * invalid (`customError`) and blocks its form's submission until cleared.
   */
  setCustomValidity(message: string): void {
    this.customMessage = String(message ?? '');
    this.updateValidity();
  }

  /** Re-applies the custom validity message (done after every render of the host). */
  updateValidity(): void {
    const anchor = this.options.anchor?.() ?? undefined;
    if (this.customMessage) this.internals.setValidity({ customError: true }, this.customMessage, anchor);
    else this.internals.setValidity({});
  }

  /** Sets what the host submits under its `name` (null submits nothing), and the state restored after navigation. */
  setValue(value: string | FormData | null, state: string | FormData | null = value): void {
    this.internals.setFormValue(value, state);
  }

  /** Adds or removes a custom state, matched from CSS with `:state(name)`. */
  toggleState(name: string, on: boolean): void {
    const states = this.internals.states;
    if (!states) return;
    if (on) states.add(name);
    else states.delete(name);
  }
}
