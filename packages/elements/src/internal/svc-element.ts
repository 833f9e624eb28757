import type { SvcCancelDetail } from '../events/svc-cancel.js';
import type { SvcCompleteDetail } from '../events/svc-complete.js';
import type { SvcDeadlineDetail } from '../events/svc-deadline.js';
import type { DecisionErrorDetail } from '../events/svc-error.js';
import type { SvcReadyDetail } from '../events/svc-ready.js';
import type { SvcResizeDetail } from '../events/svc-resize.js';
import type { SvcStateDetail } from '../events/svc-state.js';

/** The detail of each event `<svc-decision>` dispatches, by event name. */
export interface SvcEventDetails {
  'svc-ready': SvcReadyDetail;
  'svc-state': SvcStateDetail;
  'svc-complete': SvcCompleteDetail;
  'svc-cancel': SvcCancelDetail;
  'svc-error': DecisionErrorDetail;
  'svc-resize': SvcResizeDetail;
  'svc-deadline': SvcDeadlineDetail;
}
