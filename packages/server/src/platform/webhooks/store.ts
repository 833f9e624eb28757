// Storage of webhook endpoints, the event outbox, deliveries and attempts.
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEventSelector } from '@svc/schemas';
import { WEBHOOK_TEST_EVENT_TYPE } from '@svc/schemas';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { transaction } from '../../infra/transaction.js';
import type { DomainEvent } from '../../infra/events.js';
import { newId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { bodyOfDomainEvent, buildEventBody, isDeliverable } from './payloads.js';
import { newSigningSecret, type Sealer } from '../../infra/secrets.js';

/** How long the previous signing secret keeps signing after a rotation (spec: Limits). */
export const PREVIOUS_SECRET_TTL_SECONDS = 24 * 60 * 60;

/** Most endpoints (not deleted) one application may have. */
export const MAX_ENDPOINTS_PER_APPLICATION = 20;

/** A row of `webhook_endpoints`. */
export interface EndpointRow {
  seq: number;
  id: string;
  application_id: string;
  url: string;
  description: string | null;
  events: string;
  status: 'enabled' | 'disabled';
  disabled_reason: 'consecutive_failures' | 'manual' | null;
  disabled_at: string | null;
  consecutive_failures: number;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_ms: number | null;
  secret_rotated_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** A row of `webhook_deliveries` with its event's type. */
export interface DeliveryRow {
  seq: number;
  id: string;
  event_id: string;
  endpoint_id: string;
  event_type: string;
  test: number;
  status: 'pending' | 'acknowledged' | 'failed';
  failure_reason: 'rejected' | 'attempts_exhausted' | 'endpoint_deleted' | null;
  attempt_count: number;
  next_attempt_ms: number | null;
  in_flight: number;
  created_at: string;
  completed_at: string | null;
}

interface AttemptRow {
  delivery_id: string;
  number: number;
  started_at: string;
  finished_at: string | null;
  outcome: WebhookAttempt['outcome'];
  status_code: number | null;
  error: WebhookAttempt['error'];
  error_message: string | null;
  duration_ms: number | null;
  response_body: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The wire shape of an endpoint; `secret` only when just created or rotated. */
export function toEndpoint(row: EndpointRow, nowMs: number, secret?: string): WebhookEndpoint {
  const previousLive =
    row.previous_secret_enc !== null && row.previous_secret_expires_ms !== null && row.previous_secret_expires_ms > nowMs;
  return {
    id: row.id,
    application_id: row.application_id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as WebhookEventSelector[],
    status: row.status,
    consecutive_failures: row.consecutive_failures,
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at,
    secret_rotated_at: row.secret_rotated_at,
    previous_secret_expires_at: previousLive ? iso(row.previous_secret_expires_ms!) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(secret ? { secret } : {}),
  };
}

/** The application's endpoint `id` (not deleted), or undefined. */
export function findEndpoint(ctx: ServerContext, applicationId: string, id: string): EndpointRow | undefined {
  return stmt<[string, string], EndpointRow>(
    ctx.db,
    'SELECT * FROM webhook_endpoints WHERE id = ? AND application_id = ? AND deleted_at IS NULL',
  ).get(id, applicationId);
}

/** A page of the application's endpoints, oldest first. */
export function listEndpoints(ctx: ServerContext, applicationId: string, page: { limit: number; cursor?: string | undefined }) {
  const rows = stmt<[string, number, number], EndpointRow>(
    ctx.db,
    'SELECT * FROM webhook_endpoints WHERE application_id = ? AND deleted_at IS NULL AND seq > ? ORDER BY seq LIMIT ?',
  ).all(applicationId, decodeCursor(page.cursor), page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  const now = ctx.clock.now();
  return { webhook_endpoints: items.map((r) => toEndpoint(r, now)), next_cursor };
}

/** How many endpoints (not deleted) the application has. */
export function countEndpoints(ctx: ServerContext, applicationId: string): number {
  return stmt(ctx.db, 'SELECT count(*) FROM webhook_endpoints WHERE application_id = ? AND deleted_at IS NULL')
    .pluck()
    .get(applicationId) as number;
}

/** Creates an enabled endpoint with a fresh secret; returns the row and the secret (shown once). */
export function createEndpoint(
  ctx: ServerContext,
  sealer: Sealer,
  applicationId: string,
  input: { url: string; events: WebhookEventSelector[]; description?: string | null | undefined },
): { row: EndpointRow; secret: string } {
  const id = newId('we_');
  const secret = newSigningSecret();
  const now = iso(ctx.clock.now());
  transaction(ctx.db, () =>
    stmt(
      ctx.db,
      `INSERT INTO webhook_endpoints (id, application_id, url, description, events, status, consecutive_failures,
                  secret_enc, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'enabled', 0, ?, ?, ?)`,
    ).run(id, applicationId, input.url, input.description ?? null, JSON.stringify(input.events), sealer.seal(secret, id), now, now),
  );
  return { row: findEndpoint(ctx, applicationId, id)!, secret };
}

/**
 * Applies an update. Enabling resets the failure count and lets the endpoint's paused deliveries go out at once;
 * disabling by hand pauses them.
 */
export function updateEndpoint(
  ctx: ServerContext,
  row: EndpointRow,
  changes: {
    url?: string | undefined;
    events?: WebhookEventSelector[] | undefined;
    description?: string | null | undefined;
    status?: 'enabled' | 'disabled' | undefined;
  },
): EndpointRow {
  const nowMs = ctx.clock.now();
  const now = iso(nowMs);
  transaction(ctx.db, () => {
    // The caller read `row` before its own awaits (a URL check resolves names); the worker may have counted failures
    // or disabled the endpoint since, so the state is the one read here, inside the write.
    const current = findEndpoint(ctx, row.application_id, row.id) ?? row;
    const next = {
      url: changes.url ?? current.url,
      events: changes.events ? JSON.stringify(changes.events) : current.events,
      description: changes.description === undefined ? current.description : changes.description,
      status: current.status,
      disabled_reason: current.disabled_reason,
      disabled_at: current.disabled_at,
      consecutive_failures: current.consecutive_failures,
    };
    if (changes.status === 'enabled' && current.status === 'disabled') {
      Object.assign(next, { status: 'enabled', disabled_reason: null, disabled_at: null, consecutive_failures: 0 });
      stmt(
        ctx.db,
        `UPDATE webhook_deliveries SET next_attempt_ms = ? WHERE endpoint_id = ? AND status = 'pending' AND test = 0 AND next_attempt_ms < ?`,
      ).run(nowMs, row.id, nowMs);
    } else if (changes.status === 'disabled' && current.status === 'enabled') {
      Object.assign(next, { status: 'disabled', disabled_reason: 'manual', disabled_at: now });
    }
    stmt(
      ctx.db,
      `UPDATE webhook_endpoints SET url = @url, events = @events, description = @description, status = @status,
                      disabled_reason = @disabled_reason, disabled_at = @disabled_at, consecutive_failures = @consecutive_failures,
                      updated_at = @updated_at WHERE id = @id`,
    ).run({ ...next, updated_at: now, id: row.id });
  });
  return findEndpoint(ctx, row.application_id, row.id)!;
}

/** Deletes an endpoint: it stops receiving, and its pending deliveries fail with `endpoint_deleted`. */
export function deleteEndpoint(ctx: ServerContext, row: EndpointRow): void {
  const now = iso(ctx.clock.now());
  transaction(ctx.db, () => {
    stmt(ctx.db, 'UPDATE webhook_endpoints SET deleted_at = ?, updated_at = ? WHERE id = ?').run(now, now, row.id);
    stmt(
      ctx.db,
      `UPDATE webhook_deliveries SET status = 'failed', failure_reason = 'endpoint_deleted', next_attempt_ms = NULL, completed_at = ?
                    WHERE endpoint_id = ? AND status = 'pending' AND in_flight = 0`,
    ).run(now, row.id);
  });
}

/**
 * Replaces the signing secret. The secret being replaced keeps signing for one day; one that was still in its
 * day from an earlier rotation stops at once (at most two secrets sign).
 */
export function rotateSecret(ctx: ServerContext, sealer: Sealer, row: EndpointRow): { row: EndpointRow; secret: string } {
  const nowMs = ctx.clock.now();
  const secret = newSigningSecret();
  const current = sealer.open(row.secret_enc, row.id);
  transaction(ctx.db, () =>
    stmt(
      ctx.db,
      `UPDATE webhook_endpoints SET secret_enc = ?, previous_secret_enc = ?, previous_secret_expires_ms = ?,
                  secret_rotated_at = ?, updated_at = ? WHERE id = ?`,
    ).run(
      sealer.seal(secret, row.id),
      sealer.seal(current, `${row.id}:previous`),
      nowMs + PREVIOUS_SECRET_TTL_SECONDS * 1000,
      iso(nowMs),
      iso(nowMs),
      row.id,
    ),
  );
  return { row: findEndpoint(ctx, row.application_id, row.id)!, secret };
}

/** The secrets that sign at `nowMs`: the current one first, then the previous one during its day. */
export function signingSecrets(
  row: Pick<EndpointRow, 'id' | 'secret_enc' | 'previous_secret_enc' | 'previous_secret_expires_ms'>,
  sealer: Sealer,
  nowMs: number,
): string[] {
  const secrets = [sealer.open(row.secret_enc, row.id)];
  if (row.previous_secret_enc && row.previous_secret_expires_ms !== null && row.previous_secret_expires_ms > nowMs) {
    secrets.push(sealer.open(row.previous_secret_enc, `${row.id}:previous`));
  }
  return secrets;
}

function insertEvent(
  ctx: ServerContext,
  sealer: Sealer,
  id: string,
  applicationId: string,
  type: string,
  body: string,
  occurredAt: string,
): void {
  stmt(ctx.db, 'INSERT INTO webhook_events (id, application_id, type, body_enc, occurred_at, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
    id,
    applicationId,
    type,
    sealer.seal(body, id),
    occurredAt,
    iso(ctx.clock.now()),
  );
}

function insertDelivery(ctx: ServerContext, eventId: string, endpointId: string, test: boolean, nextAttemptMs: number | null): string {
  const id = newId('whd_');
  stmt(
    ctx.db,
    `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, test, status, next_attempt_ms, created_at) VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
  ).run(id, eventId, endpointId, test ? 1 : 0, nextAttemptMs, iso(ctx.clock.now()));
  return id;
}

/**
 * The outbox writer: runs inside the emitter's transaction, so the event and one delivery per subscribed, enabled
 * endpoint commit (or roll back) with the change that caused them. Returns the event id, or null when no endpoint
 * wants the event.
 */
export function enqueueEvent(ctx: ServerContext, sealer: Sealer, event: DomainEvent): string | null {
  if (!isDeliverable(event.type)) return null;
  const type = event.type;
  const endpoints = stmt<[string], { id: string; events: string }>(
    ctx.db,
    `SELECT id, events FROM webhook_endpoints WHERE application_id = ? AND status = 'enabled' AND deleted_at IS NULL ORDER BY seq`,
  )
    .all(event.application_id)
    .filter((e) => {
      const events = JSON.parse(e.events) as string[];
      return events.includes('*') || events.includes(type);
    });
  if (!endpoints.length) return null;
  const id = newId('evt_');
  const { body, problems } = bodyOfDomainEvent(id, { ...event, type });
  if (problems.length) {
    ctx.metrics.increment('webhooks.payload_invalid_total', { type });
    console.warn(`[svc-server] webhook ${type} ${id} does not match its published schema: ${problems.join('; ')}`);
  }
  const nowMs = ctx.clock.now();
  transaction(ctx.db, () => {
    insertEvent(ctx, sealer, id, event.application_id, type, body, event.occurred_at);
    for (const endpoint of endpoints) insertDelivery(ctx, id, endpoint.id, false, nowMs);
  });
  return id;
}

/** Writes a `webhook.test` event and its (test) delivery to one endpoint; the caller attempts it at once. */
export function createTestDelivery(ctx: ServerContext, sealer: Sealer, row: EndpointRow): string {
  const id = newId('evt_');
  const occurredAt = iso(ctx.clock.now());
  const { body } = buildEventBody(id, WEBHOOK_TEST_EVENT_TYPE, row.application_id, occurredAt, {
    webhook_endpoint_id: row.id,
    message: 'A test delivery from svc. Answer 2xx to acknowledge it.',
  });
  return transaction(ctx.db, () => {
    insertEvent(ctx, sealer, id, row.application_id, WEBHOOK_TEST_EVENT_TYPE, body, occurredAt);
    return insertDelivery(ctx, id, row.id, true, null);
  });
}

const deliverySelect = 'SELECT d.*, e.type AS event_type FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id';

function toDeliveries(ctx: ServerContext, rows: DeliveryRow[]): WebhookDelivery[] {
  if (!rows.length) return [];
  const attempts = stmt<string[], AttemptRow>(
    ctx.db,
    `SELECT * FROM webhook_attempts WHERE delivery_id IN (${rows.map(() => '?').join(',')}) ORDER BY delivery_id, number`,
  ).all(...rows.map((r) => r.id));
  const byDelivery = new Map<string, WebhookAttempt[]>();
  for (const { delivery_id, ...attempt } of attempts) {
    const list = byDelivery.get(delivery_id) ?? [];
    list.push(attempt);
    byDelivery.set(delivery_id, list);
  }
  return rows.map((r) => ({
    id: r.id,
    webhook_endpoint_id: r.endpoint_id,
    event_id: r.event_id,
    event_type: r.event_type,
    test: r.test === 1,
    status: r.status,
    failure_reason: r.failure_reason,
    attempt_count: r.attempt_count,
    next_attempt_at: r.status === 'pending' && r.next_attempt_ms !== null ? iso(r.next_attempt_ms) : null,
    created_at: r.created_at,
    completed_at: r.completed_at,
    attempts: byDelivery.get(r.id) ?? [],
  }));
}

/** One delivery of the endpoint with its attempts, or undefined. */
export function getDelivery(ctx: ServerContext, endpointId: string, id: string): WebhookDelivery | undefined {
  const row = stmt<[string, string], DeliveryRow>(ctx.db, `${deliverySelect} WHERE d.id = ? AND d.endpoint_id = ?`).get(id, endpointId);
  return row ? toDeliveries(ctx, [row])[0] : undefined;
}

/** A page of the endpoint's deliveries with their attempts, newest first. */
export function listDeliveries(
  ctx: ServerContext,
  endpointId: string,
  query: { limit: number; cursor?: string | undefined; status?: string | undefined; event_id?: string | undefined },
): { deliveries: WebhookDelivery[]; next_cursor: string | null } {
  const before = query.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(query.cursor);
  const rows = stmt<unknown[], DeliveryRow>(
    ctx.db,
    `${deliverySelect} WHERE d.endpoint_id = ? AND d.seq < ? AND (? IS NULL OR d.status = ?) AND (? IS NULL OR d.event_id = ?) ORDER BY d.seq DESC LIMIT ?`,
  ).all(endpointId, before, query.status ?? null, query.status ?? null, query.event_id ?? null, query.event_id ?? null, query.limit + 1);
  const { items, next_cursor } = toPage(rows, query.limit, (r) => r.seq);
  return { deliveries: toDeliveries(ctx, items), next_cursor };
}

/** Why a delivery cannot be sent again: it is still pending, or it was a test. */
export type RedeliveryRefusal = 'delivery_pending' | 'test_delivery';

/**
 * Queues the endpoint's finished delivery `id` again, due now: the worker sends it (same event id and body, signed
 * when sent) and retries it on the schedule from the start, as for a new delivery; `attempt_count` starts again
 * at 0 and `attempts` keeps every earlier one. Undefined when the endpoint has no such delivery.
 */
export function redeliver(
  ctx: ServerContext,
  endpointId: string,
  id: string,
): { delivery: WebhookDelivery } | { refused: RedeliveryRefusal } | undefined {
  return transaction(ctx.db, () => {
    const row = stmt<[string, string], DeliveryRow>(ctx.db, `${deliverySelect} WHERE d.id = ? AND d.endpoint_id = ?`).get(id, endpointId);
    if (!row) return undefined;
    if (row.test) return { refused: 'test_delivery' as const };
    if (row.status === 'pending' || row.in_flight) return { refused: 'delivery_pending' as const };
    stmt(
      ctx.db,
      `UPDATE webhook_deliveries SET status = 'pending', failure_reason = NULL, attempt_count = 0, next_attempt_ms = ?, completed_at = NULL
        WHERE id = ?`,
    ).run(ctx.clock.now(), id);
    return { delivery: getDelivery(ctx, endpointId, id)! };
  });
}
