import {
  delegationGrantEnvelope,
  delegationGrantList,
  type CreateDelegationRequest,
  type DelegationGrant,
  type DelegationStatus,
  type TokenExchangeResponse,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import type { FetchImplementation } from '../lib/options.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';
import { exchangeDelegationGrant, type AgentClientCredentials } from './token-exchange.js';

/** Query of the delegation grant list. */
export type DelegationGrantQuery = ListQuery & {
  /** Only grants in this status. */
  status?: DelegationStatus | undefined;
  /** For a person: only the grants they made (`principal`) or received (`delegate`); both when absent. */
  role?: 'principal' | 'delegate' | undefined;
};

const BASE = '/api/v1/delegations';
const path = (id: string, action = '') => `${BASE}/${encodeURIComponent(id)}${action}`;

/**
 * Lists delegation grants, oldest first (`GET /api/v1/delegations`): a person's, as principal or delegate (`role`),
 * with their access token; the account's with an API token.
 */
export function listDelegationGrants(
  connection: SvcConnection<'bearer'>,
  query?: DelegationGrantQuery,
  options?: CallOptions,
): SvcList<DelegationGrant> {
  return listEndpoint(connection, BASE, delegationGrantList, 'delegation_grants', query, options);
}

/**
 * Delegates authority (`POST /api/v1/delegations`), active at once: to another person (the human delegation types)
 * or to an agent identity (`ai_agent`, with `bounds`). The principal makes it with their own access token; a
 * sub-delegation (`parent_grant_id`, never wider than its parent) is made by the parent's delegate, with their
 * person token or their agent token.
 */
export function createDelegationGrant(
  connection: SvcConnection<'bearer'>,
  request: CreateDelegationRequest,
  options?: WriteOptions,
): Promise<DelegationGrant> {
  return connection
    .request({ method: 'POST', path: BASE, body: request, schema: delegationGrantEnvelope }, options)
    .then((body) => body.delegation_grant);
}

/** Reads a delegation grant (`GET /api/v1/delegations/{id}`); its `status` reads `expired` once `expires_at` has passed. */
export function getDelegationGrant(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<DelegationGrant> {
  return connection
    .request({ method: 'GET', path: path(id), schema: delegationGrantEnvelope }, options)
    .then((body) => body.delegation_grant);
}

function change(
  connection: SvcConnection<'bearer'>,
  id: string,
  action: 'suspend' | 'resume' | 'revoke',
  options?: WriteOptions,
): Promise<DelegationGrant> {
  return connection
    .request({ method: 'POST', path: path(id, `/${action}`), schema: delegationGrantEnvelope }, options)
    .then((body) => body.delegation_grant);
}

/**
 * Pauses a grant (`POST …/{id}/suspend`): the delegate's tokens stop working until it is resumed. Out of revoked or
 * expired it is a 409 `invalid_transition` (`SvcHttpError`).
 */
export function suspendDelegationGrant(connection: SvcConnection<'bearer'>, id: string, options?: WriteOptions): Promise<DelegationGrant> {
  return change(connection, id, 'suspend', options);
}

/** Resumes a suspended grant (`POST …/{id}/resume`); out of revoked or expired it is a 409 `invalid_transition`. */
export function resumeDelegationGrant(connection: SvcConnection<'bearer'>, id: string, options?: WriteOptions): Promise<DelegationGrant> {
  return change(connection, id, 'resume', options);
}

/**
 * Revokes a grant for good (`POST …/{id}/revoke`), with every grant made from it and every token issued from them,
 * at once (a `delegation.revoked` webhook names the sub-delegations revoked with it).
 */
export function revokeDelegationGrant(connection: SvcConnection<'bearer'>, id: string, options?: WriteOptions): Promise<DelegationGrant> {
  return change(connection, id, 'revoke', options);
}

/** Delegation grants: a person's authority handed to another person or to an agent, within bounds. */
export interface DelegationsResource {
  /** Lists grants; see {@link listDelegationGrants}. */
  list(query?: DelegationGrantQuery, options?: CallOptions): SvcList<DelegationGrant>;
  /** Makes a grant; see {@link createDelegationGrant}. */
  create(request: CreateDelegationRequest, options?: WriteOptions): Promise<DelegationGrant>;
  /** Reads a grant; see {@link getDelegationGrant}. */
  get(id: string, options?: CallOptions): Promise<DelegationGrant>;
  /** Pauses a grant; see {@link suspendDelegationGrant}. */
  suspend(id: string, options?: WriteOptions): Promise<DelegationGrant>;
  /** Resumes a grant; see {@link resumeDelegationGrant}. */
  resume(id: string, options?: WriteOptions): Promise<DelegationGrant>;
  /** Revokes a grant and everything made from it; see {@link revokeDelegationGrant}. */
  revoke(id: string, options?: WriteOptions): Promise<DelegationGrant>;
  /**
   * Exchanges a grant made to an agent for an agent token, at this client's base URL with its `fetch` and
   * timeout. The exchange is authenticated by the agent's OAuth client (`client`), never by this client's own
   * credential, which it does not send; see {@link exchangeDelegationGrant} for a runtime that holds nothing else.
   */
  exchange(
    delegationGrantId: string,
    client: AgentClientCredentials,
    options?: Pick<CallOptions, 'signal' | 'timeoutMs'>,
  ): Promise<TokenExchangeResponse>;
}

/** What `exchange` borrows from the client's options. */
export interface ExchangeTransport {
  fetch?: FetchImplementation | undefined;
  timeoutMs?: number | undefined;
}

/** Binds the delegation grant functions to a connection (and the token exchange to its base URL and transport). */
export function delegationsResource(connection: SvcConnection<'bearer'>, transport: ExchangeTransport = {}): DelegationsResource {
  return {
    list: (query, options) => listDelegationGrants(connection, query, options),
    create: (request, options) => createDelegationGrant(connection, request, options),
    get: (id, options) => getDelegationGrant(connection, id, options),
    suspend: (id, options) => suspendDelegationGrant(connection, id, options),
    resume: (id, options) => resumeDelegationGrant(connection, id, options),
    revoke: (id, options) => revokeDelegationGrant(connection, id, options),
    exchange: (delegationGrantId, client, options) =>
      exchangeDelegationGrant({
        ...client,
        baseUrl: connection.baseUrl,
        delegationGrantId,
        fetch: transport.fetch,
        timeoutMs: options?.timeoutMs ?? transport.timeoutMs,
        signal: options?.signal,
      }),
  };
}
