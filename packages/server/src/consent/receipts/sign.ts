// Compact JWS with detached payload (RFC 7515 appendix F) over JCS bytes: the signature format of signed receipts,
// audit anchors and witness receipts. The payload segment is left out; a verifier re-inserts it from the JCS bytes.
import { CompactSign } from 'jose';
import { jcs } from '../audit/hash.js';

const encoder = new TextEncoder();

/** Signs `payload` with ES256 and returns `header..signature`. */
export async function signDetached(payload: Uint8Array, key: CryptoKey, kid: string): Promise<string> {
  const jws = await new CompactSign(payload).setProtectedHeader({ alg: 'ES256', kid }).sign(key);
  const [header, , signature] = jws.split('.');
  return `${header}..${signature}`;
}

/** Signs the RFC 8785 (JCS) bytes of `value` and returns the detached compact JWS `header..signature`. */
export function signJcs(value: unknown, key: CryptoKey, kid: string): Promise<string> {
  return signDetached(encoder.encode(jcs(value)), key, kid);
}
