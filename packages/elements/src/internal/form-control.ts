// Form participation for form-associated elements, kept out of the components (like shoelace's
// FormControlController and material-web's form-associated mixin): the element declares `static formAssociated =
// true` and forwards the platform's form callbacks; this controller owns the ElementInternals behind them. The
// element reads `internals` directly for what needs no logic (form, validity, setFormValue, states, ...): wrappers
// would only add bytes to every bundle.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** The element a {@link FormControlController} serves: a Lit host that is form-associated. */
export type FormControlHost = ReactiveControllerHost & HTMLElement;

/** Options of {@link FormControlController}. */
export interface FormControlOptions {
  /** The element the browser focuses when it reports this control's validity problem; default the host. */
  anchor?: () => HTMLElement | null | undefined;
}

/**
 * Owns a form-associated element's `ElementInternals` and its custom validity (the element sets its submitted value
 * and custom states on `internals` itself). Construct it in the element's field initialisers (it calls
 * `attachInternals()`, which only the constructor may do before the element is upgraded and used).
 */
export class FormControlController implements ReactiveController {
  /** The host's internals: `form`, `validity`, `validationMessage`, `willValidate`, `checkValidity()`, ... */
  readonly internals: ElementInternals;
  #anchor: FormControlOptions['anchor'];
  #message = '';

  /** Attaches the host's internals and registers as its controller. */
  constructor(host: FormControlHost, options: FormControlOptions = {}) {
    this.#anchor = options.anchor;
    this.internals = host.attachInternals();
    host.addController(this);
  }

  /**
   * Sets a custom validity message, as a native control's `setCustomValidity()`: a non-empty message makes the host
   * invalid (`customError`) and blocks its form's submission until cleared.
   */
  setCustomValidity(message: string): void {
    this.#message = String(message ?? '');
    this.hostUpdated();
  }

  /** Applies the custom validity message, again after each render so the browser points at the anchor as it is now. */
  hostUpdated(): void {
    const message = this.#message;
    this.internals.setValidity({ customError: !!message }, message, this.#anchor?.() ?? undefined);
  }
}
