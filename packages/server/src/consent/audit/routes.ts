// The audit trail's API: `GET /api/v1/audit/events`, `GET /api/v1/audit/anchors`, `GET /api/v1/audit/anchors/{id}`,
// `GET /api/v1/audit/anchors/{id}/receipts`, and the witness description at `/.well-known/witness-configuration`.
import { anchorReceipts as anchorReceiptsSchema, auditAnchorEnvelope, auditAnchorList, auditEventList, auditListQuery } from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { defaultApplication, getApplication } from '../../platform/application-store.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import { route } from '../../infra/http/route.js';
import { anchorReceipts, findAnchor, listAnchors } from './anchor.js';
import { listAuditEvents } from './chain.js';
import { ANCHOR_FORMAT, ANCHOR_INTERVAL_SECONDS } from './witness.js';
import { witnessesOf } from './witnesses.js';

const DEFAULT_AUDIT_LIMIT = 100;

function applicationOf(ctx: ServerContext, c: Context<Env>, applicationId: string | undefined): string {
  const accountId = c.get('principal').accountId;
  const application = applicationId === undefined ? defaultApplication(ctx, accountId) : getApplication(ctx, accountId, applicationId);
  if (!application) throw notFound('No such application.');
  return application.id;
}

const tag = 'Audit trail';

/** Mounts the audit routes. */
export function auditRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  route(
    app,
    {
      method: 'get',
      path: '/api/v1/audit/events',
      summary: "An application's hash-chained audit events, oldest first (default: the account's first application)",
      tag,
      permission: 'read',
      query: auditListQuery,
      response: { status: 200, description: 'A page of audit events', schema: auditEventList },
      errors: [400, 404],
    },
    (c, { query: { application_id, limit = DEFAULT_AUDIT_LIMIT, cursor } }) =>
      c.json(listAuditEvents(ctx, applicationOf(ctx, c, application_id), { limit, cursor })),
  );

  route(
    app,
    {
      method: 'get',
      path: '/api/v1/audit/anchors',
      summary: "An application's audit anchors (signed Merkle roots), oldest first",
      tag,
      permission: 'read',
      query: auditListQuery,
      response: { status: 200, description: 'A page of anchors', schema: auditAnchorList },
      errors: [400, 404],
    },
    (c, { query: { application_id, limit = DEFAULT_AUDIT_LIMIT, cursor } }) =>
      c.json(listAnchors(ctx, applicationOf(ctx, c, application_id), { limit, cursor })),
  );

  route(
    app,
    {
      method: 'get',
      path: '/api/v1/audit/anchors/{id}',
      summary: 'Read an audit anchor',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The anchor', schema: auditAnchorEnvelope },
      errors: [404],
    },
    (c) => {
      const anchor = findAnchor(ctx, c.get('principal').accountId, c.req.param('id')!);
      if (!anchor) throw notFound('No such anchor.');
      return c.json({ anchor });
    },
  );

  route(
    app,
    {
      method: 'get',
      path: '/api/v1/audit/anchors/{id}/receipts',
      summary: 'The witness receipts (countersignatures) of an anchor',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The anchor receipts', schema: anchorReceiptsSchema },
      errors: [404],
    },
    (c) => {
      const anchor = findAnchor(ctx, c.get('principal').accountId, c.req.param('id')!);
      if (!anchor) throw notFound('No such anchor.');
      return c.json({ anchor_id: anchor.id, receipts: anchorReceipts(ctx, anchor.id) });
    },
  );

  route(
    app,
    {
      method: 'get',
      path: '/.well-known/witness-configuration',
      summary: "The audit trail's witnesses (an RFC 3161 authority each, or the local witness) and how anchors are checked",
      tag,
      response: { status: 200, description: 'The witness configuration' },
    },
    async (c) => {
      c.header('Cache-Control', 'public, max-age=300');
      const witnesses = (await witnessesOf(ctx)).map((w) => w.configuration());
      return c.json({
        external: witnesses.every((w) => w.external),
        witnesses,
        anchor_format: ANCHOR_FORMAT,
        anchor_interval_seconds: ANCHOR_INTERVAL_SECONDS,
      });
    },
  );
}
