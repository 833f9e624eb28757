// Offline verification of transparency records (`/.well-known/transparency/...`, `oap-attestation`,
// `oap-credentials/{id}`, `oap-revocation-list`): `{record, signature}`, `signature` a compact JWS with detached
// payload over the RFC 8785 (JCS) bytes of `record`, exactly as signed receipts are. jose and Web Crypto only.
import type { JSONWebKeySet } from 'jose';
import { SvcError, type SvcFieldError } from '../lib/errors.js';
import { transparencyRecord, type ManifestTransparencyRecord, type TransparencyRecord, type TransparencyRecordType } from '@svc/schemas';
import { canonicalBytes, sha256Hex } from './jcs.js';
import { verifySignedJcs, type SignedJcsFailure } from './signed-jcs.js';

/** Options of {@link verifyTransparencyRecord}. */
export interface VerifyTransparencyRecordOptions<T extends TransparencyRecordType = TransparencyRecordType> {
  /** Accepted JWS algorithms. Default `['ES256']`. */
  algorithms?: string[];
  /** Also check the record against its schema (and a manifest's digest against its content). Default true. */
  validate?: boolean;
  /** The record kind expected (`controller_record`, `agent_accountability_record`, ...); another kind is invalid. */
  recordType?: T;
}

/** A signed record as the discovery endpoints answer it. */
export interface SignedTransparencyInput {
  record: unknown;
  signature: string;
}

/** Why a transparency record did not verify. `switch (err.code)` narrows to the class. */
export abstract class SvcTransparencyVerificationError extends SvcError {
  abstract override readonly code:
    | 'ERR_SVC_TRANSPARENCY_FORMAT'
    | 'ERR_SVC_TRANSPARENCY_KEY'
    | 'ERR_SVC_TRANSPARENCY_SIGNATURE'
    | 'ERR_SVC_TRANSPARENCY_INVALID';
}

/** The input is not `{record, signature}` with a detached compact JWS, or its header is unusable. */
export class SvcTransparencyFormatError extends SvcTransparencyVerificationError {
  override readonly name = 'SvcTransparencyFormatError';
  readonly code = 'ERR_SVC_TRANSPARENCY_FORMAT';
}

/** No key of the JWKS matches the signature's `kid` and algorithm. */
export class SvcTransparencyKeyError extends SvcTransparencyVerificationError {
  override readonly name = 'SvcTransparencyKeyError';
  readonly code = 'ERR_SVC_TRANSPARENCY_KEY';
}

/** The signature does not match the record: the record changed after signing, or another key signed it. */
export class SvcTransparencySignatureError extends SvcTransparencyVerificationError {
  override readonly name = 'SvcTransparencySignatureError';
  readonly code = 'ERR_SVC_TRANSPARENCY_SIGNATURE';
}

/**
 * The signature is valid but the record does not match its schema, is not the kind expected, or (a manifest
 * version) its digest is not the SHA-256 of its manifest's JCS bytes; `errors` names each field.
 */
export class SvcTransparencyInvalidError extends SvcTransparencyVerificationError {
  override readonly name = 'SvcTransparencyInvalidError';
  readonly code = 'ERR_SVC_TRANSPARENCY_INVALID';
}

/** Every error `verifyTransparencyRecord` throws, so `switch (err.code)` narrows. */
export type AnyTransparencyVerificationError =
  | SvcTransparencyFormatError
  | SvcTransparencyKeyError
  | SvcTransparencySignatureError
  | SvcTransparencyInvalidError;

function transparencyError(failure: SignedJcsFailure, message: string, cause?: unknown): SvcTransparencyVerificationError {
  const details = cause === undefined ? {} : { cause };
  if (failure === 'key') return new SvcTransparencyKeyError(message, details);
  if (failure === 'signature') return new SvcTransparencySignatureError(message, details);
  return new SvcTransparencyFormatError(message, details);
}

const invalid = (message: string, errors: SvcFieldError[]) => new SvcTransparencyInvalidError(message, { errors });

/**
 * The digest a capability manifest has: `sha256:` and the lower-case hex SHA-256 of its RFC 8785 bytes. The
 * `capability_manifest` of an authorization receipt is this digest of a manifest.
 */
export async function capabilityManifestDigest(manifest: ManifestTransparencyRecord['manifest']): Promise<string> {
  return `sha256:${await sha256Hex(canonicalBytes(manifest))}`;
}

/**
 * Verifies a signed transparency record offline against a JWK Set (such as `/.well-known/jwks.json`, fetched once
 * and kept) and returns the record. A manifest version's `digest` is recomputed from its `manifest`. Throws a
 * {@link SvcTransparencyVerificationError}.
 *
 * @example
 * const jwks = await (await fetch(`${baseUrl}/.well-known/jwks.json`)).json();
 * const signed = await (await fetch(`${baseUrl}/.well-known/transparency/agents/${agentId}`)).json();
 * const record = await verifyTransparencyRecord(signed, jwks, { recordType: 'agent_accountability_record' });
 * console.log(record.attested.status, record.manifests.map((m) => m.digest));
 */
export async function verifyTransparencyRecord<T extends TransparencyRecordType = TransparencyRecordType>(
  signed: SignedTransparencyInput | string,
  jwks: JSONWebKeySet,
  options: VerifyTransparencyRecordOptions<T> = {},
): Promise<Extract<TransparencyRecord, { record_type: T }>> {
  type Result = Extract<TransparencyRecord, { record_type: T }>;
  const record = await verifySignedJcs(signed, 'record', jwks, { algorithms: options.algorithms, noun: 'record' }, transparencyError);
  if (options.recordType !== undefined && record.record_type !== options.recordType) {
    throw invalid(`The record is signed but is a ${String(record.record_type)}, not a ${options.recordType}.`, [
      { path: 'record_type', code: 'unexpected_record_type', message: `expected ${options.recordType}` },
    ]);
  }
  if (options.validate === false) return record as unknown as Result;
  const parsed = transparencyRecord.safeParse(record);
  if (!parsed.success) {
    const errors: SvcFieldError[] = parsed.error.issues.map((i) => ({
      path: i.path.map(String).join('.') || '(record)',
      code: i.code,
      message: i.message,
    }));
    throw invalid('The record is signed but does not match the transparency record schema.', errors);
  }
  if (parsed.data.record_type === 'capability_manifest_record') {
    const digest = await capabilityManifestDigest(parsed.data.manifest);
    if (digest !== parsed.data.digest) {
      throw invalid('The manifest version is signed but its digest is not the SHA-256 of its manifest.', [
        { path: 'digest', code: 'digest_mismatch', message: `the manifest's digest is ${digest}` },
      ]);
    }
  }
  return record as unknown as Result;
}
