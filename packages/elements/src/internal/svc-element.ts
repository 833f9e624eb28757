import { LitElement } from 'lit';
import type { SvcCancelDetail } from '../events/svc-cancel.js';
import type { SvcCompleteDetail } from '../events/svc-complete.js';
import type { SvcDeadlineDetail } from '../events/svc-deadline.js';
import type { DecisionErrorDetail } from '../events/svc-error.js';
import type { SvcReadyDetail } from '../events/svc-ready.js';
import type { SvcResizeDetail } from '../events/svc-resize.js';
import type { SvcStateDetail } from '../events/svc-state.js';

/** The detail of each event the elements dispatch, by event name. */
export interface SvcEventDetails {
  'svc-ready': SvcReadyDetail;
  'svc-state': SvcStateDetail;
  'svc-complete': SvcCompleteDetail;
  'svc-cancel': SvcCancelDetail;
  'svc-error': DecisionErrorDetail;
  'svc-resize': SvcResizeDetail;
  'svc-deadline': SvcDeadlineDetail;
}

/** The base of the svc elements: a `LitElement` with one typed way to dispatch their events. */
export class SvcElement extends LitElement {
  /** Dispatches `name` as a `CustomEvent` with `detail` that bubbles and is composed unless `init` says otherwise. */
  protected emit<K extends keyof SvcEventDetails>(name: K, detail: SvcEventDetails[K], init?: EventInit): boolean {
    return this.dispatchEvent(new CustomEvent(name, { bubbles: true, composed: true, ...init, detail }));
  }
}
