import type { WithKind } from './detail.js';

/** Detail of `svc-ready`: the `svc:ready` payload (`kind`, `session_token`, `deadline_at`, `branding`, `mode`, `locale`). */
export type SvcReadyDetail = WithKind<'svc:ready'>;

/** Fired (bubbles, composed) once per session, when the hosted page has loaded and can be used. */
export type SvcReadyEvent = CustomEvent<SvcReadyDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-ready': SvcReadyEvent;
  }
}
