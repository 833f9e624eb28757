// Child process of wtr-person-servers.mjs: a reference server for <svc-connections>'s browser tests, with the test
// page's origin allowed. Each line on stdin names a person (`{"email": ...}`); the answer, one JSON line on stdout, is
// their access token (connections:read, connections:write, signed in through the sandbox organisation's client)
// after their consent connected them to the sandbox application, their phone (another sign-in) asked for a device
// link (its code comes back too, as the phone would show it) and two other sign-ins paired. Runs until SIGTERM.
import { createInterface } from 'node:readline';
import { call } from '../../server/src/authority/delegations/test-support.js';
import { createActiveFlow, createRecord, grantAll } from '../../server/src/consent/records/test-support.js';
import { personAccessToken } from '../../server/src/platform/oauth/test-support.js';
import { startTestServer } from '../../server/src/testing.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: connections-server.ts <page origin>');

const server = await startTestServer();
const allowed = await server.api(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, {
  method: 'POST',
  json: { allowed_origin: { origin } },
});
if (!allowed.ok) throw new Error(`could not allow ${origin}: ${allowed.status} ${await allowed.text()}`);
const flowId = await createActiveFlow(server);
const SCOPES = 'openid email connections:read connections:write';

async function post(token: string, path: string, json: unknown) {
  const res = await call(server, path, { token, json });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The person's token, connection, pending device link (and its code) and trust pairing. */
async function person(email: string) {
  const record = await createRecord(server, { flow_id: flowId, subject: { email }, decisions: grantAll });
  const accessToken = await personAccessToken(server, email, SCOPES);
  const connected = await post(accessToken, '/api/v1/connections', { application_id: server.sandbox.application_id });
  const phone = await personAccessToken(server, email, SCOPES);
  const tablet = await personAccessToken(server, email, SCOPES);
  const paired = await post(phone, '/api/v1/device_links', { device_name: 'Old phone' });
  const pairing = await post(tablet, '/api/v1/device_links/claim', { code: paired.device_link.code, device_name: 'Tablet' });
  server.advance(60);
  const link = await post(phone, '/api/v1/device_links', { device_name: 'Phone' });
  return {
    base_url: server.url,
    access_token: accessToken,
    connection: connected.connection.id,
    record: record.id,
    link: link.device_link.id,
    code: link.device_link.code,
    paired_link: paired.device_link.id,
    pairing: pairing.trust_pairing.id,
  };
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
