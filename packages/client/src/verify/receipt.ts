// Offline receipt verification: the signed flavor is `{receipt, signature}`, where `signature` is a compact JWS with
// detached payload (RFC 7515 appendix F) over the RFC 8785 (JCS) bytes of `receipt`, its `kid` in the service's
// JWKS. jose and Web Crypto only, so it runs unchanged in Node 20+ and browsers.
import type { JSONWebKeySet } from 'jose';
import { SvcError, type SvcFieldError } from '../lib/errors.js';
import { authorizationReceiptRecord, consentReceiptRecord, type ReceiptRecord } from '@svc/schemas';
import { verifySignedJcs, type SignedJcsFailure } from './signed-jcs.js';

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
  abstract override readonly code:
    | 'ERR_SVC_RECEIPT_FORMAT'
    | 'ERR_SVC_RECEIPT_KEY'
    | 'ERR_SVC_RECEIPT_SIGNATURE'
    | 'ERR_SVC_RECEIPT_INVALID';
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
export type AnyReceiptVerificationError = SvcReceiptFormatError | SvcReceiptKeyError | SvcReceiptSignatureError | SvcReceiptInvalidError;

function receiptError(failure: SignedJcsFailure, message: string, cause?: unknown): SvcReceiptVerificationError {
  const details = cause === undefined ? {} : { cause };
  if (failure === 'key') return new SvcReceiptKeyError(message, details);
  if (failure === 'signature') return new SvcReceiptSignatureError(message, details);
  return new SvcReceiptFormatError(message, details);
}

/**
 * Verifies a signed receipt offline against a JWK Set (such as `/.well-known/jwks.json`, fetched once and kept) and
 * returns the receipt. Throws a {@link SvcReceiptVerificationError}.
 *
 * @example
 * const jwks = await (await fetch(`${baseUrl}/.well-known/jwks.json`)).json();
 * const signed = await (await fetch(`${baseUrl}/api/v1/consent_receipts/${id}?flavor=signed`, { headers })).json();
 * const receipt = await verifyReceipt(signed, jwks); // throws when anything was changed
 */
export async function verifyReceipt(
  signed: SignedReceiptInput | string,
  jwks: JSONWebKeySet,
  options: VerifyReceiptOptions = {},
): Promise<ReceiptRecord> {
  const receipt = await verifySignedJcs(signed, 'receipt', jwks, { algorithms: options.algorithms, noun: 'receipt' }, receiptError);
  if (options.validate === false) return receipt as ReceiptRecord;
  // The record kind picks the branch of the union, so errors name fields rather than "no branch matched".
  const kind =
    (receipt as { record_type?: unknown }).record_type === 'authorization_record' ? authorizationReceiptRecord : consentReceiptRecord;
  const parsed = kind.safeParse(receipt);
  if (!parsed.success) {
    const errors: SvcFieldError[] = parsed.error.issues.map((i) => ({
      path: i.path.map(String).join('.') || '(receipt)',
      code: i.code,
      message: i.message,
    }));
    throw new SvcReceiptInvalidError('The receipt is signed but does not match the receipt schema.', { errors });
  }
  return receipt as ReceiptRecord;
}
