// The delivery worker: polls the outbox on the server clock, POSTs each due delivery, records every attempt, and
// applies the spec's rules (2xx acknowledges; 4xx fails for good; 5xx, other statuses, timeouts and network errors
// retry after 30 s, 2 min, 15 min and 1 h, five attempts in all; five failed deliveries in a row disable the
// endpoint; a success resets the count; test deliveries never count). A refused address (a production application's
// receiver at a non-public address, as the connection resolved it) fails like a network error, before connecting.
//
// Delivery is at least once. An attempt is marked in flight in the database before the request goes out; if the
// server stops (or crashes) before the answer is recorded, the attempt is marked `interrupted` and the delivery is
// sent again, with the same event id and body. Once an answer is recorded as acknowledged it is never sent again.
//
// The limit of five is exact however many deliveries are due together, in every cell: each attempt first takes a
// lease in the control database, beside the endpoint's failure count, and takes it only while the failures plus the
// leases out are below five (any attempt may end its delivery as failed: a 4xx does). So after the fifth failure no
// attempt is in flight and none starts; deliveries still queued stay pending (held, never attempted, never lost)
// until the endpoint is enabled again, which resets the count and sends them.
import { setMaxListeners } from 'node:events';
import type { LookupFunction } from 'node:net';
import { recordActivity } from '../../infra/activity.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { recordDeliveryFailure, type DeliveryFailure } from './audit.js';
import { deliveryHeaders } from './signing.js';
import { signingSecrets, type EndpointRow } from './store.js';
import type { Sealer } from '../../infra/secrets.js';
import { createPolicyAgents, destroyAgents, policyOf, type OutboundPolicy } from '../../infra/outbound/index.js';
import { postDelivery, type PostResult } from './transport.js';

import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS } from '../../infra/retry.js';
export { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS };
/** Consecutive failed deliveries that disable an endpoint. */
export const DISABLE_AFTER_FAILURES = 5;

/** Room for one more attempt: an endpoint's failures plus its attempts in flight (leases) stay below the limit. */
const HAS_ROOM = `e.consecutive_failures + (SELECT count(*) FROM webhook_attempt_leases l WHERE l.endpoint_id = e.id) < ${DISABLE_AFTER_FAILURES}`;

/** Takes an attempt's lease in one statement: none when the endpoint is disabled, deleted or has no room. */
const TAKE_LEASE = `INSERT INTO webhook_attempt_leases (delivery_id, endpoint_id, country, started_ms)
  SELECT ?, e.id, ?, ? FROM webhook_endpoints e
   WHERE e.id = ? AND e.status = 'enabled' AND e.deleted_at IS NULL AND ${HAS_ROOM}`;

/** Tunables of the worker; the defaults are the spec's limits. Tests shorten the timeouts. */
export interface WebhookSettings {
  /** Time allowed to connect (DNS, TCP, TLS). Default 10 000 (`SVC_WEBHOOK_CONNECT_TIMEOUT_MS`). */
  connectTimeoutMs: number;
  /** Time allowed, once connected, for the whole response. Default 15 000 (`SVC_WEBHOOK_READ_TIMEOUT_MS`). */
  readTimeoutMs: number;
  /** How often the outbox is polled, in wall-clock ms. Default 250 (`SVC_WEBHOOK_POLL_MS`). */
  pollMs: number;
  /** Attempts in flight at once. Default 32 (`SVC_WEBHOOK_CONCURRENCY`). */
  concurrency: number;
  /**
   * Attempts in flight at once to one endpoint, so a slow or hanging endpoint cannot hold every slot and delay
   * the others. Default 8 (`SVC_WEBHOOK_ENDPOINT_CONCURRENCY`).
   */
  endpointConcurrency: number;
  /** On close, how long in-flight attempts may finish before they are cut off as `interrupted`. Default 1000. */
  shutdownGraceMs: number;
  /** DNS lookup override, for tests: deliveries and the registration check of endpoint URLs use it. */
  lookup?: LookupFunction;
}

