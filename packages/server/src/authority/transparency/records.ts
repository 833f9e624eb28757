// The transparency records (`/.well-known/transparency/...`) and the signed discovery records (`oap-attestation`,
// `oap-credentials/{id}`, `oap-revocation-list`): what each says, built from what the service stores. Every record is
// public, so each holds only facts already public on receipts or facts of the platform: no e-mail address, secret,
// key material beyond the public JWKS, allowed origin, or agent metadata beyond the manifest's declared fields.
import {
  AGENT_TYPES,
  OAP_PROTOCOL_VERSIONS,
  RECEIPT_CONFORMS_TO,
  RECEIPT_SCHEMA_VERSION,
  TOKEN_EXCHANGE_GRANT_TYPE,
  TRANSPARENCY_FORMAT,
  type AgentTransparencyRecord,
  type ControllerTransparencyRecord,
  type CredentialAttestation,
  type CredentialAttestationRecord,
  type ManifestTransparencyRecord,
  type PlatformAttestationRecord,
  type RevocationListRecord,
  type TransparencyRecord,
} from '@svc/schemas';
import { allPinnedManifests, capabilityManifestOf, type PinnedManifest } from '../agents/manifest.js';
import { findAgentIdentity, type AgentIdentityRecord } from '../agents/store.js';
import { AGENT_TRUST_FACTORS, BASE_TRUST_SCORE, TRUST_SCORE_FUNCTION_VERSION } from '../delegations/trust-score.js';
import { findApplication } from '../../platform/application-store.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { findClient } from '../../platform/oauth/clients.js';
import { PLATFORM_PARTY_ID, PLATFORM_PARTY_NAME } from '../../consent/receipts/canonical.js';
import { signJcs } from '../../consent/receipts/sign.js';

/** The signed form of every record: a detached JWS over the record's JCS bytes, as signed receipts are. */
export async function signRecord<T extends TransparencyRecord>(ctx: ServerContext, record: T): Promise<{ record: T; signature: string }> {
  return { record, signature: await signJcs(record, ctx.keys.privateKey, ctx.keys.kid) };
}

/** The JWS algorithms the platform signs with. */
const SIGNATURE_ALGORITHMS = ['ES256'];

/** Absolute URLs of the public documents, one place for all of them. */
export const urls = {
  jwks: (ctx: ServerContext) => `${ctx.baseUrl}/.well-known/jwks.json`,
  receiptSchema: (ctx: ServerContext) => `${ctx.baseUrl}/schemas/receipt/v2/record.json`,
  controllerRecord: (ctx: ServerContext, applicationId: string) =>
    `${ctx.baseUrl}/.well-known/transparency/${encodeURIComponent(applicationId)}`,
  agentRecord: (ctx: ServerContext, agentId: string) => `${ctx.baseUrl}/.well-known/transparency/agents/${encodeURIComponent(agentId)}`,
  manifestRecord: (ctx: ServerContext, agentId: string, version: number) =>
    `${ctx.baseUrl}/.well-known/transparency/agents/${encodeURIComponent(agentId)}/manifests/${version}`,
  credentials: (ctx: ServerContext, agentId: string) => `${ctx.baseUrl}/.well-known/oap-credentials/${encodeURIComponent(agentId)}`,
  revocationList: (ctx: ServerContext) => `${ctx.baseUrl}/.well-known/oap-revocation-list`,
  tokenExchange: (ctx: ServerContext) => `${ctx.baseUrl}/oauth/token/exchange`,
};

/** The service's did:web identifier: the host of its base URL (the port's colon percent-encoded), then any path. */
export function didOf(ctx: ServerContext): string {
  const url = new URL(ctx.baseUrl);
  const path = url.pathname.split('/').filter(Boolean).map(encodeURIComponent);
  return ['did:web', encodeURIComponent(url.host), ...path].join(':');
}

// ---- Controller record ------------------------------------------------------------------------------------------

