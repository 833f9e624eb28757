// Child process of wtr-person-servers.mjs: a reference server for <svc-decision>'s lifecycle browser tests
// (decision-lifecycle.browser.test.ts), with the test page's origin allowed. Each line on stdin asks for a new set
// (its email only names it); the answer, one JSON line on stdout, is the server's URL and consent decisions embedded
// on that origin: two open ones, one past its deadline, one with `closing_seconds` left, and one already declined.
// The deadlines are the server's test clock's, which this process moves forward. Runs until SIGTERM.
import { createInterface } from 'node:readline';
import { createConsent, ok } from '../../server/src/consent/decisions/test-support.js';
import { DECISION_LIFETIME_SECONDS } from '../../server/src/consent/decisions/store.js';
import { startTestServer } from '../../server/src/testing.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: decisions-server.ts <page origin>');

const server = await startTestServer();
const allowed = await server.api(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, {
  method: 'POST',
  json: { allowed_origin: { origin } },
});
if (!allowed.ok) throw new Error(`could not allow ${origin}: ${allowed.status} ${await allowed.text()}`);

/** Seconds the `closing` decision has left when the set is answered: enough to load its page on a busy machine, few to wait for. */
const CLOSING_SECONDS = 6;

const embedded = async () => (await createConsent(server, { embed_origin: origin })).session_token;

async function set() {
  // Past its deadline: created, then the clock moves beyond it.
  const expired = await embedded();
  server.advance(DECISION_LIFETIME_SECONDS + 1);
  // Seconds from its deadline when the set is answered; every decision created after it is open for the whole lifetime.
  const closing = await embedded();
  server.advance(DECISION_LIFETIME_SECONDS - CLOSING_SECONDS);
  const declined = await embedded();
  await ok(server, declined, { action: 'decline', step_index: 0 });
  return {
    base_url: server.url,
    open: [await embedded(), await embedded()],
    expired,
    closing,
    closing_seconds: CLOSING_SECONDS,
    declined,
  };
}

let queue = Promise.resolve();
createInterface({ input: process.stdin }).on('line', () => {
  queue = queue.then(async () => {
    try {
      process.stdout.write(`${JSON.stringify(await set())}\n`);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
    }
  });
});

// The plugin takes the first line as "started".
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

const stop = () => void server.dispose().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
