// Transparency records and the rest of the service's discovery documents (`/.well-known/...`). The records are
// public and signed: each answers `{record, signature}`, `signature` a compact JWS with detached payload (RFC 7515
// appendix F) over the RFC 8785 (JCS) bytes of `record`, its `kid` in `/.well-known/jwks.json`, exactly as signed
// receipts are; `verifyTransparencyRecord(signed, jwks)` checks one offline.
import { z } from 'zod/mini';
import { agentIdentityStatus } from './agent-identities.js';
import { applicationRegion } from './applications.js';
import { dateTime, listOf, listQuery } from './common.js';
import { apiScope } from './delegations.js';
import { RECEIPT_CONFORMS_TO, RECEIPT_SCHEMA_VERSION } from './receipts.js';

/** The format every transparency record names in `format`; a change of meaning gets a new one. */
export const TRANSPARENCY_FORMAT = 'svc-transparency/1';

/** The agent-authority protocol versions the platform speaks (`oap_protocol_versions_supported`). */
export const OAP_PROTOCOL_VERSIONS = ['1.0'] as const;

/** `sha256:<64 lower-case hex digits>`. */
export const sha256Digest = z.string().check(z.regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256: and 64 lower-case hex digits'));

/** A compact JWS with detached payload: `header..signature`. */
export const detachedJws = z
  .string()
  .check(z.regex(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/, 'must be a compact JWS with detached payload (header..signature)'));

const text = () => z.string().check(z.minLength(1), z.maxLength(5000));
const id = () => z.string().check(z.minLength(1), z.maxLength(200));
const uniqueScopes = (items: string[]) => new Set(items).size === items.length;

// ---- Capability manifests -----------------------------------------------------------------------------------------

/**
 * An agent's capability manifest: what its operator declares it is and may do, with the scopes it is declared to
 * request. Its digest (`sha256:` over the RFC 8785 JSON of exactly these fields) is the `capability_manifest`
 * extension of the agent's authorization receipts. Scopes and capabilities are sorted and unique; an undeclared
 * field is null.
 */
export const capabilityManifest = z.strictObject({
  agent_type: z.string(),
  /** The agent's display name. */
  name: z.string(),
  delegated_scopes: z.array(z.string()),
  /** Operator-declared capabilities (`metadata.capabilities`). */
  capabilities: z.array(z.string()),
  operator_name: z.nullable(z.string()),
  privacy_policy_url: z.nullable(z.string()),
  data_storage: z.nullable(z.string()),
  retention_period: z.nullable(z.string()),
});
export type CapabilityManifest = z.infer<typeof capabilityManifest>;

/** A manifest version frozen at pin time: never changed afterwards, whatever the agent's metadata becomes. */
export const pinnedCapabilityManifest = z.object({
  agent_id: z.string(),
  /** 1, 2, 3, ... per agent. */
  version: z.int().check(z.gte(1)),
  manifest: capabilityManifest,
  /** `sha256:<hex>` over the RFC 8785 JSON of `manifest`. */
  digest: sha256Digest,
  pinned_at: dateTime(),
});
export type PinnedCapabilityManifest = z.infer<typeof pinnedCapabilityManifest>;

/**
 * `POST /api/v1/agent_identities/{id}/manifests`: the scopes the agent is declared to request. The rest of the
 * manifest comes from the agent identity as it is now (name, type, and the operator's declarations in `metadata`).
 */
export const pinCapabilityManifestRequest = z.strictObject({
  delegated_scopes: z.array(apiScope).check(z.minLength(1), z.maxLength(50), z.refine(uniqueScopes, 'scopes must not repeat')),
});
export type PinCapabilityManifestRequest = z.input<typeof pinCapabilityManifestRequest>;

/** `{capability_manifest}` envelope. */
export const capabilityManifestEnvelope = z.object({ capability_manifest: pinnedCapabilityManifest });
/** `{capability_manifests: [...], next_cursor}`, oldest version first. */
export const capabilityManifestList = listOf('capability_manifests', pinnedCapabilityManifest);
/** Query of `GET /api/v1/agent_identities/{id}/manifests`. */
export const capabilityManifestListQuery = listQuery;

// ---- Transparency records -----------------------------------------------------------------------------------------

const recordHead = {
  format: z.literal(TRANSPARENCY_FORMAT),
  /** The service that signs the record: its base URL, the `issuer` of its OpenID configuration. */
  issuer: z.url(),
};

/** How a withdrawal or revocation is made: the method, the URL (an RFC 6570 template) and the credential it needs. */
export const withdrawalEntry = z.strictObject({
  method: z.enum(['GET', 'POST']),
  url_template: text(),
  /** `none`: anyone can open it (the receipts' credential-free entry); otherwise the credential the call needs. */
  credential: z.enum(['none', 'api_token', 'access_token']),
  description: text(),
});
export type WithdrawalEntry = z.infer<typeof withdrawalEntry>;

/**
 * `/.well-known/transparency/{application_id}`: the controller record of an application's receipts. The controller
 * is named exactly as receipts name it; everything here is already public on every receipt or is a fact of the
 * platform. No e-mail address, secret, key or allowed origin appears.
 */
export const controllerTransparencyRecord = z.strictObject({
  record_type: z.literal('controller_record'),
  ...recordHead,
  application_id: id(),
  /** The controller party of the application's receipts, field for field. */
  controller: z.strictObject({
    party_id: id(),
    party_name: text(),
    party_role: z.literal('controller'),
    party_type: z.literal('organization'),
    provenance: z.literal('declared'),
  }),
  /** The processor party the receipts name (the platform). */
  processor: z.strictObject({
    party_id: id(),
    party_name: text(),
    party_role: z.literal('processor'),
    party_type: z.literal('organization'),
  }),
  /** The account (organisation) that operates the application. */
  organization_name: text(),
  environment: z.enum(['development', 'production']),
  region: applicationRegion,
  /** Whether the application is active (an inactive one's receipts stay valid). */
  active: z.boolean(),
  /** ISO 3166-1 alpha-2 codes, exactly when the receipts state `storage_locations`. */
  storage_locations: z.optional(z.array(z.string().check(z.regex(/^[A-Z]{2}$/)))),
  receipts: z.strictObject({
    schema_version: z.literal(RECEIPT_SCHEMA_VERSION),
    conforms_to: z.literal(RECEIPT_CONFORMS_TO),
    /** Where the receipt JSON Schema is published, byte for byte. */
    schema_url: z.url(),
    record_types: z.array(z.enum(['consent_record', 'notice_record', 'authorization_record'])),
    /** Where receipts are verified: the JWK Set whose keys sign them (and this record). */
    jwks_uri: z.url(),
    signature_algorithms: z.array(z.string()),
    /** How a signed receipt is read (`?flavor=signed`). */
    signed_receipt_url_template: text(),
  }),
  /** The withdrawal entry points of the application's records. */
  withdrawal: z.strictObject({
    authorization_records: withdrawalEntry,
    consent_records: withdrawalEntry,
    delegation_grants: withdrawalEntry,
  }),
  issued_at: dateTime(),
});
export type ControllerTransparencyRecord = z.infer<typeof controllerTransparencyRecord>;

/**
 * What the platform attests about how an agent authenticates: an OAuth client of its operator's application, with
 * which the agent exchanges a delegation grant for an agent token at `/oauth/token/exchange` (RFC 8693).
 */
export const credentialAttestation = z.strictObject({
  credential_type: z.literal('oauth_client'),
  client_id: id(),
  /** `live`, or `deleted` (the client no longer authenticates anything). */
  status: z.enum(['live', 'deleted']),
  /** The operator's application the client belongs to; null once deleted. */
  application_id: z.nullable(id()),
  /** How the client authenticates at the token endpoint (`client_secret_basic`, `client_secret_post`); null once deleted. */
  token_endpoint_auth_method: z.nullable(z.string()),
  token_endpoint: z.url(),
  /** Whether the client is allowed the token-exchange grant (it cannot exchange a grant otherwise). */
  token_exchange_allowed: z.boolean(),
});
export type CredentialAttestation = z.infer<typeof credentialAttestation>;

/** The platform-attested facts of an agent identity, as of `attested_at`. */
export const agentAttestation = z.strictObject({
  status: agentIdentityStatus,
  registered_at: dateTime(),
  /** When the status last changed (its registration when it never did). */
  status_changed_at: dateTime(),
  suspended_at: z.nullable(dateTime()),
  revoked_at: z.nullable(dateTime()),
  /** The operator's application that the agent's activity goes to, null when none; its controller record is public. */
  application_id: z.nullable(id()),
  attested_at: dateTime(),
});

/** A pinned manifest version as the agent record lists it. */
export const manifestReference = z.strictObject({
  version: z.int().check(z.gte(1)),
  digest: sha256Digest,
  pinned_at: dateTime(),
  url: z.url(),
});

/**
 * `/.well-known/transparency/agents/{agent_id}`: the agent accountability record. `declared` is what the operator
 * says (display name, type, and the manifest fields of its metadata; never the rest of its metadata); `attested`
 * is what the platform records; `credential_attestations` how the agent authenticates; `manifests` every pinned
 * manifest version with its digest.
 */
export const agentTransparencyRecord = z.strictObject({
  record_type: z.literal('agent_accountability_record'),
  ...recordHead,
  agent_id: id(),
  declared: z.strictObject({
    provenance: z.literal('declared'),
    display_name: z.string(),
    agent_type: z.string(),
    operator_name: z.nullable(z.string()),
    privacy_policy_url: z.nullable(z.string()),
    data_storage: z.nullable(z.string()),
    retention_period: z.nullable(z.string()),
    capabilities: z.array(z.string()),
  }),
  attested: agentAttestation,
  credential_attestations: z.array(credentialAttestation),
  manifests: z.array(manifestReference),
  links: z.strictObject({
    /** The signed credential attestation (`/.well-known/oap-credentials/{agent_id}`). */
    credential_attestation: z.url(),
    /** The signed list of revoked agent identities and grants. */
    revocation_list: z.url(),
    /** The operator application's controller record, null when the agent has none. */
    controller_record: z.nullable(z.url()),
  }),
});
export type AgentTransparencyRecord = z.infer<typeof agentTransparencyRecord>;

/** `/.well-known/transparency/agents/{agent_id}/manifests/{version}`: a manifest version as frozen at pin time. */
export const manifestTransparencyRecord = z.strictObject({
  record_type: z.literal('capability_manifest_record'),
  ...recordHead,
  agent_id: id(),
  version: z.int().check(z.gte(1)),
  manifest: capabilityManifest,
  /** How `digest` is computed: SHA-256 over the RFC 8785 (JCS) bytes of `manifest`. */
  digest_method: z.literal('sha256-jcs'),
  digest: sha256Digest,
  pinned_at: dateTime(),
});
export type ManifestTransparencyRecord = z.infer<typeof manifestTransparencyRecord>;

/** `/.well-known/oap-credentials/{agent_id}`: the credential attestation of an agent identity, signed. */
export const credentialAttestationRecord = z.strictObject({
  record_type: z.literal('oap_credential_attestation'),
  ...recordHead,
  /** The agent identity attested. */
  subject: id(),
  status: agentIdentityStatus,
  credentials: z.array(credentialAttestation),
  attested_at: dateTime(),
  links: z.strictObject({ agent_record: z.url() }),
});
export type CredentialAttestationRecord = z.infer<typeof credentialAttestationRecord>;

/** `/.well-known/oap-revocation-list`: revoked agent identities and delegation grants (ids and times only). */
export const revocationListRecord = z.strictObject({
  record_type: z.literal('oap_revocation_list'),
  ...recordHead,
  agent_identities: z.array(z.strictObject({ id: id(), revoked_at: dateTime() })),
  delegation_grants: z.array(z.strictObject({ id: id(), revoked_at: dateTime() })),
  issued_at: dateTime(),
});
export type RevocationListRecord = z.infer<typeof revocationListRecord>;

/** `/.well-known/oap-attestation`: the platform's signed statement about itself. */
export const platformAttestationRecord = z.strictObject({
  record_type: z.literal('oap_platform_attestation'),
  ...recordHead,
  /** The platform attests itself: `subject` is `issuer`. */
  subject: z.url(),
  /** The platform's did:web identifier (`/.well-known/did.json`). */
  did: z.string().check(z.regex(/^did:web:/)),
  oap_protocol_versions_supported: z.array(z.string()),
  delegation_methods_supported: z.array(z.string()),
  agent_types_supported: z.array(z.string()),
  jwks_uri: z.url(),
  /** The JWK Set as it stands at `issued_at` (public keys only): every key the platform signs with. */
  jwks: z.strictObject({ keys: z.array(z.looseObject({ kty: z.string(), kid: z.string() })) }),
  signature_algorithms: z.array(z.string()),
  trust_score: z.strictObject({
    /** Changes whenever the function's arithmetic changes, so a score is read against the rules that made it. */
    function_version: z.string(),
    minimum: z.int(),
    maximum: z.int(),
    base_score: z.int(),
    factors: z.array(z.string()),
  }),
  receipts: z.strictObject({
    schema_version: z.literal(RECEIPT_SCHEMA_VERSION),
    conforms_to: z.literal(RECEIPT_CONFORMS_TO),
    schema_url: z.url(),
  }),
  transparency_format: z.literal(TRANSPARENCY_FORMAT),
  issued_at: dateTime(),
});
export type PlatformAttestationRecord = z.infer<typeof platformAttestationRecord>;

/** Every signed transparency record, told apart by `record_type`. */
export const transparencyRecord = z.discriminatedUnion('record_type', [
  controllerTransparencyRecord,
  agentTransparencyRecord,
  manifestTransparencyRecord,
  credentialAttestationRecord,
  revocationListRecord,
  platformAttestationRecord,
]);
export type TransparencyRecord = z.infer<typeof transparencyRecord>;
export type TransparencyRecordType = TransparencyRecord['record_type'];

/** `{record, signature}` of one record kind. */
export const signedRecordOf = <T extends z.ZodMiniType>(record: T) => z.object({ record, signature: detachedJws });

export const signedControllerRecord = signedRecordOf(controllerTransparencyRecord);
export const signedAgentRecord = signedRecordOf(agentTransparencyRecord);
export const signedManifestRecord = signedRecordOf(manifestTransparencyRecord);
export const signedCredentialAttestation = signedRecordOf(credentialAttestationRecord);
export const signedRevocationList = signedRecordOf(revocationListRecord);
export const signedPlatformAttestation = signedRecordOf(platformAttestationRecord);
/** Any signed transparency record. */
export const signedTransparencyRecord = signedRecordOf(transparencyRecord);

/** A signed record of kind `T`. */
export interface SignedTransparencyRecord<T extends TransparencyRecord = TransparencyRecord> {
  record: T;
  signature: string;
}

// ---- Other discovery documents ------------------------------------------------------------------------------------

/** The media type of `/.well-known/api-catalog` (RFC 9727 section 4.2: a linkset with the RFC's profile). */
export const API_CATALOG_MEDIA_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

const targetLink = z.looseObject({ href: z.string(), type: z.optional(z.string()), title: z.optional(z.string()) });

/** `/.well-known/api-catalog`: an RFC 9264 linkset (RFC 9727). */
export const apiCatalog = z.object({
  linkset: z.array(
    z.looseObject({
      anchor: z.string(),
      'service-desc': z.optional(z.array(targetLink)),
      'service-doc': z.optional(z.array(targetLink)),
      'service-meta': z.optional(z.array(targetLink)),
      status: z.optional(z.array(targetLink)),
      item: z.optional(z.array(targetLink)),
    }),
  ),
});
export type ApiCatalog = z.infer<typeof apiCatalog>;

/** `/.well-known/did.json`: the service's did:web DID document, its verification methods the JWKS keys. */
export const didDocument = z.looseObject({
  '@context': z.array(z.string()),
  id: z.string().check(z.regex(/^did:web:/)),
  verificationMethod: z.array(
    z.strictObject({
      id: z.string(),
      type: z.literal('JsonWebKey2020'),
      controller: z.string(),
      publicKeyJwk: z.looseObject({ kty: z.string() }),
    }),
  ),
  assertionMethod: z.array(z.string()),
  authentication: z.array(z.string()),
});
export type DidDocument = z.infer<typeof didDocument>;

/**
 * `/.well-known/ssf-configuration`: OpenID Shared Signals Framework 1.0 transmitter configuration metadata, stating
 * only what the service does. `svc_event_sources` says where each listed event can be observed today and
 * `svc_not_implemented` what of SSF is not.
 */
export const ssfConfiguration = z.looseObject({
  spec_version: z.string(),
  issuer: z.url(),
  jwks_uri: z.url(),
  delivery_methods_supported: z.array(z.string()),
  authorization_schemes: z.array(z.looseObject({ spec_urn: z.string() })),
  events_supported: z.array(z.string()),
  svc_event_sources: z.array(z.strictObject({ event_type: z.string(), source: z.string(), observed_through: z.string() })),
  svc_not_implemented: z.array(z.string()),
});
export type SsfConfiguration = z.infer<typeof ssfConfiguration>;
