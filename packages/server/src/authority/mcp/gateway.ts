// The model-context gateway's MCP server: the official SDK's McpServer over its web-standard streamable HTTP
// transport, stateless. Each HTTP request gets a server and a transport of its own, bound to the agent its token
// resolved to, so nothing carries over between requests (no Mcp-Session-Id) and every request is authenticated
// against the grant as it stands then.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import {
  type CallToolResult,
  ErrorCode,
  isJSONRPCRequest,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod/mini';
import type { ServerContext } from '../../infra/context.js';
import { ApiError } from '../../infra/errors.js';
import { jsonOverBudget, validate } from '../../infra/validate.js';
import { GATEWAY_BODY_LIMIT, GATEWAY_INFO } from './bounds.js';
import { agentTools, type AgentPrincipal, type AgentTool } from './tools.js';

const toolNames = new Set(agentTools.map((t) => t.name));

const INSTRUCTIONS =
  'You act for one person (your principal) under a delegation grant with bounds. Call check_authority before every ' +
  'action and act only when it answers allowed. When it answers escalated, wait: poll get_escalation until your ' +
  'principal decides, then call check_authority again with the same action and the escalation_id. A denial names ' +
  'the bound you went beyond; do not act and do not retry it.';

// One JSON Schema validator for every request's server (the SDK would build an Ajv instance per server).
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/** The tool's arguments schema as published: the same fields (and checks), each with its description. */
function publishedInput(tool: AgentTool): z.ZodMiniObject {
  const shape = Object.fromEntries(
    Object.entries(tool.input.shape).map(([key, field]) => {
      const description = tool.describe[key];
      return [key, description ? (field as z.ZodMiniType).check(z.describe(description)) : field];
    }),
  );
  return z.strictObject(shape);
}

/** Structured content, and its JSON as text for clients that read only text (as MCP asks of structured results). */
function toolResult(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/**
 * A refusal as a tool error result: the REST route's error body (`{message, code, errors}`) as text. It carries no
 * `structuredContent`, which clients check against the tool's output schema even on errors.
 */
function toolError(body: { message: string; code?: string }): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}

/** An MCP server whose tools act for `agent`. */
export function gatewayServer(ctx: ServerContext, agent: AgentPrincipal): McpServer {
  const server = new McpServer(GATEWAY_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator });
  for (const tool of agentTools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: publishedInput(tool),
        outputSchema: tool.output,
        annotations: tool.annotations,
      },
      (args: unknown): CallToolResult => {
        try {
          // The REST body's own schema, so object-level rules (value with currency) hold and refusals read alike.
          const input = validate(tool.input, args ?? {}, 'Arguments');
          const result = toolResult(tool.run(ctx, agent, input as never));
          ctx.metrics.increment('mcp.tool_calls_total', { tool: tool.name, result: 'ok' });
          return result;
        } catch (err) {
          ctx.metrics.increment('mcp.tool_calls_total', { tool: tool.name, result: 'error' });
          if (err instanceof ApiError) return toolError(err.toBody());
          console.error('[svc-server] unexpected error in MCP tool', tool.name, err);
          return toolError(new ApiError(500, 'Internal server error.', { code: 'internal_error', cause: err }).toBody());
        }
      },
    );
  }
  return server;
}

/** The error codes the REST API uses for the HTTP statuses the transport answers on its own. */
const transportCodes: Record<number, string> = {
  400: 'invalid_request',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_content_type',
};

/**
 * Gives a transport's own HTTP error (a JSON-RPC error object with a 4xx) the service's `{message, code}` beside
 * its JSON-RPC members, so it reads like every other error of the server and stays a JSON-RPC error for MCP clients.
 */
export async function withErrorBody(res: Response): Promise<Response> {
  if (res.status < 400 || !res.headers.get('content-type')?.includes('application/json')) return res;
  const text = await res.text();
  let body: { error?: { code?: number; message?: string } } & Record<string, unknown>;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return new Response(text, res);
  }
  const message = body.error?.message;
  if (typeof message !== 'string') return new Response(text, res);
  const code = body.error?.code === -32700 ? 'malformed_json' : (transportCodes[res.status] ?? 'mcp_transport_error');
  return new Response(JSON.stringify({ message, code, ...body }), { status: res.status, headers: res.headers });
}

