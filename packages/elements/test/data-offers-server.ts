// Child process of wtr-person-servers.mjs: a reference server for <svc-data-offers>'s browser tests, with the test
// page's origin allowed. Each line on stdin names a person (`{"email": ...}`); the answer, one JSON line on stdout,
// is their access token (data_offers:read, data_offers:write, signed in through the sandbox organisation's client)
// after they offered terms for their data twice (the organisation countered the first, which waits for their answer)
// and signed an agreement under which the organisation holds a licence of three accesses. Runs until SIGTERM.
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { personAccessToken } from '../../server/src/platform/oauth/test-support.js';
import { startTestServer } from '../../server/src/testing.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: data-offers-server.ts <page origin>');

const server = await startTestServer();
const allowed = await server.api(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, {
  method: 'POST',
  json: { allowed_origin: { origin } },
});
if (!allowed.ok) throw new Error(`could not allow ${origin}: ${allowed.status} ${await allowed.text()}`);

/** A call as the organisation (no token) or the person; answers the body, throwing on any other status than `status`. */
async function call(path: string, json: unknown, token?: string, status = 200): Promise<Record<string, any>> {
  const res = await server.api(path, {
    method: 'POST',
    ...(json === undefined ? {} : { json }),
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  });
  const body = await res.json();
  if (res.status !== status) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** The person's offer for their steps and sleep; countered by the organisation unless `counter` is false. */
async function offer(token: string, counter: boolean): Promise<string> {
  const policy = await call('/api/v1/policies', { template_id: 'data_offer', config: { data_categories: ['steps', 'sleep'] } }, token, 201);
  const draft = await call(
    '/api/v1/data_offers',
    { policy_id: policy.policy.id, application_id: server.sandbox.application_id, terms: { price: { amount: 1000, currency: 'EUR' }, months: 12 } },
    token,
    201,
  );
  const id = draft.data_offer.id as string;
  await call(`/api/v1/data_offers/${id}/offer`, undefined, token);
  if (counter) await call(`/api/v1/data_offers/${id}/counter`, { terms: { price: { amount: 600, currency: 'EUR' }, months: 6 }, message: 'We can do 6 euros.' });
  return id;
}

/** An agreement `email` signs on its hosted page, and a licence of three accesses under it. */
async function license(email: string): Promise<string> {
  const text = `Step counts for research, ${email}\n`;
  const created = await call(
    '/api/v1/agreements',
    {
      agreement: {
        title: 'Step counts for research',
        document: { text, sha256: createHash('sha256').update(text).digest('hex') },
        parties: [{ email, home_country: 'US' }],
        quorum: 1,
      },
    },
    undefined,
    201,
  );
  const session = created.agreement.party_details[0].session_token as string;
  const step = async (request: unknown) => {
    const res = await fetch(`${server.url}/decisions/${session}/transitions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: new URL(server.url).origin },
      body: JSON.stringify(request),
    });
    if (!res.ok) throw new Error(`signing: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, any>;
  };
  const sent = await step({ action: 'send_code' });
  await step({ action: 'verify', code: sent.sandbox_code });
  await step({ action: 'sign', name: 'Signer' });
  const issued = await call('/api/v1/data_licenses', { agreement_id: created.agreement.id, max_access_count: 3, terms: { purpose: 'research' } }, undefined, 201);
  return issued.data_license.id as string;
}

async function person(email: string) {
  const accessToken = await personAccessToken(server, email, 'openid email data_offers:read data_offers:write');
  const countered = await offer(accessToken, true);
  const waiting = await offer(accessToken, false);
  return { base_url: server.url, access_token: accessToken, countered, waiting, license: await license(email) };
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
