// Child process of the @web/test-runner plugin: a reference server for the browser tests, with the test page's
// origin registered and a public OAuth client whose redirect URI is the plugin's callback page on that origin. It
// runs two country cells, US (the base URL) and DE, sharing that configuration.
// Prints one JSON line (what the page may know) and runs until it is sent SIGTERM.
import { startTestCells } from '../../server/src/testing.js';

const origin = process.argv[2];
if (!origin) throw new Error('usage: sandbox-server.ts <page origin>');

const cells = await startTestCells(['US', 'DE']);
const server = cells.first;
const registered = await server.api(`/api/v1/applications/${server.sandbox.application_id}/allowed_origins`, {
  method: 'POST',
  json: { allowed_origin: { origin } },
});
if (!registered.ok) throw new Error(`could not allow ${origin}: ${registered.status} ${await registered.text()}`);

// A single-page app's client: public (PKCE, no secret), so the page may hold its id.
const oauthRedirectUri = `${origin}/__svc__/oauth/callback`;
const client = await server.api(`/api/v1/applications/${server.sandbox.application_id}/oauth_clients`, {
  method: 'POST',
  json: { oauth_client: { name: 'Browser test app', client_type: 'public', redirect_uris: [oauthRedirectUri] } },
});
if (client.status !== 201) throw new Error(`could not register the public OAuth client: ${client.status} ${await client.text()}`);
const { oauth_client: { client_id: oauthClientId } } = (await client.json()) as { oauth_client: { client_id: string } };

// No API token and no client secret: the page gets only what a page may hold.
const { url, sandbox } = server;
process.stdout.write(`${JSON.stringify({
  base_url: url, publishable_key: sandbox.publishable_key, flow_id: sandbox.flow_id, capture_flow_id: sandbox.capture_flow_id,
  application_id: sandbox.application_id,
  oauth_client_id: oauthClientId, oauth_redirect_uri: oauthRedirectUri,
  countries: Object.fromEntries(Object.entries(cells.cells).map(([country, cell]) => [country, cell.url])),
})}\n`);

const stop = () => void cells.dispose().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
