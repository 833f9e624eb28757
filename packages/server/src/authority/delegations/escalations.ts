// Escalations: an agent's action beyond its grant, put to the principal as an approval decision (kind approval,
// subject_ref the escalation id) on the same hosted page and element consent uses. The decision's completion
// decides the escalation (decisions/kinds/approval/record.ts); an approval then lets exactly that action through once.
import type { BoundName, Escalation, EscalationStatus, EscalationTrigger, ProposedAction } from '@svc/schemas';
import { appendAuditEvent } from '../../consent/audit/chain.js';
import { createDecision } from '../../consent/decisions/store.js';
import { isoNow } from '../../infra/clock.js';
import type { Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { notFound } from '../../infra/errors.js';
import { homedId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import {
  ESCALATION_LIFETIME_SECONDS,
  escalationStatusAt,
  findEscalationRow,
  storedAction,
  toEscalation,
  type EscalationRow,
} from './escalation-store.js';
import type { GrantRecord } from './grants.js';

/**
 * Opens an escalation of `action` under `grant` (its approval lifts the bounds `lifts`, no other) and the approval
 * decision the principal answers, in the caller's transaction; appends `escalation.opened` to the audit chain and
 * emits it to webhooks with the decision's hosted page (a full page: a link for the principal; an organisation
 * embeds its own decision for the escalation).
 */
export function openEscalation(
  ctx: ServerContext,
  agent: Extract<Principal, { kind: 'agent' }>,
  grant: GrantRecord,
  action: ProposedAction,
  trigger: EscalationTrigger,
  reason: string,
  lifts: readonly BoundName[],
): EscalationRow {
  return transaction(ctx.db, () => {
    const id = homedId(ctx.country, 'esc_', 20);
    const now = isoNow(ctx.clock);
    const expiresAt = new Date(ctx.clock.now() + ESCALATION_LIFETIME_SECONDS * 1000).toISOString();
    stmt(
      ctx.db,
      `INSERT INTO escalations (id, account_id, application_id, grant_id, agent_id, principal_id, trigger, reason, action, status,
      created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
    ).run(
      id,
      grant.account_id,
      grant.application_id,
      grant.id,
      agent.agentId,
      grant.principal_id,
      trigger,
      reason,
      storedAction(action, lifts),
      now,
      expiresAt,
    );
    // The hosted page the inbox and the webhook point at; an organisation may open an embedded or popup decision for
    // the same escalation with POST /api/v1/decisions (subject_ref = the escalation id). The first answer decides.
    const decision = createDecision(
      ctx,
      agent,
      { kind: 'approval', subject_ref: id, delivery_mode: 'redirect', scope: action.scope },
      { applicationId: grant.application_id, deadlineAt: expiresAt },
    );
    stmt(ctx.db, 'UPDATE escalations SET decision_id = ? WHERE id = ?').run(decision.id, id);
    appendAuditEvent(ctx, {
      applicationId: grant.application_id,
      type: 'escalation.opened',
      occurredAt: now,
      data: {
        escalation_id: id,
        delegation_grant_id: grant.id,
        agent_identity_id: agent.agentId,
        trigger,
        decision_id: decision.id,
        scope: action.scope,
        action: action.action,
      },
    });
    ctx.events.emit(ctx, {
      type: 'escalation.opened',
      application_id: grant.application_id,
      occurred_at: now,
      data: {
        escalation_id: id,
        delegation_grant_id: grant.id,
        agent_identity_id: agent.agentId,
        user_id: grant.principal_id,
        trigger,
        reason,
        action,
        decision: { session_token: decision.session_token, url: `${ctx.trustUrl}/decisions/${decision.session_token}` },
        expires_at: expiresAt,
      },
    });
    return findEscalationRow(ctx, id)!;
  });
}

/** Whether `principal` may see the escalation, and whether with its decision (everyone but the agent). */
function access(principal: Principal, row: EscalationRow): 'none' | 'without_decision' | 'with_decision' {
  if (row.account_id !== principal.accountId) return 'none';
  switch (principal.kind) {
    case 'api_token':
      return 'with_decision';
    case 'person':
      return row.principal_id === principal.personId ? 'with_decision' : 'none';
    case 'agent':
      return row.agent_id === principal.agentId && row.grant_id === principal.grantId ? 'without_decision' : 'none';
    default:
      return 'none';
  }
}

/** The escalation `id` as `principal` may see it, or 404. */
export function visibleEscalation(ctx: ServerContext, principal: Principal, id: string): Escalation {
  const row = findEscalationRow(ctx, id);
  const seen = row ? access(principal, row) : 'none';
  if (!row || seen === 'none') throw notFound('No such escalation.');
  return toEscalation(ctx, row, seen === 'with_decision');
}

/** A page of the escalations `principal` may see, oldest first. */
export function listEscalations(
  ctx: ServerContext,
  principal: Principal,
  page: {
    limit: number;
    cursor?: string | undefined;
    status?: EscalationStatus | undefined;
    trigger?: EscalationTrigger | undefined;
    /** Only those created at or after this instant (RFC 3339). */
    createdSince?: string | undefined;
  },
): { escalations: Escalation[]; next_cursor: string | null } {
  let where: string;
  let arg: string;
  if (principal.kind === 'api_token') [where, arg] = ['account_id = ?', principal.accountId];
  else if (principal.kind === 'person') [where, arg] = ['principal_id = ?', principal.personId];
  else if (principal.kind === 'agent') [where, arg] = ['grant_id = ?', principal.grantId];
  else return { escalations: [], next_cursor: null };
  const now = ctx.clock.now();
  // Stored created_at values are all toISOString() (UTC, milliseconds), so the bound is too; the epoch when none.
  const since = new Date(page.createdSince ?? 0).toISOString();
  const out: EscalationRow[] = [];
  let cursor = decodeCursor(page.cursor);
  let more = true;
  while (out.length <= page.limit && more) {
    const rows = stmt<[string, string, number, string | null, string | null, string], EscalationRow>(
      ctx.db,
      `SELECT * FROM escalations WHERE account_id = ? AND ${where} AND seq > ? AND (? IS NULL OR trigger = ?) AND created_at >= ?
        ORDER BY seq LIMIT 200`,
    ).all(principal.accountId, arg, cursor, page.trigger ?? null, page.trigger ?? null, since);
    more = rows.length === 200;
    for (const row of rows) {
      cursor = row.seq;
      if (!page.status || escalationStatusAt(row, now) === page.status) out.push(row);
      if (out.length > page.limit) break;
    }
  }
  const { items, next_cursor } = toPage(out, page.limit, (r) => r.seq);
  return { escalations: items.map((r) => toEscalation(ctx, r, access(principal, r) === 'with_decision')), next_cursor };
}
