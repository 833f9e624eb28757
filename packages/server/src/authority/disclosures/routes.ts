// `POST /api/v1/disclosure_receipts` (an API token with `disclosures:write`) and `GET …/{id}`: the notice records
// that a flow disclosed an agent to a person. Their receipts are served by the receipt routes in every flavor.
import { createDisclosureReceiptRequest, disclosureReceiptEnvelope } from '@svc/schemas';
import { route, routes } from '../../infra/http/route.js';
import { notFound } from '../../infra/errors.js';
import { createDisclosureReceipt, getDisclosureReceipt } from './store.js';

const BASE = '/api/v1/disclosure_receipts';
const tag = 'Disclosure receipts';

/** The disclosure receipt routes. */
export const disclosureRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'post',
      path: BASE,
      summary:
        'Record that a flow disclosed an agent to a person: a notice record with its receipt (Errors rule 9 refusals name their field)',
      tag,
      permission: 'disclosures:write',
      body: createDisclosureReceiptRequest,
      response: {
        status: 201,
        description: 'The disclosure receipt; its receipt is at /api/v1/consent_receipts/{record_id}',
        schema: disclosureReceiptEnvelope,
      },
    },
    (c, { body }) => c.json({ disclosure_receipt: createDisclosureReceipt(ctx, c.get('principal').accountId, body) }, 201),
  );

  route(
    app,
    {
      method: 'get',
      path: `${BASE}/{id}`,
      summary: 'Read a disclosure receipt',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The disclosure receipt', schema: disclosureReceiptEnvelope },
      errors: [404],
    },
    (c) => {
      const receipt = getDisclosureReceipt(ctx, c.get('principal').accountId, c.req.param('id')!);
      if (!receipt) throw notFound('No such disclosure receipt.');
      return c.json({ disclosure_receipt: receipt });
    },
  );
});
