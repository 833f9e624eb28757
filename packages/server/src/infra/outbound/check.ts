// The registration check: refuses, under the `public` policy, a URL whose host is an IP address in a refused
// range or a name that resolves to one. It only tells early what the agents enforce on every connection; a name
// that does not resolve (yet) passes, since the delivery checks the address it connects to anyway.
import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { refusalMessage, refusedRange, type OutboundPolicy } from './policy.js';

/** How long registration waits for DNS before letting the URL pass to the delivery's check. */
export const REGISTRATION_LOOKUP_TIMEOUT_MS = 3_000;

/** Why a URL is refused. */
export interface Refusal {
  host: string;
  address: string;
  range: string;
  message: string;
}

/** The URL's host as a connection uses it: an IPv6 literal without its brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Every address `host` resolves to, or none when it does not resolve within `timeoutMs`. */
function resolveAll(host: string, lookup: LookupFunction, timeoutMs: number): Promise<string[]> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve([]), timeoutMs);
    lookup(host, { all: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err) return resolve([]);
      resolve(Array.isArray(addresses) ? addresses.map((a: LookupAddress) => a.address) : [addresses]);
    });
  });
}

/** The first refused address of `url` under `policy`, or null when the URL may be registered. */
export async function checkDestination(
  url: string,
  policy: OutboundPolicy,
  options: { lookup?: LookupFunction | undefined; timeoutMs?: number } = {},
): Promise<Refusal | null> {
  if (policy === 'any') return null;
  const host = hostOf(new URL(url));
  const addresses = isIP(host)
    ? [host]
    : await resolveAll(host, options.lookup ?? (systemLookup as LookupFunction), options.timeoutMs ?? REGISTRATION_LOOKUP_TIMEOUT_MS);
  for (const address of addresses) {
    const range = refusedRange(address, policy);
    if (range) return { host, address, range, message: refusalMessage(host, address, range) };
  }
  return null;
}
