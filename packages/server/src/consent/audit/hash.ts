// Canonical bytes and digests shared by receipts, the audit trail and its anchors.
import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

// canonicalize is CommonJS whose typings declare a default export; under NodeNext the default import is
// `module.exports` itself at run time, while TypeScript sees `{default}`. Accept either shape.
const serialize = ((canonicalizeModule as unknown as { default?: unknown }).default ?? canonicalizeModule) as (
  input: unknown,
) => string | undefined;

/** The RFC 8785 (JCS) canonical JSON text of a value. */
export function jcs(value: unknown): string {
  const text = serialize(value);
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}

/** Lower-case hex SHA-256 of a string's UTF-8 bytes or of raw bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Lower-case hex SHA-256 of a value's JCS bytes. */
export function jcsHash(value: unknown): string {
  return sha256Hex(jcs(value));
}
