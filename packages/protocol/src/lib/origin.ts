import { ProtocolError, ProtocolErrorCode } from './errors.js';

/**
 * Normalises a configured origin (or any URL on it) to the exact string browsers put in `event.origin`, so the
 * checks can compare with `===`. Anything that is not an absolute http(s) URL is a configuration error: `*` and
 * opaque origins (`null`) would let every window in.
 */
export function normalizeOrigin(value: unknown, option: string): string {
  let url: URL | undefined;
  try {
    if (typeof value === 'string') url = new URL(value);
  } catch {
    // Reported below with the option's name.
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidOrigin,
      `${option} must be an absolute http(s) origin such as "https://svc.example", got ${typeof value === 'string' ? JSON.stringify(value) : typeof value}`,
    );
  }
  return url.origin;
}
