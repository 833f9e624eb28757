// Child process of wtr-person-servers.mjs: a reference server for <svc-governance>'s browser tests. Before it says it
// is ready, the sandbox organisation records three consents (so the sandbox application's audit trail has events).
// Each line on stdin (`{"email": ...}`, ignored) is answered with one JSON line: the base URL, an admin API token and
// a viewer's (`read`, `audit:verify`), and the sandbox application's id. Runs until SIGTERM.
//
// The console calls the API from its own origin, where an API-token call is same-origin. The test page is on another
// origin, whose browser call with an API token the service rightly refuses (no CORS, `api_token_in_browser`); so the
// base URL answered is a small relay here that stands in for "same origin": it adds CORS for the page's origin and
// passes every request on to the reference server as a server-side call. Everything else is the service's own.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { createActiveFlow, createRecord, grantAll } from '../../server/src/consent/records/test-support.js';
import { startTestServer } from '../../server/src/testing.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: governance-server.ts <page origin>');

const server = await startTestServer();
const flowId = await createActiveFlow(server, undefined, 'Newsletter and research');
for (let i = 0; i < 3; i += 1) {
  await createRecord(server, { flow_id: flowId, subject: { email: `member-${i}@example.com` }, decisions: grantAll, suppress_receipt: true });
  server.advance(3_600);
}

async function apiToken(name: string, permissions: string[]): Promise<string> {
  const made = await server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name, permissions } } });
  const body = (await made.json()) as { token?: string; api_token?: { token?: string } };
  const token = body.token ?? body.api_token?.token;
  if (!made.ok || !token) throw new Error(`could not make the ${name} token: ${made.status} ${JSON.stringify(body)}`);
  return token;
}

const admin = await apiToken('Console admin', ['admin']);
const viewer = await apiToken('Console viewer', ['read', 'audit:verify']);

const CORS = {
  'access-control-allow-origin': origin,
  'access-control-allow-methods': 'GET, POST, PATCH, DELETE',
  'access-control-allow-headers': 'authorization, content-type, accept',
  'access-control-expose-headers': 'retry-after, ratelimit, ratelimit-policy',
  vary: 'Origin',
};

/** Passes one request on to the reference server as a server's call, and its answer back with CORS for the page. */
async function relay(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method === 'OPTIONS') {
    response.writeHead(204, CORS).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers: Record<string, string> = {};
  for (const name of ['authorization', 'content-type', 'accept']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const answer = await fetch(`${server.url}${request.url}`, {
    method: request.method,
    headers,
    ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
  });
  const passed: Record<string, string> = { ...CORS };
  for (const name of ['content-type', 'retry-after', 'ratelimit', 'ratelimit-policy']) {
    const value = answer.headers.get(name);
    if (value) passed[name] = value;
  }
  response.writeHead(answer.status, passed).end(Buffer.from(await answer.arrayBuffer()));
}

const relayServer = createServer((request, response) => {
  relay(request, response).catch((error) => response.writeHead(502, CORS).end(JSON.stringify({ message: String(error), code: 'relay' })));
});
await new Promise<void>((resolve) => relayServer.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(relayServer.address() as AddressInfo).port}`;

const answer = { base_url: baseUrl, admin_token: admin, viewer_token: viewer, application_id: server.sandbox.application_id };

createInterface({ input: process.stdin }).on('line', () => {
  process.stdout.write(`${JSON.stringify(answer)}\n`);
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

const stop = () => {
  relayServer.close();
  void server.dispose().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
