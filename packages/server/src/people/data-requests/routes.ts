// A person's own data requests over the API: `GET /api/v1/me/data_requests` (with the organisations they may file
// with), one request, its export, and `POST /api/v1/me/data_requests` to file one, with the person's access token
// (scopes `data_requests:read`, `data_requests:write`). What the people's data requests page and
// `<svc-data-requests>` call. Filing is Protect's own: the organisation sees the request as one filed on its API.
import {
  DATA_REQUESTS_READ_SCOPE,
  DATA_REQUESTS_WRITE_SCOPE,
  dataRequestExport,
  filePersonDataRequest as fileBody,
  personDataRequestEnvelope,
  personDataRequestList,
  personDataRequestListQuery,
} from '@svc/schemas';
import type { Context } from 'hono';
import { requires } from '../../infra/auth.js';
import type { Env } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import { route, routes } from '../../infra/http/route.js';
import { firstPartyScopes } from '../../platform/oauth/first-party.js';
import { holding, personOf, readerOf } from '../reader.js';
import {
  filePersonDataRequest,
  findPersonDataRequest,
  listPersonDataRequests,
  type RequestReader,
  requestableOrganisations,
  toPersonDataRequest,
} from './store.js';

const API = '/api/v1/me/data_requests';
const tag = 'Person data requests';

export const personDataRequestRoutes = routes((app, ctx) => {
  /** Who reads; with one of the service's own clients, the service's own account is nobody's organisation. */
  const readerFor = (c: Context<Env>): RequestReader | undefined => {
    const principal = personOf(c);
    const reader = readerOf(ctx, principal);
    const own = firstPartyScopes(ctx, principal.clientId) !== undefined;
    return reader && { ...reader, serviceAccountId: own ? principal.accountId : undefined };
  };
  /** The caller's request named in the path, or the same 404 for every request that is not theirs (no oracle). */
  const ownRequest = (c: Context<Env>) => {
    const reader = readerOf(ctx, personOf(c));
    const row = reader && findPersonDataRequest(ctx, reader, c.req.param('id')!);
    if (!row) throw notFound('No such data request.');
    return row;
  };
  const reading = [
    requires('read', { person: true, delegateScope: DATA_REQUESTS_READ_SCOPE }),
    holding(DATA_REQUESTS_READ_SCOPE, 'data requests'),
  ];

  route(
    app,
    {
      method: 'get',
      path: API,
      tag,
      summary:
        "The signed-in person's data requests homed in this cell, most recently filed first, and the organisations they may file one with: with the service's own clients, every organisation of their verified email; with an organisation's client, that organisation's only",
      auth: ['access_token'],
      query: personDataRequestListQuery,
      middleware: reading,
      response: {
        status: 200,
        description: "A page of the person's requests and the organisations they may file with (needs data_requests:read)",
        schema: personDataRequestList,
      },
      errors: [400],
    },
    (c, { query }) => {
      const reader = readerFor(c);
      if (!reader) return c.json({ data_requests: [], next_cursor: null, organisations: [] });
      return c.json({ ...listPersonDataRequests(ctx, reader, query), organisations: requestableOrganisations(ctx, reader) });
    },
  );

  route(
    app,
    {
      method: 'post',
      path: API,
      tag,
      summary:
        "The person files a data request with an organisation they have a relationship with (one of the list's organisations; any other is 404 and nothing is filed): received now, due in 30 days, the organisation's audit trail records data_request.received",
      auth: ['access_token'],
      middleware: [
        requires('write', { person: true, delegateScope: DATA_REQUESTS_WRITE_SCOPE }),
        holding(DATA_REQUESTS_WRITE_SCOPE, 'data requests'),
      ],
      body: fileBody,
      response: { status: 201, description: 'The data request, received', schema: personDataRequestEnvelope },
      errors: [404, 422],
    },
    (c, { body }) => {
      const reader = readerFor(c);
      const row = reader && filePersonDataRequest(ctx, reader, body);
      if (!row) throw notFound('No such organisation: the person has no relationship with it.');
      c.header('Location', `${API}/${row.id}`);
      return c.json({ data_request: toPersonDataRequest(ctx, row) }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${API}/{id}`,
      tag,
      summary: "One of the signed-in person's data requests (another person's, or another organisation's for its client, is 404)",
      auth: ['access_token'],
      middleware: reading,
      response: { status: 200, description: 'The request as the person reads it', schema: personDataRequestEnvelope },
      errors: [404],
    },
    (c) => c.json({ data_request: toPersonDataRequest(ctx, ownRequest(c)) }),
  );

  route(
    app,
    {
      method: 'get',
      path: `${API}/{id}/export`,
      tag,
      summary:
        "The export of one of the person's completed access requests: what the service holds about them for that organisation (404 for any other request)",
      auth: ['access_token'],
      middleware: reading,
      response: { status: 200, description: 'The export, as a JSON attachment', schema: dataRequestExport },
      errors: [404],
    },
    (c) => {
      const row = ownRequest(c);
      if (row.export === null) throw notFound('This data request has no export.');
      c.header('Content-Disposition', `attachment; filename="${row.id}.json"`);
      return c.json(dataRequestExport.parse(JSON.parse(row.export)));
    },
  );
});
