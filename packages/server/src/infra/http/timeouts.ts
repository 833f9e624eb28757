// How long the HTTP server waits for a client, set on purpose rather than left at Node's defaults: a client that
// trickles its headers (slow loris) or its body holds a socket and a parser for as long as the server lets it.
import type { ServerOptions } from 'node:http';

/**
 * The whole header section must arrive within this (Node's default: 60 s). An honest client sends its headers in
 * one packet; ten seconds covers a slow mobile link, and holds a trickling client ten seconds rather than a minute.
 */
export const HEADERS_TIMEOUT_MS = 10_000;

/**
 * The whole request, body included, must arrive within this (Node's default: 300 s). The largest body the server
 * reads is a 16 MiB import, which takes about a minute and a half over a 1.5 Mbit/s uplink.
 */
export const REQUEST_TIMEOUT_MS = 120_000;

/**
 * An idle keep-alive connection is closed after this (Node's default, stated here so that it is chosen): long enough
 * for a client's next request, short enough that idle sockets cost little. Behind a proxy that keeps idle upstream
 * connections longer, raise it above the proxy's own idle timeout, or the proxy may reuse a socket being closed.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/**
 * How often Node checks the header and request deadlines (Node's default: 30 s, which would let a trickling client
 * keep its socket up to 30 s past them).
 */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/** The server's timeouts; each option of `startServer` left out keeps its constant above. */
export interface ServerTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  checkIntervalMs: number;
}

export const DEFAULT_TIMEOUTS: Readonly<ServerTimeouts> = {
  headersTimeoutMs: HEADERS_TIMEOUT_MS,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
  checkIntervalMs: TIMEOUT_CHECK_INTERVAL_MS,
};

/**
 * `http.createServer` options for the timeouts. `maxHeadersCount` stays Node's: over the limit Node drops headers
 * silently (it could drop Authorization), and `maxHeaderSize` (16 KiB) already bounds the header section's work.
 */
export function timeoutOptions(overrides: Partial<ServerTimeouts> = {}): ServerOptions {
  const t = { ...DEFAULT_TIMEOUTS, ...overrides };
  if (t.headersTimeoutMs > t.requestTimeoutMs) throw new RangeError('headersTimeoutMs must not exceed requestTimeoutMs');
  return {
    headersTimeout: t.headersTimeoutMs,
    requestTimeout: t.requestTimeoutMs,
    keepAliveTimeout: t.keepAliveTimeoutMs,
    connectionsCheckingInterval: t.checkIntervalMs,
  };
}
