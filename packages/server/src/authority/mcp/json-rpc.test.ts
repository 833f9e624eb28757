// The gateway as a raw JSON-RPC 2.0 peer sees it, without an SDK in between: the error codes JSON-RPC 2.0 §5.1 and
// MCP 2025-06-18 name (unknown tool -32602, not a Request object -32600) and no batches (MCP 2025-06-18 removed
// JSON-RPC batching), each a JSON-RPC error object beside the service's {message, code}.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer, type TestServer } from '../../testing.js';
import { agentToken, grant, newAgent, signIn, type Json } from '../delegations/test-support.js';

let server: TestServer;
let token: string;
before(async () => {
  server = await startTestServer();
  const ada = await signIn(server, 'ada@example.com');
  const agent = await newAgent(server, 'JSON-RPC agent');
  const g = await grant(server, ada, agent.id, { delegation_type: 'ai_agent', delegated_scopes: ['payments:write'] });
  token = await agentToken(server, g.id, agent);
});
after(() => server.dispose());

/** POSTs `body` (a JSON text) to the gateway as an MCP client would, and answers the status and the parsed body. */
async function post(body: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${server.url}/mcp/v1/agent`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
}

/** Asserts a JSON-RPC error response with `code` and id null (JSON-RPC 2.0 §5: the id could not be read). */
function invalidRequest(answer: { status: number; body: Json }, what: string) {
  assert.equal(answer.status, 400, what);
  assert.equal(answer.body.jsonrpc, '2.0', what);
  assert.equal(answer.body.id, null, what);
  assert.equal(answer.body.error?.code, -32600, `${what}: ${JSON.stringify(answer.body)}`);
  assert.equal(answer.body.code, 'invalid_request', what);
  assert.equal(answer.body.message, answer.body.error.message, what);
}

describe('JSON-RPC 2.0 error codes of the gateway (MCP 2025-06-18)', () => {
  it('answers a call of an unknown tool with error -32602 Invalid params, not a tool result (MCP 2025-06-18 tools: error handling)', async () => {
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'launch_rockets', arguments: {} } };
    const { status, body } = await post(JSON.stringify(call));
    assert.equal(status, 200);
    assert.equal(body.id, 7);
    assert.equal(body.result, undefined, 'no result: an error object');
    assert.equal(body.error?.code, -32602, JSON.stringify(body));
    assert.match(body.error.message, /Unknown tool: launch_rockets/);
    const known = await post(JSON.stringify({ ...call, params: { name: 'whoami', arguments: {} } }));
    assert.equal(known.body.error, undefined, 'control: a known tool answers a result');
    assert.ok(known.body.result.structuredContent);
  });

  it('answers a JSON value that is not a Request object with error -32600 Invalid Request (JSON-RPC 2.0 §5.1)', async () => {
    const bodies = [
      '{"jsonrpc":"2.0"}',
      '42',
      '"ping"',
      'null',
      '{}',
      '{"jsonrpc":"1.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","id":1,"method":5}',
      '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
    ];
    for (const body of bodies) invalidRequest(await post(body), body);
  });

  it('refuses a batch (a JSON array) with -32600 and runs none of its messages (MCP 2025-06-18 removed JSON-RPC batching)', async () => {
    const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
    invalidRequest(await post(JSON.stringify([ping(1), ping(2)])), 'a batch of requests');
    invalidRequest(await post(JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/initialized' }])), 'a batch of one notification');
    invalidRequest(await post('[]'), 'an empty batch');
    const events = async () => ((await (await server.api('/api/v1/audit/events?limit=100')).json()) as Json).audit_events.length;
    const before = await events();
    const action = { scope: 'payments:write', action: 'write', description: 'Pay the hotel' };
    const check = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'check_authority', arguments: action } };
    const refused = await post(JSON.stringify([check]));
    invalidRequest(refused, 'a batch of one tool call');
    assert.match(refused.body.message, /batch/i);
    assert.equal(await events(), before, 'the batched check was not run: no authority exercised');
    const single = await post(JSON.stringify(ping(4)));
    assert.deepEqual(single, { status: 200, body: { jsonrpc: '2.0', id: 4, result: {} } }, 'control: one message per POST');
    assert.equal((await post(JSON.stringify(check))).status, 200);
    assert.equal(await events(), before + 1, 'control: the same check alone is run');
  });

  it('refuses a message beyond the JSON work budget (60,000 keys of arguments) with -32600 before parsing it', async () => {
    const args = `{${Array.from({ length: 60_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
    const text = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"whoami","arguments":${args}}}`;
    const { status, body } = await post(text);
    assert.equal(status, 400);
    assert.equal(body.error?.code, -32600);
    assert.equal(body.code, 'body_too_complex');
    assert.match(body.message, /more than 1000 members/);
  });

  it('keeps -32700 Parse error for a body that is not JSON (JSON-RPC 2.0 §5.1)', async () => {
    const { status, body } = await post('{"jsonrpc":"2.0",');
    assert.equal(status, 400);
    assert.equal(body.error?.code, -32700);
    assert.equal(body.id, null);
    assert.equal(body.code, 'malformed_json');
  });
});