function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The settings from the environment, with the spec's limits as defaults. */
export function settingsFromEnv(): WebhookSettings {
  return {
    connectTimeoutMs: envNumber('SVC_WEBHOOK_CONNECT_TIMEOUT_MS', 10_000),
    readTimeoutMs: envNumber('SVC_WEBHOOK_READ_TIMEOUT_MS', 15_000),
    pollMs: envNumber('SVC_WEBHOOK_POLL_MS', 250),
    concurrency: envNumber('SVC_WEBHOOK_CONCURRENCY', 32),
    endpointConcurrency: envNumber('SVC_WEBHOOK_ENDPOINT_CONCURRENCY', 8),
    shutdownGraceMs: envNumber('SVC_WEBHOOK_SHUTDOWN_GRACE_MS', 1000),
  };
}

interface Claimed {
  deliveryId: string;
  number: number;
  test: boolean;
  eventId: string;
  eventType: string;
  applicationId: string;
  /** The application's address policy: `public` for a production application. */
  policy: OutboundPolicy;
  endpoint: EndpointRow;
  body: string;
}

type Outcome = 'acknowledged' | 'rejected' | 'failed' | 'interrupted';
type AttemptError =
  | 'client_error'
  | 'server_error'
  | 'unexpected_status'
  | 'connect_timeout'
  | 'read_timeout'
  | 'network_error'
  | 'refused_address'
  | 'interrupted';

