import type { CancelPayload, Kind } from '@svc/protocol';

/**
 * Detail of `svc-cancel`: `reason` and `cancelled_by` (`user`, `frame` or `host`) plus `kind`, which is missing
 * only when the decision was never loaded (a popup closed before its page was ready). Reasons the element itself
 * gives: `popup_closed` (the person closed the decision window) and the reason passed to `cancel()`.
 */
export type SvcCancelDetail = CancelPayload & { kind?: Kind };

/** Fired (bubbles, composed) once when the decision was cancelled: by the person, the hosted page or `cancel()`. */
export type SvcCancelEvent = CustomEvent<SvcCancelDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-cancel': SvcCancelEvent;
  }
}
