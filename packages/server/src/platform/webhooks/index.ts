// Webhooks: endpoints (subscriptions), the durable outbox, the delivery worker and its HTTP routes.
export { webhookRoutes } from './routes.js';
export { webhookService, type WebhookService } from './service.js';
export { DELIVERY_FAILED_EVENT, type DeliveryFailure } from './audit.js';
export { DISABLE_AFTER_FAILURES, MAX_ATTEMPTS, RETRY_DELAYS_SECONDS, type WebhookSettings } from './worker.js';
export { PREVIOUS_SECRET_TTL_SECONDS } from './store.js';
