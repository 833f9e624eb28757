// Child process of wtr-person-servers.mjs: a reference server for <svc-agents>' browser tests. Each line on stdin asks
// for a new case (`{"email": ...}`, the email naming its person); the answer, one JSON line on stdout, is the
// organisation's API tokens (an admin's and a viewer's: `read` and `audit:verify`), a new agent identity with a pinned
// capability manifest, a grant the person made to it (value bound 100 EUR, escalation allowed) and two escalations
// of that agent: one the person approved, one pending (and `escalations` more pending ones when the line asks for
// them). Runs until SIGTERM.
//
// The console calls the API from its own origin (the trust URL), where an API token is answered; the service refuses
// one from another site's page and sends it no CORS headers. The test page is on another origin, so the element
// reaches the reference server through a same-origin stand-in here: a pass-through that forwards the call as a
// server would (no Fetch Metadata) and lets the test page read the answer. It adds nothing else.
import { createInterface } from 'node:readline';
import {
  agentToken,
  approveAsPrincipal,
  call,
  check,
  grant,
  newAgent,
  signIn,
} from '../../server/src/authority/delegations/test-support.js';
import { startTestServer } from '../../server/src/testing.js';
import { startConsoleRelay } from './console-relay.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: agents-server.ts <page origin>');

const server = await startTestServer();
const relay = await startConsoleRelay(server.url, origin);

async function apiToken(name: string, permissions: string[]): Promise<string> {
  const made = await call(server, '/api/v1/api_tokens', { json: { api_token: { name, permissions } } });
  if (made.status !== 201) throw new Error(`no API token: ${JSON.stringify(made.body)}`);
  return made.body.api_token.token as string;
}

let cases = 0;

/**
 * A new agent, granted by `email`'s person, with two escalations (one approved, one pending) and `more` pending
 * ones; the console's tokens.
 */
async function newCase(email: string, more = 0) {
  cases += 1;
  const principal = await signIn(server, email);
  const name = `Booking agent ${cases}`;
  const agent = await newAgent(server, name);
  const pinned = await call(server, `/api/v1/agent_identities/${agent.id}/manifests`, { json: { delegated_scopes: ['payments:write'] } });
  if (pinned.status !== 201) throw new Error(`no manifest: ${JSON.stringify(pinned.body)}`);
  const made = await grant(server, principal, agent.id, {
    delegation_type: 'ai_agent',
    delegated_scopes: ['payments:write'],
    max_actions_per_day: 20,
    bounds: { value: { max_per_transaction: 100, currency: 'EUR' }, escalation: { allowed: true } },
  });
  const token = await agentToken(server, made.id, agent);
  const pay = (value: number, description: string) =>
    check(server, token, { scope: 'payments:write', action: 'write', value, currency: 'EUR', description });
  const approved = (await pay(240, 'Pay the hotel')).body.authority_check.escalation.id as string;
  await approveAsPrincipal(server, approved, principal);
  const pending = (await pay(300, 'Pay the flight')).body.authority_check.escalation.id as string;
  for (let i = 0; i < more; i += 1) {
    const asked = await pay(101 + i, `Pay supplier ${i + 1}`);
    if (asked.status !== 202) throw new Error(`no escalation: ${JSON.stringify(asked.body)}`);
  }
  return {
    base_url: relay.url,
    admin_token: await apiToken(`Console admin ${cases}`, ['admin']),
    viewer_token: await apiToken(`Console viewer ${cases}`, ['read', 'audit:verify']),
    principal: principal.id,
    agent: agent.id,
    agent_name: name,
    grant: made.id,
    approved,
    pending,
  };
}

let queue = Promise.resolve();
createInterface({ input: process.stdin }).on('line', (line) => {
  queue = queue.then(async () => {
    try {
      const asked = JSON.parse(line) as { email: string; escalations?: number };
      process.stdout.write(`${JSON.stringify(await newCase(asked.email, Math.min(asked.escalations ?? 0, 500)))}\n`);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
    }
  });
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

const stop = () => void server.dispose().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
