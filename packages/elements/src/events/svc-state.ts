import type { WithKind } from './detail.js';

/**
 * Detail of `svc-state`: the `svc:state` payload (`from`, `to`, and the consent's step or the approval's or
 * signature request's `kind_payload`) plus `kind`.
 */
export type SvcStateDetail = WithKind<'svc:state'>;

/** Fired (bubbles, composed) on each state transition of the decision. */
export type SvcStateEvent = CustomEvent<SvcStateDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-state': SvcStateEvent;
  }
}
