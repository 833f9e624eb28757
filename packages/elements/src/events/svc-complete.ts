import type { WithKind } from './detail.js';

/**
 * Detail of `svc-complete`: the `svc:complete` payload (`outcome`, `exchange_token`, `completed_at`) plus `kind`.
 * It proves nothing: hand `exchange_token` to your server, which exchanges it with the service.
 */
export type SvcCompleteDetail = WithKind<'svc:complete'>;

/**
 * Fired (bubbles, composed) once when the person finished: granted or declined (consent), approved, denied or
 * countered (approval), signed, declined or countered (signature request).
 */
export type SvcCompleteEvent = CustomEvent<SvcCompleteDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-complete': SvcCompleteEvent;
  }
}
