import type { ServerContext } from './context.js';

/** Something that happened to a decision or record; webhooks and the audit trail listen for these. */
export interface DomainEvent {
  /** Event type as webhooks name it, e.g. `consent.granted`, `consent.purpose_revoked`, `approval.countered`. */
  type: string;
  /** The application the event belongs to (webhook subscriptions are per application). */
  application_id: string;
  /** ISO 8601 time of the change, read from the server clock. */
  occurred_at: string;
  /** The event's payload (snake_case, JSON-serialisable). */
  data: Record<string, unknown>;
}

/** A listener; it runs synchronously inside the emitter's database transaction. */
export type DomainEventHandler = (ctx: ServerContext, event: DomainEvent) => void;

/**
 * Synchronous in-process event bus. Emitters call `emit` inside the same better-sqlite3 transaction as the
 * change, so a listener that writes (the webhook outbox) commits or rolls back together with it.
 */
export class DomainEvents {
  private readonly handlers: { type: string; handler: DomainEventHandler }[] = [];

  /** Registers a handler for one event type, a prefix ending in `.*` (e.g. `consent.*`), or `*`. */
  on(type: string, handler: DomainEventHandler): void {
    this.handlers.push({ type, handler });
  }

  /** Delivers an event to every matching handler, in registration order. */
  emit(ctx: ServerContext, event: DomainEvent): void {
    for (const { type, handler } of this.handlers) {
      const matches = type === '*' || type === event.type || (type.endsWith('.*') && event.type.startsWith(type.slice(0, -1)));
      if (matches) handler(ctx, event);
    }
  }
}
