import type { CaptureError } from '../errors.js';
import type { SvcCaptureEvent } from './svc-capture.js';
import type { SvcErrorEvent } from './svc-error.js';

interface CaptureEvents {
  'svc-capture': SvcCaptureEvent;
  'svc-error': SvcErrorEvent;
}

/** Dispatches one of the helper's events as a bubbling, composed `CustomEvent`. */
export function emit<K extends keyof CaptureEvents>(target: EventTarget, type: K, detail: CaptureEvents[K]['detail']): void {
  target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}

/** Fires `svc-error` on `target` with the error's plain detail. */
export const emitError = (target: EventTarget, error: CaptureError): void => emit(target, 'svc-error', error.toDetail());
