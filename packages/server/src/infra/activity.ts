import type { ActivityEvent } from '@svc/schemas';
import { isoNow } from './clock.js';
import type { ServerContext } from './context.js';
import { stmt } from './db.js';
import { newId } from './ids.js';
import { decodeCursor, toPage } from './pagination.js';

/** Appends an event (such as `cors.preflight_denied`) to an application's activity log. */
export function recordActivity(ctx: ServerContext, applicationId: string, type: string, data: Record<string, unknown>): ActivityEvent {
  const event = { id: newId('act_'), application_id: applicationId, type, data, created_at: isoNow(ctx.clock) };
  stmt(ctx.db, 'INSERT INTO activity_events (id, application_id, type, data, created_at) VALUES (?, ?, ?, ?, ?)').run(
    event.id,
    applicationId,
    type,
    JSON.stringify(data),
    event.created_at,
  );
  return event;
}

/** A page of an application's activity, oldest first, optionally of one type. */
export function listActivity(
  ctx: ServerContext,
  applicationId: string,
  page: { limit: number; cursor?: string | undefined; type?: string | undefined },
): { activity_events: ActivityEvent[]; next_cursor: string | null } {
  const rows = stmt<unknown[], { seq: number; id: string; application_id: string; type: string; data: string; created_at: string }>(
    ctx.db,
    `SELECT * FROM activity_events WHERE application_id = ? AND seq > ? AND (? IS NULL OR type = ?) ORDER BY seq LIMIT ?`,
  ).all(applicationId, decodeCursor(page.cursor), page.type ?? null, page.type ?? null, page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return {
    activity_events: items.map(({ seq: _s, data, ...rest }) => ({ ...rest, data: JSON.parse(data) as Record<string, unknown> })),
    next_cursor,
  };
}
