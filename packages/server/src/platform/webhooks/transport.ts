// One HTTP POST of a delivery, with the spec's two acknowledgement limits kept apart: `connectTimeoutMs` runs from
// the start of the request until the connection is up (DNS, TCP, TLS); `readTimeoutMs` runs from then until the
// whole response (status, headers, body) has arrived. Both are wall-clock time, not the test clock: a socket does
// not know about the test clock. Redirects are not followed.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';

/** Why an attempt got no usable answer. */
export type TransportError = 'connect_timeout' | 'read_timeout' | 'network_error' | 'interrupted';

/** What one POST produced: a status code, or an error. */
export interface PostResult {
  statusCode: number | null;
  error: TransportError | null;
  errorMessage: string | null;
  /** The first 1 KiB of the response body, as text. */
  responseBody: string | null;
  durationMs: number;
}

/** Options of {@link postDelivery}. */
export interface PostOptions {
  connectTimeoutMs: number;
  readTimeoutMs: number;
  /** Aborting it ends the attempt as `interrupted` (the server is shutting down). */
  signal?: AbortSignal;
  /** Keep-alive agents; a fresh connection per request without them. */
  agents?: { http: http.Agent; https: https.Agent };
  /** DNS lookup override (tests use one that never answers to exercise the connect timeout). */
  lookup?: LookupFunction;
}

const KEEP_BODY = 1024;
const MAX_BODY = 64 * 1024;

/** Keep-alive agents for the worker; destroy them when it stops. */
export function createAgents(maxSockets = 64): { http: http.Agent; https: https.Agent } {
  return {
    http: new http.Agent({ keepAlive: true, maxSockets }),
    https: new https.Agent({ keepAlive: true, maxSockets }),
  };
}

/** POSTs `body` to `url` once and reports what happened; never rejects. */
export async function postDelivery(url: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const first = await postOnce(url, body, headers, options, false);
  // A kept-alive socket the receiver closed while idle fails on reuse before any byte is answered; that is not the
  // receiver's failure, so try once more on a new connection (the pattern Node's documentation recommends).
  if (first.retryFresh) return (await postOnce(url, body, headers, options, true)).result;
  return first.result;
}

function postOnce(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
  fresh: boolean,
): Promise<{ result: PostResult; retryFresh: boolean }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let statusCode: number | null = null;
    let kept = '';

    const finish = (result: Omit<PostResult, 'durationMs' | 'statusCode' | 'responseBody'> & { retryFresh?: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (result.error) req.destroy();
      resolve({
        result: {
          statusCode,
          error: result.error,
          errorMessage: result.errorMessage,
          responseBody: statusCode === null ? null : kept,
          durationMs: Math.round(performance.now() - started),
        },
        retryFresh: result.retryFresh ?? false,
      });
    };
    const onAbort = () => finish({ error: 'interrupted', errorMessage: 'The server stopped during the attempt.' });

    const agent = fresh || !options.agents ? false : secure ? options.agents.https : options.agents.http;
    const req = (secure ? https : http).request(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'svc-webhooks/1' },
      agent,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });

    timer = setTimeout(
      () => finish({ error: 'connect_timeout', errorMessage: `No connection within ${options.connectTimeoutMs} ms.` }),
      options.connectTimeoutMs,
    );
    const connected = () => {
      if (settled) return;
      clearTimeout(timer);
      timer = setTimeout(
        () => finish({ error: 'read_timeout', errorMessage: `No complete response within ${options.readTimeoutMs} ms of connecting.` }),
        options.readTimeoutMs,
      );
    };
    req.on('socket', (socket: Socket) => {
      if (req.reusedSocket || !socket.connecting) connected();
      else socket.once(secure ? 'secureConnect' : 'connect', connected);
    });

    req.on('response', (res) => {
      statusCode = res.statusCode ?? null;
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (kept.length < KEEP_BODY) kept += chunk.toString('utf8').slice(0, KEEP_BODY - kept.length);
        size += chunk.length;
        // Enough read to know the answer; a huge body must not hold the worker.
        if (size > MAX_BODY) {
          finish({ error: null, errorMessage: null });
          res.destroy();
        }
      });
      res.on('end', () => finish({ error: null, errorMessage: null }));
      res.on('error', (err) => finish({ error: 'network_error', errorMessage: err.message }));
    });

    req.on('error', (err: NodeJS.ErrnoException) => {
      const stale = !fresh && req.reusedSocket && statusCode === null && err.code === 'ECONNRESET';
      finish({ error: 'network_error', errorMessage: `${err.code ?? 'error'}: ${err.message}`, retryFresh: stale });
    });

    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    req.end(body);
  });
}
