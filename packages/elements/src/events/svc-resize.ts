import type { WithKind } from './detail.js';

/** Detail of `svc-resize`: the hosted page's content `height` in CSS pixels, plus `kind`. */
export type SvcResizeDetail = WithKind<'svc:resize'>;

/** Fired (bubbles, composed) when the hosted page's content height changes; the iframe follows it by itself. */
export type SvcResizeEvent = CustomEvent<SvcResizeDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-resize': SvcResizeEvent;
  }
}
