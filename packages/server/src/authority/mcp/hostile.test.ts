// Malformed and hostile requests to the model-context gateway: each gets its 4xx with a `{message, code}` body (a
// transport error keeps its JSON-RPC error beside them), never a 5xx.
import { describeHostile, type HostileCase } from '../../hostile-cases.js';
import { agentToken, grant, newAgent, signIn } from '../delegations/test-support.js';

const PATH = '/mcp/v1/agent';
const agent = { authorization: 'Bearer {{agent_token}}' };
const mcp = { ...agent, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'h', version: '1' } },
};

const cases: HostileCase[] = [
  // Credentials
  {
    name: 'no credentials',
    method: 'POST',
    path: PATH,
    headers: { ...mcp, authorization: null },
    json: initialize,
    status: 401,
    code: 'unauthorized',
  },
  {
    name: 'an API token',
    method: 'POST',
    path: PATH,
    headers: { ...mcp, authorization: 'Bearer {{admin}}' },
    json: initialize,
    status: 401,
    code: 'invalid_token',
  },
  {
    name: 'a forged agent token',
    method: 'POST',
    path: PATH,
    headers: { ...mcp, authorization: 'Bearer ra_agent_forged' },
    json: initialize,
    status: 401,
    code: 'invalid_token',
  },
  {
    name: 'an agent token of 5000 characters',
    method: 'POST',
    path: PATH,
    headers: { ...mcp, authorization: `Bearer ra_agent_${'a'.repeat(5000)}` },
    json: initialize,
    status: 401,
  },
  {
    name: 'bearer without a token',
    method: 'POST',
    path: PATH,
    headers: { ...mcp, authorization: 'Bearer ' },
    json: initialize,
    status: 401,
  },
  {
    name: 'two authorization headers',
    method: 'POST',
    path: PATH,
    headers: { ...mcp, authorization: ['Bearer {{agent_token}}', 'Bearer {{admin}}'] },
    json: initialize,
    status: 401,
  },
  {
    name: 'a publishable key',
    method: 'POST',
    path: PATH,
    headers: { ...mcp, authorization: null, 'x-publishable-key': '{{pk}}' },
    json: initialize,
    status: 403,
    code: 'publishable_key_not_allowed',
  },
  {
    name: 'agent token from a page of another origin',
    method: 'POST',
    path: PATH,
    headers: { ...mcp, origin: 'https://evil.example' },
    json: initialize,
    status: 403,
    code: 'origin_not_allowed',
  },
  {
    name: 'origin null',
    method: 'POST',
    path: PATH,
    headers: { ...mcp, origin: 'null' },
    json: initialize,
    status: 403,
    code: 'origin_not_allowed',
  },
  // Methods
  {
    name: 'GET of the stream without text/event-stream in Accept',
    path: PATH,
    headers: { ...agent, accept: 'application/json' },
    status: 406,
    code: 'not_acceptable',
  },
  {
    name: 'GET of the stream with an API token',
    path: PATH,
    headers: { accept: 'text/event-stream', authorization: 'Bearer {{admin}}' },
    status: 401,
    code: 'invalid_token',
  },
  {
    name: 'GET of the stream with an unsupported protocol version header',
    path: PATH,
    headers: { ...agent, accept: 'text/event-stream', 'mcp-protocol-version': '1999-01-01' },
    status: 400,
  },
  { name: 'DELETE (no session)', method: 'DELETE', path: PATH, headers: agent, status: 405, code: 'method_not_allowed' },
  { name: 'PUT', method: 'PUT', path: PATH, headers: mcp, json: initialize, status: 405, code: 'method_not_allowed' },
  // Bodies
  { name: 'truncated JSON', method: 'POST', path: PATH, headers: mcp, body: '{"jsonrpc":', status: 400, code: 'malformed_json' },
  { name: 'empty body', method: 'POST', path: PATH, headers: mcp, body: '', status: 400 },
  { name: 'not JSON-RPC', method: 'POST', path: PATH, headers: mcp, json: { hello: 'world' }, status: 400, code: 'invalid_request' },
  { name: 'a batch', method: 'POST', path: PATH, headers: mcp, json: [initialize, initialize], status: 400, code: 'invalid_request' },
  {
    name: 'text/plain',
    method: 'POST',
    path: PATH,
    headers: { ...mcp, 'content-type': 'text/plain' },
    body: JSON.stringify(initialize),
    status: 415,
    code: 'unsupported_content_type',
  },
  {
    name: 'accepts only JSON',
    method: 'POST',
    path: PATH,
    headers: { ...mcp, accept: 'application/json' },
    json: initialize,
    status: 406,
    code: 'not_acceptable',
  },
  {
    name: 'unsupported protocol version header',
    method: 'POST',
    path: PATH,
    headers: { ...mcp, 'mcp-protocol-version': '1999-01-01' },
    json: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    status: 400,
  },
  {
    name: 'body over 1 MiB',
    method: 'POST',
    path: PATH,
    headers: mcp,
    body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"${'x'.repeat(1024 * 1024)}"}}`,
    status: 413,
    code: 'payload_too_large',
  },
  {
    name: 'deeply nested params',
    method: 'POST',
    path: PATH,
    headers: mcp,
    body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    status: 400,
  },
];

describeHostile('hostile requests: the model-context gateway', cases, async (server) => {
  const ada = await signIn(server, 'ada@example.com');
  const a = await newAgent(server, 'Hostile gateway agent');
  const g = await grant(server, ada, a.id, { delegation_type: 'ai_agent', delegated_scopes: ['payments:write'] });
  return { agent_token: await agentToken(server, g.id, a) };
});