/** The controller record of application `applicationId`, or undefined when there is no such application. */
export function controllerRecord(ctx: ServerContext, applicationId: string): ControllerTransparencyRecord | undefined {
  const application = findApplication(ctx, applicationId);
  if (!application) return undefined;
  const organization = stmt<[string], string>(ctx.db, 'SELECT name FROM accounts WHERE id = ?')
    .pluck()
    .get(application.account_id) as unknown as string | undefined;
  return {
    record_type: 'controller_record',
    format: TRANSPARENCY_FORMAT,
    issuer: ctx.baseUrl,
    application_id: application.id,
    // As the receipts name the controller (receipts/canonical.ts, delegations/receipt.ts), field for field.
    controller: {
      party_id: application.id,
      party_name: application.name,
      party_role: 'controller',
      party_type: 'organization',
      provenance: 'declared',
    },
    processor: { party_id: PLATFORM_PARTY_ID, party_name: PLATFORM_PARTY_NAME, party_role: 'processor', party_type: 'organization' },
    organization_name: organization ?? application.name,
    environment: application.environment,
    region: application.region,
    active: application.active,
    // Where the receipts may be stored: each person's records live in their home country's cell.
    storage_locations: ctx.cells.list().map((cell) => cell.country),
    receipts: {
      schema_version: RECEIPT_SCHEMA_VERSION,
      conforms_to: RECEIPT_CONFORMS_TO,
      schema_url: urls.receiptSchema(ctx),
      record_types: ['consent_record', 'notice_record', 'authorization_record'],
      jwks_uri: urls.jwks(ctx),
      signature_algorithms: SIGNATURE_ALGORITHMS,
      signed_receipt_url_template: `${ctx.baseUrl}/api/v1/consent_receipts/{record_id}?flavor=signed`,
    },
    withdrawal: {
      authorization_records: {
        method: 'GET',
        url_template: `${ctx.trustUrl}/authorization_receipts/{record_id}/withdraw`,
        credential: 'none',
        description:
          'The credential-free entry of an authorization record (its authority.withdrawal_method): it says how the grant or approval is withdrawn.',
      },
      consent_records: {
        method: 'POST',
        url_template: `${ctx.baseUrl}/api/v1/consent_records/{record_id}/withdraw`,
        credential: 'api_token',
        description:
          "The controller withdraws some or all purposes of a consent record on the person's request (the withdrawal is appended to the receipt with its channel).",
      },
      delegation_grants: {
        method: 'POST',
        url_template: `${ctx.baseUrl}/api/v1/delegations/{delegation_grant_id}/revoke`,
        credential: 'access_token',
        description:
          "The principal revokes a delegation grant with their own sign-in (the controller's API token may revoke it too); every token issued from it stops at once.",
      },
    },
    issued_at: isoNow(ctx.clock),
  };
}

// ---- Agent records ----------------------------------------------------------------------------------------------

/** What the platform attests about how `agent` authenticates: its OAuth client, when it has one. */
export function credentialAttestationsOf(ctx: ServerContext, agent: AgentIdentityRecord): CredentialAttestation[] {
  if (!agent.oauth_application_id) return [];
  const client = findClient(ctx, agent.oauth_application_id);
  const grantTypes = client ? (JSON.parse(client.grant_types) as string[]) : [];
  return [
    {
      credential_type: 'oauth_client',
      client_id: agent.oauth_application_id,
      status: client ? 'live' : 'deleted',
      application_id: client?.application_id ?? null,
      token_endpoint_auth_method: client?.token_endpoint_auth_method ?? null,
      token_endpoint: urls.tokenExchange(ctx),
      token_exchange_allowed: grantTypes.includes(TOKEN_EXCHANGE_GRANT_TYPE),
    },
  ];
}

/** When the agent's status last changed: its revocation, its suspension, its last resumption, else its registration. */
function statusChangedAt(ctx: ServerContext, agent: AgentIdentityRecord): string {
  if (agent.status === 'revoked' && agent.revoked_at) return agent.revoked_at;
  if (agent.status === 'suspended' && agent.suspended_at) return agent.suspended_at;
  if (!agent.application_id) return agent.created_at;
  // A resumption clears suspended_at; its time is on the activity event the change recorded.
  const resumed = stmt<[string, string], string>(
    ctx.db,
    `SELECT created_at FROM activity_events WHERE application_id = ?
    AND type = 'agent_identity.resumed' AND json_extract(data, '$.agent_identity_id') = ? ORDER BY seq DESC LIMIT 1`,
  )
    .pluck()
    .get(agent.application_id, agent.id) as unknown as string | undefined;
  return resumed ?? agent.created_at;
}

const manifestReferences = (ctx: ServerContext, pinned: PinnedManifest[]) =>
  pinned.map((p) => ({
    version: p.version,
    digest: p.digest,
    pinned_at: p.pinned_at,
    url: urls.manifestRecord(ctx, p.agent_id, p.version),
  }));

/**
 * The accountability record of agent identity `agentId` (any account's: transparency is public), or undefined when
 * there is none. `declared` carries the manifest's declared fields of the agent's metadata and nothing else of it.
 */
