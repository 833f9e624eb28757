// Meeting consents: a meeting of the organisation (its time, platform and external id), the flow its attendees'
// consent decisions use (the template) and the agent identities that attend it (AI note-takers it discloses). A
// meeting holds no attendee: each person's answer is a decision (`meeting_id`), homed with its application. So the
// meeting is organisation configuration, kept in the control plane and readable in every cell, where decisions name
// it.
import { createMeetingConsentRequest, type MeetingConsent, type MeetingConsentListQuery, type MeetingConsentStatus } from '@svc/schemas';
import type { z } from 'zod/mini';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError, unprocessable } from '../../infra/errors.js';
import { newId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import { assertTemplate, governanceOf } from './governance.js';

export interface MeetingRow {
  seq: number;
  id: string;
  account_id: string;
  title: string | null;
  description: string | null;
  platform: string | null;
  external_meeting_id: string | null;
  scheduled_at: string | null;
  starts_at: string;
  ends_at: string;
  duration_minutes: number;
  template: string;
  agent_ids: string;
  created_at: string;
  updated_at: string;
  cancelled_at: string | null;
}

const MEETING_ID = /^mtg_[A-Za-z0-9]{16,24}$/;

/** The status at `now`: cancelled, else where now falls against the meeting's time. */
export function statusOf(row: Pick<MeetingRow, 'cancelled_at' | 'starts_at' | 'ends_at'>, now: string): MeetingConsentStatus {
  if (row.cancelled_at) return 'cancelled';
  if (now < row.starts_at) return 'scheduled';
  return now < row.ends_at ? 'in_progress' : 'ended';
}

export function toMeeting(ctx: ServerContext, row: MeetingRow): MeetingConsent {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    platform: row.platform,
    external_meeting_id: row.external_meeting_id,
    scheduled_at: row.scheduled_at,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    duration_minutes: row.duration_minutes,
    template: row.template,
    agent_ids: JSON.parse(row.agent_ids) as string[],
    status: statusOf(row, isoNow(ctx.clock)),
    created_at: row.created_at,
    updated_at: row.updated_at,
    cancelled_at: row.cancelled_at,
  };
}

/** The account's meeting `id`, or undefined. */
export function findMeeting(ctx: ServerContext, accountId: string, id: string): MeetingRow | undefined {
  if (!MEETING_ID.test(id)) return undefined;
  const row = stmt<[string], MeetingRow>(ctx.db, 'SELECT * FROM meeting_consents WHERE id = ?').get(id);
  return row?.account_id === accountId ? row : undefined;
}

/** The template a meeting uses when the request names none: the governance default, else the oldest active flow. */
function defaultTemplate(ctx: ServerContext, accountId: string): string {
  const configured = governanceOf(ctx, accountId).default_meeting_template;
  if (configured) return configured;
  const oldest = stmt<[string], string>(ctx.db, "SELECT id FROM flows WHERE account_id = ? AND status = 'active' ORDER BY seq LIMIT 1")
    .pluck()
    .get(accountId) as string | undefined;
  if (!oldest) {
    throw unprocessable(
      "The account has no active flow to serve as the meeting's consent template; name one in template.",
      'template_missing',
      [{ path: 'template', code: 'template_missing', message: 'no default template' }],
    );
  }
  return oldest;
}

/**
 * Creates a meeting consent: starts at `scheduled_at` (default now) and ends `duration_minutes` (default 60) later,
 * and must not have ended already (422 `scheduled_at_invalid`); the template is an active flow of the account (422
 * `template_not_found`, `template_not_active`); every agent is an active agent identity of the account (422
 * `agent_not_found`, `agent_not_active`).
 */
