// Child process of wtr-person-servers.mjs: a reference server for <svc-credentials>'s browser tests, with the test
// page's origin allowed. Each line on stdin names a person (`{"email": ...}`); the answer, one JSON line on stdout, is
// their access token (credentials:read, credentials:write, signed in through the sandbox organisation's client) after
// the organisation issued them a credential of a consent they gave. Runs until SIGTERM.
import { createInterface } from 'node:readline';
import { fulfilledConsent, issue } from '../../server/src/consent/credentials/test-support.js';
import { personAccessToken } from '../../server/src/platform/oauth/test-support.js';
import { startTestServer } from '../../server/src/testing.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: credentials-server.ts <page origin>');

const server = await startTestServer();
const allowed = await server.api(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, {
  method: 'POST',
  json: { allowed_origin: { origin } },
});
if (!allowed.ok) throw new Error(`could not allow ${origin}: ${allowed.status} ${await allowed.text()}`);

/** A credential of a consent `email` gave, and their access token. */
async function person(email: string) {
  const ctxn = await fulfilledConsent(server, email);
  const credential = await issue(server, { consent_transaction_id: ctxn, credential_type: 'ConsentCredential' });
  const accessToken = await personAccessToken(server, email, 'openid email credentials:read credentials:write');
  return { base_url: server.url, access_token: accessToken, credential_id: credential.id };
}

let queue = Promise.resolve();
createInterface({ input: process.stdin }).on('line', (line) => {
  queue = queue.then(async () => {
    try {
      process.stdout.write(`${JSON.stringify(await person(JSON.parse(line).email))}\n`);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
    }
  });
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

const stop = () => void server.dispose().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
