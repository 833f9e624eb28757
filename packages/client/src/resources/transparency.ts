import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';
import {
  capabilityManifestEnvelope,
  capabilityManifestList,
  signedAgentRecord,
  signedControllerRecord,
  signedManifestRecord,
  type AgentTransparencyRecord,
  type ControllerTransparencyRecord,
  type ManifestTransparencyRecord,
  type PinCapabilityManifestRequest,
  type PinnedCapabilityManifest,
  type SignedTransparencyRecord,
} from '@svc/schemas';

const WELL_KNOWN = '/.well-known/transparency';
const manifestsPath = (agentId: string) => `/api/v1/agent_identities/${encodeURIComponent(agentId)}/manifests`;

/**
 * Reads the controller record of an application's receipts (`GET /.well-known/transparency/{application_id}`, public):
 * `{record, signature}`. Check it offline with `verifyTransparencyRecord(signed, jwks)`.
 */
export function getApplicationTransparency(
  connection: SvcConnection,
  applicationId: string,
  options?: CallOptions,
): Promise<SignedTransparencyRecord<ControllerTransparencyRecord>> {
  return connection.request(
    { method: 'GET', path: `${WELL_KNOWN}/${encodeURIComponent(applicationId)}`, schema: signedControllerRecord },
    options,
  );
}

/**
 * Reads an agent's accountability record (`GET /.well-known/transparency/agents/{agent_id}`, public): declared
 * identity, attested status, credential attestations and pinned manifest versions, signed.
 */
export function getAgentTransparency(
  connection: SvcConnection,
  agentId: string,
  options?: CallOptions,
): Promise<SignedTransparencyRecord<AgentTransparencyRecord>> {
  return connection.request(
    { method: 'GET', path: `${WELL_KNOWN}/agents/${encodeURIComponent(agentId)}`, schema: signedAgentRecord },
    options,
  );
}

/**
 * Reads a pinned capability manifest version (`GET /.well-known/transparency/agents/{agent_id}/manifests/{version}`,
 * public), signed; `verifyTransparencyRecord` also recomputes its digest.
 */
export function getAgentManifest(
  connection: SvcConnection,
  agentId: string,
  version: number,
  options?: CallOptions,
): Promise<SignedTransparencyRecord<ManifestTransparencyRecord>> {
  return connection.request(
    {
      method: 'GET',
      path: `${WELL_KNOWN}/agents/${encodeURIComponent(agentId)}/manifests/${encodeURIComponent(String(version))}`,
      schema: signedManifestRecord,
    },
    options,
  );
}

/**
 * Pins the agent's capability manifest as it is now with the scopes it is declared to request
 * (`POST /api/v1/agent_identities/{id}/manifests`, API token with `write`): the next version, frozen, with its digest.
 * A manifest identical to the latest version pins nothing and answers that version.
 */
export function pinAgentManifest(
  connection: SvcConnection<'bearer'>,
  agentId: string,
  request: PinCapabilityManifestRequest,
  options?: WriteOptions,
): Promise<PinnedCapabilityManifest> {
  return connection
    .request({ method: 'POST', path: manifestsPath(agentId), body: request, schema: capabilityManifestEnvelope }, options)
    .then((body) => body.capability_manifest);
}

/** Lists the agent's pinned manifest versions, oldest first (`GET /api/v1/agent_identities/{id}/manifests`). */
export function listAgentManifests(
  connection: SvcConnection<'bearer'>,
  agentId: string,
  query?: ListQuery,
  options?: CallOptions,
): SvcList<PinnedCapabilityManifest> {
  return listEndpoint(connection, manifestsPath(agentId), capabilityManifestList, 'capability_manifests', query, options);
}

/** Transparency records (public, signed) and the pinning of agents' capability manifests. */
export interface TransparencyResource {
  /** Reads an application's controller record; see {@link getApplicationTransparency}. */
  getApplication(applicationId: string, options?: CallOptions): Promise<SignedTransparencyRecord<ControllerTransparencyRecord>>;
  /** Reads an agent's accountability record; see {@link getAgentTransparency}. */
  getAgent(agentId: string, options?: CallOptions): Promise<SignedTransparencyRecord<AgentTransparencyRecord>>;
  /** Reads a pinned manifest version; see {@link getAgentManifest}. */
  getManifest(agentId: string, version: number, options?: CallOptions): Promise<SignedTransparencyRecord<ManifestTransparencyRecord>>;
  /** Pins the agent's manifest; see {@link pinAgentManifest}. */
  pinManifest(agentId: string, request: PinCapabilityManifestRequest, options?: WriteOptions): Promise<PinnedCapabilityManifest>;
  /** Lists the agent's pinned versions; see {@link listAgentManifests}. */
  listManifests(agentId: string, query?: ListQuery, options?: CallOptions): SvcList<PinnedCapabilityManifest>;
}

/** Binds the transparency functions to a connection. */
export function transparencyResource(connection: SvcConnection<'bearer'>): TransparencyResource {
  return {
    getApplication: (applicationId, options) => getApplicationTransparency(connection, applicationId, options),
    getAgent: (agentId, options) => getAgentTransparency(connection, agentId, options),
    getManifest: (agentId, version, options) => getAgentManifest(connection, agentId, version, options),
    pinManifest: (agentId, request, options) => pinAgentManifest(connection, agentId, request, options),
    listManifests: (agentId, query, options) => listAgentManifests(connection, agentId, query, options),
  };
}
