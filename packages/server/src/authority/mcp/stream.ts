// The gateway's server-to-client stream: GET of MCP's streamable HTTP (2025-06-18), which the official SDK's
// transport serves in stateless mode too. The gateway sends no request or notification of its own (every tool
// answers in its POST, and the tool list never changes), so the stream carries the transport's keep-alive comments
// only; it is served so that a client that listens, as the transport lets it, gets a stream rather than an error.
//
// It is held open for an agent token alone, bounded: one stream per token at a time (409 for another), closed when
// the token expires or after ten minutes (MCP lets the server close it at any time; the client opens it again, and
// the token is checked again then), when the client goes, and when the server stops.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ServerContext } from '../../infra/context.js';
import { ApiError } from '../../infra/errors.js';
import { onClose } from '../../infra/lifecycle.js';
import type { AgentPrincipal } from './tools.js';

/** The longest a stream stays open before the server closes it (the client reconnects, with its token checked). */
export const STREAM_MAX_MS = 10 * 60_000;

/** Each server's open streams by agent token id, with what ends each. */
const servers = new WeakMap<ServerContext, Map<string, () => void>>();

function openStreams(ctx: ServerContext): Map<string, () => void> {
  let open = servers.get(ctx);
  if (!open) {
    const streams = new Map<string, () => void>();
    open = streams;
    servers.set(ctx, streams);
    // An open stream would hold the HTTP server's close() open for ever.
    onClose(ctx, () => {
      for (const end of [...streams.values()]) end();
    });
  }
  return open;
}

/** The number of streams open on `ctx` (tests). */
export const openStreamCount = (ctx: ServerContext): number => servers.get(ctx)?.size ?? 0;

/** `body` as a stream that calls `onEnd` once, whether the source ends or the client cancels (goes away). */
function untilEnd(body: ReadableStream<Uint8Array>, onEnd: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (!done) return controller.enqueue(value);
      controller.close();
      onEnd();
    },
    cancel(reason) {
      onEnd();
      return reader.cancel(reason);
    },
  });
}

/**
 * Answers an authenticated GET: the transport's own checks (406 without `text/event-stream` in Accept, 400 for an
 * unsupported `MCP-Protocol-Version`), then the stream. `refine` gives a transport error the service's body.
 */
export async function openGatewayStream(
  ctx: ServerContext,
  agent: AgentPrincipal,
  request: Request,
  refine: (res: Response) => Promise<Response>,
): Promise<Response> {
  const open = openStreams(ctx);
  if (open.has(agent.tokenId)) {
    throw new ApiError(
      409,
      'A stream is already open for this agent token: close it before opening another (one stream per token).',
      'stream_already_open',
    );
  }
  const transport = new WebStandardStreamableHTTPServerTransport({});
  let timer: NodeJS.Timeout | undefined;
  const end = () => {
    if (open.get(agent.tokenId) !== end) return;
    open.delete(agent.tokenId);
    clearTimeout(timer);
    void transport.close();
  };
  open.set(agent.tokenId, end); // before the await below, so a second GET racing this one is refused
  const res = await transport.handleRequest(request);
  if (!res.ok || !res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
    end();
    return refine(res);
  }
  const lifetime = Math.min(STREAM_MAX_MS, Date.parse(agent.expiresAt) - ctx.clock.now());
  timer = setTimeout(end, Math.max(0, lifetime));
  timer.unref();
  return new Response(untilEnd(res.body, end), { status: res.status, headers: res.headers });
}
