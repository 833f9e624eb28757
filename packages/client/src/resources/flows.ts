import {
  flowEnvelope,
  flowList,
  flowVersionEnvelope,
  flowVersionList,
  type CreateFlowRequest,
  type Flow,
  type FlowVersion,
  type UpdateFlowRequest,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

const path = (id: string, action = '') => `/api/v1/flows/${encodeURIComponent(id)}${action}`;

/** Lists the account's flows, oldest first (`GET /api/v1/flows`). */
export function listFlows(connection: SvcConnection<'bearer'>, query?: ListQuery, options?: CallOptions): SvcList<Flow> {
  return listEndpoint(connection, '/api/v1/flows', flowList, 'flows', query, options);
}

/** Creates a draft flow, version 1 (`POST /api/v1/flows`). */
export function createFlow(connection: SvcConnection<'bearer'>, request: CreateFlowRequest['flow'], options?: WriteOptions): Promise<Flow> {
  return connection
    .request({ method: 'POST', path: '/api/v1/flows', body: { flow: request } satisfies CreateFlowRequest, schema: flowEnvelope }, options)
    .then((body) => body.flow);
}

/** Reads a flow at its newest version (`GET /api/v1/flows/{id}`). */
export function getFlow(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<Flow> {
  return connection.request({ method: 'GET', path: path(id), schema: flowEnvelope }, options).then((body) => body.flow);
}

/**
 * Changes a flow (`PATCH /api/v1/flows/{id}`): edits a draft in place, publishes a new version of an active
 * flow; `config` replaces the whole config.
 */
export function updateFlow(
  connection: SvcConnection<'bearer'>,
  id: string,
  changes: UpdateFlowRequest['flow'],
  options?: WriteOptions,
): Promise<Flow> {
  return connection
    .request({ method: 'PATCH', path: path(id), body: { flow: changes } satisfies UpdateFlowRequest, schema: flowEnvelope }, options)
    .then((body) => body.flow);
}

/** Activates a draft flow, freezing its terms (`POST /api/v1/flows/{id}/activate`). */
export function activateFlow(connection: SvcConnection<'bearer'>, id: string, options?: WriteOptions): Promise<Flow> {
  return connection.request({ method: 'POST', path: path(id, '/activate'), schema: flowEnvelope }, options).then((body) => body.flow);
}

/**
 * Publishes a new version of a flow's terms (`POST /api/v1/flows/{id}/versions`); earlier versions keep
 * governing the consents given under them. Returns the flow at its new version.
 */
export function createFlowVersion(
  connection: SvcConnection<'bearer'>,
  id: string,
  changes: UpdateFlowRequest['flow'],
  options?: WriteOptions,
): Promise<Flow> {
  return connection
    .request(
      { method: 'POST', path: path(id, '/versions'), body: { flow: changes } satisfies UpdateFlowRequest, schema: flowEnvelope },
      options,
    )
    .then((body) => body.flow);
}

/** Lists a flow's versions, oldest first (`GET /api/v1/flows/{id}/versions`). */
export function listFlowVersions(
  connection: SvcConnection<'bearer'>,
  id: string,
  query?: ListQuery,
  options?: CallOptions,
): SvcList<FlowVersion> {
  return listEndpoint(connection, path(id, '/versions'), flowVersionList, 'flow_versions', query, options);
}

/** Reads one version of a flow's terms (`GET /api/v1/flows/{id}/versions/{version}`). */
export function getFlowVersion(
  connection: SvcConnection<'bearer'>,
  id: string,
  version: number,
  options?: CallOptions,
): Promise<FlowVersion> {
  return connection
    .request({ method: 'GET', path: path(id, `/versions/${encodeURIComponent(version)}`), schema: flowVersionEnvelope }, options)
    .then((body) => body.flow_version);
}

/** The account's consent flows and their versions. */
export interface FlowsResource {
  /** Lists the flows; see {@link listFlows}. */
  list(query?: ListQuery, options?: CallOptions): SvcList<Flow>;
  /** Creates a draft flow; see {@link createFlow}. */
  create(request: CreateFlowRequest['flow'], options?: WriteOptions): Promise<Flow>;
  /** Reads a flow; see {@link getFlow}. */
  get(id: string, options?: CallOptions): Promise<Flow>;
  /** Changes a flow; see {@link updateFlow}. */
  update(id: string, changes: UpdateFlowRequest['flow'], options?: WriteOptions): Promise<Flow>;
  /** Activates a draft flow; see {@link activateFlow}. */
  activate(id: string, options?: WriteOptions): Promise<Flow>;
  /** Publishes a new version of the terms; see {@link createFlowVersion}. */
  createVersion(id: string, changes: UpdateFlowRequest['flow'], options?: WriteOptions): Promise<Flow>;
  /** Lists a flow's versions; see {@link listFlowVersions}. */
  listVersions(id: string, query?: ListQuery, options?: CallOptions): SvcList<FlowVersion>;
  /** Reads one version; see {@link getFlowVersion}. */
  getVersion(id: string, version: number, options?: CallOptions): Promise<FlowVersion>;
}

/** Binds the flow functions to a connection. */
export function flowsResource(connection: SvcConnection<'bearer'>): FlowsResource {
  return {
    list: (query, options) => listFlows(connection, query, options),
    create: (request, options) => createFlow(connection, request, options),
    get: (id, options) => getFlow(connection, id, options),
    update: (id, changes, options) => updateFlow(connection, id, changes, options),
    activate: (id, options) => activateFlow(connection, id, options),
    createVersion: (id, changes, options) => createFlowVersion(connection, id, changes, options),
    listVersions: (id, query, options) => listFlowVersions(connection, id, query, options),
    getVersion: (id, version, options) => getFlowVersion(connection, id, version, options),
  };
}
