// The one outbound HTTP client: every request the service starts (webhook deliveries, status lists) goes through
// it, over node:http(s) and the filtering agents of its policy (agents.ts). Two time limits are kept apart:
// `connectTimeoutMs` runs from the start until the connection is up (DNS, TCP, TLS); `readTimeoutMs` from then
// until the whole response has arrived. Both are wall-clock time (a socket does not know the test clock).
// Redirects are never followed. A refused address ends the request before any connection is opened, with
// `refused_address` and nothing of an answer.
import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { sharedAgents, type OutboundAgents, type PolicyAgents } from './agents.js';
import { hostOf } from './check.js';
import { refusalMessage, refusedRange, type OutboundPolicy } from './policy.js';

/** Why a request got no usable answer. */
export type OutboundError = 'refused_address' | 'connect_timeout' | 'read_timeout' | 'network_error' | 'interrupted';

/** What one request produced: a status code and the start of the body, or an error. */
export interface OutboundResult {
  statusCode: number | null;
  error: OutboundError | null;
  errorMessage: string | null;
  /** The first `keepBytes` of the body (null without a response). */
  body: Buffer | null;
  /** Whether the body was longer than what was kept. */
  truncated: boolean;
  /** The address the answer came from (null without a response). */
  remoteAddress: string | null;
  durationMs: number;
}

/** Options of {@link outboundRequest}. */
export interface OutboundOptions {
  /** Which addresses may be connected to (policy.ts). */
  policy: OutboundPolicy;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connectTimeoutMs: number;
  readTimeoutMs: number;
  /** Body bytes kept in the result. */
  keepBytes: number;
  /** Body bytes read at most: past them the answer counts as complete (a huge body must not hold the caller). */
  maxBytes: number;
  /** Aborting it ends the request as `interrupted`. */
  signal?: AbortSignal;
  /** Keep-alive agents per policy; shared agents without keep-alive otherwise. */
  agents?: PolicyAgents;
  /** DNS lookup override (tests). */
  lookup?: LookupFunction;
}

/** Requests `url` once and reports what happened; never rejects. */
export async function outboundRequest(url: string, options: OutboundOptions): Promise<OutboundResult> {
  const target = new URL(url);
  const host = hostOf(target);
  const range = isIP(host) ? refusedRange(host, options.policy) : null;
  // The agents refuse it too; refusing here names the address without opening a socket.
  if (range) return refused(refusalMessage(host, host, range), 0);
  const pool = options.agents?.[options.policy];
  const first = await requestOnce(target, options, pool);
  // A kept-alive socket the receiver closed while idle fails on reuse before any byte is answered; that is not the
  // receiver's failure, so try once more on a new connection (the pattern Node's documentation recommends).
  if (first.retryFresh) return (await requestOnce(target, options, undefined)).result;
  return first.result;
}

function refused(message: string, durationMs: number): OutboundResult {
  const result = { statusCode: null, body: null, truncated: false, remoteAddress: null, durationMs };
  return { ...result, error: 'refused_address', errorMessage: message };
}

/** A lookup that notes every address it answers, so a refusal by the agent can name the address it refused. */
function recordingLookup(lookup: LookupFunction, answered: string[]): LookupFunction {
  return ((hostname, options, callback) =>
    lookup(hostname, options, (err, address, family) => {
      if (!err) answered.push(...(Array.isArray(address) ? address.map((a: LookupAddress) => a.address) : [address]));
      callback(err, address as string, family as number);
    })) as LookupFunction;
}

interface Attempt {
  result: OutboundResult;
  retryFresh: boolean;
}

/** What one request has seen so far. */
interface Exchange {
  started: number;
  settled: boolean;
  timer: NodeJS.Timeout | undefined;
  statusCode: number | null;
  remoteAddress: string | null;
  chunks: Buffer[];
  size: number;
  /** Addresses the name resolved to. */
  answered: string[];
}

type Finish = (error: OutboundError | null, errorMessage: string | null, retryFresh?: boolean) => void;

