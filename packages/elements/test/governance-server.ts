// Child process of wtr-person-servers.mjs: a reference server for <svc-governance>'s browser tests. Before it says it
// is ready, the sandbox organisation records three consents (so the sandbox application's audit trail has events).
// Each line on stdin (`{"email": ...}`, ignored) is answered with one JSON line: the base URL, an admin API token and
// a viewer's (`read`, `audit:verify`), and the sandbox application's id. Runs until SIGTERM.
//
// The console calls the API from its own origin, where an API-token call is same-origin. The test page is on another
// origin, whose browser call with an API token the service rightly refuses (no CORS, `api_token_in_browser`); so the
// base URL answered is a small relay here that stands in for "same origin": it adds CORS for the page's origin and
// passes every request on to the reference server as a server-side call. Everything else is the service's own.
import { createInterface } from 'node:readline';
import { createActiveFlow, createRecord, grantAll } from '../../server/src/consent/records/test-support.js';
import { startTestServer } from '../../server/src/testing.js';
import { startConsoleRelay } from './console-relay.js';

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

const relay = await startConsoleRelay(server.url, origin);
const baseUrl = relay.url;

const answer = { base_url: baseUrl, admin_token: admin, viewer_token: viewer, application_id: server.sandbox.application_id };

createInterface({ input: process.stdin }).on('line', () => {
  process.stdout.write(`${JSON.stringify(answer)}\n`);
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

const stop = () => {
  relay.close();
  void server.dispose().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
