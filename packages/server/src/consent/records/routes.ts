// Consent records, imports and consent status: `GET|POST /api/v1/consent_records`, `GET /api/v1/consent_records/{id}`,
// `POST /api/v1/consent_records/{id}/withdraw`, `POST /api/v1/consent_records/imports`,
// `GET /api/v1/consent_records/imports/{id}`, `GET /api/v1/applications/{id}/consent_status`.
import {
  consentImportEnvelope,
  consentRecordEnvelope,
  consentStatus,
  consentStatusQuery,
  createConsentRecordRequest,
  createImportRequest,
  type CreateConsentRecordRequest,
  withdrawConsentRecordRequest,
} from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { assertCountryCell, assertCreatesHere } from '../../infra/cells/routing.js';
import { z } from 'zod/mini';
import { getApplication } from '../../platform/application-store.js';
import { limitBody } from '../../infra/body-limit.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { ApiError, notFound } from '../../infra/errors.js';
import { route } from '../../infra/http/route.js';
import { transaction } from '../../infra/transaction.js';
import { readJson } from '../../infra/validate.js';
import { isAuthorizationRecord } from '../authorizations/store.js';
import { signatureEvidenceFor } from '../../surfaces/agree/agreements/store.js';
import { getImport, runImport } from './imports.js';
import { consentActivityRoute } from './activity.js';
import { recordListRoute } from './list.js';
import { createConsentRecord, findPerson, getConsentRecord, termsResolver, withdrawConsentRecord } from './service.js';
import type { FlowTermsResolver } from './terms.js';
import { consentStatusOf } from './status.js';

/** Path of the import, which takes bodies above the default 1 MB limit (app.ts leaves it to the route's own limit). */
export const IMPORTS_PATH = '/api/v1/consent_records/imports';

/** Largest import body: 5000 rows of up to 50 purposes fit. */
export const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * The 404 for an id that is no consent record of the account. An approval's authorization record is not a consent
 * record (it has no purposes, person or withdrawal); the answer says where its receipt is.
 */
function noConsentRecord(ctx: ServerContext, accountId: string, id: string): ApiError {
  if (isAuthorizationRecord(ctx, accountId, id)) {
    return notFound(
      `${id} is an authorization record (an approval's), not a consent record: its receipt is at /api/v1/consent_receipts/${id}.`,
    );
  }
  return notFound('No such consent record.');
}

/** `POST /api/v1/consent_records`: 201 with the new record, 200 with the earlier one when the idempotency key repeats. */
function createRecord(ctx: ServerContext, c: Context<Env>, body: CreateConsentRecordRequest): Response {
  const accountId = c.get('principal').accountId;
  assertCountryCell(ctx, body.subject.country, 'subject.country');
  // Where it is homed, its signature and the record itself are read and written in one transaction; the flow and its
  // application are read once, for the home and for the record.
  const { record, created } = transaction(ctx.db, () => {
    const terms = termsResolver(ctx, { accountId, flowId: body.flow_id, channel: RECORD_API_CHANNEL });
    const home = body.subject.country ?? terms.home();
    if (home) assertCreatesHere(ctx, home);
    return recordRequested(ctx, accountId, body, terms);
  });
  c.header('Location', `/api/v1/consent_records/${record.id}`);
  return c.json({ consent_record: record }, created ? 201 : 200);
}

/** The channel of the Record API. */
const RECORD_API_CHANNEL = 'controller_attested';

/** The record a Record API request asks for (channel `controller_attested`), under the flow terms `terms` resolves. */
function recordRequested(ctx: ServerContext, accountId: string, body: CreateConsentRecordRequest, terms: FlowTermsResolver) {
  const signatureEvidence = body.signature && signatureEvidenceFor(ctx, accountId, body.signature, body.subject.email);
  return createConsentRecord(
    ctx,
    {
      accountId,
      flowId: body.flow_id,
      subject: body.subject,
      decisions: body.decisions,
      capturedAt: body.captured_at,
      channel: RECORD_API_CHANNEL,
      idempotencyKey: body.idempotency_key,
      locale: body.locale,
      noticeHash: body.notice_hash,
      clientFacts: body.client_facts,
      suppressReceipt: body.suppress_receipt,
      signatureEvidence,
    },
    { terms },
  );
}

const tag = 'Consent records';

