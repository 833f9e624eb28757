/**
 * A webhook receiver in Hono (the same code runs on Node, Bun, Deno and Workers; `verifyWebhook` uses Web Crypto).
 * It verifies each delivery against the raw body, acts on each event id once, and answers 2xx to a delivery it
 * has already processed (the service delivers at least once and retries with the same `X-Svc-Event-ID`).
 *
 * Run:  SVC_WEBHOOK_SECRET=whsec_... PORT=3000 node --import tsx examples/webhook-receiver-hono.ts
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { pathToFileURL } from 'node:url';
import { isWebhookVerificationError, verifyWebhook, type WebhookEvent } from '@svc/client';

/** Options of {@link createWebhookApp}. */
export interface HonoReceiverOptions {
  /** The endpoint's signing secret (or both, during the day after a rotation). */
  secrets: string | string[];
  /** Does the work for one event; throw to have the service retry it later. */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
  /** The current time in ms, when the service runs on a test clock. */
  now?: () => number;
}

/** A Hono app that receives webhooks on `POST /webhooks`. */
export function createWebhookApp(options: HonoReceiverOptions): Hono {
  // Event ids already processed; in production a table with a unique event id, written with the work.
  const processed = new Set<string>();
  const app = new Hono();

  app.post('/webhooks', async (c) => {
    // The raw bytes: c.req.json() would re-serialise differently from what was signed.
    const rawBody = await c.req.arrayBuffer();
    let event: WebhookEvent;
    try {
      event = await verifyWebhook(rawBody, c.req.raw.headers, options.secrets, options.now ? { now: options.now() } : {});
    } catch (err) {
      if (isWebhookVerificationError(err) && err.code === 'ERR_SVC_WEBHOOK_UNKNOWN_EVENT') return c.json({ received: true, ignored: true });
      if (isWebhookVerificationError(err)) return c.json({ error: err.code, reason: err.reason ?? null }, 400);
      throw err;
    }

    if (processed.has(event.id)) return c.json({ received: true, duplicate: true });
    try {
      await options.onEvent(event);
    } catch {
      return c.json({ error: 'processing_failed' }, 500); // the service retries with the same event id
    }
    processed.add(event.id);
    return c.json({ received: true, duplicate: false });
  });

  return app;
}

// Started directly: listen on PORT and log each event.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secrets = (process.env.SVC_WEBHOOK_SECRET ?? '').split(',').filter(Boolean);
  if (!secrets.length) throw new Error('Set SVC_WEBHOOK_SECRET to the endpoint\'s signing secret (whsec_...).');
  const port = Number(process.env.PORT ?? 3000);
  const app = createWebhookApp({ secrets, onEvent: (event) => console.log(`${event.type} ${event.id}`) });
  serve({ fetch: app.fetch, port }, () => console.log(`Receiving webhooks on http://localhost:${port}/webhooks`));
}
