// `POST /api/v1/disclosure_receipts` (an API token with `disclosures:write`) and `GET …/{id}`: the notice records
// that a flow disclosed an agent to a person. Their receipts are served by the receipt routes in every flavor.
import { createDisclosureReceiptRequest, disclosureReceiptEnvelope } from '@svc/client/schemas';
import { routes } from '../../infra/http/route.js';
import { requires } from '../../infra/auth.js';
import { notFound } from '../../infra/errors.js';
import type { Operation } from '../../infra/operations.js';
import { readJson } from '../../infra/validate.js';
import { createDisclosureReceipt, getDisclosureReceipt } from './store.js';

const BASE = '/api/v1/disclosure_receipts';

/** The disclosure receipt routes. */
export const disclosureRoutes = routes((app, ctx) => {
  app.post(BASE, requires('disclosures:write'), async (c) => {
    const input = await readJson(c, createDisclosureReceiptRequest);
    return c.json({ disclosure_receipt: createDisclosureReceipt(ctx, c.get('principal').accountId, input) }, 201);
  });

  app.get(`${BASE}/:id`, requires('read'), (c) => {
    const receipt = getDisclosureReceipt(ctx, c.get('principal').accountId, c.req.param('id'));
    if (!receipt) throw notFound('No such disclosure receipt.');
    return c.json({ disclosure_receipt: receipt });
  });
});

/** OpenAPI descriptors of the disclosure receipt routes. */
export const disclosureOperations: Operation[] = [
  {
    method: 'post', path: BASE, summary: 'Record that a flow disclosed an agent to a person: a notice record with its receipt (Errors rule 9 refusals name their field)', tag: 'Disclosure receipts',
    auth: ['api_token'], permission: 'disclosures:write', body: createDisclosureReceiptRequest,
    response: { status: 201, description: 'The disclosure receipt; its receipt is at /api/v1/consent_receipts/{record_id}', schema: disclosureReceiptEnvelope },
  },
  {
    method: 'get', path: `${BASE}/{id}`, summary: 'Read a disclosure receipt', tag: 'Disclosure receipts',
    auth: ['api_token'], permission: 'read',
    response: { status: 200, description: 'The disclosure receipt', schema: disclosureReceiptEnvelope }, errors: [404],
  },
];
