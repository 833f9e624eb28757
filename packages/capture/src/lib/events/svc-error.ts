import type { CaptureErrorDetail } from '../errors.js';

/** Fired on the form (bubbles, composed) when a capture failed; the form still submits, without a token. */
export type SvcErrorEvent = CustomEvent<CaptureErrorDetail>;

declare global {
  /**
   * The details an `svc-error` event can carry, one member per emitting package (`capture` here; `@svc/elements`
   * adds its own). TypeScript accepts one declaration of `svc-error` only, so packages augment this map instead.
   */
  interface SvcErrorDetailMap {
    capture: CaptureErrorDetail;
  }
  interface GlobalEventHandlersEventMap {
    'svc-error': CustomEvent<SvcErrorDetailMap[keyof SvcErrorDetailMap]>;
  }
}
