// The receipts of a person, over the API, with their access token (scope `receipts:read`), or a delegate's whose
// grant delegates it: `GET /api/v1/me/authorization_receipts` (+ one: what agents and delegates did in the person's
// name, each bound and each action's verdict) and `GET /api/v1/me/disclosure_receipts` (+ one: the agents disclosed to
// them). Each carries the signed receipt, to check offline against `/.well-known/jwks.json`. Read only: the spec
// gives a person no action on a receipt (revoking the grant behind one is `/api/v1/me/delegations/{id}/revoke`).
import {
  personAuthorizationReceiptEnvelope,
  personAuthorizationReceiptList,
  personDisclosureReceiptEnvelope,
  personDisclosureReceiptList,
  personReceiptListQuery,
  RECEIPTS_READ_SCOPE,
} from '@svc/schemas';
import { requires } from '../../infra/auth.js';
import { notFound } from '../../infra/errors.js';
import { route, routes } from '../../infra/http/route.js';
import { holding, personOf, readerOf } from '../reader.js';
import { findAuthorizationReceipt, findDisclosureReceipt, listAuthorizationReceipts, listDisclosureReceipts } from './store.js';

const AUTHORIZATIONS = '/api/v1/me/authorization_receipts';
const DISCLOSURES = '/api/v1/me/disclosure_receipts';
const tag = 'Person receipts';
const reach = "with the service's own clients, every organisation's; with an organisation's client, that organisation's only";

export const personReceiptRoutes = routes((app, ctx) => {
  const reading = [requires('read', { person: true, delegateScope: RECEIPTS_READ_SCOPE }), holding(RECEIPTS_READ_SCOPE, 'receipts')];

  route(
    app,
    {
      method: 'get',
      path: AUTHORIZATIONS,
      tag,
      summary: `The authorization receipts in the signed-in person's name (grants they made, approvals they answered), most recently recorded first: ${reach}`,
      auth: ['access_token'],
      query: personReceiptListQuery,
      middleware: reading,
      response: {
        status: 200,
        description:
          'A page of receipts, each with its eight bounds, the actions taken under it and the signed receipt (scope receipts:read)',
        schema: personAuthorizationReceiptList,
      },
      errors: [400],
    },
    async (c, { query }) => {
      const reader = readerOf(ctx, personOf(c));
      if (!reader) return c.json({ authorization_receipts: [], next_cursor: null });
      return c.json(await listAuthorizationReceipts(ctx, reader, query));
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${AUTHORIZATIONS}/{id}`,
      tag,
      summary: "One authorization receipt in the signed-in person's name (anyone else's, or another organisation's for its client, is 404)",
      auth: ['access_token'],
      middleware: reading,
      response: { status: 200, description: 'The receipt as the person reads it', schema: personAuthorizationReceiptEnvelope },
      errors: [404],
    },
    async (c) => {
      const reader = readerOf(ctx, personOf(c));
      const receipt = reader && (await findAuthorizationReceipt(ctx, reader, c.req.param('id')!));
      if (!receipt) throw notFound('No such authorization receipt.');
      return c.json({ authorization_receipt: receipt });
    },
  );

  route(
    app,
    {
      method: 'get',
      path: DISCLOSURES,
      tag,
      summary: `The receipts that disclosed agents to the signed-in person (their consent records made under terms that declare agents), most recently recorded first: ${reach}`,
      auth: ['access_token'],
      query: personReceiptListQuery,
      middleware: reading,
      response: {
        status: 200,
        description: 'A page of receipts, each with the agents it disclosed and the signed receipt (scope receipts:read)',
        schema: personDisclosureReceiptList,
      },
      errors: [400],
    },
    async (c, { query }) => {
      const reader = readerOf(ctx, personOf(c));
      if (!reader) return c.json({ disclosure_receipts: [], next_cursor: null });
      return c.json(await listDisclosureReceipts(ctx, reader, query));
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${DISCLOSURES}/{id}`,
      tag,
      summary:
        "One receipt that disclosed agents to the signed-in person (anyone else's, or another organisation's for its client, is 404)",
      auth: ['access_token'],
      middleware: reading,
      response: { status: 200, description: 'The receipt as the person reads it', schema: personDisclosureReceiptEnvelope },
      errors: [404],
    },
    async (c) => {
      const reader = readerOf(ctx, personOf(c));
      const receipt = reader && (await findDisclosureReceipt(ctx, reader, c.req.param('id')!));
      if (!receipt) throw notFound('No such disclosure receipt.');
      return c.json({ disclosure_receipt: receipt });
    },
  );
});
