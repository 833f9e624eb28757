// Child process of wtr-person-servers.mjs: a reference server for <svc-webhooks>'s browser tests. Each line on stdin
// (`{"email": ...}`, ignored) asks for a new development application of the sandbox account with one webhook endpoint
// at a loopback port nothing listens on, and one consent.granted delivery to it that failed: the worker tried it five
// times, the test clock moved past each retry. The answer, one JSON line on stdout, names them, with a new admin
// API token and a viewer's (read, audit:verify), as the console's token of each role is. Runs until SIGTERM.
//
// The console calls the API from its own origin (the trust URL), where an API token is answered; the test page is on
// another origin, where the service rightly refuses one (403 api_token_in_browser). So the element is given
// `base_url`, a pass-through on this process that forwards every request as a same-origin one and adds the page's
// CORS headers, as applications-server.ts does.
import { createInterface } from 'node:readline';
import { closedPortUrl, drain, emit, listDeliveries } from '../../server/src/platform/webhooks/test-support.js';
import { RETRY_DELAYS_SECONDS } from '../../server/src/platform/webhooks/worker.js';
import { startTestServer } from '../../server/src/testing.js';
import { startConsoleRelay } from './console-relay.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: webhooks-server.ts <page origin>');

const server = await startTestServer();

const relay = await startConsoleRelay(server.url, origin);

async function apiToken(name: string, permissions: string[]): Promise<string> {
  const made = await server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name, permissions } } });
  if (made.status !== 201) throw new Error(`could not make ${name}: ${made.status} ${await made.text()}`);
  return ((await made.json()) as { api_token: { token: string } }).api_token.token;
}

async function json<T>(path: string, body: unknown): Promise<T> {
  const answer = await server.api(path, { method: 'POST', json: body });
  if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as T;
}

let made = 0;
/** A new application whose one endpoint refuses connections, with a failed delivery; an admin's and a viewer's token. */
async function setting() {
  made += 1;
  const { application } = await json<{ application: { id: string } }>('/api/v1/applications', { application: { name: `Shop ${made}` } });
  const { webhook_endpoint: endpoint } = await json<{ webhook_endpoint: { id: string } }>(
    `/api/v1/applications/${application.id}/webhook_endpoints`,
    { webhook_endpoint: { url: await closedPortUrl(), events: ['consent.granted'] } },
  );
  emit(server, 'consent.granted', undefined, application.id);
  await drain(server);
  for (const seconds of RETRY_DELAYS_SECONDS) {
    server.advance(seconds);
    await drain(server);
  }
  const [delivery] = await listDeliveries(server, endpoint.id, application.id);
  if (delivery?.status !== 'failed') throw new Error(`the delivery did not fail: ${JSON.stringify(delivery)}`);
  return {
    base_url: relay.url,
    admin_token: await apiToken(`Console admin ${made}`, ['admin']),
    viewer_token: await apiToken(`Console viewer ${made}`, ['read', 'audit:verify']),
    application_id: application.id,
    endpoint_id: endpoint.id,
    delivery_id: delivery.id,
  };
}

let queue = Promise.resolve();
createInterface({ input: process.stdin }).on('line', () => {
  queue = queue.then(async () => {
    try {
      process.stdout.write(`${JSON.stringify(await setting())}\n`);
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
