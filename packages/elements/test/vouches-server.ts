// Child process of wtr-person-servers.mjs: a reference server for <svc-vouches>'s browser tests, with the test page's
// origin allowed. Each line on stdin names a person (`{"email": ...}`); the answer, one JSON line on stdout, is their
// access token (vouches:read, vouches:write, signed in through the sandbox organisation's client), their id, a friend
// who vouched for them, a peer they may vouch for and an agent identity of the organisation. Runs until SIGTERM.
import { createInterface } from 'node:readline';
import { call, newAgent, signIn } from '../../server/src/authority/delegations/test-support.js';
import { personAccessToken } from '../../server/src/platform/oauth/test-support.js';
import { startTestServer } from '../../server/src/testing.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: vouches-server.ts <page origin>');

const server = await startTestServer();
const allowed = await server.api(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, {
  method: 'POST',
  json: { allowed_origin: { origin } },
});
if (!allowed.ok) throw new Error(`could not allow ${origin}: ${allowed.status} ${await allowed.text()}`);

/** `email`'s token and id, after a friend vouched for them; a peer and an agent they may vouch for. */
async function person(email: string) {
  const accessToken = await personAccessToken(server, email, 'openid email vouches:read vouches:write');
  const me = await call(server, '/api/v1/me', { token: accessToken });
  const id = me.body.person.id as string;
  const friend = await signIn(server, `friend-${email}`);
  const vouched = await call(server, '/api/v1/vouches', { token: friend.token, json: { vouchee_id: id, statement: 'We worked together.' } });
  if (vouched.status !== 201) throw new Error(`the friend could not vouch: ${JSON.stringify(vouched.body)}`);
  server.advance(60);
  const peer = await signIn(server, `peer-${email}`);
  const agent = await newAgent(server, `Assistant ${email.split('@')[0]}`);
  return { base_url: server.url, access_token: accessToken, id, friend: friend.id, peer: peer.id, agent: agent.id };
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