function requestOnce(target: URL, options: OutboundOptions, pool: OutboundAgents | undefined): Promise<Attempt> {
  return new Promise((resolve) => {
    const secure = target.protocol === 'https:';
    const x: Exchange = {
      started: performance.now(),
      settled: false,
      timer: undefined,
      statusCode: null,
      remoteAddress: null,
      chunks: [],
      size: 0,
      answered: [],
    };
    const finish: Finish = (error, errorMessage, retryFresh = false) => {
      if (x.settled) return;
      x.settled = true;
      clearTimeout(x.timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (error) req.destroy();
      resolve({ result: resultOf(x, options, error, errorMessage), retryFresh });
    };
    const onAbort = () => finish('interrupted', 'The server stopped during the request.');

    const agents = pool ?? sharedAgents(options.policy);
    const length = options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) };
    const req = (secure ? https : http).request(target, {
      method: options.method ?? 'GET',
      headers: { 'user-agent': 'svc/1', ...options.headers, ...length },
      agent: secure ? agents.https : agents.http,
      lookup: recordingLookup(options.lookup ?? (systemLookup as LookupFunction), x.answered),
    });
    watchTimeouts(req, x, options, secure, finish);
    req.on('response', (res) => readResponse(res, x, options, finish));
    req.on('error', (err: NodeJS.ErrnoException) => {
      // The agent refused an address the name resolved to: no connection was opened.
      const refusal = x.answered.map((a) => [a, refusedRange(a, options.policy)] as const).find(([, range]) => range);
      if (refusal) return finish('refused_address', refusalMessage(hostOf(target), refusal[0], refusal[1]!));
      const stale = pool !== undefined && req.reusedSocket && x.statusCode === null && err.code === 'ECONNRESET';
      finish('network_error', `${err.code ?? 'error'}: ${err.message}`, stale);
    });

    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    req.end(options.body);
  });
}

function resultOf(x: Exchange, options: OutboundOptions, error: OutboundError | null, errorMessage: string | null): OutboundResult {
  const body = x.statusCode === null ? null : Buffer.concat(x.chunks).subarray(0, options.keepBytes);
  const durationMs = Math.round(performance.now() - x.started);
  return {
    statusCode: x.statusCode,
    error,
    errorMessage,
    body,
    truncated: x.size > options.keepBytes,
    remoteAddress: x.remoteAddress,
    durationMs,
  };
}

/** The connect timeout until the connection is up (a reused socket is up at once), then the read timeout. */
function watchTimeouts(req: http.ClientRequest, x: Exchange, options: OutboundOptions, secure: boolean, finish: Finish): void {
  x.timer = setTimeout(() => finish('connect_timeout', `No connection within ${options.connectTimeoutMs} ms.`), options.connectTimeoutMs);
  const connected = () => {
    if (x.settled) return;
    clearTimeout(x.timer);
    const message = `No complete response within ${options.readTimeoutMs} ms of connecting.`;
    x.timer = setTimeout(() => finish('read_timeout', message), options.readTimeoutMs);
  };
  req.on('socket', (socket: Socket) => {
    if (req.reusedSocket || !socket.connecting) connected();
    else socket.once(secure ? 'secureConnect' : 'connect', connected);
  });
}

/** Keeps the first `keepBytes` of the body and stops reading past `maxBytes`. */
function readResponse(res: http.IncomingMessage, x: Exchange, options: OutboundOptions, finish: Finish): void {
  x.statusCode = res.statusCode ?? null;
  x.remoteAddress = res.socket?.remoteAddress ?? null;
  res.on('data', (chunk: Buffer) => {
    if (x.size < options.keepBytes) x.chunks.push(chunk);
    x.size += chunk.length;
    if (x.size > options.maxBytes) {
      finish(null, null);
      res.destroy();
    }
  });
  res.on('end', () => finish(null, null));
  res.on('error', (err) => finish('network_error', err.message));
}
