import {
  agentIdentityEnvelope,
  agentIdentityList,
  trustScoreEnvelope,
  type AgentIdentity,
  type AgentIdentityStatus,
  type CreateAgentIdentityRequest,
  type TrustScore,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

/** Query of the agent identity list. */
export type AgentIdentityQuery = ListQuery & {
  /** Only identities in this status. */
  status?: AgentIdentityStatus | undefined;
};

const BASE = '/api/v1/agent_identities';
const path = (id: string, action = '') => `${BASE}/${encodeURIComponent(id)}${action}`;

/** Lists the account's agent identities, oldest first (`GET /api/v1/agent_identities`). */
export function listAgentIdentities(
  connection: SvcConnection<'bearer'>,
  query?: AgentIdentityQuery,
  options?: CallOptions,
): SvcList<AgentIdentity> {
  return listEndpoint(connection, BASE, agentIdentityList, 'agent_identities', query, options);
}

/**
 * Registers an agent identity, active (`POST /api/v1/agent_identities`). `oauth_application_id` links it to the
 * OAuth client it authenticates with: the `client_id` (`oc_...`) of a client of one of the account's applications.
 */
export function createAgentIdentity(
  connection: SvcConnection<'bearer'>,
  request: CreateAgentIdentityRequest,
  options?: WriteOptions,
): Promise<AgentIdentity> {
  return connection
    .request({ method: 'POST', path: BASE, body: request, schema: agentIdentityEnvelope }, options)
    .then((body) => body.agent_identity);
}

/** Reads an agent identity (`GET /api/v1/agent_identities/{id}`). */
export function getAgentIdentity(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<AgentIdentity> {
  return connection.request({ method: 'GET', path: path(id), schema: agentIdentityEnvelope }, options).then((body) => body.agent_identity);
}

function change(
  connection: SvcConnection<'bearer'>,
  id: string,
  action: 'suspend' | 'resume' | 'revoke',
  options?: WriteOptions,
): Promise<AgentIdentity> {
  return connection
    .request({ method: 'POST', path: path(id, `/${action}`), schema: agentIdentityEnvelope }, options)
    .then((body) => body.agent_identity);
}

/** Suspends an active agent identity (`POST …/{id}/suspend`); a suspended one is answered unchanged, a revoked one is 409. */
export function suspendAgentIdentity(connection: SvcConnection<'bearer'>, id: string, options?: WriteOptions): Promise<AgentIdentity> {
  return change(connection, id, 'suspend', options);
}

/** Resumes a suspended agent identity (`POST …/{id}/resume`); an active one is answered unchanged, a revoked one is 409. */
export function resumeAgentIdentity(connection: SvcConnection<'bearer'>, id: string, options?: WriteOptions): Promise<AgentIdentity> {
  return change(connection, id, 'resume', options);
}

/** Revokes an agent identity for good (`POST …/{id}/revoke`); a revoked one is answered unchanged. */
export function revokeAgentIdentity(connection: SvcConnection<'bearer'>, id: string, options?: WriteOptions): Promise<AgentIdentity> {
  return change(connection, id, 'revoke', options);
}

// The spec names the trust score, not its envelope; the envelope is the API's usual one.

/**
 * Reads an agent's trust score (`GET /api/v1/agent_identities/{id}/trust_score`, API token): 0-100, computed
 * from what the service recorded of the agent, with the factors that made it. The reputation bound of a grant
 * (`min_trust_score`) is checked against it.
 */
export function getAgentTrustScore(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<TrustScore> {
  return connection
    .request({ method: 'GET', path: path(id, '/trust_score'), schema: trustScoreEnvelope }, options)
    .then((body) => body.trust_score);
}

/** The software agents the account operates. */
export interface AgentIdentitiesResource {
  /** Lists the identities; see {@link listAgentIdentities}. */
  list(query?: AgentIdentityQuery, options?: CallOptions): SvcList<AgentIdentity>;
  /** Registers an identity; see {@link createAgentIdentity}. */
  create(request: CreateAgentIdentityRequest, options?: WriteOptions): Promise<AgentIdentity>;
  /** Reads an identity; see {@link getAgentIdentity}. */
  get(id: string, options?: CallOptions): Promise<AgentIdentity>;
  /** Suspends an identity; see {@link suspendAgentIdentity}. */
  suspend(id: string, options?: WriteOptions): Promise<AgentIdentity>;
  /** Resumes an identity; see {@link resumeAgentIdentity}. */
  resume(id: string, options?: WriteOptions): Promise<AgentIdentity>;
  /** Revokes an identity; see {@link revokeAgentIdentity}. */
  revoke(id: string, options?: WriteOptions): Promise<AgentIdentity>;
  /** Reads an identity's trust score; see {@link getAgentTrustScore}. */
  trustScore(id: string, options?: CallOptions): Promise<TrustScore>;
}

/** Binds the agent identity functions to a connection. */
export function agentIdentitiesResource(connection: SvcConnection<'bearer'>): AgentIdentitiesResource {
  return {
    list: (query, options) => listAgentIdentities(connection, query, options),
    create: (request, options) => createAgentIdentity(connection, request, options),
    get: (id, options) => getAgentIdentity(connection, id, options),
    suspend: (id, options) => suspendAgentIdentity(connection, id, options),
    resume: (id, options) => resumeAgentIdentity(connection, id, options),
    revoke: (id, options) => revokeAgentIdentity(connection, id, options),
    trustScore: (id, options) => getAgentTrustScore(connection, id, options),
  };
}
