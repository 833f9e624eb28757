// `POST|GET /api/v1/mailing_connections`, `GET|DELETE /api/v1/mailing_connections/{id}` and the providers' inbound
// hook `GET|POST /hooks/mailing/{connection_id}/{secret}`. Registers the record-event listener that feeds the
// outbox and starts its worker.
import {
  createMailingConnectionRequest,
  listQuery,
  mailingConnectionEnvelope,
  mailingConnectionList,
  mailingHookResult,
} from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { z } from 'zod/mini';
import type { Env, ServerContext } from '../../infra/context.js';
import { ApiError, badRequest, notFound, unprocessable } from '../../infra/errors.js';
import { limitBody } from '../../infra/body-limit.js';
import { route, routes } from '../../infra/http/route.js';
import { hashSecret, safeEqual } from '../../infra/ids.js';
import { onClose } from '../../infra/lifecycle.js';
import { checkDestination, policyOf } from '../../infra/outbound/index.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { getApplication } from '../../platform/application-store.js';
import { getActiveFlowVersion, getFlow } from '../../platform/flows/store.js';
import { mailingClient, productionBaseUrlRefusal, ProviderError, type MailingClient } from './providers.js';
import {
  findAccountConnection,
  findMailingConnection,
  insertMailingConnection,
  listMailingConnections,
  markDisconnected,
  newConnectionIds,
  toMailingConnection,
  webhookUrl,
  type MailingConnectionRow,
} from './store.js';
import { applyInbound, onRecordEvent, readInbound } from './sync.js';
import { clientOf, MailingWorker, PROVIDER_TIMEOUT_MS } from './worker.js';

/** Largest inbound call taken (a provider's event is a few hundred bytes). */
export const HOOK_BODY_LIMIT = 64 * 1024;

const workers = new WeakMap<ServerContext, MailingWorker>();

/** The context's mailing worker (tests drain it). */
export function mailingWorker(ctx: ServerContext): MailingWorker | undefined {
  return workers.get(ctx);
}

type Input = z.output<typeof createMailingConnectionRequest>['mailing_connection'];

const refused = (path: string, code: string, message: string) => unprocessable(`${path}: ${message}`, code, [{ path, code, message }]);
const providerRefused = (err: unknown) =>
  refused('mailing_connection', 'provider_refused', err instanceof Error ? err.message : 'The provider refused.');

/** The flow's application, whose environment decides what `api_base_url` may be; 404/422 as flows answer. */
async function checkInput(ctx: ServerContext, accountId: string, input: Input) {
  const flow = getFlow(ctx, accountId, input.flow_id);
  if (!flow) throw notFound('No such flow.');
  const version = getActiveFlowVersion(ctx, flow.id);
  if (!version) throw refused('mailing_connection.flow_id', 'flow_not_active', 'the flow has no active version');
  if (!version.config.purposes.some((p) => p.key === input.purpose && p.basis === 'consent')) {
    throw refused('mailing_connection.purpose', 'unknown_purpose', `the flow has no consent purpose "${input.purpose}"`);
  }
  const application = getApplication(ctx, accountId, flow.application_id)!;
  const url = input.api_base_url;
  if (url !== undefined) {
    const own = application.environment === 'production' ? productionBaseUrlRefusal(input.provider, url) : undefined;
    if (own) throw refused('mailing_connection.api_base_url', own.code, own.message);
    const refusal = await checkDestination(url, policyOf(application.environment));
    if (refusal) throw refused('mailing_connection.api_base_url', 'non_public_api_base_url', refusal.message);
  }
  return application;
}

/** Verifies the list at the provider, stores the connection, then registers its webhook (which the provider may GET). */
async function connect(ctx: ServerContext, c: Context<Env>, input: Input): Promise<Response> {
  const accountId = c.get('principal').accountId;
  const application = await checkInput(ctx, accountId, input);
  let client: MailingClient;
  try {
    client = mailingClient({
      provider: input.provider,
      apiKey: input.api_key,
      apiBaseUrl: input.api_base_url ?? null,
      listId: input.list_id,
      marketingPermissionId: input.marketing_permission_id ?? null,
      timeoutMs: PROVIDER_TIMEOUT_MS,
    });
  } catch (err) {
    throw providerRefused(err); // e.g. a Mailchimp key without its data centre
  }
  await client.verify().catch((err: unknown) => {
    throw providerRefused(err);
  });
  const { id, secret } = newConnectionIds();
  const row = insertMailingConnection(ctx, {
    id,
    secret,
    account_id: accountId,
    application_id: application.id,
    provider: input.provider,
    api_key: input.api_key,
    api_base_url: input.api_base_url ?? null,
    list_id: input.list_id,
    flow_id: input.flow_id,
    purpose: input.purpose,
    marketing_permission_id: input.marketing_permission_id ?? null,
    provider_webhook_id: null,
  });
  let webhookId: string;
  try {
    webhookId = await client.registerWebhook(webhookUrl(ctx, id, secret));
  } catch (err) {
    ctx.db.prepare('DELETE FROM mailing_connections WHERE id = ?').run(id);
    throw providerRefused(err);
  }
  ctx.db.prepare('UPDATE mailing_connections SET provider_webhook_id = ? WHERE id = ?').run(webhookId, id);
  return c.json({ mailing_connection: toMailingConnection(ctx, { ...row, provider_webhook_id: webhookId }, secret) }, 201);
}

