import { createHash, randomFillSync, timingSafeEqual } from 'node:crypto';

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

// Ids and secrets take their bytes from the CSPRNG 4 KiB at a time: one fill costs about what one small call does,
// and every create mints several. Each byte is handed out once.
const pool = Buffer.alloc(4096);
let used = pool.length;

/** `length` fresh random bytes (a view valid until the next call). */
function freshBytes(length: number): Buffer {
  if (length > pool.length) return randomFillSync(Buffer.alloc(length));
  if (used + length > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += length;
  return pool.subarray(used - length, used);
}

/** A random base62 string; rejection sampling keeps every character equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of freshBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += alphabet[byte % 62];
    }
  }
  return out;
}

/** A resource id such as `tp_dev_3kTMd92jfQ` or `api_token_...`. */
export function newId(prefix: string, length = 16): string {
  return `${prefix}${randomBase62(length)}`;
}

/**
 * The id of a resource homed in a country cell: the cell's country code follows the type prefix (`cr_de_…`), so
 * any cell can route an id to its home without looking it up. Ids without a country predate cells and belong to
 * the first country.
 */
export function homedId(country: string, prefix: string, length = 16): string {
  return `${prefix}${country.toLowerCase()}_${randomBase62(length)}`;
}

/** A high-entropy secret (32 random bytes) as URL-safe base64 without padding. */
export function newSecret(bytes = 32): string {
  return freshBytes(bytes).toString('base64url');
}

/** The stored form of a secret: its SHA-256, hex. Secrets are high-entropy, so a plain hash suffices. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of two strings (their SHA-256 digests, so lengths never leak). */
export function safeEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest();
  const db = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(da, db);
}
