// The gateway's server-to-client stream: GET of MCP's streamable HTTP (2025-06-18), which the official SDK's
// transport serves in stateless mode too. The gateway sends no request or notification of its own (every tool
// answers in its POST, and the tool list never changes), so the stream carries the transport's keep-alive comments
// only; it is served so that a client that listens, as the transport lets it, gets a stream rather than an error.
//
// It is held open for an agent token alone, bounded: one stream per token at a time (409 for another), at most
// MAX_STREAMS_PER_AGENT per agent across all its tokens (429), closed when the token expires, when its grant (or one
// above it) is revoked, or after ten minutes (MCP lets the server close it at any time; the client opens it again,
// and the token is checked again then), when the client goes, and when the server stops.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ServerContext } from '../../infra/context.js';
import { ApiError, tooManyRequests } from '../../infra/errors.js';
import type { DomainEvent } from '../../infra/events.js';
import { onClose } from '../../infra/lifecycle.js';
import { MAX_STREAMS_PER_AGENT, STREAM_MAX_MS } from './bounds.js';
import type { AgentPrincipal } from './tools.js';

/** An open stream: whose it is, when the server will close it, and what ends it. */
interface OpenStream {
  agentId: string;
  grantId: string;
  closesAt: number;
  end: () => void;
}

/** Each server's open streams by agent token id. */
const servers = new WeakMap<ServerContext, Map<string, OpenStream>>();

function openStreams(ctx: ServerContext): Map<string, OpenStream> {
  let open = servers.get(ctx);
  if (!open) {
    const streams = new Map<string, OpenStream>();
    open = streams;
    servers.set(ctx, streams);
    // An open stream would hold the HTTP server's close() open for ever.
    onClose(ctx, () => {
      for (const { end } of [...streams.values()]) end();
    });
    // A revoked grant stops its tokens (and those of every grant under it) at once: their streams too, rather than
    // at their next reconnection. Closing is always safe: a client whose token still stands opens a stream again.
    ctx.events.on('delegation.revoked', (_ctx, event) => endRevoked(streams, event));
  }
  return open;
}

/** Ends the streams of the grants a `delegation.revoked` event names. */
function endRevoked(streams: Map<string, OpenStream>, event: DomainEvent): void {
  const { delegation_grant_id: grantId, revoked_descendants: descendants } = event.data as {
    delegation_grant_id: string;
    revoked_descendants?: string[];
  };
  const revoked = new Set([grantId, ...(descendants ?? [])]);
  for (const stream of [...streams.values()]) if (revoked.has(stream.grantId)) stream.end();
}

/** 409 for a second stream of the same token; 429 (with `Retry-After`: the soonest the server ends one) past the agent's cap. */
function refuseBeyondBounds(ctx: ServerContext, open: Map<string, OpenStream>, agent: AgentPrincipal): void {
  if (open.has(agent.tokenId)) {
    throw new ApiError(
      409,
      'A stream is already open for this agent token: close it before opening another (one stream per token).',
      'stream_already_open',
    );
  }
  const held = [...open.values()].filter((s) => s.agentId === agent.agentId);
  if (held.length < MAX_STREAMS_PER_AGENT) return;
  const soonest = Math.min(...held.map((s) => s.closesAt)) - ctx.clock.now();
  const message = `This agent has ${held.length} event streams open, the most it may (${MAX_STREAMS_PER_AGENT} across all its tokens): close one before opening another.`;
  throw new ApiError(429, message, { code: 'too_many_streams', headers: tooManyRequests(message, soonest).headers });
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
  refuseBeyondBounds(ctx, open, agent);
  const transport = new WebStandardStreamableHTTPServerTransport({});
  let timer: NodeJS.Timeout | undefined;
  const lifetime = Math.max(0, Math.min(STREAM_MAX_MS, Date.parse(agent.expiresAt) - ctx.clock.now()));
  const stream: OpenStream = { agentId: agent.agentId, grantId: agent.grantId, closesAt: ctx.clock.now() + lifetime, end: () => {} };
  stream.end = () => {
    if (open.get(agent.tokenId) !== stream) return;
    open.delete(agent.tokenId);
    clearTimeout(timer);
    void transport.close();
  };
  open.set(agent.tokenId, stream); // before the await below, so a second GET racing this one is refused
  const res = await transport.handleRequest(request);
  if (!res.ok || !res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
    stream.end();
    return refine(res);
  }
  timer = setTimeout(stream.end, lifetime);
  timer.unref();
  return new Response(untilEnd(res.body, stream.end), { status: res.status, headers: res.headers });
}
