// Connect's `/api/v1/connections`: a person and an application, the person's own with their access token, the
// account's with an API token.
import {
  connectionEnvelope,
  connectionList,
  connectionListQuery,
  createConnectionRequest,
  disconnectResult,
  suspendConnectionRequest,
} from '@svc/schemas';
import type { Context } from 'hono';
import type { Env } from '../../infra/context.js';
import { route, type RouteSpec, routes } from '../../infra/http/route.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import {
  createConnection,
  disconnectConnection,
  listConnections,
  personOnly,
  resumeConnection,
  suspendConnection,
  toConnectionDetail,
  visibleConnection,
} from './connections.js';
import { personsOwn } from './http.js';

const CONNECTIONS = '/api/v1/connections';
const tag = 'Connections';
const personToo = { person: true } as const;

export const connectionRoutes = routes((app, ctx) => {
  const visible = (c: Context<Env>) => visibleConnection(ctx, c.get('principal'), c.req.param('id')!);
  const envelope = (row: ReturnType<typeof visible>) => ({ connection: toConnectionDetail(ctx, row) });

  route(
    app,
    {
      method: 'post',
      path: CONNECTIONS,
      summary:
        "Connect the calling person to an application of the account (their access token; a person's first consent to an application also connects them). An open connection is answered as it is (200). 422 application_not_found, application_inactive",
      tag,
      auth: ['access_token'],
      middleware: personsOwn('write', 'Connecting to an application'),
      body: createConnectionRequest,
      response: { status: 201, description: 'The connection, active', schema: connectionEnvelope },
    },
    (c, { body }) => {
      const { row, created } = createConnection(ctx, personOnly(c.get('principal'), 'Connecting to an application'), body.application_id);
      if (created) c.header('Location', `${CONNECTIONS}/${row.id}`);
      return c.json(envelope(row), created ? 201 : 200);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: CONNECTIONS,
      summary: "List connections, oldest first: a person's own, or the account's in this cell (filters: status, application_id)",
      tag,
      permission: 'read',
      access: personToo,
      query: connectionListQuery,
      response: { status: 200, description: 'A page of connections', schema: connectionList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, status, application_id } }) =>
      c.json(listConnections(ctx, c.get('principal'), { limit, cursor, status, application_id })),
  );

  route(
    app,
    {
      method: 'get',
      path: `${CONNECTIONS}/{id}`,
      summary: 'Read a connection with the policies in force (consent, delegation grants) and its suspensions',
      tag,
      permission: 'read',
      access: personToo,
      response: { status: 200, description: 'The connection', schema: connectionEnvelope },
      errors: [404],
    },
    (c) => c.json(envelope(visible(c))),
  );

  // A connection's moves: the person, or the organisation, each a POST answering the connection as it now is.
  const post = (action: string, description: string): Omit<RouteSpec, 'summary'> => ({
    method: 'post',
    path: `${CONNECTIONS}/{id}/${action}`,
    tag,
    permission: 'write',
    access: personToo,
    response: { status: 200, description, schema: connectionEnvelope },
    errors: [404, 409],
  });

  route(
    app,
    {
      ...post('suspend', 'The connection, suspended'),
      body: suspendConnectionRequest,
      summary: 'Suspend an active connection with a reason (the person, or the organisation). 409 illegal_transition',
    },
    (c, { body }) => c.json(envelope(suspendConnection(ctx, c.get('principal'), visible(c), body.reason))),
  );

  route(
    app,
    {
      ...post('resume', 'The connection, active'),
      summary: 'Resume a suspended connection; only the party that suspended it can. 409 illegal_transition, suspended_by_other_party',
    },
    (c) => c.json(envelope(resumeConnection(ctx, c.get('principal'), visible(c)))),
  );

  route(
    app,
    {
      method: 'post',
      path: `${CONNECTIONS}/{id}/disconnect`,
      summary:
        'Disconnect (final): withdraws the consent in force (revoking the credentials that attest it) and revokes the delegation grants made through the application or to its agents; warnings name each, and the decisions still open. 409 illegal_transition',
      tag,
      permission: 'write',
      access: personToo,
      response: { status: 200, description: 'The connection and what stopped working', schema: disconnectResult },
      errors: [404, 409],
    },
    (c) => c.json(disconnectConnection(ctx, c.get('principal'), visible(c))),
  );
});
