// The model-context gateway over HTTP: `/mcp/v1/agent` (MCP streamable HTTP, agent tokens only), its OAuth 2.0
// Protected Resource Metadata (RFC 9728) at `/.well-known/oauth-protected-resource/mcp/v1/agent`, which MCP's
// authorization rules point clients to, and `/.well-known/mcp-configuration`, which describes the gateway. POST takes
// one JSON-RPC message; GET opens the server-to-client event stream (./stream.ts); DELETE has no session to end (405).
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { ACCESS_TOKEN_TYPE, DELEGATION_GRANT_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT_TYPE } from '@svc/schemas';
import type { Context } from 'hono';
import { z } from 'zod/mini';
import { route, routes } from '../../infra/http/route.js';
import { AGENT_TOKEN_PREFIX, invalidTokenChallenge } from '../../infra/auth.js';
import { limitBody } from '../../infra/body-limit.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { ApiError, errorResponse, forbidden } from '../../infra/errors.js';
import { GATEWAY_BODY_LIMIT, GATEWAY_INFO, MAX_STREAMS_PER_AGENT } from './bounds.js';
import { agentToolNames, type AgentPrincipal } from './tools.js';
import { resolveAgentToken } from '../delegations/tokens.js';

/** The gateway's endpoint. */
export const MCP_PATH = '/mcp/v1/agent';
/** Its protected resource metadata (RFC 9728: the well-known prefix before the resource's path). */
export const RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${MCP_PATH}`;
/** The gateway's description. */
export const MCP_CONFIGURATION_PATH = '/.well-known/mcp-configuration';
/** Where an agent's client exchanges a delegation grant for an agent token (RFC 8693). */
const TOKEN_EXCHANGE_PATH = '/oauth/token/exchange';

/**
 * The resource's scopes: none that this resource defines. An agent token carries its grant's delegated scopes,
 * which each organisation names for its own API (`payments:write`); a public document cannot list them without
 * telling one account's vocabulary to everyone, and the gateway asks for no scope of its own: every tool is open to
 * every agent token, and `check_authority` holds each action against the token's scopes.
 */
export const GATEWAY_SCOPES: string[] = [];

/** RFC 9728 metadata of the gateway. */
export function resourceMetadata(ctx: Pick<ServerContext, 'baseUrl'>) {
  return {
    resource: `${ctx.baseUrl}${MCP_PATH}`,
    authorization_servers: [ctx.baseUrl],
    bearer_methods_supported: ['header'],
    scopes_supported: GATEWAY_SCOPES,
    resource_name: GATEWAY_INFO.title,
  };
}

/** The gateway's description at `/.well-known/mcp-configuration`. */
export function mcpConfiguration(ctx: Pick<ServerContext, 'baseUrl'>) {
  return {
    name: GATEWAY_INFO.name,
    title: GATEWAY_INFO.title,
    version: GATEWAY_INFO.version,
    endpoint: `${ctx.baseUrl}${MCP_PATH}`,
    transport: 'streamable-http',
    // No Mcp-Session-Id: every POST stands alone; GET opens the event stream; DELETE (ending a session) answers 405.
    stateless: true,
    methods: ['POST', 'GET'],
    protocol_versions_supported: [...SUPPORTED_PROTOCOL_VERSIONS],
    latest_protocol_version: LATEST_PROTOCOL_VERSION,
    auth: {
      type: 'bearer',
      bearer_methods_supported: ['header'],
      token: 'agent_token',
      token_prefix: AGENT_TOKEN_PREFIX,
      token_endpoint: `${ctx.baseUrl}${TOKEN_EXCHANGE_PATH}`,
      grant_type: TOKEN_EXCHANGE_GRANT_TYPE,
      subject_token_type: DELEGATION_GRANT_TOKEN_TYPE,
      issued_token_type: ACCESS_TOKEN_TYPE,
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      authorization_servers: [ctx.baseUrl],
      resource_metadata: `${ctx.baseUrl}${RESOURCE_METADATA_PATH}`,
      scopes: "The delegation grant's delegated scopes; the exchange's scope parameter may narrow them.",
    },
    tools: agentToolNames(),
  };
}

/** The challenge of every 401 (MCP authorization: it points the client to the resource metadata, RFC 9728 §5.1). */
const challenge = (ctx: ServerContext) => `Bearer resource_metadata="${ctx.baseUrl}${RESOURCE_METADATA_PATH}"`;

const AGENT_TOKEN_ONLY = `The model-context gateway accepts only an agent token: "Authorization: Bearer ${AGENT_TOKEN_PREFIX}…", from POST ${TOKEN_EXCHANGE_PATH} of a delegation grant.`;

/**
 * The agent of the request's token, with the REST API's own resolver (the token, its grant and every grant above it,
 * the agent, its client). Anything but an agent token is a 401 here: API tokens and a person's access tokens are
 * not looked up at all, so the answer says nothing about them.
 */
function agentOf(ctx: ServerContext, authorization: string | undefined): AgentPrincipal {
  if (authorization === undefined) throw new ApiError(401, `Authentication is required. ${AGENT_TOKEN_ONLY}`, 'unauthorized');
  const token = /^Bearer ([\x21-\x7e]{1,512})$/.exec(authorization)?.[1];
  if (!token) throw new ApiError(401, `Authorization must be "Bearer <agent token>". ${AGENT_TOKEN_ONLY}`, 'unauthorized');
  if (!token.startsWith(AGENT_TOKEN_PREFIX))
    throw new ApiError(401, `The bearer token is not an agent token. ${AGENT_TOKEN_ONLY}`, 'invalid_token');
  const principal = resolveAgentToken(ctx, token); // 401 invalid_token (unknown, expired, revoked), 403 (suspended)
  if (principal.kind !== 'agent') throw new ApiError(401, AGENT_TOKEN_ONLY, 'invalid_token');
  return principal;
}

/** MCP's transport rules: an `Origin` other than the server's own is refused (DNS rebinding). */
function checkOrigin(ctx: ServerContext, c: Context<Env>): void {
  const origin = c.req.header('origin');
  if (origin !== undefined && origin !== new URL(ctx.baseUrl).origin) {
    throw forbidden(
      "An agent token is a server's credential: the model-context gateway answers no browser page of another origin.",
      'origin_not_allowed',
    );
  }
}

// ---- What the document says of the gateway and its two discovery documents

/** The JSON-RPC 2.0 response to a request (one message per POST; MCP's streamable HTTP takes no batches). */
/** One JSON-RPC request or notification, as the document describes it (the transport parses it itself). */
const jsonRpcMessage = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.optional(z.union([z.string(), z.number()])),
  method: z.string(),
  params: z.optional(z.record(z.string(), z.unknown())),
});
const jsonRpcResponse = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]),
  result: z.optional(z.record(z.string(), z.unknown())),
  error: z.optional(z.object({ code: z.int(), message: z.string(), data: z.optional(z.unknown()) })),
});

const resourceMetadataSchema = z.object({
  resource: z.string(),
  authorization_servers: z.array(z.string()),
  bearer_methods_supported: z.array(z.literal('header')),
  scopes_supported: z.array(z.string()),
  resource_name: z.string(),
});

const mcpConfigurationSchema = z.object({
  name: z.string(),
  title: z.string(),
  version: z.string(),
  endpoint: z.string(),
  transport: z.literal('streamable-http'),
  stateless: z.boolean(),
  methods: z.array(z.string()),
  protocol_versions_supported: z.array(z.string()),
  latest_protocol_version: z.string(),
  auth: z.object({
    type: z.literal('bearer'),
    bearer_methods_supported: z.array(z.string()),
    token: z.literal('agent_token'),
    token_prefix: z.string(),
    token_endpoint: z.string(),
    grant_type: z.string(),
    subject_token_type: z.string(),
    issued_token_type: z.string(),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    authorization_servers: z.array(z.string()),
    resource_metadata: z.string(),
    scopes: z.string(),
  }),
  tools: z.array(z.string()),
});

const tag = 'Model-context gateway';

/**
 * One answer for every method: the gateway's own credential check (an agent token, MCP's challenge on a 401), then
 * POST (the MCP transport answers from the raw request), GET (the event stream), or a 405 naming those two.
 */
async function gateway(ctx: ServerContext, c: Context<Env>): Promise<Response> {
  checkOrigin(ctx, c);
  // As on every API route that does not list it: a browser's key is refused whatever else the request carries.
  if (c.req.header('x-publishable-key') !== undefined) {
    throw forbidden(
      'A publishable key cannot call the model-context gateway: an agent calls it with its agent token.',
      'publishable_key_not_allowed',
    );
  }
  const authorization = c.req.header('authorization');
  let agent: AgentPrincipal;
  try {
    agent = agentOf(ctx, authorization);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) throw err;
    // A bearer token was sent and refused: RFC 6750's invalid_token beside the metadata; else the bare challenge.
    const sentBearer = authorization !== undefined && /^Bearer(\s|$)/i.test(authorization);
    return errorResponse(c, err, { 'WWW-Authenticate': sentBearer ? invalidTokenChallenge(err.message, challenge(ctx)) : challenge(ctx) });
  }
  // The SDK's server and transport load on the gateway's first request, not with every start of the service.
  const { handleGatewayRequest, withErrorBody } = await import('./gateway.js');
  if (c.req.method === 'GET') return (await import('./stream.js')).openGatewayStream(ctx, agent, c.req.raw, withErrorBody);
  if (c.req.method !== 'POST') {
    return errorResponse(
      c,
      new ApiError(
        405,
        `${c.req.method} is not served: the gateway is stateless (no session to end); POST each JSON-RPC message to ${MCP_PATH}, GET it for the event stream.`,
        'method_not_allowed',
      ),
      { Allow: 'GET, POST' },
    );
  }
  return handleGatewayRequest(ctx, agent, c.req.raw);
}

/** The gateway, its resource metadata and its configuration document. */
export const mcpRoutes = routes((app, ctx) => {
  // The transport reads the body itself (JSON-RPC errors for malformed JSON, responses and notifications posted
  // back): the router neither parses nor validates it.
  route(
    app,
    {
      method: 'post',
      path: MCP_PATH,
      tag,
      summary:
        'MCP streamable HTTP (stateless, JSON answers): one JSON-RPC message per POST with an agent token (401 with WWW-Authenticate: Bearer resource_metadata=… without one); DELETE answers 405',
      auth: ['agent_token'],
      rawBody: jsonRpcMessage,
      middleware: [limitBody(GATEWAY_BODY_LIMIT)],
      response: { status: 200, description: 'The JSON-RPC response', schema: jsonRpcResponse },
      alsoResponds: [{ status: 202, description: 'Accepted, no body: the message was a notification or a response' }],
      errors: [400, 405, 406, 413, 415],
    },
    (c) => gateway(ctx, c),
  );
  route(
    app,
    {
      method: 'get',
      path: MCP_PATH,
      tag,
      summary: `MCP streamable HTTP's server-to-client stream (Accept: text/event-stream) for an agent token: keep-alive comments only (the gateway sends no request or notification of its own), one per token (409 stream_already_open), at most ${MAX_STREAMS_PER_AGENT} per agent across its tokens (429 too_many_streams, Retry-After: when the server ends one of them), closed by the server when the token expires, when its grant is revoked, or after 10 minutes (reconnect)`,
      auth: ['agent_token'],
      response: { status: 200, description: 'A text/event-stream held open' },
      errors: [400, 406, 409, 429],
    },
    (c) => gateway(ctx, c),
  );
  app.all(MCP_PATH, limitBody(GATEWAY_BODY_LIMIT), (c) => gateway(ctx, c));

  route(
    app,
    {
      method: 'get',
      path: RESOURCE_METADATA_PATH,
      tag,
      auth: [],
      summary: 'OAuth 2.0 Protected Resource Metadata (RFC 9728) of the model-context gateway',
      response: { status: 200, description: 'The metadata', schema: resourceMetadataSchema },
    },
    (c) => {
      c.header('Cache-Control', 'public, max-age=300');
      return c.json(resourceMetadata(ctx));
    },
  );

  route(
    app,
    {
      method: 'get',
      path: MCP_CONFIGURATION_PATH,
      tag,
      auth: [],
      summary: 'The model-context gateway: endpoint, transport, protocol versions, how to get an agent token, tool names',
      response: { status: 200, description: 'The configuration', schema: mcpConfigurationSchema },
    },
    (c) => {
      c.header('Cache-Control', 'public, max-age=300');
      return c.json(mcpConfiguration(ctx));
    },
  );
});
