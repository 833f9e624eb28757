// A delivery's final failure is written to the audit trail (spec: States, "final attempt fails ... entry written to
// audit trail"), in the transaction that marks the delivery failed. It is also kept in the application's activity
// log, where the owner finds it beside other operational events
// (`GET /api/v1/applications/{id}/activity?type=webhook.delivery_failed`).
import { appendAuditEvent } from '../../consent/audit/chain.js';
import { recordActivity } from '../../infra/activity.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';

/** The audit event (and activity) type of a delivery that failed for good. */
export const DELIVERY_FAILED_EVENT = 'webhook.delivery_failed';

/** What the audit entry of a failed delivery says: ids and outcomes, never the body or the full URL. */
export interface DeliveryFailure {
  delivery_id: string;
  webhook_endpoint_id: string;
  /** Scheme, host and port of the endpoint; the path and query can carry the receiver's own tokens. */
  url_origin: string;
  event_id: string;
  event_type: string;
  /** `rejected` (a 4xx) or `attempts_exhausted` (five attempts). */
  reason: 'rejected' | 'attempts_exhausted';
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
}

/** Records a final delivery failure; call inside the transaction that marks the delivery failed. */
export function recordDeliveryFailure(ctx: ServerContext, applicationId: string, failure: DeliveryFailure): void {
  const data = { ...failure };
  appendAuditEvent(ctx, { applicationId, type: DELIVERY_FAILED_EVENT, occurredAt: isoNow(ctx.clock), data });
  recordActivity(ctx, applicationId, DELIVERY_FAILED_EVENT, data);
  ctx.metrics.increment('webhooks.deliveries_failed_total', { reason: failure.reason });
}
