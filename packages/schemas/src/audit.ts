import { z } from 'zod/mini';
import { dateTime } from './common.js';

/** The `previous_hash` of an application's first audit event: 64 zeros. */
export const AUDIT_GENESIS_HASH = '0'.repeat(64);

const hex64 = () => z.string().check(z.regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits'));

/**
 * One entry of an application's hash-chained audit trail. `hash` is the lower-case hex SHA-256 of the RFC 8785
 * (JCS) bytes of `{id, application_id, sequence, type, occurred_at, data, previous_hash}`.
 */
export const auditEvent = z.object({
  id: z.string(),
  application_id: z.string(),
  /** 1, 2, 3, ... per application, without gaps. */
  sequence: z.int().check(z.gte(1)),
  /** What was decided: `consent.granted`, `consent.denied`, `consent.modified` or `consent.revoked`. */
  type: z.string(),
  occurred_at: dateTime(),
  /** The decision's evidence: record, flow, person id, purposes and outcomes (never an email). */
  data: z.record(z.string(), z.unknown()),
  previous_hash: hex64(),
  hash: hex64(),
  /** The anchor that covers this event, once anchored. */
  anchor_id: z.nullable(z.string()),
});
export type AuditEvent = z.infer<typeof auditEvent>;

/** `{audit_events: [...], next_cursor}`, oldest first. */
export const auditEventList = z.object({ audit_events: z.array(auditEvent), next_cursor: z.nullable(z.string()) });

/**
 * An audit anchor: the RFC 6962 Merkle root over the hashes of events `sequence_from..sequence_to`, signed as a
 * compact JWS with detached payload over the JCS bytes of the anchor without `signature`.
 */
export const auditAnchor = z.object({
  id: z.string(),
  merkle_root: hex64(),
  signature: z.string(),
  key_version: z.string(),
  type: z.optional(z.string()),
  created_at: z.optional(dateTime()),
  format_version: z.optional(z.nullable(z.string())),
  issuer_id: z.optional(z.nullable(z.string())),
  issuer_key_fingerprint: z.optional(z.nullable(z.string())),
  previous_anchor_id: z.optional(z.nullable(z.string())),
  record_count: z.optional(z.int()),
  sequence_from: z.optional(z.nullable(z.int())),
  sequence_to: z.optional(z.nullable(z.int())),
  application_id: z.optional(z.string()),
});
export type AuditAnchor = z.infer<typeof auditAnchor>;

/** `{anchor}` envelope. */
export const auditAnchorEnvelope = z.object({ anchor: auditAnchor });
/** `{anchors: [...], next_cursor}`, oldest first. */
export const auditAnchorList = z.object({ anchors: z.array(auditAnchor), next_cursor: z.nullable(z.string()) });

/** A witness's answer to an anchor: its countersignature (a compact JWS with detached payload). */
export const anchorReceipt = z.object({
  id: z.string(),
  /** `witnessed` (countersigned) or `failed` (the witness did not answer or refused). */
  status: z.string(),
  receipt_id: z.nullable(z.string()),
  witness_id: z.nullable(z.string()),
  witness_key_version: z.nullable(z.string()),
  witness_signature: z.nullable(z.string()),
  witnessed_at: z.nullable(dateTime()),
});
export type AnchorReceipt = z.infer<typeof anchorReceipt>;

/** `GET /api/v1/audit/anchors/{id}/receipts`. */
export const anchorReceipts = z.object({ anchor_id: z.string(), receipts: z.array(anchorReceipt) });
export type AnchorReceipts = z.infer<typeof anchorReceipts>;

/** Query of the audit lists: the application (default: the account's first) and a page. */
export const auditListQuery = z.strictObject({
  application_id: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  limit: z.optional(
    z
      .pipe(z.string().check(z.regex(/^\d{1,4}$/)), z.transform(Number))
      .check(z.refine((n) => n >= 1 && n <= 1000, 'limit must be between 1 and 1000')),
  ),
  cursor: z.optional(z.string().check(z.maxLength(200))),
});

/** The reference server's local witness: a key inside the service, for development only (not external). */
export const localWitnessDescription = z.object({
  witness_id: z.string(),
  kind: z.literal('local'),
  external: z.literal(false),
  description: z.string(),
  algorithms: z.array(z.string()),
  key_version: z.string(),
  jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }),
  /** `svc-witness-receipt/1`: `witness_signature` is a compact JWS with detached payload. */
  receipt_format: z.string(),
});

