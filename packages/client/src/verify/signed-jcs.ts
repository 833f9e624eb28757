// The one check behind every offline verifier of a signed JSON document: `{<member>, signature}` where `signature` is
// a compact JWS with detached payload (RFC 7515 appendix F) over the RFC 8785 (JCS) bytes of `<member>`, its `kid` in
// the service's JWKS. Signed receipts and transparency records use it; each verifier names its own errors.
import { compactVerify, createLocalJWKSet, errors as joseErrors, type JSONWebKeySet } from 'jose';
import { base64url, canonicalBytes } from './jcs.js';

/** Which way a signed document failed, before any schema is looked at. */
export type SignedJcsFailure = 'format' | 'key' | 'signature';

/** Makes the verifier's own error for a failure (its class carries the stable code). */
export type SignedJcsErrorFactory = (failure: SignedJcsFailure, message: string, cause?: unknown) => Error;

const DETACHED = /^([A-Za-z0-9_-]+)\.\.([A-Za-z0-9_-]+)$/;

/**
 * Checks `signed` (`{[member]: object, signature}`, or its JSON text) against `jwks` and returns the member object.
 * `noun` names the document in messages (`receipt`, `record`). Throws what `fail` makes; never validates the shape
 * of the member beyond its being an object.
 */
export async function verifySignedJcs(
  signed: unknown,
  member: string,
  jwks: JSONWebKeySet,
  options: { algorithms?: string[] | undefined; noun: string },
  fail: SignedJcsErrorFactory,
): Promise<Record<string, unknown>> {
  const { noun } = options;
  let input: unknown = signed;
  if (typeof signed === 'string') {
    try {
      input = JSON.parse(signed);
    } catch (cause) {
      throw fail('format', `The signed ${noun} is not JSON.`, cause);
    }
  }
  const { [member]: value, signature } = (input ?? {}) as Record<string, unknown>;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw fail('format', `The signed ${noun} has no ${member} object.`);
  const match = typeof signature === 'string' ? DETACHED.exec(signature) : null;
  if (!match) throw fail('format', 'signature must be a compact JWS with detached payload (header..signature).');
  if (!jwks || !Array.isArray((jwks as { keys?: unknown }).keys)) throw fail('format', 'jwks must be a JWK Set ({keys: [...]}).');
  let payload: string;
  try {
    payload = base64url(canonicalBytes(value));
  } catch (cause) {
    throw fail('format', `The ${noun} cannot be canonicalised (RFC 8785).`, cause);
  }
  try {
    await compactVerify(`${match[1]}.${payload}.${match[2]}`, createLocalJWKSet(jwks), { algorithms: options.algorithms ?? ['ES256'] });
  } catch (cause) {
    if (cause instanceof joseErrors.JWKSNoMatchingKey || cause instanceof joseErrors.JWKSMultipleMatchingKeys) {
      throw fail('key', 'No key of the JWK Set matches the signature (kid and algorithm).', cause);
    }
    if (cause instanceof joseErrors.JWSSignatureVerificationFailed) {
      throw fail('signature', `The signature does not match the ${noun}.`, cause);
    }
    throw fail('format', `The signature cannot be checked: ${cause instanceof Error ? cause.message : String(cause)}`, cause);
  }
  return value as Record<string, unknown>;
}
