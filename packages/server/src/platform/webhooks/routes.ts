import {
  createWebhookEndpointRequest,
  listQuery,
  updateWebhookEndpointRequest,
  webhookDeliveryEnvelope,
  webhookDeliveryList,
  webhookDeliveryListQuery,
  webhookEndpointEnvelope,
  webhookEndpointList,
} from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { route, routes } from '../../infra/http/route.js';
import { getApplication, type ApplicationRecord } from '../application-store.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { ApiError, notFound, unprocessable } from '../../infra/errors.js';
import { checkDestination, policyOf } from '../../infra/outbound/index.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { webhookService, type WebhookService } from './service.js';
import {
  countEndpoints,
  type EndpointRow,
  createEndpoint,
  createTestDelivery,
  deleteEndpoint,
  findEndpoint,
  getDelivery,
  listDeliveries,
  listEndpoints,
  MAX_ENDPOINTS_PER_APPLICATION,
  redeliver,
  rotateSecret,
  toEndpoint,
  updateEndpoint,
} from './store.js';

function ownedApplication(ctx: ServerContext, accountId: string, id: string): ApplicationRecord {
  const app = getApplication(ctx, accountId, id);
  if (!app) throw notFound('No such application.');
  return app;
}

/**
 * Production applications deliver over HTTPS only, and only to public addresses: a URL whose host is, or resolves
 * to, a loopback, private, link-local (cloud metadata) or other special address is refused here, and every delivery
 * checks the address it connects to again (infra/outbound). Development applications (the sandbox) may use plain
 * http and any host, loopback included, so a receiver on the developer's machine works.
 */
async function checkUrl(url: string, application: ApplicationRecord, path: string, service: WebhookService): Promise<void> {
  if (application.environment === 'production' && !url.startsWith('https:')) {
    throw unprocessable(`${path}: a production application delivers webhooks over https only.`, 'insecure_webhook_url', [
      { path, code: 'insecure_webhook_url', message: 'must be an https URL for a production application' },
    ]);
  }
  const { lookup } = service.worker.settings;
  const refusal = await checkDestination(url, policyOf(application.environment), { lookup });
  if (refusal) {
    throw unprocessable(`${path}: ${refusal.message}`, 'non_public_webhook_url', [
      { path, code: 'non_public_webhook_url', message: refusal.message },
    ]);
  }
}

const tag = 'Webhooks';
const base = '/api/v1/applications/{id}/webhook_endpoints';

/**
 * `GET|POST /api/v1/applications/{id}/webhook_endpoints`, `GET|PATCH|DELETE .../webhook_endpoints/{endpoint_id}`,
 * `POST .../rotate_secret`, `POST .../test`, `GET .../deliveries`, `GET .../deliveries/{delivery_id}`,
 * `POST .../deliveries/{delivery_id}/redeliver`.
 */
export const webhookRoutes = routes((app, ctx) => {
  const service = webhookService(ctx);
  const applicationOf = (c: Context<Env>) => ownedApplication(ctx, c.get('principal').accountId, c.req.param('id')!);
  const endpointOf = (c: Context<Env>) => {
    const application = applicationOf(c);
    const row = findEndpoint(ctx, application.id, c.req.param('endpoint_id')!);
    if (!row) throw notFound('No such webhook endpoint.');
    return { application, row };
  };
  endpointRoutes(app, ctx, service, applicationOf, endpointOf);
  deliveryRoutes(app, ctx, service, endpointOf);
  redeliverRoute(app, ctx, service, endpointOf);
});

type ApplicationOf = (c: Context<Env>) => ApplicationRecord;
type EndpointOf = (c: Context<Env>) => { application: ApplicationRecord; row: EndpointRow };

