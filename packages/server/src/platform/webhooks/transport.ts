// One HTTP POST of a delivery, through the service's outbound client (infra/outbound): the spec's two
// acknowledgement limits (connect, then read), no redirects, and the application's address policy checked on the
// address each connection actually uses. What is kept of an answer: its status and timing always; the first KiB of
// its body only when it came from a public address (see `keptExcerpt`).
import type { LookupFunction } from 'node:net';
import {
  isPublicAddress,
  outboundRequest,
  type OutboundError,
  type OutboundPolicy,
  type PolicyAgents,
} from '../../infra/outbound/index.js';

/** Why an attempt got no usable answer. */
export type TransportError = OutboundError;

/** What one POST produced: a status code, or an error. */
export interface PostResult {
  statusCode: number | null;
  error: TransportError | null;
  errorMessage: string | null;
  /** The first 1 KiB of the response body, as text, when the receiver is the application's own (`keptExcerpt`). */
  responseBody: string | null;
  durationMs: number;
}

/** Options of {@link postDelivery}. */
export interface PostOptions {
  /** The application's address policy: `public` for a production application. */
  policy: OutboundPolicy;
  connectTimeoutMs: number;
  readTimeoutMs: number;
  /** Aborting it ends the attempt as `interrupted` (the server is shutting down). */
  signal?: AbortSignal;
  /** Keep-alive agents; shared ones without keep-alive otherwise. */
  agents?: PolicyAgents;
  /** DNS lookup override (tests use one that never answers to exercise the connect timeout). */
  lookup?: LookupFunction;
}

const KEEP_CHARS = 1024;
/** Enough bytes for 1024 characters of UTF-8. */
const KEEP_BYTES = 4 * KEEP_CHARS;
const MAX_BODY = 64 * 1024;

/**
 * The body excerpt a delivery record keeps. A receiver is taken as the application's own when it answers from a
 * public address: anyone can reach it, so its answer tells the application's owner nothing the service's network
 * position adds. An answer from loopback, private or link-local addresses (which only a development application
 * reaches) may be the service's own neighbourhood; its status and timing are kept, never its body.
 */
export function keptExcerpt(body: Buffer | null, remoteAddress: string | null): string | null {
  if (body === null || !isPublicAddress(remoteAddress)) return null;
  return body.toString('utf8').slice(0, KEEP_CHARS);
}

/** POSTs `body` to `url` once and reports what happened; never rejects. */
export async function postDelivery(url: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const result = await outboundRequest(url, {
    policy: options.policy,
    method: 'POST',
    headers: { ...headers, 'user-agent': 'svc-webhooks/1' },
    body,
    connectTimeoutMs: options.connectTimeoutMs,
    readTimeoutMs: options.readTimeoutMs,
    keepBytes: KEEP_BYTES,
    maxBytes: MAX_BODY,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.agents ? { agents: options.agents } : {}),
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
  return {
    statusCode: result.statusCode,
    error: result.error,
    errorMessage: result.errorMessage,
    responseBody: keptExcerpt(result.body, result.remoteAddress),
    durationMs: result.durationMs,
  };
}
