// One webhook service per server: the at-rest key, the outbox writer on the domain event bus, and the worker.
import type { ServerContext } from '../../infra/context.js';
import { onClose } from '../../infra/lifecycle.js';
import { loadSealer, type Sealer } from '../../infra/secrets.js';
import { enqueueEvent } from './store.js';
import { settingsFromEnv, WebhookWorker } from './worker.js';

/** What the webhook routes and tests reach through {@link webhookService}. */
export interface WebhookService {
  sealer: Sealer;
  worker: WebhookWorker;
}

const services = new WeakMap<ServerContext, WebhookService>();

/**
 * The server's webhook service, made on first use: it subscribes the outbox writer to every domain event (so the
 * event and its deliveries commit in the emitter's transaction), starts the worker, and stops it on close.
 * Mounting the routes twice on one server (a second `createApp`) reuses it.
 */
export function webhookService(ctx: ServerContext): WebhookService {
  let service = services.get(ctx);
  if (service) return service;
  const sealer = loadSealer(ctx.controlDataDir);
  const worker = new WebhookWorker(ctx, sealer, settingsFromEnv());
  service = { sealer, worker };
  services.set(ctx, service);
  ctx.events.on('*', (eventCtx, event) => {
    if (enqueueEvent(eventCtx, sealer, event)) worker.kick();
  });
  worker.start();
  onClose(ctx, () => worker.stop());
  return service;
}
