// Form platform connections (`/api/v1/applications/{id}/form_connections`) and the inbound signed webhook
// (`POST /hooks/forms/{connection_id}`), Typeform-compatible.
import {
  createFormConnectionRequest,
  formConnectionEnvelope,
  formConnectionList,
  formSubmissionResult,
  listQuery,
  typeformWebhook,
  type FormSubmissionResult,
} from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { z } from 'zod/mini';
import { recordActivity } from '../../infra/activity.js';
import { getApplication } from '../../platform/application-store.js';
import { limitBody } from '../../infra/body-limit.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { transaction } from '../../infra/transaction.js';
import { ApiError, badRequest, notFound, unprocessable } from '../../infra/errors.js';
import { route } from '../../infra/http/route.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { validate } from '../../infra/validate.js';
import { getActiveFlowVersion } from '../../platform/flows/store.js';
import { createConsentRecord } from '../records/service.js';
import { FlowTermsResolver } from '../records/terms.js';
import { checkMapping } from './mapping.js';
import {
  deleteConnection,
  findApplicationConnection,
  findConnection,
  findSubmission,
  insertConnection,
  insertSubmission,
  listConnections,
  liveSecrets,
  rotateConnectionSecret,
  toConnection,
  type ConnectionRow,
} from './store.js';
import { readSubmission, SIGNATURE_HEADER, verifySignature } from './typeform.js';

/** Largest submission body accepted (Typeform's payloads are a few kilobytes). */
export const SUBMISSION_BODY_LIMIT = 512 * 1024;

const base = '/api/v1/applications/{id}/form_connections';

function application(ctx: ServerContext, c: Context<Env>) {
  const app = getApplication(ctx, c.get('principal').accountId, c.req.param('id') ?? '');
  if (!app) throw notFound('No such application.');
  return app;
}

function connection(ctx: ServerContext, c: Context<Env>): ConnectionRow {
  const app = application(ctx, c);
  const row = findApplicationConnection(ctx, app.id, c.req.param('connection_id') ?? '');
  if (!row) throw notFound('No such form connection.');
  return row;
}

/**
 * Takes one signed submission. Order: the connection (404), the signature over the raw bytes (401), the JSON and
 * its shape (400/422), the form (422 `form_mismatch`), a replay (200 `duplicate`, nothing written), the mapping's
 * reading and the attestation rules (422, also logged as `form_connection.submission_refused` activity), then
 * the record (channel `form_platform_webhook`, platform `typeform`).
 */
