// Child process of wtr-person-servers.mjs: a reference server for <svc-delegations>'s browser tests, with the
// test page's origin allowed. Each line on stdin names a person (`{"email": ...}`); the answer, one JSON line on
// stdout, is their access token (delegations:read, delegations:write, signed in through the sandbox organisation's
// client) after they made two grants: to an agent identity (with bounds) and to another person; and a friend (signed in
// there once) and an agent nobody delegated to yet, for the person to make a grant to. Runs until SIGTERM.
import { createInterface } from 'node:readline';
import { call, grant, newAgent, signIn } from '../../server/src/authority/delegations/test-support.js';
import { personAccessToken } from '../../server/src/platform/oauth/test-support.js';
import { startTestServer } from '../../server/src/testing.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: delegations-server.ts <page origin>');

const server = await startTestServer();
const allowed = await server.api(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, {
  method: 'POST',
  json: { allowed_origin: { origin } },
});
if (!allowed.ok) throw new Error(`could not allow ${origin}: ${allowed.status} ${await allowed.text()}`);

/** Two grants `email` made (to a new agent, bounded; to a peer) and their access token. */
async function person(email: string) {
  const accessToken = await personAccessToken(server, email, 'openid email delegations:read delegations:write');
  const me = await call(server, '/api/v1/me', { token: accessToken });
  const principal = { token: accessToken, id: me.body.person.id as string };
  const peer = await signIn(server, `peer-${email}`);
  const agent = await newAgent(server, `Assistant ${email.split('@')[0]}`);
  const toPeer = await grant(server, principal, peer.id, { delegation_type: 'peer', delegated_scopes: ['records:read'] });
  server.advance(60);
  const toAgent = await grant(server, principal, agent.id, {
    delegation_type: 'ai_agent',
    delegated_scopes: ['calendar.read', 'mail.send'],
    max_actions_per_day: 20,
    bounds: {
      value: { max_per_transaction: 500, currency: 'EUR' },
      actions: ['read', 'write'],
      time: { not_before: '2026-01-05T08:00:00.000Z', not_after: '2036-01-05T16:00:00.000Z' },
      jurisdiction: { allowed: ['DE', 'FR'] },
    },
  });
  const friend = `friend-${email}`;
  await signIn(server, friend);
  const free = await newAgent(server, `Helper ${email.split('@')[0]}`);
  return {
    base_url: server.url,
    access_token: accessToken,
    email,
    agent: toAgent.id,
    peer: toPeer.id,
    peer_email: `peer-${email}`,
    friend_email: friend,
    free_agent: free.id,
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
