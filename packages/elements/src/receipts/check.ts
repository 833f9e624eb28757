// The offline check of a signed receipt, loaded on the first check only (it brings jose and the receipt schema):
// @svc/client's own verifier, its errors said as one of four plain verdicts. Nothing about the receipt is sent anywhere.
import { verifyReceipt } from '@svc/client';
import type { ReceiptVerdict } from './events.js';

/** The verdict of `signed` (`{receipt, signature}`, or what carries one) against `jwks`, and the receipt's id when read. */
export async function checkReceipt(
  signed: unknown,
  jwks: { keys: object[] },
): Promise<{ verdict: ReceiptVerdict; recordId: string | null }> {
  const recordId = recordIdOf(signed);
  try {
    await verifyReceipt(signedOf(signed) as never, jwks as never);
    return { verdict: 'valid', recordId };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const verdict = code === 'ERR_SVC_RECEIPT_SIGNATURE' ? 'tampered' : code === 'ERR_SVC_RECEIPT_KEY' ? 'not_this_service' : 'malformed';
    return { verdict, recordId };
  }
}

/** The signed receipt in what a person may drop: itself, or a people's API answer that carries one. */
function signedOf(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (record.signed_receipt) return record.signed_receipt;
  for (const envelope of ['authorization_receipt', 'disclosure_receipt'])
    if (record[envelope] && typeof record[envelope] === 'object') return signedOf(record[envelope]);
  return value;
}

function recordIdOf(value: unknown): string | null {
  const receipt = (signedOf(value) as { receipt?: { record_id?: unknown } } | null)?.receipt;
  return typeof receipt?.record_id === 'string' ? receipt.record_id : null;
}