export function createMeeting(ctx: ServerContext, accountId: string, input: z.output<typeof createMeetingConsentRequest>): MeetingConsent {
  const now = isoNow(ctx.clock);
  const startsAt = input.scheduled_at === undefined ? now : new Date(input.scheduled_at).toISOString();
  const endsAt = new Date(Date.parse(startsAt) + input.duration_minutes * 60_000).toISOString();
  if (endsAt <= now) {
    throw unprocessable(
      'The meeting would have ended already: scheduled_at plus duration_minutes lies in the past.',
      'scheduled_at_invalid',
      [{ path: 'scheduled_at', code: 'scheduled_at_invalid', message: 'the meeting would have ended already' }],
    );
  }
  const template = input.template ?? defaultTemplate(ctx, accountId);
  assertTemplate(ctx, accountId, template, 'template');
  const agentIds = input.agent_ids ?? [];
  agentIds.forEach((agentId, i) => {
    const agent = stmt<[string], { account_id: string; status: string }>(
      ctx.db,
      'SELECT account_id, status FROM agent_identities WHERE id = ?',
    ).get(agentId);
    if (agent?.account_id !== accountId) {
      throw unprocessable(`${agentId} is not an agent identity of this account.`, 'agent_not_found', [
        { path: `agent_ids.${i}`, code: 'agent_not_found', message: 'not an agent identity of this account' },
      ]);
    }
    if (agent.status !== 'active') {
      throw unprocessable(`Agent ${agentId} is ${agent.status}: only an active agent can attend a meeting.`, 'agent_not_active', [
        { path: `agent_ids.${i}`, code: 'agent_not_active', message: `the agent is ${agent.status}` },
      ]);
    }
  });
  const id = newId('mtg_', 20);
  transaction(ctx.db, () =>
    stmt(
      ctx.db,
      `INSERT INTO meeting_consents (id, account_id, title, description, platform, external_meeting_id, scheduled_at,
      starts_at, ends_at, duration_minutes, template, agent_ids, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      accountId,
      input.title ?? null,
      input.description ?? null,
      input.platform ?? null,
      input.external_meeting_id ?? null,
      input.scheduled_at === undefined ? null : startsAt,
      startsAt,
      endsAt,
      input.duration_minutes,
      template,
      JSON.stringify(agentIds),
      now,
      now,
    ),
  );
  return toMeeting(ctx, findMeeting(ctx, accountId, id)!);
}

/** Cancels a scheduled or running meeting; an ended or cancelled one is final (409 `illegal_transition`). */
export function cancelMeeting(ctx: ServerContext, row: MeetingRow): MeetingConsent {
  const now = isoNow(ctx.clock);
  const status = statusOf(row, now);
  if (status === 'ended' || status === 'cancelled') {
    throw new ApiError(409, `The meeting cannot go from ${status} to cancelled: ${status} is final.`, 'illegal_transition');
  }
  transaction(ctx.db, () =>
    stmt(ctx.db, 'UPDATE meeting_consents SET cancelled_at = ?, updated_at = ? WHERE id = ?').run(now, now, row.id),
  );
  return toMeeting(ctx, { ...row, cancelled_at: now, updated_at: now });
}

/** A page of the account's meetings, oldest first, optionally of one status (as it is now). */
export function listMeetings(
  ctx: ServerContext,
  accountId: string,
  query: Pick<MeetingConsentListQuery, 'cursor' | 'status'> & { limit: number },
) {
  const now = isoNow(ctx.clock);
  const status = query.status ?? null;
  const rows = stmt<unknown[], MeetingRow>(
    ctx.db,
    `
    SELECT * FROM meeting_consents WHERE account_id = ? AND seq > ? AND (? IS NULL
      OR (? = 'cancelled' AND cancelled_at IS NOT NULL)
      OR (cancelled_at IS NULL AND (
            (? < starts_at AND ? = 'scheduled')
         OR (? >= starts_at AND ? < ends_at AND ? = 'in_progress')
         OR (? >= ends_at AND ? = 'ended'))))
    ORDER BY seq LIMIT ?`,
  ).all(accountId, decodeCursor(query.cursor), status, status, now, status, now, now, status, now, status, query.limit + 1);
  const { items, next_cursor } = toPage(rows, query.limit, (r) => r.seq);
  return { meeting_consents: items.map((r) => toMeeting(ctx, r)), next_cursor };
}

/**
 * Checks a decision's `meeting_id` (`POST /api/v1/decisions`): a meeting of the account (422 `meeting_not_found`)
 * that has neither ended nor been cancelled (409 `meeting_closed`); a consent decision asks with the meeting's
 * template (422 `meeting_template_mismatch`).
 */
export function assertMeetingOpen(
  ctx: ServerContext,
  accountId: string,
  meetingId: string,
  request: { kind: string; subject_ref: string },
): void {
  const row = findMeeting(ctx, accountId, meetingId);
  if (!row) {
    throw unprocessable(
      `meeting_id ${meetingId} is not a meeting consent of this account (POST /api/v1/meeting_consents makes one).`,
      'meeting_not_found',
      [{ path: 'meeting_id', code: 'meeting_not_found', message: 'not a meeting consent of this account' }],
    );
  }
  const status = statusOf(row, isoNow(ctx.clock));
  if (status === 'ended' || status === 'cancelled') {
    throw new ApiError(409, `Meeting ${row.id} is ${status}: no decision can be opened for it.`, 'meeting_closed', [
      { path: 'meeting_id', code: 'meeting_closed', message: `the meeting is ${status}` },
    ]);
  }
  if (request.kind === 'consent' && request.subject_ref !== row.template) {
    throw unprocessable(
      `Meeting ${row.id} asks consent with flow ${row.template}; subject_ref names ${request.subject_ref}.`,
      'meeting_template_mismatch',
      [{ path: 'subject_ref', code: 'meeting_template_mismatch', message: `the meeting's template is ${row.template}` }],
    );
  }
}
