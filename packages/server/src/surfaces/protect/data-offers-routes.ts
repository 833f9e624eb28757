// Protect's data offers (the data deal): the person drafts and sends terms for a deal policy of theirs, the
// organisation counters, either side accepts or declines; each side reads its own.
import {
  createDataOfferRequest,
  dataOfferEnvelope,
  dataOfferList,
  dataOfferListQuery,
  dataOfferTermsRequest,
  declineDataOfferRequest,
} from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { z } from 'zod/mini';
import type { Env, ServerContext } from '../../infra/context.js';
import { route, type RouteSpec, routes } from '../../infra/http/route.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { personOnly } from './common.js';
import { createDataOffer, findDataOffer, listDataOffers, moveDataOffer, toDataOffer, type DataOfferMove } from './data-offers.js';
import { type C, caller, found, idOf, personsOwn, personToo, tag } from './http.js';

const OFFERS = '/api/v1/data_offers';

export const dataOfferRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'post',
      path: OFFERS,
      summary:
        "Draft a data offer: the person's terms for a deal policy of theirs (data_license, data_offer, bounty, broadcast), to an application of the account; with the person's access token (422 policy_not_found, policy_not_deal, policy_not_active, policy_already_accepted, expires_at_invalid)",
      tag,
      auth: ['access_token'],
      middleware: personsOwn('write', 'A data offer'),
      body: createDataOfferRequest,
      response: { status: 201, description: 'The data offer, draft', schema: dataOfferEnvelope },
      errors: [422],
    },
    (c, { body }) => {
      const row = createDataOffer(ctx, personOnly(c.get('principal'), 'A data offer'), body);
      c.header('Location', `${OFFERS}/${row.id}`);
      return c.json({ data_offer: toDataOffer(ctx, row) }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: OFFERS,
      summary:
        "List data offers, oldest first (those past their time expired first): the account's (API token) or the person's own; filters status, policy_id, application_id",
      tag,
      permission: 'read',
      access: personToo,
      query: dataOfferListQuery,
      response: { status: 200, description: 'A page of data offers', schema: dataOfferList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, ...query } }) => c.json(listDataOffers(ctx, caller(c), { limit, ...query })),
  );

  route(
    app,
    {
      method: 'get',
      path: `${OFFERS}/{id}`,
      summary: 'Read a data offer: status, whose turn, the terms on the table and every round',
      tag,
      permission: 'read',
      access: personToo,
      response: { status: 200, description: 'The data offer', schema: dataOfferEnvelope },
      errors: [404],
    },
    (c) => c.json({ data_offer: toDataOffer(ctx, found(findDataOffer(ctx, caller(c), idOf(c)), 'data offer')) }),
  );

  offerMoves(app, ctx);
});

/** The moves of a negotiation: each a POST on the offer, answering it as it now is (illegal moves are 409). */
function offerMoves(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  const offerOf = (c: C) => found(findDataOffer(ctx, caller(c), idOf(c)), 'data offer');
  const move = (c: C, row: ReturnType<typeof offerOf>, step: DataOfferMove) =>
    c.json({ data_offer: toDataOffer(ctx, moveDataOffer(ctx, caller(c), row, step)) });
  const post = (action: string, description: string): Omit<RouteSpec, 'summary'> => ({
    method: 'post',
    path: `${OFFERS}/{id}/${action}`,
    tag,
    response: { status: 200, description, schema: dataOfferEnvelope },
    errors: [404, 409],
  });

  route(
    app,
    {
      ...post('offer', 'The data offer, offered'),
      auth: ['access_token'],
      middleware: personsOwn('write', 'Sending a data offer'),
      summary:
        "Send the draft (draft -> offered; the person's access token); it expires at expires_at (default 7 days). Illegal moves are 409 illegal_transition",
    },
    (c) => move(c, offerOf(c), { action: 'offer' }),
  );

  route(
    app,
    {
      ...post('counter', 'The data offer, countered'),
      permission: 'write',
      body: dataOfferTermsRequest,
      summary: "The organisation's counter-offer with new terms (offered | user_revised -> countered; API token)",
    },
    (c, { body }) => move(c, offerOf(c), { action: 'counter', ...body }),
  );

  route(
    app,
    {
      ...post('revise', 'The data offer, user_revised'),
      auth: ['access_token'],
      middleware: personsOwn('write', 'Revising a data offer'),
      body: dataOfferTermsRequest,
      summary: "The person's revision of a counter-offer (countered -> user_revised; the person's access token)",
    },
    (c, { body }) => move(c, offerOf(c), { action: 'revise', ...body }),
  );

  route(
    app,
    {
      ...post('accept', 'The data offer, accepted'),
      permission: 'write',
      access: personToo,
      summary:
        "Accept the other side's terms (the organisation: offered | user_revised -> accepted; the person: countered -> accepted); the acceptance is recorded on the policy (409 policy_already_accepted, policy_not_active)",
    },
    (c) => move(c, offerOf(c), { action: 'accept' }),
  );

  // The body is optional: no body at all declines without a reason.
  const decline = (c: C, { reason }: z.output<typeof declineDataOfferRequest>) => move(c, offerOf(c), { action: 'decline', reason });
  route(
    app,
    {
      ...post('decline', 'The data offer, declined'),
      permission: 'write',
      access: personToo,
      body: declineDataOfferRequest,
      optionalBody: true,
      summary: "Decline the other side's terms (-> declined, final); the body ({reason}) is optional",
    },
    (c, { body }) => decline(c, body),
  );
}
