import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Env } from './context.js';
import { ApiError } from './errors.js';

/**
 * An HTTP/1.x request that @hono/node-server parsed: without Content-Length or Transfer-Encoding its body is empty
 * (RFC 9112, 6.3). A Request made in process (tests) may carry a body without either, so it is not one of these.
 */
function framedByNode(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming !== undefined && incoming.httpVersionMajor === 1;
}

/**
 * Hono's `bodyLimit`, but deciding from `Content-Length` alone when the request has one: on @hono/node-server,
 * touching `c.req.raw.body` (as `bodyLimit` does first) switches the request to web streams, which costs about
 * eight times the throughput of a small POST. Streams are only read for bodies without a declared length; an
 * HTTP/1 request with neither header (a GET) has no body, so nothing is read for it either.
 */
export function limitBody(maxSize: number): MiddlewareHandler<Env> {
  const tooLarge = (c: Context): never => {
    // The rest of the body is never read, so the connection cannot carry another request.
    c.header('Connection', 'close');
    throw new ApiError(413, 'Request body is too large.', 'payload_too_large');
  };
  const streamed = bodyLimit({ maxSize, onError: tooLarge });
  return async (c, next) => {
    const length = c.req.header('content-length');
    if (c.req.header('transfer-encoding') === undefined) {
      if (length !== undefined) {
        if (!/^\d{1,15}$/.test(length) || Number(length) > maxSize) tooLarge(c);
        return next();
      }
      if (framedByNode(c)) return next();
    }
    return streamed(c, next);
  };
}
