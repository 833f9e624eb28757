// Offline verification of an evidence package (transfer register, residency posture, breach scope):
// `{evidence_package_id, format_type, package}`, `package` a compact JWS (ES256, `typ` `svc-evidence+jwt`) over the
// package's JSON content, its `kid` in the answering cell's `/.well-known/jwks.json`. jose and Web Crypto only.
import { base64url, compactVerify, createLocalJWKSet, errors as joseErrors, type JSONWebKeySet } from 'jose';
import { SvcError } from '../lib/errors.js';

/** The JWS `typ` of every evidence package. */
export const EVIDENCE_PACKAGE_TYP = 'svc-evidence+jwt';

/** Why an evidence package did not verify: `check` says which check failed. */
export class SvcEvidenceVerificationError extends SvcError {
  override readonly name = 'SvcEvidenceVerificationError';
  readonly code = 'ERR_SVC_EVIDENCE_VERIFICATION';
  constructor(
    /**
     * `format` (not a package, or not a compact JWS), `key` (no key of the JWKS matches its `kid`), `signature` (a
     * byte of the header, payload or signature changed, or another key signed it), `invalid` (signed, but not an
     * evidence package: another `typ`, a payload that is not a JSON object, or an id or format type that differs from
     * the envelope's or from the one expected).
     */
    readonly check: 'format' | 'key' | 'signature' | 'invalid',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Options of {@link verifyEvidencePackage}. */
export interface VerifyEvidencePackageOptions {
  /** The format type expected (`svc.transfer_register.v1`, …); another is `invalid`. */
  formatType?: string | undefined;
  /** Accepted JWS algorithms. Default `['ES256']`. */
  algorithms?: string[] | undefined;
}

/** A verified package: its content (the signed payload), the key that signed it, and its id and format type. */
export interface VerifiedEvidencePackage<T extends Record<string, unknown> = Record<string, unknown>> {
  evidence_package_id: string;
  format_type: string;
  /** The `kid` of the signing key (in the JWKS given). */
  kid: string;
  /** The signed content: `evidence_package_id`, `format_type`, `country`, `drawn_at`, `audit_anchor` and the report. */
  payload: T & { evidence_package_id: string; format_type: string; drawn_at?: string };
}

const COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Verifies an evidence package offline against a JWK Set (the answering cell's `/.well-known/jwks.json`, fetched once
 * and kept) and returns its decoded content and the signing `kid`. `evidence` is the package as the service answered
 * it (`{evidence_package_id, format_type, package}`, or its JSON text) or the compact JWS alone. Throws
 * {@link SvcEvidenceVerificationError} when one byte of the header, payload or signature changed, when no key
 * matches, or when the signed id or format type differ from the envelope's.
 *
 * @example
 * const evidence = await svc.residencyPosture.evidencePackage();
 * const jwks = await (await fetch(`${baseUrl}/.well-known/jwks.json`)).json();
 * const { payload, kid } = await verifyEvidencePackage(evidence, jwks, { formatType: 'svc.residency_posture.v1' });
 */
export async function verifyEvidencePackage<T extends Record<string, unknown> = Record<string, unknown>>(
  evidence: unknown,
  jwks: JSONWebKeySet,
  options: VerifyEvidencePackageOptions = {},
): Promise<VerifiedEvidencePackage<T>> {
  const fail = (check: SvcEvidenceVerificationError['check'], message: string, cause?: unknown) =>
    new SvcEvidenceVerificationError(check, message, cause === undefined ? undefined : { cause });
  let input: unknown = evidence;
  if (typeof evidence === 'string' && !COMPACT.test(evidence)) {
    try {
      input = JSON.parse(evidence);
    } catch (cause) {
      throw fail('format', 'The evidence package is neither a compact JWS nor JSON.', cause);
    }
  }
  const envelope = typeof input === 'string' ? { package: input } : ((input ?? {}) as Record<string, unknown>);
  const jws = envelope.package;
  if (typeof jws !== 'string' || !COMPACT.test(jws)) throw fail('format', 'package must be a compact JWS (header.payload.signature).');
  if (!jwks || !Array.isArray((jwks as { keys?: unknown }).keys)) throw fail('format', 'jwks must be a JWK Set ({keys: [...]}).');
  // Base64url decoders ignore the spare bits of a segment's last character: a package whose characters are not the
  // one encoding of its bytes was changed after signing, even when its bytes were not.
  for (const segment of jws.split('.')) {
    let canonical: boolean;
    try {
      canonical = base64url.encode(base64url.decode(segment)) === segment;
    } catch {
      canonical = false;
    }
    if (!canonical) throw fail('signature', 'The package is not the canonical encoding of what was signed.');
  }
  let verified: Awaited<ReturnType<typeof compactVerify>>;
  try {
    verified = await compactVerify(jws, createLocalJWKSet(jwks), { algorithms: options.algorithms ?? ['ES256'] });
  } catch (cause) {
    if (cause instanceof joseErrors.JWKSNoMatchingKey || cause instanceof joseErrors.JWKSMultipleMatchingKeys) {
      throw fail('key', "No key of the JWK Set matches the package's signature (kid and algorithm).", cause);
    }
    if (cause instanceof joseErrors.JWSSignatureVerificationFailed)
      throw fail('signature', 'The signature does not match the package.', cause);
    // A changed header byte usually makes it unreadable JSON or names another key or algorithm.
    throw fail('signature', `The package cannot be verified: ${cause instanceof Error ? cause.message : String(cause)}`, cause);
  }
  const { protectedHeader, payload: bytes } = verified;
  if (protectedHeader.typ !== EVIDENCE_PACKAGE_TYP)
    throw fail('invalid', `The JWS is signed but its typ is ${String(protectedHeader.typ)}, not ${EVIDENCE_PACKAGE_TYP}.`);
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (cause) {
    throw fail('invalid', 'The signed payload is not JSON.', cause);
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw fail('invalid', 'The signed payload is not a JSON object.');
  const content = payload as VerifiedEvidencePackage<T>['payload'];
  if (typeof content.evidence_package_id !== 'string' || typeof content.format_type !== 'string') {
    throw fail('invalid', 'The signed payload names no evidence_package_id or format_type.');
  }
  if (envelope.evidence_package_id !== undefined && envelope.evidence_package_id !== content.evidence_package_id) {
    throw fail('invalid', "The envelope's evidence_package_id is not the one signed.");
  }
  if (envelope.format_type !== undefined && envelope.format_type !== content.format_type)
    throw fail('invalid', "The envelope's format_type is not the one signed.");
  if (options.formatType !== undefined && content.format_type !== options.formatType) {
    throw fail('invalid', `The package is a ${content.format_type}, not a ${options.formatType}.`);
  }
  return {
    evidence_package_id: content.evidence_package_id,
    format_type: content.format_type,
    kid: String(protectedHeader.kid ?? ''),
    payload: content,
  };
}
