import type { WithKind } from './detail.js';

/**
 * Detail of `svc-deadline`: `remaining_seconds`, `level` (`warning` at T-30 s, T-15 s and T-5 s; `expired` at T-0)
 * and `deadline_at`, plus `kind`.
 */
export type SvcDeadlineDetail = WithKind<'svc:deadline'>;

/**
 * Fired (bubbles, composed) at most once per threshold, from the hosted page's messages or, when those stop
 * coming, from the element's own clock; the `expired` one exactly once.
 */
export type SvcDeadlineEvent = CustomEvent<SvcDeadlineDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-deadline': SvcDeadlineEvent;
  }
}
