// The events of `<svc-webhooks>`: `svc-webhooks-change` (an endpoint was added, enabled, disabled, deleted or its
// signing secret rotated, a test event was sent, or a delivery was queued again, and the service recorded it) and its
// own `svc-error`. No detail ever carries a signing secret.
import type { Application, WebhookDelivery, WebhookEndpoint } from '@svc/schemas';
import type { PersonListErrorDetail } from '../internal/person-list.js';

/** A webhook endpoint as `GET /api/v1/applications/{id}/webhook_endpoints` answers it: never its secret. */
export type WebhookEndpointRow = Omit<WebhookEndpoint, 'secret'>;

/** A delivery of an endpoint, as `GET .../webhook_endpoints/{endpoint_id}/deliveries` answers it. */
export type WebhookDeliveryRow = WebhookDelivery;

/** An application the select offers when the element has no `application` attribute. */
export type WebhookApplication = Pick<Application, 'id' | 'name' | 'environment'>;

/** Which deliveries an endpoint shows: every one, or those failed, succeeded (acknowledged) or pending. */
export type DeliveryFilter = 'all' | 'failed' | 'succeeded' | 'pending';

/** What was done: to an endpoint, or to one of its deliveries (`test`, `redeliver`). */
export type WebhooksChange = 'create' | 'enable' | 'disable' | 'delete' | 'rotate' | 'test' | 'redeliver';

/** Detail of `svc-webhooks-change`: what changed, by id, and its new status; never a signing secret. */
export interface SvcWebhooksChangeDetail {
  action: WebhooksChange;
  application_id: string;
  webhook_endpoint_id: string;
  /** The delivery sent (`test`) or queued again (`redeliver`). */
  delivery_id?: string;
  /** The endpoint's status (`enabled`, `disabled`, `deleted`), or the delivery's (`pending`, `acknowledged`, `failed`). */
  status: WebhookEndpoint['status'] | 'deleted' | WebhookDelivery['status'];
}

/** Fired (bubbles, composed) once the service has recorded a change. */
export type SvcWebhooksChangeEvent = CustomEvent<SvcWebhooksChangeDetail>;

/** Detail of an `svc-error` from `<svc-webhooks>` itself: `message`, `fatal` and `recoverable_via`. */
export interface WebhooksErrorDetail extends PersonListErrorDetail {
  /** `unauthorized`, `forbidden` (the role lacks `write`), `not_found`, `invalid` (the service's 409 or 422), `network`, `http` or `invalid_configuration`. */
  code: 'unauthorized' | 'forbidden' | 'not_found' | 'invalid' | 'network' | 'http' | 'invalid_configuration';
}

/** Fired (bubbles, composed) by `<svc-webhooks>` when a list could not be read or an action failed. */
export type SvcWebhooksErrorEvent = CustomEvent<WebhooksErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-webhooks-change': SvcWebhooksChangeEvent;
  }
  interface SvcErrorDetailMap {
    webhooks: WebhooksErrorDetail;
  }
}
