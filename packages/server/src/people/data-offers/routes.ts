// A person's data deals over the API, with the person's access token (scopes `data_offers:read`, `data_offers:write`)
// or a delegate's whose grant delegates them: `GET /api/v1/me/data_offers`, one offer, `POST .../{id}/accept|decline`
// (the person's answer to the organisation's terms), and `GET /api/v1/me/data_licenses`, one licence, `POST
// .../{id}/revoke`. Answers go through Protect's own moves: the same audit events and webhooks as the organisation
// API's. What the people's data offers and data licences pages and `<svc-data-offers>` call.
import {
  DATA_OFFERS_READ_SCOPE,
  DATA_OFFERS_WRITE_SCOPE,
  declinePersonDataOfferRequest,
  personDataLicenseEnvelope,
  personDataLicenseList,
  personDataLicenseListQuery,
  personDataOfferEnvelope,
  personDataOfferList,
  personDataOfferListQuery,
} from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { requires } from '../../infra/auth.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import { route, routes } from '../../infra/http/route.js';
import { holding, personOf, readerOf } from '../reader.js';
import {
  answerPersonDataOffer,
  findPersonDataLicense,
  findPersonDataOffer,
  listPersonDataLicenses,
  listPersonDataOffers,
  revokePersonDataLicense,
  toPersonDataLicense,
  toPersonDataOffer,
} from './store.js';

const OFFERS = '/api/v1/me/data_offers';
const LICENSES = '/api/v1/me/data_licenses';
const tag = 'Person data offers';

const reading = [requires('read', { person: true, delegateScope: DATA_OFFERS_READ_SCOPE }), holding(DATA_OFFERS_READ_SCOPE, 'data offers')];
const writing = [
  requires('write', { person: true, delegateScope: DATA_OFFERS_WRITE_SCOPE }),
  holding(DATA_OFFERS_WRITE_SCOPE, 'data offers'),
];

export const personDataOfferRoutes = routes((app, ctx) => {
  offerRoutes(app, ctx);
  licenseRoutes(app, ctx);
});

function offerRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  /** The caller's offer named in the path, or the same 404 for every offer that is not theirs (no oracle). */
  const ownOffer = (c: Context<Env>) => {
    const reader = readerOf(ctx, personOf(c));
    const row = reader && findPersonDataOffer(ctx, reader, c.req.param('id')!);
    if (!row) throw notFound('No such data offer.');
    return row;
  };
  const answered = (c: Context<Env>) => c.json({ data_offer: toPersonDataOffer(ctx, ownOffer(c)) });

  route(
    app,
    {
      method: 'get',
      path: OFFERS,
      tag,
      summary:
        "The data offers the signed-in person negotiates, most recently drafted first (those past their time expired first): with the service's own clients, with every organisation of their verified email; with an organisation's client, with that organisation only",
      auth: ['access_token'],
      query: personDataOfferListQuery,
      middleware: reading,
      response: { status: 200, description: "A page of the person's data offers (needs data_offers:read)", schema: personDataOfferList },
      errors: [400],
    },
    (c, { query }) => {
      const reader = readerOf(ctx, personOf(c));
      if (!reader) return c.json({ data_offers: [], next_cursor: null });
      return c.json(listPersonDataOffers(ctx, reader, query));
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${OFFERS}/{id}`,
      tag,
      summary: "One of the signed-in person's data offers (another person's, or another organisation's for its client, is 404)",
      auth: ['access_token'],
      middleware: reading,
      response: { status: 200, description: 'The offer as the person reads it', schema: personDataOfferEnvelope },
      errors: [404],
    },
    answered,
  );

  const answer = (action: 'accept' | 'decline') => ({
    method: 'post' as const,
    path: `${OFFERS}/{id}/${action}`,
    tag,
    auth: ['access_token' as const],
    // 404 before any body is read, for an offer that is not the caller's.
    middleware: [
      ...writing,
      (async (c, next) => {
        ownOffer(c);
        await next();
      }) satisfies MiddlewareHandler<Env>,
    ],
    errors: [404, 409],
  });

  route(
    app,
    {
      ...answer('accept'),
      summary:
        "The person accepts the organisation's counter-offer (countered -> accepted, recorded on the policy); accepting again answers the offer as it is, with no second effect; any other move is 409",
      response: { status: 200, description: 'The offer, accepted', schema: personDataOfferEnvelope },
    },
    (c) => {
      answerPersonDataOffer(ctx, ownOffer(c), { action: 'accept' });
      return answered(c);
    },
  );

  route(
    app,
    {
      ...answer('decline'),
      summary:
        "The person declines the organisation's counter-offer (countered -> declined, final; the body {reason} is optional); declining again answers the offer as it is; accepting after it is 409",
      body: declinePersonDataOfferRequest,
      optionalBody: true,
      response: { status: 200, description: 'The offer, declined', schema: personDataOfferEnvelope },
    },
    (c, { body }) => {
      answerPersonDataOffer(ctx, ownOffer(c), { action: 'decline', reason: body.reason });
      return answered(c);
    },
  );
}

function licenseRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  const ownLicense = (c: Context<Env>) => {
    const reader = readerOf(ctx, personOf(c));
    const row = reader && findPersonDataLicense(ctx, reader, c.req.param('id')!);
    if (!row) throw notFound('No such data license.');
    return row;
  };
  const read = (c: Context<Env>) => c.json({ data_license: toPersonDataLicense(ctx, ownLicense(c)) });

  route(
    app,
    {
      method: 'get',
      path: LICENSES,
      tag,
      summary:
        "The data licences over the signed-in person's data (granted under agreements they signed), most recently issued first: with the service's own clients, from every organisation; with an organisation's client, from that organisation only",
      auth: ['access_token'],
      query: personDataLicenseListQuery,
      middleware: reading,
      response: { status: 200, description: 'A page of licences (needs data_offers:read)', schema: personDataLicenseList },
      errors: [400],
    },
    (c, { query }) => {
      const reader = readerOf(ctx, personOf(c));
      if (!reader) return c.json({ data_licenses: [], next_cursor: null });
      return c.json(listPersonDataLicenses(ctx, reader, query));
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${LICENSES}/{id}`,
      tag,
      summary: "One licence over the signed-in person's data (any other licence is 404)",
      auth: ['access_token'],
      middleware: reading,
      response: { status: 200, description: 'The licence as the person reads it', schema: personDataLicenseEnvelope },
      errors: [404],
    },
    read,
  );

  route(
    app,
    {
      method: 'post',
      path: `${LICENSES}/{id}/revoke`,
      tag,
      summary:
        'The person revokes a licence over their data (active | exhausted -> revoked, final: no further access is counted); revoking again answers it as it is, with no second audit event',
      auth: ['access_token'],
      middleware: writing,
      response: { status: 200, description: 'The licence, revoked', schema: personDataLicenseEnvelope },
      errors: [404],
    },
    (c) => {
      revokePersonDataLicense(ctx, ownLicense(c));
      return read(c);
    },
  );
}
