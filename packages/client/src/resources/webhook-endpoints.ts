import { z } from 'zod/mini';
import {
  webhookDeliveryEnvelope,
  webhookDeliveryList,
  webhookEndpoint,
  webhookEndpointEnvelope,
  webhookEndpointList,
  type CreateWebhookEndpointRequest,
  type UpdateWebhookEndpointRequest,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

/**
 * A webhook endpoint as create and `rotate_secret` return it: with its signing `secret` (`whsec_...`), shown this
 * once. Receivers check deliveries with `verifyWebhook(rawBody, headers, secret)`.
 */
export type IssuedWebhookEndpoint = WebhookEndpoint & { secret: string };

/** Query of an endpoint's deliveries. */
export type WebhookDeliveryQuery = ListQuery & {
  /** Only deliveries in this state. */
  status?: 'pending' | 'acknowledged' | 'failed' | undefined;
  /** Only the deliveries of this event (`evt_...`, the `X-Svc-Event-ID` a receiver saw). */
  event_id?: string | undefined;
};

// Create and rotate must carry the secret; checking for it here spares every caller a `!`.
const issued = z.object({ webhook_endpoint: z.extend(webhookEndpoint, { secret: z.string() }) });

const path = (applicationId: string, id?: string, action = '') =>
  `/api/v1/applications/${encodeURIComponent(applicationId)}/webhook_endpoints${id === undefined ? '' : `/${encodeURIComponent(id)}`}${action}`;

/** Lists an application's webhook endpoints, never their secrets (`GET /api/v1/applications/{id}/webhook_endpoints`). */
export function listWebhookEndpoints(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  query?: ListQuery,
  options?: CallOptions,
): SvcList<WebhookEndpoint> {
  return listEndpoint(connection, path(applicationId), webhookEndpointList, 'webhook_endpoints', query, options);
}

/**
 * Subscribes a URL to event types (`*` for all, including types a later server adds); the answer carries the
 * signing secret, which is never shown again. A production application delivers over https only.
 */
export function createWebhookEndpoint(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  request: CreateWebhookEndpointRequest['webhook_endpoint'],
  options?: WriteOptions,
): Promise<IssuedWebhookEndpoint> {
  return connection
    .request(
      {
        method: 'POST',
        path: path(applicationId),
        body: { webhook_endpoint: request } satisfies CreateWebhookEndpointRequest,
        schema: issued,
      },
      options,
    )
    .then((body) => body.webhook_endpoint);
}

/** Reads a webhook endpoint, without its secret (`GET .../webhook_endpoints/{id}`). */
export function getWebhookEndpoint(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  id: string,
  options?: CallOptions,
): Promise<WebhookEndpoint> {
  return connection
    .request({ method: 'GET', path: path(applicationId, id), schema: webhookEndpointEnvelope }, options)
    .then((body) => body.webhook_endpoint);
}

/**
 * Changes an endpoint's url, events, description or status (`PATCH .../webhook_endpoints/{id}`). `status:
 * 'enabled'` re-enables a disabled endpoint, resets its failure count and resumes its pending deliveries.
 */
export function updateWebhookEndpoint(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  id: string,
  changes: UpdateWebhookEndpointRequest['webhook_endpoint'],
  options?: WriteOptions,
): Promise<WebhookEndpoint> {
  return connection
    .request(
      {
        method: 'PATCH',
        path: path(applicationId, id),
        body: { webhook_endpoint: changes } satisfies UpdateWebhookEndpointRequest,
        schema: webhookEndpointEnvelope,
      },
      options,
    )
    .then((body) => body.webhook_endpoint);
}

/** Deletes a webhook endpoint; its pending deliveries fail (`DELETE .../webhook_endpoints/{id}`). */
export async function deleteWebhookEndpoint(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  id: string,
  options?: CallOptions,
): Promise<void> {
  await connection.request({ method: 'DELETE', path: path(applicationId, id) }, options);
}

/**
 * Issues a new signing secret (`POST .../webhook_endpoints/{id}/rotate_secret`), returned this once. For one day
 * (until `previous_secret_expires_at`) deliveries carry a signature by each secret, so receivers can switch over.
 */
export function rotateWebhookEndpointSecret(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  id: string,
  options?: WriteOptions,
): Promise<IssuedWebhookEndpoint> {
  return connection
    .request({ method: 'POST', path: path(applicationId, id, '/rotate_secret'), schema: issued }, options)
    .then((body) => body.webhook_endpoint);
}

/**
 * Sends a signed `webhook.test` delivery now and answers with its outcome (`POST .../webhook_endpoints/{id}/test`):
 * one attempt, never retried, never counted toward disabling the endpoint.
 */
export function testWebhookEndpoint(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  id: string,
  options?: WriteOptions,
): Promise<WebhookDelivery> {
  return connection
    .request({ method: 'POST', path: path(applicationId, id, '/test'), schema: webhookDeliveryEnvelope }, options)
    .then((body) => body.delivery);
}

/** Lists an endpoint's deliveries with their attempts, newest first (`GET .../webhook_endpoints/{id}/deliveries`). */
export function listWebhookDeliveries(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  endpointId: string,
  query?: WebhookDeliveryQuery,
  options?: CallOptions,
): SvcList<WebhookDelivery> {
  return listEndpoint(connection, path(applicationId, endpointId, '/deliveries'), webhookDeliveryList, 'deliveries', query, options);
}

/** Reads one delivery with its attempts (`GET .../webhook_endpoints/{id}/deliveries/{delivery_id}`). */
export function getWebhookDelivery(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  endpointId: string,
  deliveryId: string,
  options?: CallOptions,
): Promise<WebhookDelivery> {
  return connection
    .request(
      {
        method: 'GET',
        path: path(applicationId, endpointId, `/deliveries/${encodeURIComponent(deliveryId)}`),
        schema: webhookDeliveryEnvelope,
      },
      options,
    )
    .then((body) => body.delivery);
}

/**
 * Queues a finished delivery again, due now (`POST .../webhook_endpoints/{id}/deliveries/{delivery_id}/redeliver`):
 * the same event id and body, signed when sent and retried like a new delivery; answers it, `pending`. The service
 * answers 409 while it is still pending, for a test delivery, and while the endpoint is disabled.
 */
export function redeliverWebhookDelivery(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  endpointId: string,
  deliveryId: string,
  options?: WriteOptions,
): Promise<WebhookDelivery> {
  return connection
    .request(
      {
        method: 'POST',
        path: path(applicationId, endpointId, `/deliveries/${encodeURIComponent(deliveryId)}/redeliver`),
        schema: webhookDeliveryEnvelope,
      },
      options,
    )
    .then((body) => body.delivery);
}

/** The webhook endpoints (subscriptions) of each application and their deliveries. */
export interface WebhookEndpointsResource {
  /** Lists an application's endpoints; see {@link listWebhookEndpoints}. */
  list(applicationId: string, query?: ListQuery, options?: CallOptions): SvcList<WebhookEndpoint>;
  /** Subscribes a URL and returns the secret once; see {@link createWebhookEndpoint}. */
  create(
    applicationId: string,
    request: CreateWebhookEndpointRequest['webhook_endpoint'],
    options?: WriteOptions,
  ): Promise<IssuedWebhookEndpoint>;
  /** Reads an endpoint; see {@link getWebhookEndpoint}. */
  get(applicationId: string, id: string, options?: CallOptions): Promise<WebhookEndpoint>;
  /** Changes an endpoint; see {@link updateWebhookEndpoint}. */
  update(
    applicationId: string,
    id: string,
    changes: UpdateWebhookEndpointRequest['webhook_endpoint'],
    options?: WriteOptions,
  ): Promise<WebhookEndpoint>;
  /** Deletes an endpoint; see {@link deleteWebhookEndpoint}. */
  delete(applicationId: string, id: string, options?: CallOptions): Promise<void>;
  /** Issues a new secret and returns it once; see {@link rotateWebhookEndpointSecret}. */
  rotateSecret(applicationId: string, id: string, options?: WriteOptions): Promise<IssuedWebhookEndpoint>;
  /** Sends a test delivery; see {@link testWebhookEndpoint}. */
  test(applicationId: string, id: string, options?: WriteOptions): Promise<WebhookDelivery>;
  /** Lists an endpoint's deliveries; see {@link listWebhookDeliveries}. */
  deliveries(applicationId: string, endpointId: string, query?: WebhookDeliveryQuery, options?: CallOptions): SvcList<WebhookDelivery>;
  /** Reads one delivery; see {@link getWebhookDelivery}. */
  getDelivery(applicationId: string, endpointId: string, deliveryId: string, options?: CallOptions): Promise<WebhookDelivery>;
  /** Queues a finished delivery again; see {@link redeliverWebhookDelivery}. */
  redeliver(applicationId: string, endpointId: string, deliveryId: string, options?: WriteOptions): Promise<WebhookDelivery>;
}

/** Binds the webhook endpoint functions to a connection. */
export function webhookEndpointsResource(connection: SvcConnection<'bearer'>): WebhookEndpointsResource {
  return {
    list: (applicationId, query, options) => listWebhookEndpoints(connection, applicationId, query, options),
    create: (applicationId, request, options) => createWebhookEndpoint(connection, applicationId, request, options),
    get: (applicationId, id, options) => getWebhookEndpoint(connection, applicationId, id, options),
    update: (applicationId, id, changes, options) => updateWebhookEndpoint(connection, applicationId, id, changes, options),
    delete: (applicationId, id, options) => deleteWebhookEndpoint(connection, applicationId, id, options),
    rotateSecret: (applicationId, id, options) => rotateWebhookEndpointSecret(connection, applicationId, id, options),
    test: (applicationId, id, options) => testWebhookEndpoint(connection, applicationId, id, options),
    deliveries: (applicationId, endpointId, query, options) => listWebhookDeliveries(connection, applicationId, endpointId, query, options),
    getDelivery: (applicationId, endpointId, deliveryId, options) =>
      getWebhookDelivery(connection, applicationId, endpointId, deliveryId, options),
    redeliver: (applicationId, endpointId, deliveryId, options) =>
      redeliverWebhookDelivery(connection, applicationId, endpointId, deliveryId, options),
  };
}
