// Child process of wtr-person-servers.mjs: a reference server for <svc-receipts>'s browser tests, with the test
// page's origin allowed, an agent and a flow that discloses it. Each line on stdin names a person (`{"email": ...}`);
// the answer, one JSON line on stdout, is their access token (receipts:read), after they granted the agent bounded
// authority (which it used once within the bounds and once beyond) and gave a consent under the disclosing flow;
// with the receipt files a person may drop: that consent's signed receipt as the organisation hands it out, and the
// same receipt signed by a key that is not the service's. Runs until SIGTERM.
import { createInterface } from 'node:readline';
import { agentToken, call, check, grant, newAgent } from '../../server/src/authority/delegations/test-support.js';
import { createActiveFlow, createRecord, grantAll, recordFlowConfig } from '../../server/src/consent/records/test-support.js';
import { signJcs } from '../../server/src/consent/receipts/sign.js';
import { personAccessToken } from '../../server/src/platform/oauth/test-support.js';
import { startTestServer } from '../../server/src/testing.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: receipts-server.ts <page origin>');

const server = await startTestServer();
const allowed = await server.api(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, {
  method: 'POST',
  json: { allowed_origin: { origin } },
});
if (!allowed.ok) throw new Error(`could not allow ${origin}: ${allowed.status} ${await allowed.text()}`);
const agent = await newAgent(server, 'Booking helper', { operator_name: 'Helpers Ltd' });
const flowId = await createActiveFlow(server, { ...recordFlowConfig, agents: [{ agent_id: agent.id, role: 'Books tables' }] }, 'Bookings');
// Another service's key: a receipt it signs names a key this service does not have.
const { privateKey: otherKey } = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);

async function person(email: string) {
  const signedIn = await personAccessToken(server, email);
  const me = await call(server, '/api/v1/me', { token: signedIn });
  const granted = await grant(server, { token: signedIn, id: me.body.person.id }, agent.id, {
    delegation_type: 'ai_agent',
    delegated_scopes: ['bookings:write'],
    max_actions_per_day: 10,
    bounds: { value: { max_per_transaction: 200, currency: 'EUR' } },
  });
  const token = await agentToken(server, granted.id, agent);
  for (const value of [80, 900]) {
    const checked = await check(server, token, { scope: 'bookings:write', action: 'write', value, currency: 'EUR' });
    if (checked.status !== (value < 200 ? 200 : 403)) throw new Error(`check ${value}: ${checked.status} ${JSON.stringify(checked.body)}`);
  }
  const record = await createRecord(server, { flow_id: flowId, subject: { email }, decisions: grantAll, suppress_receipt: true });
  const consent = (await call(server, `/api/v1/consent_receipts/${record.id}?flavor=signed`)).body;
  const foreign = { receipt: consent.receipt, signature: await signJcs(consent.receipt, otherKey, 'another-service') };
  const accessToken = await personAccessToken(server, email, 'openid email receipts:read');
  const jwks = (await call(server, '/.well-known/jwks.json')).body;
  return { base_url: server.url, access_token: accessToken, grant_record: granted.authorization_record_id, record: record.id, consent, foreign, jwks };
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
