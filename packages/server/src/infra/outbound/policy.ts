// Which addresses the service may connect to on behalf of an application. Production applications reach public
// (global unicast) addresses only: never loopback, private, link-local (cloud metadata at 169.254.169.254),
// unique-local (fd00:ec2::254), carrier-grade NAT (100.100.100.200), IPv4-mapped or NAT64 forms of them, or any
// other special range. Development applications reach any address, as before, so a receiver on the developer's
// machine or network works. The ranges are ipaddr.js's; the rule is request-filtering-agent's, which
// enforces it on the address each connection actually uses (agents.ts).
import ipaddr from 'ipaddr.js';

/** `public`: public unicast addresses only. `any`: every address. */
export type OutboundPolicy = 'public' | 'any';

/** The policy of an application's outbound requests. */
export function policyOf(environment: 'development' | 'production'): OutboundPolicy {
  return environment === 'production' ? 'public' : 'any';
}

/** Readable names of ipaddr.js's ranges, for messages. */
const RANGE_NAMES: Record<string, string> = {
  unicast: 'public',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  uniqueLocal: 'unique-local',
  ipv4Mapped: 'IPv4-mapped',
  rfc6052: 'NAT64',
  rfc6145: 'IPv4-translated',
  deprecatedSiteLocal: 'site-local',
};

/** ipaddr.js's range of an IP address (`unicast` when public), or undefined when it is not an IP address. */
function rangeOf(address: string): string | undefined {
  return ipaddr.isValid(address) ? ipaddr.parse(address).range() : undefined;
}

/**
 * The range that refuses `address` under `policy` (`loopback`, `private`, ...), or null when it may be reached. The
 * same rule as request-filtering-agent's: `public` refuses every range but unicast, `any` refuses nothing.
 */
export function refusedRange(address: string, policy: OutboundPolicy): string | null {
  if (policy === 'any') return null;
  const range = rangeOf(address);
  return range === undefined || range === 'unicast' ? null : range;
}

/** Whether `address` is a public unicast address (what a production application may reach). */
export function isPublicAddress(address: string | null | undefined): boolean {
  return !!address && rangeOf(address) === 'unicast';
}

/** "127.0.0.1 (loopback)"; an IPv4-mapped address also names the IPv4 address it carries and its range. */
export function describeAddress(address: string, range: string): string {
  const name = (r: string) => RANGE_NAMES[r] ?? r;
  if (range !== 'ipv4Mapped') return `${address} (${name(range)})`;
  const inner = ipaddr.process(address);
  return `${address} (IPv4-mapped ${inner.toString()}, ${name(inner.range())})`;
}

/** Why a production application may not reach `host` at `address`, as a sentence. */
export function refusalMessage(host: string, address: string, range: string): string {
  const where = host === address ? describeAddress(address, range) : `${host} resolves to ${describeAddress(address, range)}`;
  return `${where}; a production application reaches only public addresses.`;
}
