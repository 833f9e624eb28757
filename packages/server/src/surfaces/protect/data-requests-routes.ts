// Protect's data requests (DSAR): filed by the person with their access token, worked by the organisation with an
// API token (start, extend, complete, reject); each side reads its own.
import {
  completeDataRequestRequest,
  createDsarRequest,
  dataRequestEnvelope,
  dataRequestList,
  dataRequestListQuery,
  extendDataRequestRequest,
  rejectDataRequestRequest,
} from '@svc/schemas';
import type { z } from 'zod/mini';
import { route, type RouteSpec, routes } from '../../infra/http/route.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { personOnly } from './common.js';
import {
  createDataRequest,
  findDataRequest,
  listDataRequests,
  moveDataRequest,
  toDataRequest,
  type DataRequestMove,
} from './data-requests.js';
import { type C, caller, found, idOf, personsOwn, personToo, tag } from './http.js';

const REQUESTS = '/api/v1/data_requests';

export const dataRequestRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'post',
      path: REQUESTS,
      summary:
        "File a data request (CreateDsarRequest: access, erasure, portability, rectification) with an application of the account, with the person's access token (an API token is 403 person_token_required); received now, due in 30 days",
      tag,
      auth: ['access_token'],
      middleware: personsOwn('write', 'A data request'),
      body: createDsarRequest,
      response: { status: 201, description: 'The data request, received', schema: dataRequestEnvelope },
      errors: [422],
    },
    (c, { body }) => {
      const row = createDataRequest(ctx, personOnly(c.get('principal'), 'A data request'), body);
      c.header('Location', `${REQUESTS}/${row.id}`);
      return c.json({ data_request: toDataRequest(ctx, row) }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: REQUESTS,
      summary: "List data requests, oldest first: the account's (API token) or the person's own; filters status, dsar_type, application_id",
      tag,
      permission: 'read',
      access: personToo,
      query: dataRequestListQuery,
      response: { status: 200, description: 'A page of data requests', schema: dataRequestList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, ...query } }) => c.json(listDataRequests(ctx, caller(c), { limit, ...query })),
  );

  const requestOf = (c: C) => found(findDataRequest(ctx, caller(c), idOf(c)), 'data request');

  route(
    app,
    {
      method: 'get',
      path: `${REQUESTS}/{id}`,
      summary: 'Read a data request: status, due_date, overdue, extension, and the export of a completed access request',
      tag,
      permission: 'read',
      access: personToo,
      response: { status: 200, description: 'The data request', schema: dataRequestEnvelope },
      errors: [404],
    },
    (c) => c.json({ data_request: toDataRequest(ctx, requestOf(c)) }),
  );

  const move = (c: C, row: ReturnType<typeof requestOf>, step: DataRequestMove) =>
    c.json({ data_request: toDataRequest(ctx, moveDataRequest(ctx, row, step)) });
  // The organisation's moves: each one a POST on the request, answering it as it now is.
  const moved = (action: string, description: string): Omit<RouteSpec, 'summary'> => ({
    method: 'post',
    path: `${REQUESTS}/{id}/${action}`,
    tag,
    permission: 'write',
    response: { status: 200, description, schema: dataRequestEnvelope },
    errors: [404, 409],
  });

  route(
    app,
    {
      ...moved('start', 'The data request, in progress'),
      summary: 'Start processing a data request (received -> in_progress; otherwise 409 illegal_transition)',
    },
    (c) => move(c, requestOf(c), { action: 'start' }),
  );

  route(
    app,
    {
      ...moved('extend', 'The data request, extended'),
      body: extendDataRequestRequest,
      summary:
        'Extend the due date once, before it passes, by at most 60 days (default 60), with the reason; 409 already_extended, due_date_passed, illegal_transition',
    },
    (c, { body }) => move(c, requestOf(c), { action: 'extend', input: body }),
  );

  // The body is optional: no body at all completes the request without a note.
  const complete = (c: C, { note }: z.output<typeof completeDataRequestRequest>) => move(c, requestOf(c), { action: 'complete', note });
  route(
    app,
    {
      ...moved('complete', 'The data request, completed'),
      body: completeDataRequestRequest,
      optionalBody: true,
      summary:
        'Complete a data request in progress (in_progress -> completed); an access request gets the export of what the service holds about the person. The body ({note}) is optional',
    },
    (c, { body }) => complete(c, body),
  );

  route(
    app,
    {
      ...moved('reject', 'The data request, rejected'),
      body: rejectDataRequestRequest,
      summary: 'Reject a data request with the reason (received | in_progress -> rejected)',
    },
    (c, { body }) => move(c, requestOf(c), { action: 'reject', reason: body.reason }),
  );
});