/** The endpoints themselves: subscribe, read, change, delete, rotate the signing secret. */
function endpointRoutes(
  app: OpenAPIHono<Env>,
  ctx: ServerContext,
  service: WebhookService,
  applicationOf: ApplicationOf,
  endpointOf: EndpointOf,
): void {
  route(
    app,
    {
      method: 'get',
      path: base,
      summary: "List an application's webhook endpoints (never their secrets)",
      tag,
      permission: 'read',
      query: listQuery,
      response: { status: 200, description: 'A page of webhook endpoints', schema: webhookEndpointList },
      errors: [400, 404],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor } }) => c.json(listEndpoints(ctx, applicationOf(c).id, { limit, cursor })),
  );

  route(
    app,
    {
      method: 'post',
      path: base,
      summary: 'Subscribe a URL to event types; the signing secret is returned only here',
      tag,
      permission: 'write',
      body: createWebhookEndpointRequest,
      response: { status: 201, description: 'The endpoint, with `secret` set', schema: webhookEndpointEnvelope },
      errors: [404],
    },
    async (c, { body: { webhook_endpoint: input } }) => {
      const application = applicationOf(c);
      await checkUrl(input.url, application, 'webhook_endpoint.url', service);
      if (countEndpoints(ctx, application.id) >= MAX_ENDPOINTS_PER_APPLICATION) {
        throw unprocessable(
          `An application can have at most ${MAX_ENDPOINTS_PER_APPLICATION} webhook endpoints.`,
          'too_many_webhook_endpoints',
        );
      }
      const { row, secret } = createEndpoint(ctx, service.sealer, application.id, input);
      return c.json({ webhook_endpoint: toEndpoint(row, ctx.clock.now(), secret) }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${base}/{endpoint_id}`,
      summary: 'Read a webhook endpoint',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The endpoint', schema: webhookEndpointEnvelope },
      errors: [404],
    },
    (c) => c.json({ webhook_endpoint: toEndpoint(endpointOf(c).row, ctx.clock.now()) }),
  );

  route(
    app,
    {
      method: 'patch',
      path: `${base}/{endpoint_id}`,
      summary: 'Change url, events, description or status; `status: enabled` re-enables and resets the failure count',
      tag,
      permission: 'write',
      body: updateWebhookEndpointRequest,
      response: { status: 200, description: 'The endpoint', schema: webhookEndpointEnvelope },
      errors: [404],
    },
    async (c, { body: { webhook_endpoint: changes } }) => {
      const { application, row } = endpointOf(c);
      if (changes.url !== undefined) await checkUrl(changes.url, application, 'webhook_endpoint.url', service);
      const updated = updateEndpoint(ctx, row, changes);
      if (changes.status === 'enabled') service.worker.kick();
      return c.json({ webhook_endpoint: toEndpoint(updated, ctx.clock.now()) });
    },
  );

  route(
    app,
    {
      method: 'delete',
      path: `${base}/{endpoint_id}`,
      summary: 'Delete a webhook endpoint; its pending deliveries fail',
      tag,
      permission: 'write',
      response: { status: 204, description: 'Deleted' },
      errors: [404],
    },
    (c) => {
      deleteEndpoint(ctx, endpointOf(c).row);
      return c.body(null, 204);
    },
  );

  route(
    app,
    {
      method: 'post',
      path: `${base}/{endpoint_id}/rotate_secret`,
      summary: 'Issue a new signing secret; the previous one also signs for one day',
      tag,
      permission: 'write',
      response: { status: 200, description: 'The endpoint, with the new `secret`', schema: webhookEndpointEnvelope },
      errors: [404],
    },
    (c) => {
      const rotated = rotateSecret(ctx, service.sealer, endpointOf(c).row);
      return c.json({ webhook_endpoint: toEndpoint(rotated.row, ctx.clock.now(), rotated.secret) });
    },
  );
}

/** An endpoint's deliveries: a test delivery sent now, the list and one delivery with its attempts. */
function deliveryRoutes(app: OpenAPIHono<Env>, ctx: ServerContext, service: WebhookService, endpointOf: EndpointOf): void {
  route(
    app,
    {
      method: 'post',
      path: `${base}/{endpoint_id}/test`,
      summary: 'Send a `webhook.test` delivery now (one attempt, never counted) and answer its outcome',
      tag,
      permission: 'write',
      response: { status: 201, description: 'The test delivery with its attempt', schema: webhookDeliveryEnvelope },
      errors: [404],
    },
    async (c) => {
      const { row } = endpointOf(c);
      const deliveryId = createTestDelivery(ctx, service.sealer, row);
      await service.worker.attempt(deliveryId);
      return c.json({ delivery: getDelivery(ctx, row.id, deliveryId)! }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${base}/{endpoint_id}/deliveries`,
      summary: "List an endpoint's deliveries with their attempts, newest first",
      tag,
      permission: 'read',
      query: webhookDeliveryListQuery,
      response: { status: 200, description: 'A page of deliveries', schema: webhookDeliveryList },
      errors: [400, 404],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, status, event_id } }) =>
      c.json(listDeliveries(ctx, endpointOf(c).row.id, { limit, cursor, status, event_id })),
  );

  route(
    app,
    {
      method: 'get',
      path: `${base}/{endpoint_id}/deliveries/{delivery_id}`,
      summary: 'Read one delivery with its attempts',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The delivery', schema: webhookDeliveryEnvelope },
      errors: [404],
    },
    (c) => {
      const delivery = getDelivery(ctx, endpointOf(c).row.id, c.req.param('delivery_id')!);
      if (!delivery) throw notFound('No such delivery.');
      return c.json({ delivery });
    },
  );
}

const REDELIVERY_REFUSALS = {
  delivery_pending: 'This delivery is still pending: wait for it to finish before redelivering it.',
  test_delivery: 'A test delivery is not sent again: send a new test event instead.',
} as const;

/** Sends a finished delivery again, through the outbox and the worker like every delivery. */
function redeliverRoute(app: OpenAPIHono<Env>, ctx: ServerContext, service: WebhookService, endpointOf: EndpointOf): void {
  route(
    app,
    {
      method: 'post',
      path: `${base}/{endpoint_id}/deliveries/{delivery_id}/redeliver`,
      summary:
        'Queue a finished delivery again, due now (same event id and body, signed when sent, retried like a new one); 409 while it is pending or the endpoint is disabled',
      tag,
      permission: 'write',
      response: { status: 202, description: 'The delivery, pending again', schema: webhookDeliveryEnvelope },
      errors: [404, 409],
    },
    (c) => {
      const { row } = endpointOf(c);
      const deliveryId = c.req.param('delivery_id')!;
      if (!getDelivery(ctx, row.id, deliveryId)) throw notFound('No such delivery.');
      if (row.status !== 'enabled') {
        throw new ApiError(409, 'This webhook endpoint is disabled: enable it before redelivering.', 'webhook_endpoint_disabled');
      }
      const outcome = redeliver(ctx, row.id, deliveryId);
      if (!outcome) throw notFound('No such delivery.');
      if ('refused' in outcome) throw new ApiError(409, REDELIVERY_REFUSALS[outcome.refused], outcome.refused);
      service.worker.kick();
      return c.json({ delivery: outcome.delivery }, 202);
    },
  );
}
