import {
  createWebhookEndpointRequest,
  listQuery,
  updateWebhookEndpointRequest,
  webhookDeliveryEnvelope,
  webhookDeliveryList,
  webhookDeliveryListQuery,
  webhookEndpointEnvelope,
  webhookEndpointList,
} from '@svc/client/schemas';
import { routes } from '../../infra/http/route.js';
import { getApplication, type ApplicationRecord } from '../application-store.js';
import { requires } from '../../infra/auth.js';
import type { ServerContext } from '../../infra/context.js';
import { notFound, unprocessable } from '../../infra/errors.js';
import type { Operation } from '../../infra/operations.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { readJson, readQuery } from '../../infra/validate.js';
import { webhookService } from './service.js';
import {
  countEndpoints,
  createEndpoint,
  createTestDelivery,
  deleteEndpoint,
  findEndpoint,
  getDelivery,
  listDeliveries,
  listEndpoints,
  MAX_ENDPOINTS_PER_APPLICATION,
  rotateSecret,
  toEndpoint,
  updateEndpoint,
} from './store.js';

const base = '/api/v1/applications/:id/webhook_endpoints';

function ownedApplication(ctx: ServerContext, accountId: string, id: string): ApplicationRecord {
  const app = getApplication(ctx, accountId, id);
  if (!app) throw notFound('No such application.');
  return app;
}

// Production applications deliver over HTTPS only. Development applications (the sandbox) may use plain http and
// any host, loopback included, so a receiver on the developer's machine works; a hosted service would also refuse
// private and link-local addresses.
function checkUrl(url: string, application: ApplicationRecord, path: string): void {
  if (application.environment === 'production' && !url.startsWith('https:')) {
    throw unprocessable(`${path}: a production application delivers webhooks over https only.`, 'insecure_webhook_url', [
      { path, code: 'insecure_webhook_url', message: 'must be an https URL for a production application' },
    ]);
  }
}

/**
 * `GET|POST /api/v1/applications/{id}/webhook_endpoints`, `GET|PATCH|DELETE .../webhook_endpoints/{endpoint_id}`,
 * `POST .../rotate_secret`, `POST .../test`, `GET .../deliveries`, `GET .../deliveries/{delivery_id}`.
 */
export const webhookRoutes = routes((app, ctx) => {
  const service = webhookService(ctx);
  const endpointOf = (accountId: string, applicationId: string, endpointId: string) => {
    const application = ownedApplication(ctx, accountId, applicationId);
    const row = findEndpoint(ctx, application.id, endpointId);
    if (!row) throw notFound('No such webhook endpoint.');
    return { application, row };
  };

  app.get(base, requires('read'), (c) => {
    const application = ownedApplication(ctx, c.get('principal').accountId, c.req.param('id'));
    const { limit = DEFAULT_LIMIT, cursor } = readQuery(c, listQuery);
    return c.json(listEndpoints(ctx, application.id, { limit, cursor }));
  });

  app.post(base, requires('write'), async (c) => {
    const application = ownedApplication(ctx, c.get('principal').accountId, c.req.param('id'));
    const { webhook_endpoint: input } = await readJson(c, createWebhookEndpointRequest);
    checkUrl(input.url, application, 'webhook_endpoint.url');
    if (countEndpoints(ctx, application.id) >= MAX_ENDPOINTS_PER_APPLICATION) {
      throw unprocessable(`An application can have at most ${MAX_ENDPOINTS_PER_APPLICATION} webhook endpoints.`, 'too_many_webhook_endpoints');
    }
    const { row, secret } = createEndpoint(ctx, service.sealer, application.id, input);
    return c.json({ webhook_endpoint: toEndpoint(row, ctx.clock.now(), secret) }, 201);
  });

  app.get(`${base}/:endpoint_id`, requires('read'), (c) => {
    const { row } = endpointOf(c.get('principal').accountId, c.req.param('id'), c.req.param('endpoint_id'));
    return c.json({ webhook_endpoint: toEndpoint(row, ctx.clock.now()) });
  });

  app.patch(`${base}/:endpoint_id`, requires('write'), async (c) => {
    const { application, row } = endpointOf(c.get('principal').accountId, c.req.param('id'), c.req.param('endpoint_id'));
    const { webhook_endpoint: changes } = await readJson(c, updateWebhookEndpointRequest);
    if (changes.url !== undefined) checkUrl(changes.url, application, 'webhook_endpoint.url');
    const updated = updateEndpoint(ctx, row, changes);
    if (changes.status === 'enabled') service.worker.kick();
    return c.json({ webhook_endpoint: toEndpoint(updated, ctx.clock.now()) });
  });

  app.delete(`${base}/:endpoint_id`, requires('write'), (c) => {
    const { row } = endpointOf(c.get('principal').accountId, c.req.param('id'), c.req.param('endpoint_id'));
    deleteEndpoint(ctx, row);
    return c.body(null, 204);
  });

  app.post(`${base}/:endpoint_id/rotate_secret`, requires('write'), (c) => {
    const { row } = endpointOf(c.get('principal').accountId, c.req.param('id'), c.req.param('endpoint_id'));
    const rotated = rotateSecret(ctx, service.sealer, row);
    return c.json({ webhook_endpoint: toEndpoint(rotated.row, ctx.clock.now(), rotated.secret) });
  });

  app.post(`${base}/:endpoint_id/test`, requires('write'), async (c) => {
    const { row } = endpointOf(c.get('principal').accountId, c.req.param('id'), c.req.param('endpoint_id'));
    const deliveryId = createTestDelivery(ctx, service.sealer, row);
    await service.worker.attempt(deliveryId);
    return c.json({ delivery: getDelivery(ctx, row.id, deliveryId)! }, 201);
  });

  app.get(`${base}/:endpoint_id/deliveries`, requires('read'), (c) => {
    const { row } = endpointOf(c.get('principal').accountId, c.req.param('id'), c.req.param('endpoint_id'));
    const { limit = DEFAULT_LIMIT, cursor, status, event_id } = readQuery(c, webhookDeliveryListQuery);
    return c.json(listDeliveries(ctx, row.id, { limit, cursor, status, event_id }));
  });

  app.get(`${base}/:endpoint_id/deliveries/:delivery_id`, requires('read'), (c) => {
    const { row } = endpointOf(c.get('principal').accountId, c.req.param('id'), c.req.param('endpoint_id'));
    const delivery = getDelivery(ctx, row.id, c.req.param('delivery_id'));
    if (!delivery) throw notFound('No such delivery.');
    return c.json({ delivery });
  });
});

