// Offline verification of an agreement's receipt, "the set of signatures": the bundle `{agreement_receipt,
// signature}` is signed like a receipt (detached JWS over its RFC 8785 bytes), and each signature inside is a compact
// JWS over the document hash, the party and the time. Both are checked against the service's JWKS; each signature
// must name this agreement and this document, once per party. jose and Web Crypto only.
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { SvcError } from '../lib/errors.js';
import { agreementReceipt, signaturePayload, type AgreementReceipt, type SignaturePayload } from '@svc/schemas';
import { verifySignedJcs } from './signed-jcs.js';

/** Why an agreement receipt did not verify: `check` says which check failed. */
export class SvcAgreementVerificationError extends SvcError {
  override readonly name = 'SvcAgreementVerificationError';
  readonly code = 'ERR_SVC_AGREEMENT_VERIFICATION';
  constructor(
    readonly check: 'format' | 'key' | 'signature' | 'invalid',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A verified agreement receipt with each signature's payload. */
export interface VerifiedAgreementReceipt extends AgreementReceipt {
  signed: SignaturePayload[];
}

/**
 * Verifies `signed` (`{agreement_receipt, signature}` as `GET /api/v1/agreements/{id}/receipt` answers it, or its
 * JSON text) offline against `jwks`. Throws {@link SvcAgreementVerificationError} when a byte of the bundle or of any
 * signature changed, a signature names another agreement, document or party, a party signed twice, or an `active`
 * bundle holds fewer signatures than its quorum.
 */
export async function verifyAgreementReceipt(signed: unknown, jwks: JSONWebKeySet): Promise<VerifiedAgreementReceipt> {
  const fail = (reason: SvcAgreementVerificationError['check'], message: string, cause?: unknown) =>
    new SvcAgreementVerificationError(reason, message, cause === undefined ? undefined : { cause });
  const bundle = await verifySignedJcs(signed, 'agreement_receipt', jwks, { noun: 'agreement receipt' }, fail);
  const parsed = agreementReceipt.safeParse(bundle);
  if (!parsed.success)
    throw fail('invalid', `The agreement receipt does not match its schema: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
  const receipt = parsed.data;
  const keys = createLocalJWKSet(jwks);
  const seen = new Set<string>();
  const payloads: SignaturePayload[] = [];
  for (const [index, signature] of receipt.signatures.entries()) {
    let payload: unknown;
    try {
      const { payload: bytes, protectedHeader } = await compactVerify(signature.jws, keys, { algorithms: ['ES256'] });
      if (protectedHeader.typ !== 'svc-signature+jwt') throw new Error(`typ is ${String(protectedHeader.typ)}`);
      payload = JSON.parse(new TextDecoder().decode(bytes));
    } catch (cause) {
      throw fail('signature', `Signature ${index} does not verify: ${cause instanceof Error ? cause.message : String(cause)}.`, cause);
    }
    const checked = signaturePayload.safeParse(payload);
    if (!checked.success) throw fail('invalid', `Signature ${index}'s payload does not match its schema.`);
    const p = checked.data;
    if (p.agreement_id !== receipt.agreement_id || p.document_sha256 !== receipt.document_sha256) {
      throw fail('invalid', `Signature ${index} signs another agreement or document.`);
    }
    if (p.party_id !== signature.party_id || p.signed_at !== signature.signed_at)
      throw fail('invalid', `Signature ${index} does not match its entry (party or time).`);
    if (seen.has(p.party_id)) throw fail('invalid', `Party ${p.party_id} appears twice.`);
    seen.add(p.party_id);
    payloads.push(p);
  }
  if (receipt.status === 'active' && payloads.length < receipt.quorum) {
    throw fail('invalid', `The agreement says active with ${payloads.length} signatures, fewer than its quorum of ${receipt.quorum}.`);
  }
  return { ...receipt, signed: payloads };
}
