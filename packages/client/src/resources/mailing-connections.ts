import {
  mailingConnectionEnvelope,
  mailingConnectionList,
  type CreateMailingConnectionRequest,
  type MailingConnection,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

const PATH = '/api/v1/mailing_connections';
const one = (id: string) => `${PATH}/${encodeURIComponent(id)}`;

/**
 * Connects a Mailchimp audience or a Brevo list to a flow's purpose (`POST /api/v1/mailing_connections`, `admin`):
 * the service checks the list, registers its webhook there with API-sourced events off, then writes the purpose's
 * record events to each member and applies an unsubscribe only after reading the member back, as a withdrawal.
 * The API key is sealed at rest and never answered; the returned `webhook_url` carries its secret this once.
 */
export function createMailingConnection(
  connection: SvcConnection<'bearer'>,
  request: CreateMailingConnectionRequest['mailing_connection'],
  options?: WriteOptions,
): Promise<MailingConnection> {
  return connection
    .request(
      {
        method: 'POST',
        path: PATH,
        body: { mailing_connection: request } satisfies CreateMailingConnectionRequest,
        schema: mailingConnectionEnvelope,
      },
      options,
    )
    .then((body) => body.mailing_connection);
}

/** Lists the account's mailing connections (`GET /api/v1/mailing_connections`, `read`). */
export function listMailingConnections(
  connection: SvcConnection<'bearer'>,
  query?: ListQuery,
  options?: CallOptions,
): SvcList<MailingConnection> {
  return listEndpoint(connection, PATH, mailingConnectionList, 'mailing_connections', query, options);
}

/** Reads one mailing connection (`GET /api/v1/mailing_connections/{id}`, `read`). */
export function getMailingConnection(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<MailingConnection> {
  return connection
    .request({ method: 'GET', path: one(id), schema: mailingConnectionEnvelope }, options)
    .then((body) => body.mailing_connection);
}

/** Disconnects: the service's webhook is removed at the provider (`DELETE /api/v1/mailing_connections/{id}`, `admin`). */
export async function deleteMailingConnection(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<void> {
  await connection.request({ method: 'DELETE', path: one(id) }, options);
}

/** `svc.mailingConnections`. */
export interface MailingConnectionsResource {
  /** Connects a mailing list to a flow's purpose; see {@link createMailingConnection}. */
  create(request: CreateMailingConnectionRequest['mailing_connection'], options?: WriteOptions): Promise<MailingConnection>;
  /** Lists the mailing connections; see {@link listMailingConnections}. */
  list(query?: ListQuery, options?: CallOptions): SvcList<MailingConnection>;
  /** Reads one; see {@link getMailingConnection}. */
  get(id: string, options?: CallOptions): Promise<MailingConnection>;
  /** Disconnects one; see {@link deleteMailingConnection}. */
  delete(id: string, options?: CallOptions): Promise<void>;
}

/** Binds the mailing connection functions to a connection. */
export function mailingConnectionsResource(connection: SvcConnection<'bearer'>): MailingConnectionsResource {
  return {
    create: (request, options) => createMailingConnection(connection, request, options),
    list: (query, options) => listMailingConnections(connection, query, options),
    get: (id, options) => getMailingConnection(connection, id, options),
    delete: (id, options) => deleteMailingConnection(connection, id, options),
  };
}
