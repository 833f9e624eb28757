// Child process of wtr-person-servers.mjs: a reference server for <svc-evidence>'s browser tests, with the test page's
// origin allowed and a transfer register that is not empty (three transfers of the sandbox application). Each line on
// stdin asks for a console (its `email` is ignored); the answer, one JSON line on stdout, is an admin API token and a
// viewer's (`read`, `audit:verify`), both of the sandbox account, as the console's token would be. Runs until SIGTERM.
//
// The console calls the API from its own origin, where an API-token call is same-origin. The test page is on another
// origin, whose browser call with an API token the service rightly refuses (no CORS, `api_token_in_browser`); so the
// base URL answered is a small relay here that stands in for "same origin": it adds CORS for the page's origin and
// passes every request on to the reference server as a server-side call. Everything else is the service's own.
import { createInterface } from 'node:readline';
import { adequacyOf, lawfulBasisFor, recordTransfer } from '../../server/src/surfaces/comply/transfers/register.js';
import { startTestServer } from '../../server/src/testing.js';
import { startConsoleRelay } from './console-relay.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: evidence-server.ts <page origin>');

const server = await startTestServer();

for (const [category, from, to] of [
  ['consent_proof', 'DE', 'US'],
  ['signature_evidence', 'US', 'DE'],
  ['consent_proof', 'DE', 'IN'],
] as const) {
  const adequacy = adequacyOf(from, to);
  recordTransfer(server.context, {
    application_id: server.sandbox.application_id,
    category,
    from_country: from,
    to_country: to,
    lawful_basis: lawfulBasisFor(adequacy),
    adequacy,
  });
}

/** A new API token of the sandbox account holding `permissions`. */
async function token(name: string, permissions: string[]): Promise<string> {
  const made = await server.api('/api/v1/api_tokens', { method: 'POST', json: { api_token: { name, permissions } } });
  if (made.status !== 201) throw new Error(`could not make a token: ${made.status} ${await made.text()}`);
  return ((await made.json()) as { api_token: { token: string } }).api_token.token;
}

const relay = await startConsoleRelay(server.url, origin);
const baseUrl = relay.url;

async function console_() {
  return {
    base_url: baseUrl,
    admin_token: await token('console admin', ['admin']),
    viewer_token: await token('console viewer', ['read', 'audit:verify']),
  };
}

let queue = Promise.resolve();
createInterface({ input: process.stdin }).on('line', () => {
  queue = queue.then(async () => {
    try {
      process.stdout.write(`${JSON.stringify(await console_())}\n`);
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