/** Unregisters the provider's webhook (a provider that no longer knows it is fine) and marks the connection disconnected. */
async function disconnect(ctx: ServerContext, row: MailingConnectionRow): Promise<void> {
  if (row.status === 'active' && row.provider_webhook_id) {
    try {
      await (await clientOf(ctx, row)).unregisterWebhook(row.provider_webhook_id);
    } catch (err) {
      // A provider that no longer knows the webhook or the key has nothing left to unregister; one that cannot be
      // reached is asked again later (the connection stays active until then).
      const gone = err instanceof ProviderError && (err.status === 401 || err.status === 403 || err.status === 404);
      if (!gone) {
        const reason = err instanceof Error ? err.message : 'no answer';
        throw new ApiError(503, `The mailing tool could not unregister the webhook (${reason}); try again later.`, 'provider_unavailable');
      }
    }
  }
  if (row.status === 'active') markDisconnected(ctx, row.id);
}

/** The connection the URL names, if its secret matches (constant time); the same 404 for every refusal. */
function hookConnection(ctx: ServerContext, c: Context): MailingConnectionRow {
  const row = findMailingConnection(ctx, c.req.param('connection_id') ?? '');
  const given = hashSecret(c.req.param('secret') ?? '');
  const matches = safeEqual(given, row?.webhook_secret_hash ?? hashSecret('no connection'));
  if (!row || !matches || row.status !== 'active') throw notFound('No such mailing connection.');
  return row;
}

/** The inbound call's fields: Mailchimp posts a form, Brevo JSON. */
async function inboundBody(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  const text = await c.req.text();
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest('Request body is neither a form nor JSON.', 'malformed_body', undefined, { cause: err });
  }
}

async function receive(ctx: ServerContext, c: Context): Promise<Response> {
  const row = hookConnection(ctx, c);
  const asked = readInbound(row.provider, await inboundBody(c));
  if (!asked) return c.json({ status: 'ignored' as const });
  try {
    return c.json({ status: await applyInbound(ctx, row, asked.email) });
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    // The member could not be read back: the provider is asked to send the event again.
    throw new ApiError(503, 'The mailing tool could not be read back; send the event again later.', 'provider_unavailable');
  }
}

const tag = 'Mailing connections';
const base = '/api/v1/mailing_connections';

/** Starts the context's worker and its record-event listener once, however many apps are built on the context. */
function startSync(ctx: ServerContext): void {
  if (workers.has(ctx)) return;
  const worker = new MailingWorker(ctx);
  workers.set(ctx, worker);
  worker.start();
  onClose(ctx, () => worker.stop());
  for (const type of ['consent.granted', 'consent.revoked', 'consent.purpose_revoked']) {
    ctx.events.on(type, (context, event) => onRecordEvent(context, event, () => worker.kick()));
  }
}

export const mailingRoutes = routes((app, ctx) => {
  startSync(ctx);
  apiRoutes(app, ctx);
  hookRoutes(app, ctx);
});

/** The connections API. */
function apiRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  const owned = (c: Context<Env>) => {
    const row = findAccountConnection(ctx, c.get('principal').accountId, c.req.param('id') ?? '');
    if (!row) throw notFound('No such mailing connection.');
    return row;
  };

  route(
    app,
    {
      method: 'post',
      path: base,
      summary: "Connect a Mailchimp audience or a Brevo list to a flow's purpose; registers the inbound webhook (API-sourced events off)",
      tag,
      permission: 'admin',
      body: createMailingConnectionRequest,
      response: { status: 201, description: 'The connection (its API key is never returned)', schema: mailingConnectionEnvelope },
      errors: [404, 422],
    },
    (c, { body }) => connect(ctx, c, body.mailing_connection),
  );
  route(
    app,
    {
      method: 'get',
      path: base,
      summary: "List the account's mailing connections",
      tag,
      permission: 'read',
      query: listQuery,
      response: { status: 200, description: 'A page of connections, oldest first', schema: mailingConnectionList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor } }) =>
      c.json(listMailingConnections(ctx, c.get('principal').accountId, { limit, cursor })),
  );
  route(
    app,
    {
      method: 'get',
      path: `${base}/{id}`,
      summary: 'Read a mailing connection',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The connection', schema: mailingConnectionEnvelope },
      errors: [404],
    },
    (c) => c.json({ mailing_connection: toMailingConnection(ctx, owned(c)) }),
  );
  route(
    app,
    {
      method: 'delete',
      path: `${base}/{id}`,
      summary: "Disconnect: unregisters the provider's webhook; records and withdrawals made stay",
      tag,
      permission: 'admin',
      response: { status: 204, description: 'Disconnected' },
      errors: [404, 503],
    },
    async (c) => {
      await disconnect(ctx, owned(c));
      return c.body(null, 204);
    },
  );
}

/** The providers' inbound hook: the URL check and the event. */
function hookRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  route(
    app,
    {
      method: 'get',
      path: '/hooks/mailing/{connection_id}/{secret}',
      summary: "The mailing tool's check of the webhook URL (Mailchimp GETs it when the webhook is registered)",
      tag,
      auth: [],
      response: { status: 200, description: 'The URL names a connection', schema: mailingHookResult },
      errors: [404],
    },
    (c) => {
      hookConnection(ctx, c);
      return c.json({ status: 'ignored' as const });
    },
  );
  route(
    app,
    {
      method: 'post',
      path: '/hooks/mailing/{connection_id}/{secret}',
      summary:
        'Inbound unsubscribe or permission change (Mailchimp: form-encoded type=unsubscribe|profile, data[email]; Brevo: JSON event=unsubscribed, email); applied only as a withdrawal, after reading the member back',
      tag,
      auth: [],
      middleware: [limitBody(HOOK_BODY_LIMIT)],
      response: { status: 200, description: 'Whether a withdrawal was made', schema: mailingHookResult },
      errors: [400, 404, 413, 503],
    },
    (c) => receive(ctx, c),
  );
}
