import { formConnectionEnvelope, formConnectionList, type CreateFormConnectionRequest, type FormConnection } from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

const path = (applicationId: string, id?: string, action = '') =>
  `/api/v1/applications/${encodeURIComponent(applicationId)}/form_connections${id === undefined ? '' : `/${encodeURIComponent(id)}`}${action}`;

/** Lists an application's form platform connections (`GET /api/v1/applications/{id}/form_connections`). */
export function listFormConnections(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  query?: ListQuery,
  options?: CallOptions,
): SvcList<FormConnection> {
  return listEndpoint(connection, path(applicationId), formConnectionList, 'form_connections', query, options);
}

/**
 * Connects a Typeform-compatible form to a flow: its fields, the mapping of fields to purposes and to the person's
 * email. A mapping breaking the capture rules is refused (`SvcValidationError`, code `mapping_refused`). The
 * answer carries the signing secret, shown this once: set it as the form's webhook secret.
 */
export function createFormConnection(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  request: CreateFormConnectionRequest['form_connection'],
  options?: WriteOptions,
): Promise<FormConnection> {
  return connection
    .request(
      {
        method: 'POST',
        path: path(applicationId),
        body: { form_connection: request } satisfies CreateFormConnectionRequest,
        schema: formConnectionEnvelope,
      },
      options,
    )
    .then((body) => body.form_connection);
}

/** Reads a form connection (without its secret). */
export function getFormConnection(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  id: string,
  options?: CallOptions,
): Promise<FormConnection> {
  return connection
    .request({ method: 'GET', path: path(applicationId, id), schema: formConnectionEnvelope }, options)
    .then((body) => body.form_connection);
}

/** Removes a form connection; its webhook answers 404 from then on, the records it made stay. */
export async function deleteFormConnection(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  id: string,
  options?: CallOptions,
): Promise<void> {
  await connection.request({ method: 'DELETE', path: path(applicationId, id) }, options);
}

/** Issues a new signing secret (returned this once); the previous one keeps verifying for one day. */
export function rotateFormConnectionSecret(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  id: string,
  options?: WriteOptions,
): Promise<FormConnection> {
  return connection
    .request({ method: 'POST', path: path(applicationId, id, '/rotate_secret'), schema: formConnectionEnvelope }, options)
    .then((body) => body.form_connection);
}

/** The form platform connections of each application. */
export interface FormConnectionsResource {
  /** Lists an application's connections; see {@link listFormConnections}. */
  list(applicationId: string, query?: ListQuery, options?: CallOptions): SvcList<FormConnection>;
  /** Connects a form; see {@link createFormConnection}. */
  create(applicationId: string, request: CreateFormConnectionRequest['form_connection'], options?: WriteOptions): Promise<FormConnection>;
  /** Reads a connection; see {@link getFormConnection}. */
  get(applicationId: string, id: string, options?: CallOptions): Promise<FormConnection>;
  /** Removes a connection; see {@link deleteFormConnection}. */
  delete(applicationId: string, id: string, options?: CallOptions): Promise<void>;
  /** Rotates the signing secret; see {@link rotateFormConnectionSecret}. */
  rotateSecret(applicationId: string, id: string, options?: WriteOptions): Promise<FormConnection>;
}

/** Binds the form connection functions to a connection. */
export function formConnectionsResource(connection: SvcConnection<'bearer'>): FormConnectionsResource {
  return {
    list: (applicationId, query, options) => listFormConnections(connection, applicationId, query, options),
    create: (applicationId, request, options) => createFormConnection(connection, applicationId, request, options),
    get: (applicationId, id, options) => getFormConnection(connection, applicationId, id, options),
    delete: (applicationId, id, options) => deleteFormConnection(connection, applicationId, id, options),
    rotateSecret: (applicationId, id, options) => rotateFormConnectionSecret(connection, applicationId, id, options),
  };
}
