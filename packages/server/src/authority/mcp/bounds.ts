// The gateway's name and bounds, apart from the MCP SDK: the routes, the OpenAPI document and the discovery
// documents read them without loading the SDK, which is imported on the gateway's first request.

/** How the gateway introduces itself in `initialize`. */
export const GATEWAY_INFO = { name: 'svc-agent-gateway', title: 'svc model-context gateway', version: '1.0.0' } as const;

/** The largest JSON-RPC message the gateway reads (the REST API's default body limit). */
export const GATEWAY_BODY_LIMIT = 1024 * 1024;

/** The longest a stream stays open before the server closes it (the client reconnects, with its token checked). */
export const STREAM_MAX_MS = 10 * 60_000;

/**
 * The most streams one agent holds open at once, across all its tokens: each token has one, and an agent could
 * otherwise exchange its grants for as many tokens (and held connections) as it likes.
 */
export const MAX_STREAMS_PER_AGENT = 5;
