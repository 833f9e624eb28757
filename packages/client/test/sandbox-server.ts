// Child process of the @web/test-runner plugin: a reference server for the browser tests, with the test page's
// origin registered. Prints one JSON line (what the page may know) and runs until it is sent SIGTERM.
import { startTestServer } from '../../server/src/testing.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: sandbox-server.ts <page origin>');

const server = await startTestServer();
const registered = await server.api(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, {
  method: 'POST',
  json: { allowed_origin: { origin } },
});
if (!registered.ok) throw new Error(`could not allow ${origin}: ${registered.status} ${await registered.text()}`);

// No API token: the page gets only what a page may hold.
const { url, sandbox } = server;
process.stdout.write(`${JSON.stringify({ base_url: url, publishable_key: sandbox.publishable_key, flow_id: sandbox.flow_id, application_id: sandbox.application_id })}\n`);

const stop = () => void server.dispose().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
