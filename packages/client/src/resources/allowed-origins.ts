import { allowedOriginEnvelope, allowedOriginList, type AllowedOrigin, type CreateAllowedOriginRequest } from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

const path = (applicationId: string, origin?: string) =>
  `/api/v1/applications/${encodeURIComponent(applicationId)}/allowed_origins${origin === undefined ? '' : `/${encodeURIComponent(origin)}`}`;

/** Lists the browser origins registered for an application (`GET /api/v1/applications/{id}/allowed_origins`). */
export function listAllowedOrigins(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  query?: ListQuery,
  options?: CallOptions,
): SvcList<AllowedOrigin> {
  return listEndpoint(connection, path(applicationId), allowedOriginList, 'allowed_origins', query, options);
}

/**
 * Registers a browser origin (scheme, host, optional port; no path or trailing slash) for an application;
 * registering one twice returns the existing registration.
 */
export function createAllowedOrigin(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  request: CreateAllowedOriginRequest['allowed_origin'],
  options?: WriteOptions,
): Promise<AllowedOrigin> {
  return connection
    .request(
      {
        method: 'POST',
        path: path(applicationId),
        body: { allowed_origin: request } satisfies CreateAllowedOriginRequest,
        schema: allowedOriginEnvelope,
      },
      options,
    )
    .then((body) => body.allowed_origin);
}

/** Removes an allowed origin from an application. */
export async function deleteAllowedOrigin(
  connection: SvcConnection<'bearer'>,
  applicationId: string,
  origin: string,
  options?: CallOptions,
): Promise<void> {
  await connection.request({ method: 'DELETE', path: path(applicationId, origin) }, options);
}

/** The browser origins registered for each application. */
export interface AllowedOriginsResource {
  /** Lists an application's allowed origins; see {@link listAllowedOrigins}. */
  list(applicationId: string, query?: ListQuery, options?: CallOptions): SvcList<AllowedOrigin>;
  /** Registers an origin; see {@link createAllowedOrigin}. */
  create(applicationId: string, request: CreateAllowedOriginRequest['allowed_origin'], options?: WriteOptions): Promise<AllowedOrigin>;
  /** Removes an origin; see {@link deleteAllowedOrigin}. */
  delete(applicationId: string, origin: string, options?: CallOptions): Promise<void>;
}

/** Binds the allowed-origin functions to a connection. */
export function allowedOriginsResource(connection: SvcConnection<'bearer'>): AllowedOriginsResource {
  return {
    list: (applicationId, query, options) => listAllowedOrigins(connection, applicationId, query, options),
    create: (applicationId, request, options) => createAllowedOrigin(connection, applicationId, request, options),
    delete: (applicationId, origin, options) => deleteAllowedOrigin(connection, applicationId, origin, options),
  };
}
