// Child process of wtr-person-servers.mjs: a reference server for <svc-applications>'s browser tests. Each line on
// stdin (`{"email": ...}`, ignored) asks for a new pair of API tokens of the sandbox account: an admin's and a viewer's
// (read, audit:verify), as the console's token of each role is; the answer, one JSON line on stdout, also names the
// sandbox application, its publishable key and a capturable flow. Runs until SIGTERM.
//
// The console calls the API from its own origin (the trust URL), where an API token is answered; the test page is on
// another origin, where the service rightly refuses one (no CORS, 403 api_token_in_browser). So the element is
// given `base_url`, a pass-through on this process that answers the page's origin as the console's own origin would
// be: it forwards every request as a same-origin one and adds the page's CORS headers. `server_url` is the service
// itself, for what a page on an allowed origin does with the publishable key. The page's origin is NOT allowed at
// first: the test allows it through the element.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';
import { startTestServer } from '../../server/src/testing.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: applications-server.ts <page origin>');

const server = await startTestServer();
const flowId = server.sandbox.capture_flow_id ?? server.sandbox.flow_id;

/** Headers forwarded to the service: what the element sends, never the page's Origin or Fetch Metadata. */
const FORWARDED = ['authorization', 'content-type', 'accept'];

async function body(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length ? Buffer.concat(chunks) : undefined;
}

async function pass(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const cors = { 'access-control-allow-origin': origin!, 'access-control-expose-headers': 'Retry-After', vary: 'Origin' };
  if (request.method === 'OPTIONS') {
    response.writeHead(204, {
      ...cors,
      'access-control-allow-methods': 'GET, POST, PATCH, DELETE',
      'access-control-allow-headers': 'Authorization, Content-Type',
    });
    return void response.end();
  }
  const headers = Object.fromEntries(FORWARDED.flatMap((name) => (request.headers[name] ? [[name, String(request.headers[name])]] : [])));
  const sent = await body(request);
  const answer = await fetch(new URL(request.url ?? '/', server.url), { method: request.method, headers, body: sent });
  const type = answer.headers.get('content-type');
  const retry = answer.headers.get('retry-after');
  response.writeHead(answer.status, { ...cors, ...(type ? { 'content-type': type } : {}), ...(retry ? { 'retry-after': retry } : {}) });
  response.end(Buffer.from(await answer.arrayBuffer()));
}

const proxy = createServer((request, response) => {
  pass(request, response).catch((error) => {
    response.writeHead(502, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message: String(error), code: 'proxy_error' }));
  });
});
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const address = proxy.address();
if (!address || typeof address === 'string') throw new Error('the pass-through did not listen');

async function apiToken(name: string, permissions: string[]): Promise<string> {
  const made = await server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name, permissions } } });
  if (made.status !== 201) throw new Error(`could not make ${name}: ${made.status} ${await made.text()}`);
  return ((await made.json()) as { api_token: { token: string } }).api_token.token;
}

let pairs = 0;
/** A new admin token and viewer token of the sandbox account. */
async function pair() {
  pairs += 1;
  return {
    base_url: `http://127.0.0.1:${address!.port}`,
    server_url: server.url,
    admin_token: await apiToken(`Console admin ${pairs}`, ['admin']),
    viewer_token: await apiToken(`Console viewer ${pairs}`, ['read', 'audit:verify']),
    application_id: server.sandbox.application_id,
    publishable_key: server.sandbox.publishable_key,
    flow_id: flowId,
  };
}

let queue = Promise.resolve();
createInterface({ input: process.stdin }).on('line', () => {
  queue = queue.then(async () => {
    try {
      process.stdout.write(`${JSON.stringify(await pair())}\n`);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
    }
  });
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

const stop = () => {
  proxy.close();
  void server.dispose().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
