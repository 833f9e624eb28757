// Receipts: `GET /api/v1/consent_receipts/{record_id}?flavor=canonical|dpv|signed`, and the published receipt schema
// at `/schemas/receipt/v2/record.json`.
import { consentReceiptEnvelope, receiptQuery, signedReceipt, type ReceiptRecord } from '@svc/client/schemas';
import type { Hono } from 'hono';
import { z } from 'zod/mini';
import { requires } from '../lib/auth.js';
import type { Env, ServerContext } from '../lib/context.js';
import { ApiError, notFound } from '../lib/errors.js';
import type { Operation } from '../lib/operations.js';
import { readQuery } from '../lib/validate.js';
import { readReceipt } from '../records/service.js';
import { DpvNotApplicableError, toDpv } from './dpv.js';
import { receiptSchemaText } from './json-schema.js';
import { signJcs } from './sign.js';

/** The signed flavor of a receipt: `{receipt, signature}` with a detached compact JWS over the JCS bytes. */
export async function signReceipt(ctx: ServerContext, receipt: ReceiptRecord): Promise<{ receipt: ReceiptRecord; signature: string }> {
  return { receipt, signature: await signJcs(receipt, ctx.keys.privateKey, ctx.keys.kid) };
}

/** The dpv flavor, or 422 `dpv_not_applicable` (Errors rule 11). */
export function dpvFlavor(receipt: ReceiptRecord): Record<string, unknown> {
  try {
    return toDpv(receipt);
  } catch (err) {
    if (err instanceof DpvNotApplicableError) throw new ApiError(422, err.message, err.code);
    throw err;
  }
}

/** Mounts the receipt routes. */
export function receiptRoutes(app: Hono<Env>, ctx: ServerContext): void {
  app.get('/api/v1/consent_receipts/:id', requires('read'), async (c) => {
    const { flavor = 'canonical' } = readQuery(c, receiptQuery);
    const receipt = readReceipt(ctx, c.get('principal').accountId, c.req.param('id'));
    if (!receipt) throw notFound('No such consent record.');
    if (flavor === 'signed') return c.json(await signReceipt(ctx, receipt));
    if (flavor === 'dpv') return c.body(JSON.stringify(dpvFlavor(receipt)), 200, { 'Content-Type': 'application/ld+json' });
    return c.json({ consent_receipt: receipt });
  });

  app.get('/schemas/receipt/v2/record.json', (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    c.header('Access-Control-Allow-Origin', '*');
    return c.body(receiptSchemaText(), 200, { 'Content-Type': 'application/schema+json' });
  });
}

/** OpenAPI descriptors of the receipt routes. */
export const receiptOperations: Operation[] = [
  {
    method: 'get', path: '/api/v1/consent_receipts/{id}', summary: 'A consent record\'s receipt: canonical ({consent_receipt}), dpv (JSON-LD) or signed ({receipt, signature})', tag: 'Receipts',
    auth: ['api_token'], permission: 'read', query: receiptQuery,
    response: {
      status: 200,
      description: 'canonical: {consent_receipt}; signed: {receipt, signature}; dpv: a JSON-LD document (application/ld+json)',
      schema: z.union([consentReceiptEnvelope, signedReceipt, z.record(z.string(), z.unknown())]),
    },
    errors: [400, 404, 422],
  },
];