const tag = 'Webhooks';
const path = '/api/v1/applications/{id}/webhook_endpoints';

/** OpenAPI descriptors of the webhook routes. */
export const webhookOperations: Operation[] = [
  {
    method: 'get', path, summary: "List an application's webhook endpoints (never their secrets)", tag,
    auth: ['api_token'], permission: 'read', query: listQuery,
    response: { status: 200, description: 'A page of webhook endpoints', schema: webhookEndpointList }, errors: [400, 404],
  },
  {
    method: 'post', path, summary: 'Subscribe a URL to event types; the signing secret is returned only here', tag,
    auth: ['api_token'], permission: 'write', body: createWebhookEndpointRequest,
    response: { status: 201, description: 'The endpoint, with `secret` set', schema: webhookEndpointEnvelope }, errors: [404],
  },
  {
    method: 'get', path: `${path}/{endpoint_id}`, summary: 'Read a webhook endpoint', tag,
    auth: ['api_token'], permission: 'read',
    response: { status: 200, description: 'The endpoint', schema: webhookEndpointEnvelope }, errors: [404],
  },
  {
    method: 'patch', path: `${path}/{endpoint_id}`, summary: 'Change url, events, description or status; `status: enabled` re-enables and resets the failure count', tag,
    auth: ['api_token'], permission: 'write', body: updateWebhookEndpointRequest,
    response: { status: 200, description: 'The endpoint', schema: webhookEndpointEnvelope }, errors: [404],
  },
  {
    method: 'delete', path: `${path}/{endpoint_id}`, summary: 'Delete a webhook endpoint; its pending deliveries fail', tag,
    auth: ['api_token'], permission: 'write',
    response: { status: 204, description: 'Deleted' }, errors: [404],
  },
  {
    method: 'post', path: `${path}/{endpoint_id}/rotate_secret`, summary: 'Issue a new signing secret; the previous one also signs for one day', tag,
    auth: ['api_token'], permission: 'write',
    response: { status: 200, description: 'The endpoint, with the new `secret`', schema: webhookEndpointEnvelope }, errors: [404],
  },
  {
    method: 'post', path: `${path}/{endpoint_id}/test`, summary: 'Send a `webhook.test` delivery now (one attempt, never counted) and answer its outcome', tag,
    auth: ['api_token'], permission: 'write',
    response: { status: 201, description: 'The test delivery with its attempt', schema: webhookDeliveryEnvelope }, errors: [404],
  },
  {
    method: 'get', path: `${path}/{endpoint_id}/deliveries`, summary: "List an endpoint's deliveries with their attempts, newest first", tag,
    auth: ['api_token'], permission: 'read', query: webhookDeliveryListQuery,
    response: { status: 200, description: 'A page of deliveries', schema: webhookDeliveryList }, errors: [400, 404],
  },
  {
    method: 'get', path: `${path}/{endpoint_id}/deliveries/{delivery_id}`, summary: 'Read one delivery with its attempts', tag,
    auth: ['api_token'], permission: 'read',
    response: { status: 200, description: 'The delivery', schema: webhookDeliveryEnvelope }, errors: [404],
  },
];
