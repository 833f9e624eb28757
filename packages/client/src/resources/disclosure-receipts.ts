import { disclosureReceiptEnvelope, type CreateDisclosureReceiptRequest, type DisclosureReceipt } from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';

const BASE = '/api/v1/disclosure_receipts';

/**
 * Records that a flow disclosed an agent to a person (`POST /api/v1/disclosure_receipts`; an API token holding
 * `disclosures:write`). The flow must declare the agent in `config.agents`; `disclosed_at` is never in the future nor
 * before the agent's registration. The notice record's receipt is at `/api/v1/consent_receipts/{record_id}`.
 */
export function createDisclosureReceipt(
  connection: SvcConnection<'bearer'>,
  request: CreateDisclosureReceiptRequest,
  options?: WriteOptions,
): Promise<DisclosureReceipt> {
  return connection
    .request({ method: 'POST', path: BASE, body: request, schema: disclosureReceiptEnvelope }, options)
    .then((body) => body.disclosure_receipt);
}

/** Reads a disclosure receipt (`GET /api/v1/disclosure_receipts/{record_id}`). */
export function getDisclosureReceipt(
  connection: SvcConnection<'bearer'>,
  recordId: string,
  options?: CallOptions,
): Promise<DisclosureReceipt> {
  return connection
    .request({ method: 'GET', path: `${BASE}/${encodeURIComponent(recordId)}`, schema: disclosureReceiptEnvelope }, options)
    .then((body) => body.disclosure_receipt);
}

/** `svc.disclosureReceipts`. */
export interface DisclosureReceiptsResource {
  create(request: CreateDisclosureReceiptRequest, options?: WriteOptions): Promise<DisclosureReceipt>;
  get(recordId: string, options?: CallOptions): Promise<DisclosureReceipt>;
}

/** Binds the disclosure receipt functions to a connection. */
export function disclosureReceiptsResource(connection: SvcConnection<'bearer'>): DisclosureReceiptsResource {
  return {
    create: (request, options) => createDisclosureReceipt(connection, request, options),
    get: (recordId, options) => getDisclosureReceipt(connection, recordId, options),
  };
}
