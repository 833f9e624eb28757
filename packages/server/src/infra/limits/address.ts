// The client address a limit counts against: the socket's peer, unless the server is told it sits behind proxies.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';

function socketAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // no Node socket (an in-process `app.request`): one shared key
  }
}

/**
 * The key of an address: IPv4 as written (an IPv4-mapped IPv6 address as its IPv4), IPv6 by its /64, since one
 * subscriber is commonly given a whole /64 and could otherwise take a fresh address per request.
 */
export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}

/**
 * The client's address key. With `trustedProxies` n > 0, each proxy appended the address it was reached from to
 * `X-Forwarded-For`, so the n-th entry from the right is the one the first trusted proxy saw; entries left of it are
 * the client's to write and are never read. With 0, the header is ignored.
 */
export function clientAddress(c: Context, trustedProxies: number): string {
  let address = socketAddress(c);
  if (trustedProxies > 0) {
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter(Boolean);
    const seen = hops[Math.max(0, hops.length - trustedProxies)];
    if (seen && ipaddr.isValid(seen)) address = seen;
  }
  return addressKey(address);
}