/**
 * A JSON-RPC error response to a message whose id could not be read (JSON-RPC 2.0 §5: the id is then null); a
 * `serviceCode` names the service's own `code` where the status alone would not.
 */
function jsonRpcError(status: number, code: number, message: string, serviceCode?: string): Response {
  return Response.json({ ...(serviceCode ? { code: serviceCode } : {}), jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}

/** The transport's own header checks (406, 415), which it makes before reading the body; those come first here too. */
function transportRefusesHeaders(request: Request): boolean {
  const accept = request.headers.get('accept');
  return (
    !accept?.includes('application/json') ||
    !accept.includes('text/event-stream') ||
    !isJsonContentType(request.headers.get('content-type'))
  );
}

/**
 * Reads the one JSON-RPC message of a POST, or answers why there is none: -32700 for a body that is not JSON,
 * -32600 for a batch (MCP 2025-06-18 removed JSON-RPC batching, and a batch would run several calls for one check
 * of the token) and for a value that is no request, notification or response (JSON-RPC 2.0 §5.1).
 */
async function readMessage(request: Request): Promise<{ message: JSONRPCMessage } | { refusal: Response }> {
  const text = await request.text();
  // The REST API's cap on JSON work: a message's structure is counted before it is parsed.
  const over = jsonOverBudget(text);
  if (over) return { refusal: jsonRpcError(400, ErrorCode.InvalidRequest, `Invalid Request: the message ${over}.`, 'body_too_complex') };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { refusal: jsonRpcError(400, ErrorCode.ParseError, 'Parse error: Invalid JSON') };
  }
  if (Array.isArray(value)) {
    const message = 'Invalid Request: batches are not accepted (MCP 2025-06-18); POST one JSON-RPC message per request.';
    return { refusal: jsonRpcError(400, ErrorCode.InvalidRequest, message) };
  }
  let parsed: ReturnType<typeof JSONRPCMessageSchema.safeParse> | undefined;
  try {
    parsed = JSONRPCMessageSchema.safeParse(value);
  } catch {
    // A value nested too deep for the validator is no message either.
  }
  if (parsed?.success) return { message: parsed.data };
  const message = 'Invalid Request: the body is not a JSON-RPC 2.0 request, notification or response.';
  return { refusal: jsonRpcError(400, ErrorCode.InvalidRequest, message) };
}

/**
 * Answers a call of a tool the gateway does not have with JSON-RPC error -32602 (MCP 2025-06-18, tools: "Unknown
 * tools"), where the SDK would answer a tool result with `isError`. Every other message goes on to the server.
 */
function refuseUnknownTools(transport: WebStandardStreamableHTTPServerTransport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const name = isJSONRPCRequest(message) && message.method === 'tools/call' ? message.params?.name : undefined;
    if (name === undefined || (typeof name === 'string' && toolNames.has(name))) return deliver?.(message, extra);
    const id = (message as { id: string | number }).id;
    const error = { code: ErrorCode.InvalidParams, message: `Unknown tool: ${String(name)}` };
    transport.send({ jsonrpc: '2.0', id, error }).catch((err: unknown) => transport.onerror?.(err as Error));
  };
}

/** Answers one HTTP request of the streamable HTTP transport for `agent`, with a server and transport of its own. */
export async function handleGatewayRequest(ctx: ServerContext, agent: AgentPrincipal, request: Request): Promise<Response> {
  let parsedBody: JSONRPCMessage | undefined;
  if (request.method === 'POST' && !transportRefusesHeaders(request)) {
    const read = await readMessage(request);
    if ('refusal' in read) return withErrorBody(read.refusal);
    parsedBody = read.message;
  }
  const server = gatewayServer(ctx, agent);
  // Stateless (no session id generator), JSON answers instead of SSE streams: each request is answered whole.
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true, maxRequestBodySize: GATEWAY_BODY_LIMIT });
  await server.connect(transport);
  refuseUnknownTools(transport);
  try {
    return await withErrorBody(await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody }));
  } finally {
    await server.close();
  }
}
