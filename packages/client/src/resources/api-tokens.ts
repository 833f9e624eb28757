import { z } from 'zod/mini';
import { apiToken, apiTokenList, type ApiToken, type CreateApiTokenRequest } from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

/** An API token as create and rotate return it: with its raw `token`, shown this once. */
export type IssuedApiToken = ApiToken & { token: string };

// Create and rotate must carry the raw value; checking for it here spares every caller a `!`.
const issued = z.object({ api_token: z.extend(apiToken, { token: z.string() }) });

const path = (id: string, action = '') => `/api/v1/api_tokens/${encodeURIComponent(id)}${action}`;

/** Lists the account's API tokens, never their values (`GET /api/v1/api_tokens`). */
export function listApiTokens(connection: SvcConnection<'bearer'>, query?: ListQuery, options?: CallOptions): SvcList<ApiToken> {
  return listEndpoint(connection, '/api/v1/api_tokens', apiTokenList, 'api_tokens', query, options);
}

/**
 * Creates an API token (`POST /api/v1/api_tokens`); the result carries the raw `token`, which is never shown
 * again. Permissions default to `['read']`; issuing `admin` needs `admin`.
 */
export function createApiToken(
  connection: SvcConnection<'bearer'>,
  request: CreateApiTokenRequest['api_token'],
  options?: WriteOptions,
): Promise<IssuedApiToken> {
  return connection
    .request(
      { method: 'POST', path: '/api/v1/api_tokens', body: { api_token: request } satisfies CreateApiTokenRequest, schema: issued },
      options,
    )
    .then((body) => body.api_token);
}

/** Replaces a token's value (`POST /api/v1/api_tokens/{id}/rotate`); the old value stops working at once. */
export function rotateApiToken(connection: SvcConnection<'bearer'>, id: string, options?: WriteOptions): Promise<IssuedApiToken> {
  return connection.request({ method: 'POST', path: path(id, '/rotate'), schema: issued }, options).then((body) => body.api_token);
}

/** Revokes an API token (`DELETE /api/v1/api_tokens/{id}`). */
export async function deleteApiToken(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<void> {
  await connection.request({ method: 'DELETE', path: path(id) }, options);
}

/** The account's API tokens. */
export interface ApiTokensResource {
  /** Lists the tokens; see {@link listApiTokens}. */
  list(query?: ListQuery, options?: CallOptions): SvcList<ApiToken>;
  /** Creates a token and returns its raw value once; see {@link createApiToken}. */
  create(request: CreateApiTokenRequest['api_token'], options?: WriteOptions): Promise<IssuedApiToken>;
  /** Replaces a token's value; see {@link rotateApiToken}. */
  rotate(id: string, options?: WriteOptions): Promise<IssuedApiToken>;
  /** Revokes a token; see {@link deleteApiToken}. */
  delete(id: string, options?: CallOptions): Promise<void>;
}

/** Binds the API token functions to a connection. */
export function apiTokensResource(connection: SvcConnection<'bearer'>): ApiTokensResource {
  return {
    list: (query, options) => listApiTokens(connection, query, options),
    create: (request, options) => createApiToken(connection, request, options),
    rotate: (id, options) => rotateApiToken(connection, id, options),
    delete: (id, options) => deleteApiToken(connection, id, options),
  };
}
