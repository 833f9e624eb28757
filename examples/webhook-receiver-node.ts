/**
 * A webhook receiver in plain Node `http`. It verifies each delivery against the raw body, acts on each event id
 * once, and answers 2xx to a delivery it has already processed (the service delivers at least once and retries
 * with the same `X-Svc-Event-ID`). Any non-2xx answer makes the service retry (5xx) or give up (4xx), and five
 * failed deliveries in a row disable the endpoint, so answer 4xx only to a delivery that must never be accepted.
 *
 * Run:  SVC_WEBHOOK_SECRET=whsec_... PORT=3000 node --import tsx examples/webhook-receiver-node.ts
 * During a secret rotation, list both secrets: SVC_WEBHOOK_SECRET=whsec_new,whsec_old
 */
import { createServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { isWebhookVerificationError, verifyWebhook, type WebhookEvent } from '@svc/client';

/** Options of {@link createWebhookReceiver}. */
export interface NodeReceiverOptions {
  /** The endpoint's signing secret (or both, during the day after a rotation). */
  secrets: string | string[];
  /** Does the work for one event; throw to have the service retry it later. */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
  /** The current time in ms, when the service runs on a test clock. */
  now?: () => number;
}

/** A server that receives webhooks on `POST /webhooks`. */
export function createWebhookReceiver(options: NodeReceiverOptions): Server {
  // Event ids already processed. In production this is a table with a unique event id column, written in the
  // same transaction as the work, so a crash between the two cannot process an event twice.
  const processed = new Set<string>();

  return createServer(async (req, res) => {
    const reply = (status: number, body: object) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method !== 'POST' || req.url !== '/webhooks') return reply(404, { error: 'not_found' });

    // Verify the bytes as received: a re-serialised JSON.parse result would not match the signature.
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks);

    let event: WebhookEvent;
    try {
      event = await verifyWebhook(rawBody, req.headers, options.secrets, options.now ? { now: options.now() } : {});
    } catch (err) {
      // An authentic event of a type this version does not know: acknowledge it and move on.
      if (isWebhookVerificationError(err) && err.code === 'ERR_SVC_WEBHOOK_UNKNOWN_EVENT') return reply(200, { received: true, ignored: true });
      if (isWebhookVerificationError(err)) return reply(400, { error: err.code, reason: err.reason ?? null });
      throw err;
    }

    if (processed.has(event.id)) return reply(200, { received: true, duplicate: true });
    try {
      await options.onEvent(event);
    } catch {
      return reply(500, { error: 'processing_failed' }); // the service retries with the same event id
    }
    processed.add(event.id);
    return reply(200, { received: true, duplicate: false });
  });
}

// Started directly: listen on PORT and log each event.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secrets = (process.env.SVC_WEBHOOK_SECRET ?? '').split(',').filter(Boolean);
  if (!secrets.length) throw new Error('Set SVC_WEBHOOK_SECRET to the endpoint\'s signing secret (whsec_...).');
  const port = Number(process.env.PORT ?? 3000);
  createWebhookReceiver({
    secrets,
    onEvent(event) {
      switch (event.type) {
        case 'consent.granted':
          console.log(`consent granted for flow ${event.data.flow_id} by ${event.data.subject_ref?.email ?? 'an unnamed person'}`);
          break;
        case 'consent.revoked':
        case 'consent.purpose_revoked':
          console.log(`consent withdrawn: ${event.data.withdrawn.map((w) => w.key).join(', ')}`);
          break;
        default:
          console.log(`${event.type} ${event.id}`);
      }
    },
  }).listen(port, () => console.log(`Receiving webhooks on http://localhost:${port}/webhooks`));
}