async function receive(ctx: ServerContext, c: Context): Promise<FormSubmissionResult> {
  const row = findConnection(ctx, c.req.param('connection_id') ?? '');
  if (!row) throw notFound('No such form connection.');
  const body = new Uint8Array(await c.req.arrayBuffer());
  if (!verifySignature(c.req.header(SIGNATURE_HEADER), body, liveSecrets(ctx, row))) {
    // A 401 names its scheme (RFC 9110 §15.5.2): here an HMAC signature header, not a bearer token.
    throw new ApiError(401, `${SIGNATURE_HEADER} is missing or does not match the connection's signing secret.`, {
      code: 'invalid_signature',
      headers: { 'www-authenticate': `Signature realm="svc", header="${SIGNATURE_HEADER}"` },
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (err) {
    throw badRequest('Request body is not valid JSON.', 'malformed_json', undefined, { cause: err });
  }
  const payload = validate(typeformWebhook, json, 'Submission');
  if (payload.event_type !== 'form_response') {
    throw unprocessable(`Event type "${payload.event_type.slice(0, 100)}" is not a form response.`, 'unsupported_event_type', [
      { path: 'event_type', code: 'unsupported_event_type', message: 'only form_response is taken' },
    ]);
  }
  const response = payload.form_response;
  if (row.form_id !== null && response.form_id !== row.form_id) {
    throw unprocessable('The submission is for another form than the connection maps.', 'form_mismatch', [
      { path: 'form_response.form_id', code: 'form_mismatch', message: `expected ${row.form_id}` },
    ]);
  }
  const earlier = findSubmission(ctx, row.id, response.token);
  if (earlier) return { status: 'duplicate', record_id: earlier };

  const refuse = (err: ApiError): never => {
    recordActivity(ctx, row.application_id, 'form_connection.submission_refused', {
      connection_id: row.id,
      code: err.code ?? null,
      errors: (err.errors ?? []).map(({ path, code }) => ({ path, code })),
    });
    throw err;
  };
  try {
    const version = getActiveFlowVersion(ctx, row.flow_id);
    if (!version) throw unprocessable("The connection's flow is no longer active.", 'flow_not_active');
    const reading = readSubmission(
      version.config,
      {
        fields: JSON.parse(row.fields),
        subject: JSON.parse(row.subject),
        purposes: JSON.parse(row.purposes),
      },
      response,
    );
    if (!reading.ok)
      throw unprocessable(`The submission was refused: ${reading.errors.map((e) => e.message).join(' ')}`, reading.code, reading.errors);
    const submitted = response.submitted_at !== undefined ? Date.parse(response.submitted_at) : NaN;
    const capturedAt = new Date(Number.isFinite(submitted) ? Math.min(submitted, ctx.clock.now()) : ctx.clock.now()).toISOString();
    return transaction(ctx.db, (): FormSubmissionResult => {
      const { record } = createConsentRecord(ctx, {
        accountId: row.account_id,
        applicationId: row.application_id,
        flowId: row.flow_id,
        subject: reading.subject,
        decisions: reading.decisions,
        capturedAt,
        channel: 'form_platform_webhook',
        idempotencyKey: `typeform:${row.id}:${response.token}`,
        collectionPlatform: row.platform,
        // The mapping declared each field's type and required flag as the form definition has them.
        presentationAttested: true,
      });
      insertSubmission(ctx, row.id, response.token, record.id);
      return { status: 'recorded', record_id: record.id };
    });
  } catch (err) {
    if (err instanceof ApiError && err.status === 422) refuse(err);
    throw err;
  }
}

/** `POST …/form_connections`: a new connection whose mapping the flow's terms accept, with its signing secret (once). */
function connect(ctx: ServerContext, c: Context<Env>, input: z.output<typeof createFormConnectionRequest>['form_connection']): Response {
  const app = application(ctx, c);
  // The flow must be the application's, active and capturable: the records service's resolver answers that.
  new FlowTermsResolver(ctx, app.account_id, input.flow_id, app.id).check();
  const version = getActiveFlowVersion(ctx, input.flow_id)!;
  const mapping = { fields: input.fields, subject: input.subject, purposes: input.purposes };
  const errors = checkMapping(version.config, mapping);
  if (errors.length) {
    throw unprocessable(`The mapping was refused: ${errors.map((e) => e.message).join(' ')}`, 'mapping_refused', errors);
  }
  const { row, secret } = insertConnection(ctx, {
    account_id: app.account_id,
    application_id: app.id,
    flow_id: input.flow_id,
    platform: input.platform,
    name: input.name,
    form_id: input.form_id ?? null,
    ...mapping,
  });
  return c.json({ form_connection: toConnection(ctx, row, secret) }, 201);
}

const tag = 'Form platforms';

/** Mounts the form connection routes and the inbound hook. */
export function formPlatformRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  route(
    app,
    {
      method: 'get',
      path: base,
      summary: "List an application's form platform connections",
      tag,
      permission: 'read',
      query: listQuery,
      response: { status: 200, description: 'A page of connections, oldest first', schema: formConnectionList },
      errors: [400, 404],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor } }) => c.json(listConnections(ctx, application(ctx, c).id, { limit, cursor })),
  );

  route(
    app,
    {
      method: 'post',
      path: base,
      summary: 'Connect a Typeform-compatible form: its fields, the mapping to purposes and email; returns the signing secret once',
      tag,
      permission: 'write',
      body: createFormConnectionRequest,
      response: { status: 201, description: 'The connection with its signing secret', schema: formConnectionEnvelope },
      errors: [404, 422],
    },
    (c, { body }) => connect(ctx, c, body.form_connection),
  );

  route(
    app,
    {
      method: 'get',
      path: `${base}/{connection_id}`,
      summary: 'Read a form connection',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The connection', schema: formConnectionEnvelope },
      errors: [404],
    },
    (c) => c.json({ form_connection: toConnection(ctx, connection(ctx, c)) }),
  );

  route(
    app,
    {
      method: 'delete',
      path: `${base}/{connection_id}`,
      summary: 'Remove a form connection (its records stay)',
      tag,
      permission: 'write',
      response: { status: 204, description: 'Removed' },
      errors: [404],
    },
    (c) => {
      deleteConnection(ctx, connection(ctx, c).id);
      return c.body(null, 204);
    },
  );

  route(
    app,
    {
      method: 'post',
      path: `${base}/{connection_id}/rotate_secret`,
      summary: 'Issue a new signing secret; the previous one still verifies for one day',
      tag,
      permission: 'write',
      response: { status: 200, description: 'The connection with its new signing secret', schema: formConnectionEnvelope },
      errors: [404],
    },
    (c) => {
      const { row, secret } = rotateConnectionSecret(ctx, connection(ctx, c));
      return c.json({ form_connection: toConnection(ctx, row, secret) });
    },
  );

  // No `body`: the signature is over the raw bytes, so `receive` reads and checks the body itself.
  route(
    app,
    {
      method: 'post',
      path: '/hooks/forms/{connection_id}',
      summary: 'Inbound form submission (Typeform webhook), signed with Typeform-Signature: sha256=<base64 HMAC-SHA256 of the raw body>',
      tag,
      auth: [],
      rawBody: typeformWebhook,
      middleware: [limitBody(SUBMISSION_BODY_LIMIT)],
      response: {
        status: 200,
        description: 'The record made, or found again for a replayed submission token',
        schema: formSubmissionResult,
      },
      errors: [400, 401, 404, 413, 422],
    },
    async (c) => c.json(await receive(ctx, c)),
  );
}
