import { z } from 'zod/mini';
import { answerAuthentication, dateTime } from './common.js';
import { purposeBasis } from './flows.js';
import { collectionChannel, eventChannel } from './records.js';

/** The receipt schema version this package reads and the server writes. */
export const RECEIPT_SCHEMA_VERSION = 'svc-cr/2.13';
/** The standard every receipt conforms to. */
export const RECEIPT_CONFORMS_TO = 'ISO/IEC TS 27560:2023';

const id = () => z.string().check(z.minLength(1), z.maxLength(500));
const text = () => z.string().check(z.minLength(1), z.maxLength(5000));
const isoDuration = () => z.iso.duration();

/** Evidence projections a receipt's events move through (`consent refused` is defined but never issued). */
export const receiptEventState = z.enum([
  'notice shown',
  'notice acknowledged',
  'consent requested',
  'consent given',
  'consent refused',
  'consent withdrawn',
  'consent expired',
  'objection recorded',
  'authority requested',
  'authority granted',
  'authority exercised',
  'authority suspended',
  'authority resumed',
  'authority revoked',
  'authority expired',
  'approval requested',
  'approval granted',
  'approval denied',
  'approval countered',
]);
export type ReceiptEventState = z.infer<typeof receiptEventState>;

/** One event of a receipt: the frozen prefix at issue, then the events appended at read time. */
export const receiptEvent = z.strictObject({
  event_time: dateTime(),
  /** Who acted: the principal, the controller, or the platform processor. */
  entity_id: id(),
  event_type: z.enum(['explicit', 'implicit', 'regular']),
  event_state: receiptEventState,
  /** ISO 8601 duration the given consent lasts; only when an expiry exists. */
  validity_duration: z.optional(isoDuration()),
  /** The purpose a scoped withdrawal or objection applies to. */
  purpose_id: z.optional(id()),
  /** The predecessor record this event supersedes. */
  record_reference: z.optional(id()),
  /** Aggregate rows of `authority exercised` only. */
  occurrences: z.optional(z.int().check(z.gte(1))),
  approval_id: z.optional(id()),
  /** Where a withdrawal or objection was made; only on appended withdrawal and objection events. */
  event_channel: z.optional(eventChannel),
});
export type ReceiptEvent = z.infer<typeof receiptEvent>;

/** A granted purpose, with its label frozen at issue. */
export const receiptPurpose = z.strictObject({
  /** The flow's purpose key. */
  purpose_id: id(),
  /** The purpose's label as the flow version showed it. */
  purpose: text(),
  lawful_basis: purposeBasis,
});
export type ReceiptPurpose = z.infer<typeof receiptPurpose>;

/** The versioned notice reference: the same notice content gives the same reference and hash. */
export const privacyNotice = z.strictObject({
  reference: id(),
  /** Lower-case hex SHA-256 over the JCS canonical notice (locale, title, description, policy URL, purpose rows). */
  sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits')),
  /** Only on upgraded records. */
  url: z.optional(z.url()),
});

/** What processing the receipt covers. */
export const piiProcessing = z.strictObject({
  /** Locale code of the wording. */
  language: id(),
  /** `unspecified` when the flow declares none. */
  jurisdiction: id(),
  /** Granted purposes only, labels frozen at issue. */
  purposes: z.array(receiptPurpose),
  privacy_notice: z.optional(privacyNotice),
  /** A human label of how the decision was collected. */
  collection_method: z.optional(text()),
  /** ISO 3166-1 alpha-2 codes, derived from where the record is homed. */
  storage_locations: z.optional(z.array(z.string().check(z.regex(/^[A-Z]{2}$/)))),
  /** Only when lawful-transfer bases exist. */
  processing_locations: z.optional(z.array(z.string().check(z.regex(/^[A-Z]{2}$/)))),
  /** A stable, credential-free entry to withdraw. */
  withdrawal_method: z.optional(text()),
  /** Party ids; an empty array asserts nothing is shared, an absent key that it is not enumerable. */
  recipient_third_parties: z.optional(z.array(id())),
  privacy_rights: z.optional(z.array(text())),
  /** Enforced capability identifiers. */
  processing_method: z.optional(z.array(id())),
  impact_assessment: z.optional(text()),
});
export type PiiProcessing = z.infer<typeof piiProcessing>;

/** One party of the record. */
export const receiptParty = z.strictObject({
  party_id: id(),
  party_name: text(),
  party_role: z.enum(['controller', 'processor', 'supervisory_authority', 'recipient', 'principal', 'agent']),
  party_type: z.optional(z.enum(['organization', 'natural person', 'software_agent'])),
  provenance: z.optional(z.enum(['display_name', 'declared'])),
  party_address: z.optional(text()),
  party_email: z.optional(text()),
  party_phone: z.optional(text()),
  party_url: z.optional(z.url()),
});
export type ReceiptParty = z.infer<typeof receiptParty>;

/** A bound of an authorization; present exactly when enforced. */
const bound = () => z.optional(z.record(z.string(), z.unknown()));

/** The authority granted by an authorization record (authorization records only). */
export const receiptAuthority = z.strictObject({
  /** Revocation entry URL, no credential needed. */
  withdrawal_method: text(),
  scope_bounds: bound(),
  action_bounds: bound(),
  value_bounds: bound(),
  time_bounds: bound(),
  escalation_bounds: bound(),
  reputation_bounds: bound(),
  jurisdiction_bounds: bound(),
  sequence_bounds: bound(),
  valid_from: z.optional(dateTime()),
  valid_until: z.optional(dateTime()),
  /** ISO 8601 duration. */
  cooling_off: z.optional(isoDuration()),
});

