// Child process of the crash test: a server on SVC_DATA_DIR with one endpoint (RECEIVER_URL) and one event emitted;
// prints `READY {endpoint_id, event_id}` and runs until it is killed.
import { startServer } from '../../server.js';

const server = await startServer({ port: 0, clock: true });
const applicationId = server.sandbox.application_id;
const res = await fetch(`${server.url}/api/v1/applications/${applicationId}/webhook_endpoints`, {
  method: 'POST',
  headers: { authorization: `Bearer ${server.sandbox.api_token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ webhook_endpoint: { url: process.env.RECEIVER_URL, events: ['*'] } }),
});
const { webhook_endpoint: endpoint } = (await res.json()) as { webhook_endpoint: { id: string } };
const ctx = server.context;
ctx.db.transaction(() =>
  ctx.events.emit(ctx, {
    type: 'consent.granted',
    application_id: applicationId,
    occurred_at: new Date(ctx.clock.now()).toISOString(),
    data: { flow_id: 'flw_dev_crash', purposes: [] },
  }),
)();
const eventId = ctx.db.prepare('SELECT id FROM webhook_events').pluck().get() as string;
process.stdout.write(`READY ${JSON.stringify({ endpoint_id: endpoint.id, event_id: eventId })}\n`);
