// Receipts: `GET /api/v1/consent_receipts/{record_id}?flavor=canonical|dpv|signed` (every record kind: consent
// records, the authorization records approvals and grants leave, the notice records of disclosures), `GET /api/v1/authorization_receipts/{record_id}` (the
// spec's path for authorization records only), and the published receipt schema at `/schemas/receipt/v2/record.json`
// (the message and webhook schemas beside it: ./published-schemas.ts).
import {
  authorizationReceiptRecord,
  consentReceiptEnvelope,
  receiptQuery,
  signedReceipt,
  type ReceiptFlavor,
  type ReceiptRecord,
} from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod/mini';
import { readAuthorizationReceipt } from '../authorizations/store.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { ApiError, notFound } from '../../infra/errors.js';
import { route } from '../../infra/http/route.js';
import { readReceipt } from '../records/read.js';
import { readNoticeReceipt } from '../../authority/disclosures/store.js';
import { DpvNotApplicableError, toDpv } from './dpv.js';
import { receiptSchemaText } from './json-schema.js';
import { publishedSchemaRoutes } from './published-schemas.js';
import { signJcs } from './sign.js';

/** The signed flavor of a receipt: `{receipt, signature}` with a detached compact JWS over the JCS bytes. */
export async function signReceipt(ctx: ServerContext, receipt: ReceiptRecord): Promise<{ receipt: ReceiptRecord; signature: string }> {
  return { receipt, signature: await signJcs(receipt, ctx.keys.privateKey, ctx.keys.kid) };
}

/**
 * The dpv flavor, or 422 `dpv_not_applicable` naming the `flavor` parameter (Errors rule 11: an authorization record
 * without personal-data processing has nothing the vocabulary describes).
 */
export function dpvFlavor(receipt: ReceiptRecord): Record<string, unknown> {
  try {
    return toDpv(receipt);
  } catch (err) {
    if (err instanceof DpvNotApplicableError) {
      throw new ApiError(422, err.message, {
        code: err.code,
        errors: [{ path: 'flavor', code: err.code, message: 'dpv is not available for this record; use canonical or signed' }],
        cause: err,
      });
    }
    throw err;
  }
}

/** `{authorization_receipt}`: the spec's canonical envelope of an authorization receipt. */
export const authorizationReceiptEnvelope = z.object({ authorization_receipt: authorizationReceiptRecord });

/** Answers a receipt in `flavor`; the canonical flavor in the envelope `canonical` makes. */
async function sendReceipt(
  c: Context<Env>,
  ctx: ServerContext,
  receipt: ReceiptRecord,
  flavor: ReceiptFlavor,
  canonical: (r: ReceiptRecord) => object,
) {
  if (flavor === 'signed') return c.json(await signReceipt(ctx, receipt));
  if (flavor === 'dpv') return c.body(JSON.stringify(dpvFlavor(receipt)), 200, { 'Content-Type': 'application/ld+json' });
  return c.json(canonical(receipt));
}

const tag = 'Receipts';
const anyFlavor = (canonical: z.ZodMiniType) => z.union([canonical, signedReceipt, z.record(z.string(), z.unknown())]);

/** Mounts the receipt routes. */
export function receiptRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  // Every record kind: the receipt id is the record id, whichever kind the record is.
  route(
    app,
    {
      method: 'get',
      path: '/api/v1/consent_receipts/{id}',
      summary:
        "A record's receipt (consent record, or the authorization record of an approval): canonical ({consent_receipt}), dpv (JSON-LD) or signed ({receipt, signature})",
      tag,
      permission: 'read',
      query: receiptQuery,
      response: {
        status: 200,
        description:
          'canonical: {consent_receipt} (record_type consent_record or authorization_record); signed: {receipt, signature}; dpv: a JSON-LD document (application/ld+json). dpv of an authorization record without personal-data processing is 422 `dpv_not_applicable`.',
        schema: anyFlavor(consentReceiptEnvelope),
      },
      errors: [400, 404, 422],
    },
    async (c, { query: { flavor = 'canonical' } }) => {
      const accountId = c.get('principal').accountId;
      const id = c.req.param('id')!;
      const receipt =
        readReceipt(ctx, accountId, id) ?? readAuthorizationReceipt(ctx, accountId, id) ?? readNoticeReceipt(ctx, accountId, id);
      if (!receipt) throw notFound('No such record.');
      return sendReceipt(c, ctx, receipt, flavor, (r) => ({ consent_receipt: r }));
    },
  );

  // The spec's authorization receipt path (its `audit:verify` scope is the `read` permission here).
  route(
    app,
    {
      method: 'get',
      path: '/api/v1/authorization_receipts/{id}',
      summary: "An authorization record's receipt: canonical ({authorization_receipt}), dpv (JSON-LD) or signed ({receipt, signature})",
      tag,
      permission: 'audit:verify',
      query: receiptQuery,
      response: {
        status: 200,
        description:
          "canonical: {authorization_receipt}; signed: {receipt, signature}; dpv: refused with 422 `dpv_not_applicable` when the record has no personal-data processing (Errors rule 11). A consent record's id is 404.",
        schema: anyFlavor(authorizationReceiptEnvelope),
      },
      errors: [400, 404, 422],
    },
    async (c, { query: { flavor = 'canonical' } }) => {
      const receipt = readAuthorizationReceipt(ctx, c.get('principal').accountId, c.req.param('id')!);
      if (!receipt) throw notFound('No such authorization record (consent receipts are at /api/v1/consent_receipts/{id}).');
      return sendReceipt(c, ctx, receipt, flavor, (r) => ({ authorization_receipt: r }));
    },
  );

  route(
    app,
    {
      method: 'get',
      path: '/schemas/receipt/v2/record.json',
      summary: 'The JSON Schema of consent receipt v2',
      tag,
      response: { status: 200, description: 'application/schema+json' },
    },
    (c) => {
      c.header('Cache-Control', 'public, max-age=3600');
      c.header('Access-Control-Allow-Origin', '*');
      return c.body(receiptSchemaText(), 200, { 'Content-Type': 'application/schema+json' });
    },
  );
  publishedSchemaRoutes(app); // the message and webhook schemas beside it
}