function classify(result: PostResult): { outcome: Outcome; error: AttemptError | null } {
  if (result.error === 'interrupted') return { outcome: 'interrupted', error: 'interrupted' };
  if (result.error) return { outcome: 'failed', error: result.error };
  const status = result.statusCode ?? 0;
  if (status >= 200 && status < 300) return { outcome: 'acknowledged', error: null };
  if (status >= 400 && status < 500) return { outcome: 'rejected', error: 'client_error' };
  if (status >= 500) return { outcome: 'failed', error: 'server_error' };
  return { outcome: 'failed', error: 'unexpected_status' };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Delivers the outbox of one server. */
export class WebhookWorker {
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Attempts in flight per endpoint (test deliveries excluded). */
  private readonly endpointLoad = new Map<string, number>();
  private readonly abort = new AbortController();
  private readonly agents = createPolicyAgents(64);
  private timer: NodeJS.Timeout | undefined;
  private kicked = false;
  private stopped = false;

  constructor(
    private readonly ctx: ServerContext,
    private readonly sealer: Sealer,
    /** Live settings: changing a field affects the next attempt. */
    readonly settings: WebhookSettings,
  ) {
    // Every attempt in flight listens for the shutdown signal.
    setMaxListeners(0, this.abort.signal);
  }

  /** Recovers attempts a previous run left in flight, then polls every `pollMs`. */
  start(): void {
    this.recover();
    this.timer = setInterval(() => this.poll(), this.settings.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Polls soon (after the current transaction has committed): called when the outbox gains deliveries. */
  kick(): void {
    if (this.kicked || this.stopped) return;
    this.kicked = true;
    setImmediate(() => {
      this.kicked = false;
      this.poll();
    });
  }

  /**
   * Starts attempts for due deliveries, oldest first, up to the concurrency limits. It reads a few times more rows
   * than there are free slots, so deliveries to an endpoint at its own limit do not keep the others waiting.
   */
  poll(): void {
    if (this.stopped) return;
    let free = this.settings.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const due = stmt<[number, number], { id: string; endpoint_id: string }>(
      this.ctx.db,
      `SELECT d.id, d.endpoint_id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.status = 'pending' AND d.next_attempt_ms <= ? AND d.in_flight = 0 AND d.test = 0
          AND e.status = 'enabled' AND e.deleted_at IS NULL AND ${HAS_ROOM}
        ORDER BY d.next_attempt_ms, d.seq LIMIT ?`,
    ).all(this.ctx.clock.now(), Math.min(free * 4, 1000));
    for (const { id, endpoint_id: endpointId } of due) {
      if (free <= 0) break;
      const load = this.endpointLoad.get(endpointId) ?? 0;
      if (load >= this.settings.endpointConcurrency) continue;
      this.endpointLoad.set(endpointId, load + 1);
      free -= 1;
      this.run(id, endpointId);
    }
  }

  /** Attempts one delivery now (a test delivery, or a due one) and resolves when its outcome is recorded. */
  attempt(deliveryId: string): Promise<void> {
    return this.inFlight.get(deliveryId) ?? this.run(deliveryId);
  }

  /** Polls and waits until no delivery is due or in flight (tests, benchmarks); gives up after `timeoutMs`. */
  async drain(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.poll();
      if (!this.inFlight.size) return;
      if (Date.now() > deadline) throw new Error(`webhook deliveries still in flight after ${timeoutMs} ms`);
      await Promise.race([Promise.allSettled(this.inFlight.values()), new Promise((r) => setTimeout(r, 50))]);
    }
  }

  /** Stops polling, lets attempts in flight finish for `shutdownGraceMs`, then cuts the rest off as interrupted. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    if (this.inFlight.size) {
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(this.inFlight.values()),
        new Promise((r) => {
          grace = setTimeout(r, this.settings.shutdownGraceMs);
        }),
      ]);
      clearTimeout(grace);
    }
    this.abort.abort();
    await Promise.allSettled(this.inFlight.values());
    destroyAgents(this.agents);
  }

  private run(deliveryId: string, endpointId?: string): Promise<void> {
    const promise = this.deliver(deliveryId)
      .catch((err: unknown) => {
        console.error('[svc-server] webhook delivery failed unexpectedly', deliveryId, err);
        this.releaseLease(deliveryId);
      })
      .finally(() => {
        this.inFlight.delete(deliveryId);
        if (endpointId !== undefined) {
          const load = (this.endpointLoad.get(endpointId) ?? 1) - 1;
          if (load > 0) this.endpointLoad.set(endpointId, load);
          else this.endpointLoad.delete(endpointId);
        }
        this.poll();
      });
    this.inFlight.set(deliveryId, promise);
    return promise;
  }

  /**
   * Drops the lease of an attempt whose outcome could not be recorded: the delivery stays in flight until the next
   * start, but the endpoint keeps room for its other deliveries.
   */
  private releaseLease(deliveryId: string): void {
    try {
      stmt(this.ctx.db, 'DELETE FROM webhook_attempt_leases WHERE delivery_id = ?').run(deliveryId);
    } catch (err) {
      console.error('[svc-server] could not release a webhook attempt lease', deliveryId, err);
    }
  }

  /** Marks attempts a stopped or crashed run left in flight as interrupted; their deliveries go out again at once. */
  private recover(): void {
    const nowMs = this.ctx.clock.now();
    const now = iso(nowMs);
    this.ctx.db.transaction(() => {
      // Nothing of this cell is in flight before its worker starts: its leases are a previous run's.
      stmt(this.ctx.db, 'DELETE FROM webhook_attempt_leases WHERE country = ?').run(this.ctx.country);
      stmt(
        this.ctx.db,
        `UPDATE webhook_attempts SET outcome = 'interrupted', error = 'interrupted', finished_at = ?,
                             error_message = 'The server stopped during the attempt; the delivery is sent again.'
                           WHERE outcome = 'in_flight'`,
      ).run(now);
      stmt(this.ctx.db, `UPDATE webhook_deliveries SET in_flight = 0, next_attempt_ms = ? WHERE in_flight = 1 AND test = 0`).run(nowMs);
      // A test delivery has one attempt, which the stop cut short.
      stmt(
        this.ctx.db,
        `UPDATE webhook_deliveries SET in_flight = 0, status = 'failed', failure_reason = 'attempts_exhausted', completed_at = ?
                           WHERE in_flight = 1 AND test = 1`,
      ).run(now);
    })();
  }

  /** Records the attempt as in flight and loads what it sends; undefined when the delivery is not attemptable. */
  private claim(deliveryId: string): Claimed | undefined {
    const { db } = this.ctx;
    return db.transaction((): Claimed | undefined => {
      const row = stmt<
        [string],
        {
          test: number;
          status: string;
          in_flight: number;
          event_id: string;
          endpoint_id: string;
          type: string;
          application_id: string;
          environment: 'development' | 'production';
          body_enc: string;
        }
      >(
        db,
        `SELECT d.test, d.status, d.in_flight, d.event_id, d.endpoint_id, e.type, e.application_id,
                coalesce(a.environment, 'production') AS environment, e.body_enc
           FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id LEFT JOIN applications a ON a.id = e.application_id
          WHERE d.id = ?`,
      ).get(deliveryId);
      if (!row || row.status !== 'pending' || row.in_flight) return undefined;
      const endpoint = stmt<[string], EndpointRow>(db, 'SELECT * FROM webhook_endpoints WHERE id = ? AND deleted_at IS NULL').get(
        row.endpoint_id,
      );
      if (!endpoint || (endpoint.status !== 'enabled' && !row.test)) return undefined;
      // A real delivery goes out only with a lease (test deliveries never count, so they need none).
      if (!row.test && !stmt(db, TAKE_LEASE).run(deliveryId, this.ctx.country, this.ctx.clock.now(), endpoint.id).changes) {
        return undefined;
      }
      const number =
        (stmt(db, 'SELECT coalesce(max(number), 0) FROM webhook_attempts WHERE delivery_id = ?').pluck().get(deliveryId) as number) + 1;
      stmt(db, `INSERT INTO webhook_attempts (delivery_id, number, started_at, outcome) VALUES (?, ?, ?, 'in_flight')`).run(
        deliveryId,
        number,
        iso(this.ctx.clock.now()),
      );
      stmt(db, 'UPDATE webhook_deliveries SET in_flight = 1 WHERE id = ?').run(deliveryId);
      return {
        deliveryId,
        number,
        test: row.test === 1,
        eventId: row.event_id,
        eventType: row.type,
        applicationId: row.application_id,
        policy: policyOf(row.environment),
        endpoint,
        body: this.sealer.open(row.body_enc, row.event_id),
      };
    })();
  }

  private async deliver(deliveryId: string): Promise<void> {
    const claimed = this.claim(deliveryId);
    if (!claimed) return;
    const nowMs = this.ctx.clock.now();
    const headers = deliveryHeaders(
      { id: claimed.eventId, type: claimed.eventType },
      claimed.body,
      signingSecrets(claimed.endpoint, this.sealer, nowMs),
      Math.floor(nowMs / 1000),
    );
    const result = await postDelivery(claimed.endpoint.url, claimed.body, headers, {
      policy: claimed.policy,
      connectTimeoutMs: this.settings.connectTimeoutMs,
      readTimeoutMs: this.settings.readTimeoutMs,
      signal: this.abort.signal,
      agents: this.agents,
      ...(this.settings.lookup ? { lookup: this.settings.lookup } : {}),
    });
    this.complete(claimed, result);
  }

  /** Records the attempt's outcome and moves the delivery and its endpoint on, in one transaction. */
  private complete(claimed: Claimed, result: PostResult): void {
    const { db } = this.ctx;
    const nowMs = this.ctx.clock.now();
    const now = iso(nowMs);
    const { outcome, error } = classify(result);
    const endpointId = claimed.endpoint.id;
    db.transaction(() => {
      if (!claimed.test) stmt(db, 'DELETE FROM webhook_attempt_leases WHERE delivery_id = ?').run(claimed.deliveryId);
      stmt(
        db,
        `UPDATE webhook_attempts SET outcome = ?, finished_at = ?, status_code = ?, error = ?, error_message = ?, duration_ms = ?, response_body = ?
                  WHERE delivery_id = ? AND number = ?`,
      ).run(
        outcome,
        now,
        result.statusCode,
        error,
        result.errorMessage ?? (error ? `HTTP ${result.statusCode}` : null),
        result.durationMs,
        result.responseBody,
        claimed.deliveryId,
        claimed.number,
      );

      if (outcome === 'interrupted') {
        if (claimed.test) {
          stmt(
            db,
            `UPDATE webhook_deliveries SET in_flight = 0, status = 'failed', failure_reason = 'attempts_exhausted', next_attempt_ms = NULL, completed_at = ? WHERE id = ?`,
          ).run(now, claimed.deliveryId);
        } else {
          stmt(db, 'UPDATE webhook_deliveries SET in_flight = 0, next_attempt_ms = ? WHERE id = ?').run(nowMs, claimed.deliveryId);
        }
        return;
      }

      const attempts =
        (stmt(db, 'SELECT attempt_count FROM webhook_deliveries WHERE id = ?').pluck().get(claimed.deliveryId) as number) + 1;
      if (outcome === 'acknowledged') {
        stmt(
          db,
          `UPDATE webhook_deliveries SET in_flight = 0, status = 'acknowledged', attempt_count = ?, next_attempt_ms = NULL, completed_at = ? WHERE id = ?`,
        ).run(attempts, now, claimed.deliveryId);
        if (!claimed.test) stmt(db, 'UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id = ?').run(endpointId);
        return;
      }

      const final = outcome === 'rejected' || claimed.test || attempts >= MAX_ATTEMPTS;
      if (!final) {
        const next = nowMs + RETRY_DELAYS_SECONDS[attempts - 1]! * 1000;
        stmt(db, 'UPDATE webhook_deliveries SET in_flight = 0, attempt_count = ?, next_attempt_ms = ? WHERE id = ?').run(
          attempts,
          next,
          claimed.deliveryId,
        );
        return;
      }
      const reason: DeliveryFailure['reason'] = outcome === 'rejected' ? 'rejected' : 'attempts_exhausted';
      stmt(
        db,
        `UPDATE webhook_deliveries SET in_flight = 0, status = 'failed', failure_reason = ?, attempt_count = ?, next_attempt_ms = NULL, completed_at = ? WHERE id = ?`,
      ).run(reason, attempts, now, claimed.deliveryId);
      if (claimed.test) return;

      const failure = {
        delivery_id: claimed.deliveryId,
        webhook_endpoint_id: endpointId,
        url_origin: new URL(claimed.endpoint.url).origin,
        event_id: claimed.eventId,
        event_type: claimed.eventType,
        reason,
        attempt_count: attempts,
        last_status_code: result.statusCode,
        last_error: error,
      };
      recordDeliveryFailure(this.ctx, claimed.applicationId, failure);
      stmt(db, 'UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1 WHERE id = ?').run(endpointId);
      const disabled = stmt(
        db,
        `UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = 'consecutive_failures', disabled_at = ?, updated_at = ?
                                   WHERE id = ? AND status = 'enabled' AND consecutive_failures >= ?`,
      ).run(now, now, endpointId, DISABLE_AFTER_FAILURES);
      if (disabled.changes) {
        recordActivity(this.ctx, claimed.applicationId, 'webhook_endpoint.disabled', {
          webhook_endpoint_id: endpointId,
          url_origin: new URL(claimed.endpoint.url).origin,
          reason: 'consecutive_failures',
          consecutive_failures: DISABLE_AFTER_FAILURES,
        });
        this.ctx.metrics.increment('webhooks.endpoints_disabled_total');
      }
    })();
    this.ctx.metrics.increment('webhooks.attempts_total', { outcome });
  }
}
