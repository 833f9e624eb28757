import {
  collaborationEnvelope,
  collaborationList,
  membershipEnvelope,
  type AddMembershipRequest,
  type Collaboration,
  type CollaborationDetail,
  type CollaborationMembership,
  type CollaborationStatus,
  type CreateCollaborationRequest,
  type SignMembershipRequest,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

/** Query of the collaboration list. */
export type CollaborationQuery = ListQuery & {
  /** Only collaborations in this status (`pending`, `active`, `dissolved`). */
  status?: CollaborationStatus | undefined;
};

const BASE = '/api/v1/collaborations';
const path = (id: string, sub = '') => `${BASE}/${encodeURIComponent(id)}${sub}`;
const membershipPath = (id: string, membershipId: string, sub = '') => path(id, `/memberships/${encodeURIComponent(membershipId)}${sub}`);

/**
 * Creates a collaboration (`POST /api/v1/collaborations`; everything optional): with an API token its participants are
 * pending members; with a person's access token that person is also its initiator (and a member). It becomes
 * `active` when two or more current members have all signed.
 */
export function createCollaboration(
  connection: SvcConnection<'bearer'>,
  request: CreateCollaborationRequest = {},
  options?: WriteOptions,
): Promise<CollaborationDetail> {
  return connection
    .request({ method: 'POST', path: BASE, body: request, schema: collaborationEnvelope }, options)
    .then((body) => body.collaboration);
}

/** Reads a collaboration with its memberships (`GET /api/v1/collaborations/{id}`). */
export function getCollaboration(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<CollaborationDetail> {
  return connection.request({ method: 'GET', path: path(id), schema: collaborationEnvelope }, options).then((body) => body.collaboration);
}

/** Lists collaborations, oldest first (`GET /api/v1/collaborations`): the account's, or a person's own. */
export function listCollaborations(
  connection: SvcConnection<'bearer'>,
  query?: CollaborationQuery,
  options?: CallOptions,
): SvcList<Collaboration> {
  return listEndpoint(connection, BASE, collaborationList, 'collaborations', query, options);
}

/** Dissolves a collaboration, for good (`POST /api/v1/collaborations/{id}/dissolve`; the initiator or an API token). */
export function dissolveCollaboration(
  connection: SvcConnection<'bearer'>,
  id: string,
  options?: WriteOptions,
): Promise<CollaborationDetail> {
  return connection
    .request({ method: 'POST', path: path(id, '/dissolve'), schema: collaborationEnvelope }, options)
    .then((body) => body.collaboration);
}

/** Adds a member to a pending collaboration (`POST /api/v1/collaborations/{id}/memberships`; the initiator or an API token). */
export function addCollaborationMember(
  connection: SvcConnection<'bearer'>,
  id: string,
  request: AddMembershipRequest,
  options?: WriteOptions,
): Promise<CollaborationMembership> {
  return connection
    .request({ method: 'POST', path: path(id, '/memberships'), body: request, schema: membershipEnvelope }, options)
    .then((body) => body.membership);
}

/** Reads a membership (`GET /api/v1/collaborations/{id}/memberships/{membership_id}`). */
export function getCollaborationMembership(
  connection: SvcConnection<'bearer'>,
  id: string,
  membershipId: string,
  options?: CallOptions,
): Promise<CollaborationMembership> {
  return connection
    .request({ method: 'GET', path: membershipPath(id, membershipId), schema: membershipEnvelope }, options)
    .then((body) => body.membership);
}

/**
 * Signs a membership with the member's own access token (`POST …/memberships/{membership_id}/sign`), choosing the
 * shared data categories (default: those proposed); once (409 `illegal_transition` after).
 */
export function signCollaborationMembership(
  connection: SvcConnection<'bearer'>,
  id: string,
  membershipId: string,
  request: SignMembershipRequest = {},
  options?: WriteOptions,
): Promise<CollaborationMembership> {
  return connection
    .request({ method: 'POST', path: membershipPath(id, membershipId, '/sign'), body: request, schema: membershipEnvelope }, options)
    .then((body) => body.membership);
}

/** Ends a membership (`POST …/memberships/{membership_id}/revoke`; the member, the initiator or an API token), once. */
export function revokeCollaborationMembership(
  connection: SvcConnection<'bearer'>,
  id: string,
  membershipId: string,
  options?: WriteOptions,
): Promise<CollaborationMembership> {
  return connection
    .request({ method: 'POST', path: membershipPath(id, membershipId, '/revoke'), schema: membershipEnvelope }, options)
    .then((body) => body.membership);
}

/** `svc.collaborations`. */
export interface CollaborationsResource {
  /** Creates a collaboration; see {@link createCollaboration}. */
  create(request?: CreateCollaborationRequest, options?: WriteOptions): Promise<CollaborationDetail>;
  /** Reads one; see {@link getCollaboration}. */
  get(id: string, options?: CallOptions): Promise<CollaborationDetail>;
  /** Lists them; see {@link listCollaborations}. */
  list(query?: CollaborationQuery, options?: CallOptions): SvcList<Collaboration>;
  /** Dissolves one; see {@link dissolveCollaboration}. */
  dissolve(id: string, options?: WriteOptions): Promise<CollaborationDetail>;
  /** Adds a member; see {@link addCollaborationMember}. */
  addMember(id: string, request: AddMembershipRequest, options?: WriteOptions): Promise<CollaborationMembership>;
  /** Reads a membership; see {@link getCollaborationMembership}. */
  getMembership(id: string, membershipId: string, options?: CallOptions): Promise<CollaborationMembership>;
  /** Signs a membership; see {@link signCollaborationMembership}. */
  signMembership(
    id: string,
    membershipId: string,
    request?: SignMembershipRequest,
    options?: WriteOptions,
  ): Promise<CollaborationMembership>;
  /** Ends a membership; see {@link revokeCollaborationMembership}. */
  revokeMembership(id: string, membershipId: string, options?: WriteOptions): Promise<CollaborationMembership>;
}

/** Binds the collaboration functions to a connection. */
export function collaborationsResource(connection: SvcConnection<'bearer'>): CollaborationsResource {
  return {
    create: (request, options) => createCollaboration(connection, request, options),
    get: (id, options) => getCollaboration(connection, id, options),
    list: (query, options) => listCollaborations(connection, query, options),
    dissolve: (id, options) => dissolveCollaboration(connection, id, options),
    addMember: (id, request, options) => addCollaborationMember(connection, id, request, options),
    getMembership: (id, membershipId, options) => getCollaborationMembership(connection, id, membershipId, options),
    signMembership: (id, membershipId, request, options) => signCollaborationMembership(connection, id, membershipId, request, options),
    revokeMembership: (id, membershipId, options) => revokeCollaborationMembership(connection, id, membershipId, options),
  };
}
