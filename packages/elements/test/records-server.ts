// Child process of wtr-person-servers.mjs: a reference server for <svc-records>'s browser tests, with the test
// page's origin allowed and a capturable flow. Each line on stdin names a person (`{"email": ...}`); the answer, one
// JSON line on stdout, is their access token (records:read, records:write, signed in on the hosted pages through the
// sandbox organisation's client) after the organisation recorded two consents of theirs. Runs until SIGTERM.
import { createInterface } from 'node:readline';
import { createActiveFlow, createRecord, grantAll } from '../../server/src/consent/records/test-support.js';
import { personAccessToken } from '../../server/src/platform/oauth/test-support.js';
import { startTestServer } from '../../server/src/testing.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: records-server.ts <page origin>');

const server = await startTestServer();
const allowed = await server.api(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, {
  method: 'POST',
  json: { allowed_origin: { origin } },
});
if (!allowed.ok) throw new Error(`could not allow ${origin}: ${allowed.status} ${await allowed.text()}`);
const flowId = await createActiveFlow(server, undefined, 'Newsletter and research');

/** Two records of `email` (every purpose granted; the second captured a day later) and their access token. */
async function person(email: string) {
  const records = [];
  for (let i = 0; i < 2; i += 1) {
    records.push((await createRecord(server, { flow_id: flowId, subject: { email }, decisions: grantAll, suppress_receipt: true })).id);
    server.advance(86_400);
  }
  const accessToken = await personAccessToken(server, email, 'openid email records:read records:write');
  return { base_url: server.url, access_token: accessToken, records };
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
