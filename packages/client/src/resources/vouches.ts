import { vouchEnvelope, vouchList, type CreateVouchRequest, type Vouch, type VouchStatus } from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

/** Query of the vouch list. */
export type VouchQuery = ListQuery & {
  /** With a person's access token: only the vouches they `given` or `received` (default both). */
  direction?: 'given' | 'received' | undefined;
  status?: VouchStatus | undefined;
  /** With an API token: only this voucher's. */
  voucher_id?: string | undefined;
  /** Only the vouches for this person or agent. */
  vouchee_id?: string | undefined;
};

const BASE = '/api/v1/vouches';
const path = (id: string, sub = '') => `${BASE}/${encodeURIComponent(id)}${sub}`;

/**
 * Vouches for a person or an agent identity of the account (`POST /api/v1/vouches`, with the voucher's own access
 * token): one active vouch per pair (409 `vouch_exists`), never for oneself (422 `self_vouch`). It counts in the
 * vouchee's trust score while active.
 */
export function createVouch(connection: SvcConnection<'bearer'>, request: CreateVouchRequest, options?: WriteOptions): Promise<Vouch> {
  return connection.request({ method: 'POST', path: BASE, body: request, schema: vouchEnvelope }, options).then((body) => body.vouch);
}

/** Reads a vouch (`GET /api/v1/vouches/{id}`): an API token, or the voucher's or the vouchee's access token. */
export function getVouch(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<Vouch> {
  return connection.request({ method: 'GET', path: path(id), schema: vouchEnvelope }, options).then((body) => body.vouch);
}

/** Lists vouches, oldest first (`GET /api/v1/vouches`): a person's own, or the account's with an API token. */
export function listVouches(connection: SvcConnection<'bearer'>, query?: VouchQuery, options?: CallOptions): SvcList<Vouch> {
  return listEndpoint(connection, BASE, vouchList, 'vouches', query, options);
}

/**
 * Revokes a vouch (`POST /api/v1/vouches/{id}/revoke`, the voucher's own access token): once (409
 * `illegal_transition` after); a revoked vouch counts against the vouchee's trust score.
 */
export function revokeVouch(connection: SvcConnection<'bearer'>, id: string, options?: WriteOptions): Promise<Vouch> {
  return connection.request({ method: 'POST', path: path(id, '/revoke'), schema: vouchEnvelope }, options).then((body) => body.vouch);
}

/** `svc.vouches`. */
export interface VouchesResource {
  /** Vouches for a person or an agent; see {@link createVouch}. */
  create(request: CreateVouchRequest, options?: WriteOptions): Promise<Vouch>;
  /** Reads a vouch; see {@link getVouch}. */
  get(id: string, options?: CallOptions): Promise<Vouch>;
  /** Lists vouches; see {@link listVouches}. */
  list(query?: VouchQuery, options?: CallOptions): SvcList<Vouch>;
  /** Revokes a vouch; see {@link revokeVouch}. */
  revoke(id: string, options?: WriteOptions): Promise<Vouch>;
}

/** Binds the vouch functions to a connection. */
export function vouchesResource(connection: SvcConnection<'bearer'>): VouchesResource {
  return {
    create: (request, options) => createVouch(connection, request, options),
    get: (id, options) => getVouch(connection, id, options),
    list: (query, options) => listVouches(connection, query, options),
    revoke: (id, options) => revokeVouch(connection, id, options),
  };
}
