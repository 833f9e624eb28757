/**
 * Verifying a signed consent receipt offline: fetch the service's JWKS once (and keep it), then check any signed
 * receipt against it without calling the service again. Anyone holding the receipt can do this: a regulator, the
 * person, an auditor.
 *
 * Run:  SVC_API_TOKEN=... node --import tsx examples/server/verify-receipt.ts <record_id>
 */
import { pathToFileURL } from 'node:url';
import { verifyReceipt, type SignedReceiptInput } from '@svc/client';

/** Fetches the service's public keys (`/.well-known/jwks.json`): store them with your records. */
export async function fetchJwks(baseUrl: string) {
  const response = await fetch(`${baseUrl}/.well-known/jwks.json`);
  if (!response.ok) throw new Error(`JWKS: ${response.status}`);
  return response.json();
}

/** Fetches the signed receipt of a consent record (`flavor=signed`: `{receipt, signature}`). */
export async function fetchSignedReceipt(baseUrl: string, apiToken: string, recordId: string): Promise<SignedReceiptInput> {
  const response = await fetch(`${baseUrl}/api/v1/consent_receipts/${encodeURIComponent(recordId)}?flavor=signed`, {
    headers: { authorization: `Bearer ${apiToken}` },
  });
  if (!response.ok) throw new Error(`receipt: ${response.status}`);
  return response.json() as Promise<SignedReceiptInput>;
}

/** Verifies a signed receipt with a JWKS, offline. Throws an SvcReceiptVerificationError when it does not hold. */
export async function checkReceipt(signed: SignedReceiptInput, jwks: Parameters<typeof verifyReceipt>[1]) {
  const receipt = await verifyReceipt(signed, jwks);
  return receipt; // the receipt record, now known to be the one the service signed
}

// Started directly: verify one record's receipt.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const baseUrl = process.env.SVC_BASE_URL ?? 'http://127.0.0.1:4010';
  const jwks = await fetchJwks(baseUrl);
  const signed = await fetchSignedReceipt(baseUrl, process.env.SVC_API_TOKEN ?? '', process.argv[2] ?? '');
  const receipt = await checkReceipt(signed, jwks);
  console.log('valid receipt', JSON.stringify(receipt, null, 2));
}
