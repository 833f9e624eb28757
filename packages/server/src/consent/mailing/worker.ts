// The mailing outbox's worker: polls on the server clock and writes each due permission to the provider through its
// client. A refusal or an unreachable provider is retried on the outboxes' schedule (infra/retry.ts, the webhooks'
// and mail's); after the last attempt the write is `failed` with its last error. A sent write drops the sealed email
// and is remembered as the service's own (the echo guard). Delivery is at least once: a write left in flight by a
// stopped run is sent again on the next start.
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { checkDestination, policyOf } from '../../infra/outbound/index.js';
import { nextAttemptMs } from '../../infra/retry.js';
import { findApplication } from '../../platform/application-store.js';
import { sealerOf } from '../form-platforms/store.js';
import { EXPIRY_SWEEP_MS, sweepExpired } from './expiry.js';
import { mailingClient, productionBaseUrlRefusal, ProviderError, type MailingClient } from './providers.js';
import { apiKeyOf, findMailingConnection, rememberWrite, type MailingConnectionRow, type MailingOutboxRow } from './store.js';

/** Per-request timeout of provider calls. */
export const PROVIDER_TIMEOUT_MS = 10_000;
const MAX_ERROR = 300;

/**
 * The connection's client. A production application's `api_base_url` is checked again before each use: it must be
 * the provider's own API (a connection stored before that rule is refused here), and a private or loopback
 * destination is refused.
 */
export async function clientOf(ctx: ServerContext, row: MailingConnectionRow): Promise<MailingClient> {
  const environment = findApplication(ctx, row.application_id)?.environment ?? 'production';
  if (row.api_base_url) {
    const own = environment === 'production' ? productionBaseUrlRefusal(row.provider, row.api_base_url) : undefined;
    if (own) throw new ProviderError(`api_base_url ${own.message}`, undefined);
    const refusal = await checkDestination(row.api_base_url, policyOf(environment));
    if (refusal) throw new ProviderError(refusal.message, undefined);
  }
  return mailingClient({
    provider: row.provider,
    apiKey: apiKeyOf(ctx, row),
    apiBaseUrl: row.api_base_url,
    listId: row.list_id,
    marketingPermissionId: row.marketing_permission_id,
    timeoutMs: PROVIDER_TIMEOUT_MS,
  });
}

/** Writes the outbox of one server context. */
export class MailingWorker {
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private lastSweepMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ctx: ServerContext,
    private readonly settings: { pollMs: number; concurrency: number } = { pollMs: 1000, concurrency: 4 },
  ) {}

  /** Recovers writes a previous run left in flight, then polls every `pollMs`. */
  start(): void {
    stmt(this.ctx.db, "UPDATE mailing_outbox SET in_flight = 0 WHERE in_flight = 1 AND status = 'pending'").run();
    this.timer = setInterval(() => this.poll(), this.settings.pollMs);
    this.timer.unref();
  }

  /** Polls soon, once the current transaction has committed. */
  kick(): void {
    if (!this.stopped) setImmediate(() => this.poll());
  }

  /** Starts due writes, oldest first, up to the concurrency limit. */
  poll(): void {
    if (this.stopped) return;
    const nowMs = this.ctx.clock.now();
    if (nowMs - this.lastSweepMs >= EXPIRY_SWEEP_MS) {
      this.lastSweepMs = nowMs;
      sweepExpired(this.ctx);
    }
    const free = this.settings.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const due = stmt<[number, number], string>(
      this.ctx.db,
      // A member's writes go out in order: one waits while an earlier one for the same member is pending.
      `SELECT id FROM mailing_outbox o WHERE status = 'pending' AND next_attempt_ms <= ? AND in_flight = 0
        AND NOT EXISTS (SELECT 1 FROM mailing_outbox e WHERE e.member_hash = o.member_hash AND e.status = 'pending' AND e.seq < o.seq)
        ORDER BY next_attempt_ms, seq LIMIT ?`,
    )
      .pluck()
      .all(this.ctx.clock.now(), free) as unknown as string[];
    for (const id of due) if (!this.inFlight.has(id)) this.run(id);
  }

  /** Polls and waits until no write is due or in flight (tests); gives up after `timeoutMs`. */
  async drain(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.poll();
      if (!this.inFlight.size) return;
      if (Date.now() > deadline) throw new Error(`mailing writes still in flight after ${timeoutMs} ms`);
      await Promise.allSettled(this.inFlight.values());
    }
  }

  /** Stops polling and waits for writes in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.allSettled(this.inFlight.values());
  }

  private run(id: string): void {
    const promise = this.deliver(id)
      .catch((err: unknown) => console.error('[svc-server] mailing write failed unexpectedly', id, err))
      .finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, promise);
  }

  private claim(id: string): { row: MailingOutboxRow; email: string; connection: MailingConnectionRow | undefined } | undefined {
    const { db } = this.ctx;
    return db.transaction(() => {
      const row = stmt<[string], MailingOutboxRow>(db, 'SELECT * FROM mailing_outbox WHERE id = ?').get(id);
      if (!row || row.status !== 'pending' || row.in_flight || row.email_enc === null) return undefined;
      stmt(db, 'UPDATE mailing_outbox SET in_flight = 1 WHERE id = ?').run(id);
      return { row, email: sealerOf(this.ctx).open(row.email_enc, row.id), connection: findMailingConnection(this.ctx, row.connection_id) };
    })();
  }

  private async deliver(id: string): Promise<void> {
    const claimed = this.claim(id);
    if (!claimed) return;
    const { row, email, connection } = claimed;
    let error: string | undefined;
    if (connection?.status !== 'active') error = 'The connection is disconnected.';
    else {
      try {
        await (await clientOf(this.ctx, connection)).write(email, row.enabled === 1);
      } catch (err) {
        // Providers name the address in some refusals; the outbox keeps no address once a write is done.
        error = (err instanceof Error ? err.message : String(err)).split(email).join('<member>').slice(0, MAX_ERROR);
      }
    }
    if (this.stopped) return; // recovered as in flight on the next start
    this.complete(row, error, connection?.status !== 'active');
  }

  /** Records the attempt: sent (the email dropped, the state remembered), due again later, or failed for good. */
  private complete(row: MailingOutboxRow, error: string | undefined, final: boolean): void {
    const { ctx } = this;
    const nowMs = ctx.clock.now();
    ctx.db.transaction(() => {
      if (error === undefined) {
        stmt(
          ctx.db,
          `UPDATE mailing_outbox SET status = 'sent', in_flight = 0, attempt_count = attempt_count + 1, next_attempt_ms = NULL,
            last_error = NULL, email_enc = NULL, completed_at = ? WHERE id = ?`,
        ).run(isoNow(ctx.clock), row.id);
        rememberWrite(ctx, row.connection_id, row.member_hash, row.enabled === 1);
        return;
      }
      const next = final ? undefined : nextAttemptMs(row.attempt_count + 1, nowMs);
      stmt(
        ctx.db,
        `UPDATE mailing_outbox SET status = ?, in_flight = 0, attempt_count = attempt_count + 1, next_attempt_ms = ?, last_error = ?,
          email_enc = CASE WHEN ? THEN NULL ELSE email_enc END, completed_at = ? WHERE id = ?`,
      ).run(
        next === undefined ? 'failed' : 'pending',
        next ?? null,
        error,
        next === undefined ? 1 : 0,
        next === undefined ? isoNow(ctx.clock) : null,
        row.id,
      );
    })();
  }
}
