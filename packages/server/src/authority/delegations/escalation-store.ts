// Escalation storage: the rows, their read-time expiry, the principal's decision and the single use of an approval.
// Decisions and authorization records read it; it reads nothing of theirs, so no module cycle forms.
import type { BoundName, Escalation, EscalationStatus, EscalationTrigger, ProposedAction } from '@svc/schemas';
import { ESCALATION_TRIGGERS } from '@svc/schemas';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';

/** How long an escalation waits for the principal (its approval decision's deadline). */
export const ESCALATION_LIFETIME_SECONDS = 24 * 3600;
/** How long an approved escalation can be used, from the approval. */
export const ESCALATION_USE_SECONDS = 24 * 3600;

export interface EscalationRow {
  seq: number;
  id: string;
  account_id: string;
  application_id: string;
  grant_id: string;
  agent_id: string;
  principal_id: string;
  trigger: EscalationTrigger;
  reason: string;
  action: string;
  status: 'pending' | 'approved' | 'denied' | 'countered';
  decision_id: string | null;
  counter_proposal: string | null;
  authorization_record_id: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  used_at: string | null;
}

/** Whether `id` looks like an escalation id; anything else is not looked up. */
export function isEscalationId(id: string): boolean {
  return /^esc_(?:[a-z]{2}_)?[A-Za-z0-9]{20}$/.test(id);
}

/** The status at `now`: a pending escalation past `expires_at` is expired. */
export function escalationStatusAt(row: Pick<EscalationRow, 'status' | 'expires_at'>, now: number): EscalationStatus {
  return row.status === 'pending' && Date.parse(row.expires_at) <= now ? 'expired' : row.status;
}

/** The escalation `id`, whatever its account; undefined when absent. */
export function findEscalationRow(ctx: ServerContext, id: string): EscalationRow | undefined {
  if (!isEscalationId(id)) return undefined;
  return stmt<[string], EscalationRow>(ctx.db, 'SELECT * FROM escalations WHERE id = ?').get(id);
}

/**
 * The stored `action` column: the action, and beside it `lifts`, the bounds the action was beyond when the principal
 * was asked (what an approval lifts; every other bound is checked again when it is used). Never on the wire.
 */
type StoredAction = ProposedAction & { lifts?: BoundName[] };

/** The column's JSON for `action` and the bounds its approval would lift. */
export function storedAction(action: ProposedAction, lifts: readonly BoundName[]): string {
  return JSON.stringify({ ...action, lifts });
}

/** The action an escalation is about. */
export function actionOf(row: EscalationRow): ProposedAction {
  const { lifts: _lifts, ...action } = JSON.parse(row.action) as StoredAction;
  return action;
}

/** The bounds an approval of the escalation lifts (an escalation stored without them: its trigger, or every approval trigger when asked ahead). */
export function liftsOf(row: EscalationRow): BoundName[] {
  const { lifts } = JSON.parse(row.action) as StoredAction;
  if (lifts) return lifts;
  return row.trigger === 'escalation' ? ESCALATION_TRIGGERS.filter((t) => t !== 'escalation') : [row.trigger];
}

/** The wire shape; `decision` only for callers who may open it (never the agent). */
export function toEscalation(ctx: ServerContext, row: EscalationRow, withDecision: boolean): Escalation {
  const decision =
    withDecision && row.decision_id
      ? (stmt<[string], string>(ctx.db, 'SELECT session_token FROM decisions WHERE id = ?').pluck().get(row.decision_id) as unknown as
          | string
          | undefined)
      : undefined;
  return {
    id: row.id,
    status: escalationStatusAt(row, ctx.clock.now()),
    trigger: row.trigger,
    delegation_grant_id: row.grant_id,
    agent_identity_id: row.agent_id,
    principal_id: row.principal_id,
    application_id: row.application_id,
    action: actionOf(row),
    reason: row.reason,
    counter_proposal: row.counter_proposal,
    ...(withDecision ? { decision: decision ? { session_token: decision, url: `${ctx.trustUrl}/decisions/${decision}` } : null } : {}),
    authorization_record_id: row.authorization_record_id,
    created_at: row.created_at,
    expires_at: row.expires_at,
    decided_at: row.decided_at,
    used_at: row.used_at,
  };
}

/**
 * The escalation an approval decision of `accountId` answers, when its `subject_ref` names one of the account's
 * escalations; undefined for a free-form reference (approvals made before escalations existed, or for the
 * organisation's own workflows).
 */
export function escalationOfDecision(ctx: ServerContext, accountId: string, subjectRef: string): EscalationRow | undefined {
  const row = findEscalationRow(ctx, subjectRef);
  return row?.account_id === accountId ? row : undefined;
}

/**
 * Records the principal's answer on the escalation, inside the completion's transaction. Returns false when the
 * escalation was no longer pending (decided through another decision, or expired): the caller refuses the step.
 */
export function decideEscalation(
  ctx: ServerContext,
  id: string,
  answer: { outcome: 'approved' | 'denied' | 'countered'; decidedAt: string; counterProposal: string | null; recordId: string },
): boolean {
  const done = stmt(
    ctx.db,
    `UPDATE escalations SET status = ?, decided_at = ?, counter_proposal = ?, authorization_record_id = ?
    WHERE id = ? AND status = 'pending' AND expires_at > ?`,
  ).run(answer.outcome, answer.decidedAt, answer.counterProposal, answer.recordId, id, answer.decidedAt);
  return done.changes === 1;
}
