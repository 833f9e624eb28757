// Child process of wtr-person-servers.mjs: a reference server for <svc-policies>' browser tests, with the test page's
// origin allowed. Each line on stdin asks for a new set (its email only names it); the answer, one JSON line on
// stdout, is an admin API token and a viewer's (`read`, `audit:verify`) of the sandbox organisation, a new policy and
// data license, a clean room that spent ε 0.5 of its budget on one query, and an application of its own whose
// newsletter was granted twice and withdrawn once today. Runs until SIGTERM.
//
// The console calls the API from its own origin (the trust URL), where an API token is answered; the test page is on
// another origin, where the service rightly refuses one (no CORS). So the element is given `base_url`, a pass-through
// on this process that forwards every request as a same-origin one and adds the page's CORS headers.
import { createInterface } from 'node:readline';
import { activeAgreement, createApplication, createCapturableFlow, expect } from '../../server/src/surfaces/comply/test-support.js';
import { startTestServer } from '../../server/src/testing.js';
import { startConsoleRelay } from './console-relay.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: policies-server.ts <page origin>');

const server = await startTestServer();

const relay = await startConsoleRelay(server.url, origin);

const token = async (name: string, permissions: string[]) =>
  (await expect(server, '/api/v1/api_tokens', 201, { method: 'POST', json: { api_token: { name, permissions } } })).api_token
    .token as string;

/** An application whose newsletter two people granted today, one of whom withdrew it. */
async function activity(name: string): Promise<string> {
  const applicationId = await createApplication(server, name);
  const flowId = await createCapturableFlow(server, applicationId);
  const decisions = { newsletter: { decision: 'granted' }, research: { decision: 'declined' }, analytics: { decision: 'granted' } };
  const ids: string[] = [];
  for (const who of ['one', 'two']) {
    const json = { flow_id: flowId, subject: { email: `${who}-${name}@example.com` }, decisions };
    ids.push((await expect(server, '/api/v1/consent_records', 201, { method: 'POST', json })).consent_record.id as string);
  }
  await expect(server, `/api/v1/consent_records/${ids[0]}/withdraw`, 200, { method: 'POST', json: { purposes: ['newsletter'] } });
  return applicationId;
}

async function set(email: string) {
  const name = email.split('@')[0]!;
  const policy = await expect(server, '/api/v1/policies', 201, {
    method: 'POST',
    json: { template_id: 'retention', title: `Keep orders (${name})`, config: { data_categories: ['orders'], retention_days: 3650 } },
  });
  const agreementId = await activeAgreement(server);
  const license = await expect(server, '/api/v1/data_licenses', 201, {
    method: 'POST',
    json: { agreement_id: agreementId, max_access_count: 10, terms: { licensee: `Acme Research (${name})`, purpose: 'research' } },
  });
  const room = await expect(server, '/api/v1/clean_rooms', 201, {
    method: 'POST',
    json: { agreement_id: agreementId, participants: [server.sandbox.application_id] },
  });
  await expect(server, `/api/v1/clean_rooms/${room.clean_room.id}/queries`, 201, {
    method: 'POST',
    json: { computation_type: 'count', query_definition: {}, privacy_parameters: { epsilon: 0.5 } },
  });
  return {
    base_url: relay.url,
    admin_token: await token(`admin ${name}`, ['admin']),
    viewer_token: await token(`viewer ${name}`, ['read', 'audit:verify']),
    policy_id: policy.policy.id as string,
    policy_title: policy.policy.title as string,
    license_id: license.data_license.id as string,
    clean_room_id: room.clean_room.id as string,
    agreement_id: agreementId,
    application_id: await activity(name),
  };
}

let queue = Promise.resolve();
createInterface({ input: process.stdin }).on('line', (line) => {
  queue = queue.then(async () => {
    try {
      process.stdout.write(`${JSON.stringify(await set(JSON.parse(line).email))}\n`);
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
