// Offline receipt verification: the signed flavor is `{receipt, signature}`, where `signature` is a compact JWS with
// detached payload (RFC 7515 appendix F) over the RFC 8785 (JCS) bytes of `receipt`, its `kid` in the service's
// JWKS. jose and Web Crypto only, so it runs unchanged in Node 20+ and browsers.
import { compactVerify, createLocalJWKSet, errors as joseErrors, type JSONWebKeySet } from 'jose';
import { SvcError, type SvcFieldError } from '../lib/errors.js';
import { authorizationReceiptRecord, consentReceiptRecord, type ReceiptRecord } from '../schemas/receipts.js';
import { base64url, canonicalBytes } from './jcs.js';

/** Options of {@link verifyReceipt}. */
export interface VerifyReceiptOptions {
  /** Accepted JWS algorithms. Default `['ES256']`. */
  algorithms?: string[];
  /** Also check the receipt against the `svc-cr/2.13` schema. Default true. */
  validate?: boolean;
}

/** The signed flavor as the receipt endpoint returns it. */
export interface SignedReceiptInput {
  receipt: unknown;
  signature: string;
}

/** Why a receipt did not verify. `switch (err.code)` narrows to the class. */
export abstract class SvcReceiptVerificationError extends SvcError {
  abstract override readonly code: 'ERR_SVC_RECEIPT_FORMAT' | 'ERR_SVC_RECEIPT_KEY' | 'ERR_SVC_RECEIPT_SIGNATURE' | 'ERR_SVC_RECEIPT_INVALID';
}

/** The input is not `{receipt, signature}` with a detached compact JWS (`header..signature`), or its header is unusable. */
export class SvcReceiptFormatError extends SvcReceiptVerificationError {
  override readonly name = 'SvcReceiptFormatError';
  readonly code = 'ERR_SVC_RECEIPT_FORMAT';
}

/** No key of the JWKS matches the signature's `kid` and algorithm. */
export class SvcReceiptKeyError extends SvcReceiptVerificationError {
  override readonly name = 'SvcReceiptKeyError';
  readonly code = 'ERR_SVC_RECEIPT_KEY';
}

/** The signature does not match the receipt: the receipt changed after signing, or another key signed it. */
export class SvcReceiptSignatureError extends SvcReceiptVerificationError {
  override readonly name = 'SvcReceiptSignatureError';
  readonly code = 'ERR_SVC_RECEIPT_SIGNATURE';
}

/** The signature is valid but the receipt does not match the receipt schema; `errors` names each field. */
export class SvcReceiptInvalidError extends SvcReceiptVerificationError {
  override readonly name = 'SvcReceiptInvalidError';
  readonly code = 'ERR_SVC_RECEIPT_INVALID';
}

/** Every error `verifyReceipt` throws, so `switch (err.code)` narrows. */
export type AnyReceiptVerificationError =
  | SvcReceiptFormatError
  | SvcReceiptKeyError
  | SvcReceiptSignatureError
  | SvcReceiptInvalidError;

const DETACHED = /^([A-Za-z0-9_-]+)\.\.([A-Za-z0-9_-]+)$/;

/**
 * Verifies a signed receipt offline against a JWK Set (such as `/.well-known/jwks.json`, fetched once and kept) and
 * returns the receipt. Throws a {@link SvcReceiptVerificationError}.
 *
 * @example
 * const jwks = await (await fetch(`${baseUrl}/.well-known/jwks.json`)).json();
 * const signed = await (await fetch(`${baseUrl}/api/v1/consent_receipts/${id}?flavor=signed`, { headers })).json();
 * const receipt = await verifyReceipt(signed, jwks); // throws when anything was changed
 */
export async function verifyReceipt(signed: SignedReceiptInput | string, jwks: JSONWebKeySet, options: VerifyReceiptOptions = {}): Promise<ReceiptRecord> {
  let input: unknown = signed;
  if (typeof signed === 'string') {
    try {
      input = JSON.parse(signed);
    } catch (cause) {
      throw new SvcReceiptFormatError('The signed receipt is not JSON.', { cause });
    }
  }
  const { receipt, signature } = (input ?? {}) as Partial<SignedReceiptInput>;
  if (typeof receipt !== 'object' || receipt === null || Array.isArray(receipt)) throw new SvcReceiptFormatError('The signed receipt has no receipt object.');
  const match = typeof signature === 'string' ? DETACHED.exec(signature) : null;
  if (!match) throw new SvcReceiptFormatError('signature must be a compact JWS with detached payload (header..signature).');
  if (!jwks || !Array.isArray((jwks as { keys?: unknown }).keys)) throw new SvcReceiptFormatError('jwks must be a JWK Set ({keys: [...]}).');
  let payload: string;
  try {
    payload = base64url(canonicalBytes(receipt));
  } catch (cause) {
    throw new SvcReceiptFormatError('The receipt cannot be canonicalised (RFC 8785).', { cause });
  }
  try {
    await compactVerify(`${match[1]}.${payload}.${match[2]}`, createLocalJWKSet(jwks), { algorithms: options.algorithms ?? ['ES256'] });
  } catch (cause) {
    if (cause instanceof joseErrors.JWKSNoMatchingKey || cause instanceof joseErrors.JWKSMultipleMatchingKeys) {
      throw new SvcReceiptKeyError('No key of the JWK Set matches the signature (kid and algorithm).', { cause });
    }
    if (cause instanceof joseErrors.JWSSignatureVerificationFailed) {
      throw new SvcReceiptSignatureError('The signature does not match the receipt.', { cause });
    }
    throw new SvcReceiptFormatError(`The signature cannot be checked: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  if (options.validate === false) return receipt as ReceiptRecord;
  // The record kind picks the branch of the union, so errors name fields rather than "no branch matched".
  const kind = (receipt as { record_type?: unknown }).record_type === 'authorization_record' ? authorizationReceiptRecord : consentReceiptRecord;
  const parsed = kind.safeParse(receipt);
  if (!parsed.success) {
    const errors: SvcFieldError[] = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.') || '(receipt)', code: i.code, message: i.message }));
    throw new SvcReceiptInvalidError('The receipt is signed but does not match the receipt schema.', { errors });
  }
  return receipt as ReceiptRecord;
}