/**
 * An RFC 3161 time-stamping authority the operator does not control: `witness_signature` is the base64 DER
 * TimeStampToken over the SHA-256 of the UTF-8 bytes of the anchor's `signature`.
 */
export const timestampAuthorityDescription = z.object({
  witness_id: z.string(),
  kind: z.literal('rfc3161'),
  external: z.literal(true),
  description: z.string(),
  /** Where time-stamp requests go (without credentials). */
  url: z.string(),
  hash_algorithm: z.literal('sha-256'),
  /** `rfc3161-timestamp-token` ({@link TIMESTAMP_TOKEN_FORMAT}). */
  receipt_format: z.string(),
});

/** `/.well-known/witness-configuration`: every witness each anchor is sent to. */
export const witnessConfiguration = z.object({
  /** True when every witness is outside the service (RFC 3161 authorities), false with the local witness. */
  external: z.boolean(),
  witnesses: z.array(z.discriminatedUnion('kind', [localWitnessDescription, timestampAuthorityDescription])),
  anchor_format: z.string(),
  anchor_interval_seconds: z.int(),
});
export type WitnessConfiguration = z.infer<typeof witnessConfiguration>;
export type LocalWitnessDescription = z.infer<typeof localWitnessDescription>;
export type TimestampAuthorityDescription = z.infer<typeof timestampAuthorityDescription>;

/** The keys of the local witnesses a configuration names, as one JWKS (empty when every witness is external). */
export function localWitnessKeys(config: Pick<WitnessConfiguration, 'witnesses'>): { keys: Record<string, unknown>[] } {
  return { keys: config.witnesses.flatMap((w) => (w.kind === 'local' ? w.jwks.keys : [])) };
}

/** Format of what an issuer signs for an anchor (`format_version`). */
export const AUDIT_ANCHOR_FORMAT = 'svc-audit-anchor/1';
/** Format of what a witness signs for an anchor. */
export const WITNESS_RECEIPT_FORMAT = 'svc-witness-receipt/1';
/** Format of an RFC 3161 authority's receipt: `witness_signature` is a base64 DER TimeStampToken. */
export const TIMESTAMP_TOKEN_FORMAT = 'rfc3161-timestamp-token';

/** The object whose JCS bytes an audit event's `hash` is the SHA-256 of. */
export function auditHashInput(
  e: Pick<AuditEvent, 'id' | 'application_id' | 'sequence' | 'type' | 'occurred_at' | 'data' | 'previous_hash'>,
) {
  return {
    id: e.id,
    application_id: e.application_id,
    sequence: e.sequence,
    type: e.type,
    occurred_at: e.occurred_at,
    data: e.data,
    previous_hash: e.previous_hash,
  };
}

/** The object whose JCS bytes an anchor's `signature` covers: every field of the anchor but `signature`. */
export function anchorSigningInput(a: AuditAnchor) {
  return {
    id: a.id,
    application_id: a.application_id ?? null,
    type: a.type ?? null,
    format_version: a.format_version ?? null,
    merkle_root: a.merkle_root,
    key_version: a.key_version,
    issuer_id: a.issuer_id ?? null,
    issuer_key_fingerprint: a.issuer_key_fingerprint ?? null,
    previous_anchor_id: a.previous_anchor_id ?? null,
    record_count: a.record_count ?? null,
    sequence_from: a.sequence_from ?? null,
    sequence_to: a.sequence_to ?? null,
    created_at: a.created_at ?? null,
  };
}

/** The object whose JCS bytes a witness's `witness_signature` covers: the anchor it saw and the receipt's own fields. */
export function witnessSigningInput(
  a: Pick<AuditAnchor, 'id' | 'merkle_root' | 'signature'>,
  r: Pick<AnchorReceipt, 'receipt_id' | 'witness_id' | 'witness_key_version' | 'witnessed_at'>,
) {
  return {
    type: WITNESS_RECEIPT_FORMAT,
    anchor_id: a.id,
    anchor_signature: a.signature,
    merkle_root: a.merkle_root,
    receipt_id: r.receipt_id,
    witness_id: r.witness_id,
    witness_key_version: r.witness_key_version,
    witnessed_at: r.witnessed_at,
  };
}
