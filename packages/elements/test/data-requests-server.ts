// Child process of wtr-person-servers.mjs: a reference server for <svc-data-requests>'s browser tests, with the
// test page's origin allowed. Each line on stdin names a person (`{"email": ...}`); the answer, one JSON line on
// stdout, is their access token (data_requests:read, data_requests:write, signed in on the hosted pages through the
// sandbox organisation's client), the organisation's id and name, and the id of an access request they filed that the
// organisation extended by 45 days ("Records are spread over three systems"). Runs until SIGTERM.
import { createInterface } from 'node:readline';
import { personAccessToken } from '../../server/src/platform/oauth/test-support.js';
import { startTestServer } from '../../server/src/testing.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: data-requests-server.ts <page origin>');

const server = await startTestServer();
const allowed = await server.api(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, {
  method: 'POST',
  json: { allowed_origin: { origin } },
});
if (!allowed.ok) throw new Error(`could not allow ${origin}: ${allowed.status} ${await allowed.text()}`);

async function ok(res: Response): Promise<Record<string, any>> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function person(email: string) {
  const accessToken = await personAccessToken(server, email, 'openid email data_requests:read data_requests:write');
  const auth = { authorization: `Bearer ${accessToken}` };
  const list = await ok(await server.api('/api/v1/me/data_requests', { headers: auth }));
  const organisation = list.organisations[0];
  const filed = await ok(
    await server.api('/api/v1/me/data_requests', { method: 'POST', headers: auth, json: { organisation_id: organisation.id, dsar_type: 'access' } }),
  );
  const id = filed.data_request.id;
  await ok(
    await server.api(`/api/v1/data_requests/${id}/extend`, {
      method: 'POST',
      json: { reason: 'Records are spread over three systems', days: 45 },
    }),
  );
  return { base_url: server.url, access_token: accessToken, organisation, extended: id };
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
