import type { CaptureResult } from '../types.js';

/** Fired on the form (bubbles, composed) once the service accepted a capture; `detail` is the `capture` object. */
export type SvcCaptureEvent = CustomEvent<CaptureResult>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-capture': SvcCaptureEvent;
  }
}