/** How a delivered page was shown. */
export const receiptDeliveryMode = z.enum(['redirect', 'embed', 'popup', 'link']);

const commonExtensions = {
  collection_mechanism: z.optional(text()),
  delivery_mode: z.optional(receiptDeliveryMode),
  scopes: z.optional(z.array(id())),
  sensitive: z.optional(z.boolean()),
  /** The flow whose terms the record was made under. */
  consent_flow_id: z.optional(id()),
  accountability_record: z.optional(text()),
  collection_channel: z.optional(collectionChannel),
  collection_platform: z.optional(text()),
  /** True when the notice digest the capture sent differs from the published wording. */
  wording_drift: z.optional(z.boolean()),
  captured_at: z.optional(dateTime()),
  recorded_at: z.optional(dateTime()),
  presentation_attested: z.optional(z.boolean()),
  /** What the service rendered (consent field channels). */
  rendering_evidence: z.optional(z.record(z.string(), z.unknown())),
  /** How the person who answered on the hosted page proved it was them, and when (absent when nobody did). */
  authentication: z.optional(answerAuthentication),
};

/** Extensions of consent and notice records (no authorization-only fields). */
export const consentReceiptExtensions = z.strictObject({
  ...commonExtensions,
  /** Declared agent disclosures (consent and notice records only). */
  agent_disclosures: z.optional(z.array(z.record(z.string(), z.unknown()))),
  /** Pointer plus digest of a signature (consent records only). */
  signature_evidence: z.optional(z.strictObject({ pointer: text(), digest: text() })),
});

/** Extensions of authorization records (never agent disclosures). */
export const authorizationReceiptExtensions = z.strictObject({
  ...commonExtensions,
  /** Content hash plus key versions. */
  grant_integrity: z.optional(z.record(z.string(), z.unknown())),
  delegation_chain_root: z.optional(id()),
  /** SHA-256 of the agent's declared capability manifest. */
  capability_manifest: z.optional(text()),
});

const recordHead = {
  schema_version: z.literal(RECEIPT_SCHEMA_VERSION),
  conforms_to: z.literal(RECEIPT_CONFORMS_TO),
  /** Stable across channels and flavors; stands in for the principal on anonymous records. */
  record_id: id(),
  /** True only when no identity was established. */
  anonymous: z.optional(z.literal(true)),
  /** Required for identified records, forbidden for anonymous ones. */
  pii_principal_id: z.optional(id()),
  party_identification: z.array(receiptParty).check(z.minLength(1)),
  event: z.array(receiptEvent).check(z.minLength(1)),
};

const identified = z.refine<{ anonymous?: true | undefined; pii_principal_id?: string | undefined }>(
  (r) => (r.anonymous === true ? r.pii_principal_id === undefined : r.pii_principal_id !== undefined),
  { message: 'pii_principal_id is required on identified records and forbidden on anonymous ones', path: ['pii_principal_id'] },
);

/** A consent or notice record (absent `record_type` on old records means consent_record). */
export const consentReceiptRecord = z
  .strictObject({
    ...recordHead,
    record_type: z.optional(z.enum(['consent_record', 'notice_record'])),
    pii_processing: piiProcessing,
    extensions: z.optional(consentReceiptExtensions),
  })
  .check(identified);
export type ConsentReceiptRecord = z.infer<typeof consentReceiptRecord>;

/** An authorization record: authority bounds, and personal-data processing only when there is some. */
export const authorizationReceiptRecord = z
  .strictObject({
    ...recordHead,
    record_type: z.literal('authorization_record'),
    pii_processing: z.optional(piiProcessing),
    authority: receiptAuthority,
    extensions: z.optional(authorizationReceiptExtensions),
  })
  .check(identified);
export type AuthorizationReceiptRecord = z.infer<typeof authorizationReceiptRecord>;

/** A receipt record of schema version `svc-cr/2.13` (ISO/IEC TS 27560:2023). */
export const receiptRecord = z.union([consentReceiptRecord, authorizationReceiptRecord]);
export type ReceiptRecord = z.infer<typeof receiptRecord>;

/** `?flavor=` of the receipt endpoints: `canonical` (default), `dpv` (JSON-LD) or `signed`. */
export const receiptFlavor = z.enum(['canonical', 'dpv', 'signed']);
export type ReceiptFlavor = z.infer<typeof receiptFlavor>;

/** The query of `GET /api/v1/consent_receipts/{id}`. */
export const receiptQuery = z.strictObject({ flavor: z.optional(receiptFlavor) });

/** `?flavor=canonical`: `{consent_receipt}`. */
export const consentReceiptEnvelope = z.object({ consent_receipt: receiptRecord });

/**
 * `?flavor=signed`: the receipt and a compact JWS with detached payload (RFC 7515 appendix F) over the RFC 8785
 * (JCS) bytes of `receipt`; its `kid` is in `/.well-known/jwks.json`.
 */
export const signedReceipt = z.object({
  receipt: receiptRecord,
  signature: z
    .string()
    .check(z.regex(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/, 'must be a compact JWS with detached payload (header..signature)')),
});
export type SignedReceipt = z.infer<typeof signedReceipt>;
