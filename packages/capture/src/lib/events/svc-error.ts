import type { CaptureErrorDetail } from '../errors.js';

/** Fired on the form (bubbles, composed) when a capture failed; the form still submits, without a token. */
export type SvcErrorEvent = CustomEvent<CaptureErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-error': SvcErrorEvent;
  }
}
