// RFC 8785 JSON Canonicalization Scheme, as a small ES module so it runs in browsers without a CommonJS bundler
// step: object members sorted by UTF-16 code units, no white space, numbers and strings as ECMAScript's
// JSON.stringify writes them (which is what RFC 8785 prescribes).

/** The JCS canonical text of a JSON value; throws on values JSON cannot carry (NaN, Infinity, functions, ...). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('JCS cannot represent NaN or Infinity');
    return JSON.stringify(value);
  }
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined || typeof v === 'function' || typeof v === 'symbol' ? 'null' : canonicalJson(v))).join(',')}]`;
  if (typeof value === 'object') {
    const withToJson = value as { toJSON?: () => unknown };
    if (typeof withToJson.toJSON === 'function') return canonicalJson(withToJson.toJSON());
    const entries = Object.keys(value)
      .filter((k) => {
        const v = (value as Record<string, unknown>)[k];
        return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
      })
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  throw new TypeError(`JCS cannot represent a ${typeof value}`);
}

const encoder = new TextEncoder();

/** The UTF-8 bytes of the JCS canonical text. */
export function canonicalBytes(value: unknown): Uint8Array {
  return encoder.encode(canonicalJson(value));
}

/** Base64url without padding, for re-inserting a detached JWS payload. */
export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Lower-case hex SHA-256 (Web Crypto, so Node 20+ and browsers alike). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
