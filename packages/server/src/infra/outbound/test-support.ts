// Test support: a DNS whose answers a test sets per hostname (there is no internet in tests), falling back to the
// system resolver for other names (`localhost` resolves to loopback as it does everywhere).
import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/** A lookup function with a table the test changes between calls, e.g. to rebind a name to loopback. */
export interface FakeDns {
  lookup: LookupFunction;
  /** Answers `address` (or every address of a list) for `hostname` from now on. */
  set(hostname: string, address: string | string[]): void;
  /** Names looked up so far, in order. */
  asked: string[];
}

/** A DNS answering from `table` first; a name without an answer there goes to the system resolver. */
export function fakeDns(table: Record<string, string | string[]> = {}): FakeDns {
  const answers = new Map(Object.entries(table).map(([name, a]) => [name, typeof a === 'string' ? [a] : a]));
  const asked: string[] = [];
  const lookup = ((hostname, options, callback) => {
    asked.push(hostname);
    const addresses = answers.get(hostname);
    if (addresses === undefined) return systemLookup(hostname, options, callback);
    const all: LookupAddress[] = addresses.map((address) => ({ address, family: isIP(address) }));
    // Answers asynchronously, as a real resolver does.
    setImmediate(() => (options.all ? callback(null, all) : callback(null, all[0]!.address, all[0]!.family)));
  }) as LookupFunction;
  const set = (hostname: string, address: string | string[]) => answers.set(hostname, typeof address === 'string' ? [address] : address);
  return { lookup, set, asked };
}