export function agentRecord(ctx: ServerContext, agentId: string): AgentTransparencyRecord | undefined {
  const agent = findAgentIdentity(ctx, agentId);
  if (!agent) return undefined;
  const declared = capabilityManifestOf(agent, []);
  return {
    record_type: 'agent_accountability_record',
    format: TRANSPARENCY_FORMAT,
    issuer: ctx.baseUrl,
    agent_id: agent.id,
    declared: {
      provenance: 'declared',
      display_name: agent.display_name,
      agent_type: agent.agent_type,
      operator_name: declared.operator_name,
      privacy_policy_url: declared.privacy_policy_url,
      data_storage: declared.data_storage,
      retention_period: declared.retention_period,
      capabilities: declared.capabilities,
    },
    attested: {
      status: agent.status,
      registered_at: agent.created_at,
      status_changed_at: statusChangedAt(ctx, agent),
      suspended_at: agent.suspended_at,
      revoked_at: agent.revoked_at,
      application_id: agent.application_id,
      attested_at: isoNow(ctx.clock),
    },
    credential_attestations: credentialAttestationsOf(ctx, agent),
    manifests: manifestReferences(ctx, allPinnedManifests(ctx, agent.id)),
    links: {
      credential_attestation: urls.credentials(ctx, agent.id),
      revocation_list: urls.revocationList(ctx),
      controller_record: agent.application_id ? urls.controllerRecord(ctx, agent.application_id) : null,
    },
  };
}

/** The record of pinned version `version` of the agent's manifest, or undefined. Immutable: no time of reading in it. */
export function manifestRecord(ctx: ServerContext, pinned: PinnedManifest): ManifestTransparencyRecord {
  return {
    record_type: 'capability_manifest_record',
    format: TRANSPARENCY_FORMAT,
    issuer: ctx.baseUrl,
    agent_id: pinned.agent_id,
    version: pinned.version,
    manifest: pinned.manifest,
    digest_method: 'sha256-jcs',
    digest: pinned.digest,
    pinned_at: pinned.pinned_at,
  };
}

/** The credential attestation of agent identity `agentId` (`/.well-known/oap-credentials/{id}`), or undefined. */
export function credentialRecord(ctx: ServerContext, agentId: string): CredentialAttestationRecord | undefined {
  const agent = findAgentIdentity(ctx, agentId);
  if (!agent) return undefined;
  return {
    record_type: 'oap_credential_attestation',
    format: TRANSPARENCY_FORMAT,
    issuer: ctx.baseUrl,
    subject: agent.id,
    status: agent.status,
    credentials: credentialAttestationsOf(ctx, agent),
    attested_at: isoNow(ctx.clock),
    links: { agent_record: urls.agentRecord(ctx, agent.id) },
  };
}

// ---- Platform records -------------------------------------------------------------------------------------------

/**
 * Every revoked agent identity and delegation grant, each with its revocation time, oldest first: ids only, never
 * who granted what to whom. (It reads the two tables directly; both keep `revoked_at` for good.)
 */
export function revocationList(ctx: ServerContext): RevocationListRecord {
  type Row = { id: string; revoked_at: string };
  const agents = stmt<[], Row>(
    ctx.db,
    "SELECT id, revoked_at FROM agent_identities WHERE status = 'revoked' AND revoked_at IS NOT NULL ORDER BY revoked_at, id",
  ).all();
  const grants = stmt<[], Row>(
    ctx.db,
    "SELECT id, revoked_at FROM delegation_grants WHERE status = 'revoked' AND revoked_at IS NOT NULL ORDER BY revoked_at, id",
  ).all();
  return {
    record_type: 'oap_revocation_list',
    format: TRANSPARENCY_FORMAT,
    issuer: ctx.baseUrl,
    agent_identities: agents.map(({ id, revoked_at }) => ({ id, revoked_at })),
    delegation_grants: grants.map(({ id, revoked_at }) => ({ id, revoked_at })),
    issued_at: isoNow(ctx.clock),
  };
}

/** The platform's attestation of itself: its protocols, its keys and the trust-score function it runs. */
export function platformAttestation(ctx: ServerContext): PlatformAttestationRecord {
  const jwks = { keys: ctx.keys.jwks.keys.map((k) => ({ ...k, kty: k.kty ?? 'EC', kid: k.kid ?? '' })) };
  return {
    record_type: 'oap_platform_attestation',
    format: TRANSPARENCY_FORMAT,
    issuer: ctx.baseUrl,
    subject: ctx.baseUrl,
    did: didOf(ctx),
    oap_protocol_versions_supported: [...OAP_PROTOCOL_VERSIONS],
    delegation_methods_supported: ['token_exchange'],
    agent_types_supported: [...AGENT_TYPES],
    jwks_uri: urls.jwks(ctx),
    jwks,
    signature_algorithms: SIGNATURE_ALGORITHMS,
    trust_score: {
      function_version: TRUST_SCORE_FUNCTION_VERSION,
      minimum: 0,
      maximum: 100,
      base_score: BASE_TRUST_SCORE,
      factors: [...AGENT_TRUST_FACTORS],
    },
    receipts: { schema_version: RECEIPT_SCHEMA_VERSION, conforms_to: RECEIPT_CONFORMS_TO, schema_url: urls.receiptSchema(ctx) },
    transparency_format: TRANSPARENCY_FORMAT,
    issued_at: isoNow(ctx.clock),
  };
}
