// The consent token is issued at fulfilment but handed out at exchange. Between the two it is kept sealed under a
// key derived from the exchange token, which only the page (and then the host) holds: the database keeps hashes
// and this sealed box, so a copy of the database never yields a usable token.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

function keyOf(exchangeToken: string): Buffer {
  return createHash('sha256').update('svc consent token seal v1\0').update(exchangeToken, 'utf8').digest();
}

/** Encrypts `secret` (AES-256-GCM) under a key derived from `exchangeToken`; the result is `iv.tag.ciphertext`, base64url. */
export function seal(secret: string, exchangeToken: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(exchangeToken), iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url')).join('.');
}

/** Opens what {@link seal} made; undefined when the box or the exchange token does not fit. */
export function unseal(box: string, exchangeToken: string): string | undefined {
  try {
    const [iv, tag, ciphertext] = box.split('.').map((part) => Buffer.from(part, 'base64url'));
    if (!iv || !tag || !ciphertext) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', keyOf(exchangeToken), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
