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
import { createInterface } from 'node:readline';
import { startTestServer } from '../../server/src/testing.js';
import { startConsoleRelay } from './console-relay.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: applications-server.ts <page origin>');

const server = await startTestServer();
const flowId = server.sandbox.capture_flow_id ?? server.sandbox.flow_id;

const relay = await startConsoleRelay(server.url, origin);

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
    base_url: relay.url,
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
  relay.close();
  void server.dispose().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
