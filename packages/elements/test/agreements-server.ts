// Child process of wtr-person-servers.mjs: a reference server for <svc-agreements>'s browser tests, with the test
// page's origin allowed. Each line on stdin names a person (`{"email": ...}`); the answer, one JSON line on stdout, is
// their access token (agreements:read, agreements:write, signed in through the sandbox organisation's client) after
// the organisation asked them to sign two agreements (one of quorum one, one multi-party with a named fellow party)
// and added them to a collaboration with another person. Runs until SIGTERM.
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { call, signIn } from '../../server/src/authority/delegations/test-support.js';
import { personAccessToken } from '../../server/src/platform/oauth/test-support.js';
import { startTestServer } from '../../server/src/testing.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: agreements-server.ts <page origin>');

const server = await startTestServer();
const allowed = await server.api(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, {
  method: 'POST',
  json: { allowed_origin: { origin } },
});
if (!allowed.ok) throw new Error(`could not allow ${origin}: ${allowed.status} ${await allowed.text()}`);

const TEXT = 'Data sharing terms\n\n1. You share your step counts with the study.\n2. You may leave at any time.\n';
const document = { text: TEXT, sha256: createHash('sha256').update(TEXT, 'utf8').digest('hex') };

async function created(path: string, json: unknown): Promise<string> {
  const res = await call(server, path, { json });
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.agreement ?? res.body.collaboration).id as string;
}

/** Two agreements and a collaboration for `email`, and their access token. */
async function person(email: string) {
  const accessToken = await personAccessToken(server, email, 'openid email agreements:read agreements:write');
  const me = await call(server, '/api/v1/me', { token: accessToken });
  const peer = await signIn(server, `peer-${email}`);
  const joint = await created('/api/v1/agreements', {
    agreement: {
      title: 'Joint study',
      document,
      parties: [{ email, home_country: 'US' }, { email: `peer-${email}`, home_country: 'US', name: 'Grace Hopper' }],
      quorum: 2,
    },
  });
  server.advance(60);
  const solo = await created('/api/v1/agreements', {
    agreement: { title: 'Newsletter terms', document, parties: [{ email, home_country: 'US' }], quorum: 1 },
  });
  const collaboration = await created('/api/v1/collaborations', {
    participant_ids: [me.body.person.id, peer.id],
    terms: { purpose: 'Step count study', duration: '6 months' },
  });
  return { base_url: server.url, access_token: accessToken, joint, solo, collaboration, document_sha256: document.sha256 };
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