/** Mounts the record (list included), import and consent status routes. */
export function recordRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  recordListRoute(app, ctx, tag);
  consentActivityRoute(app, ctx, tag);
  route(
    app,
    {
      method: 'post',
      path: '/api/v1/consent_records',
      summary:
        "Record decisions made in the organisation's own systems (Record API, channel controller_attested); naming a signature ({agreement_id, party_id}, the subject's own) adds extensions.signature_evidence to the receipt",
      tag,
      permission: 'write',
      body: createConsentRecordRequest,
      response: {
        status: 201,
        description: 'The record (200 with the earlier record when the idempotency key repeats)',
        schema: consentRecordEnvelope,
      },
      errors: [404, 422],
    },
    (c, { body }) => createRecord(ctx, c, body),
  );

  importRoutes(app, ctx);

  route(
    app,
    {
      method: 'get',
      path: '/api/v1/consent_records/{id}',
      summary: 'Read a consent record with its current status and purpose outcomes',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The record', schema: consentRecordEnvelope },
      errors: [404],
    },
    (c) => {
      const accountId = c.get('principal').accountId;
      const record = getConsentRecord(ctx, accountId, c.req.param('id')!);
      if (!record) throw noConsentRecord(ctx, accountId, c.req.param('id')!);
      return c.json({ consent_record: record });
    },
  );

  // 404 before the body is read, for an id that is no consent record of the account.
  const recordExists: MiddlewareHandler<Env> = async (c, next) => {
    const accountId = c.get('principal').accountId;
    if (!getConsentRecord(ctx, accountId, c.req.param('id')!)) throw noConsentRecord(ctx, accountId, c.req.param('id')!);
    await next();
  };
  route(
    app,
    {
      method: 'post',
      path: '/api/v1/consent_records/{id}/withdraw',
      summary: 'Withdraw some or all purposes of a record (objection for a legitimate interest)',
      tag,
      permission: 'write',
      middleware: [recordExists],
      body: withdrawConsentRecordRequest,
      response: { status: 200, description: 'The record after the withdrawal', schema: consentRecordEnvelope },
      errors: [404, 422],
    },
    (c, { body }) => {
      const record = withdrawConsentRecord(ctx, c.get('principal').accountId, c.req.param('id')!, {
        purposes: body.purposes,
        eventChannel: body.event_channel ?? 'organisation',
      });
      return c.json({ consent_record: record });
    },
  );

  route(
    app,
    {
      method: 'get',
      path: '/api/v1/applications/{id}/consent_status',
      summary: "One person's consent status with an application",
      tag,
      permission: 'read',
      query: consentStatusQuery,
      response: { status: 200, description: 'The consent status', schema: consentStatus },
      errors: [400, 404],
    },
    (c, { query }) => {
      const accountId = c.get('principal').accountId;
      const application = getApplication(ctx, accountId, c.req.param('id')!);
      if (!application) throw notFound('No such application.');
      const person = findPerson(ctx, accountId, application.id, {
        externalId: query['subject[external_id]'],
        email: query['subject[email]'],
        personId: query.person_id,
      });
      if (!person) throw new ApiError(404, 'No consent record names this person for the application.', 'subject_not_found');
      return c.json(consentStatusOf(ctx, application.id, person, { flowId: query.flow_id }));
    },
  );
}

/** The import and reading an import back. */
function importRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  // No `body`: the envelope and each row are checked by `runImport`, so one bad row is refused by name, not the import.
  route(
    app,
    {
      method: 'post',
      path: IMPORTS_PATH,
      summary: 'Import up to 5000 records captured elsewhere (channel imported); dry_run reports and writes nothing',
      tag,
      permission: 'write',
      rawBody: createImportRequest,
      middleware: [limitBody(IMPORT_BODY_LIMIT)],
      response: {
        status: 201,
        description: 'The import with per-row results (200 for a dry run, which is not stored)',
        schema: consentImportEnvelope,
      },
      errors: [404, 413, 422],
    },
    async (c) => {
      const body = await readJson(c, z.unknown());
      const result = runImport(ctx, c.get('principal').accountId, body);
      if (result.stored) c.header('Location', `${IMPORTS_PATH}/${result.import.id}`);
      return c.json({ import: result.import }, result.stored ? 201 : 200);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${IMPORTS_PATH}/{id}`,
      summary: 'Read an import and its per-row results',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The import', schema: consentImportEnvelope },
      errors: [404],
    },
    (c) => {
      const found = getImport(ctx, c.get('principal').accountId, c.req.param('id')!);
      if (!found) throw notFound('No such import (dry runs are not stored).');
      return c.json({ import: found });
    },
  );
}
