// The authority check: an agent asks before it acts. The action is held against every bound of its grant (and its
// token's scopes) now, in one transaction with the day's count, so two actions racing for the last of the daily
// allowance cannot both pass. Allowed is recorded as `authority exercised`; beyond a bound is escalated to the
// principal when the grant allows it, else denied naming the bound.
import type { AuthorityCheck, AuthorityCheckRequest, CreateEscalationRequest, Escalation, ProposedAction } from '@svc/client/schemas';
import { appendAuditEvent } from '../audit/chain.js';
import { isoNow } from '../lib/clock.js';
import type { Principal, ServerContext } from '../lib/context.js';
import { stmt } from '../lib/db.js';
import { ApiError, notFound, unprocessable } from '../lib/errors.js';
import { newId } from '../lib/ids.js';
import { transaction } from '../lib/transaction.js';
import { escalationAllowed, firstFailedBound, triggerOf, type BoundFailure } from './bounds.js';
import { ESCALATION_USE_SECONDS, actionOf, escalationStatusAt, findEscalationRow, toEscalation } from './escalation-store.js';
import { openEscalation } from './escalations.js';
import { findGrant, termsOf, type GrantRecord } from './grants.js';
import { trustScore } from './trust-score.js';

type AgentPrincipal = Extract<Principal, { kind: 'agent' }>;

/** What the route answers: 200 allowed or 202 escalated. A denial is thrown (403 `bound_exceeded`). */
export interface CheckAnswer {
  status: 200 | 202;
  check: AuthorityCheck;
}

/** The UTC day an action counts against. */
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function proposalOf(input: Omit<AuthorityCheckRequest, 'escalation_id'>): ProposedAction {
  return {
    scope: input.scope,
    action: input.action,
    value: input.value ?? null,
    currency: input.currency ?? null,
    jurisdiction: input.jurisdiction ?? null,
    description: input.description.trim(),
  };
}

/** The refusal of an action beyond `failure`'s bound. */
export function boundExceeded(failure: Pick<BoundFailure, 'bound' | 'path' | 'message'>, extra = ''): ApiError {
  return new ApiError(403, `${failure.message}${extra}`, 'bound_exceeded', [{ path: failure.path, code: failure.bound, message: failure.message }]);
}

function recordAction(ctx: ServerContext, agent: AgentPrincipal, action: ProposedAction, outcome: 'allowed' | 'denied' | 'escalated',
  bound: string | null, escalationId: string | null): string {
  const id = newId('act_', 20);
  const now = ctx.clock.now();
  stmt(ctx.db, `INSERT INTO authority_actions (id, grant_id, agent_id, day, outcome, bound, scope, action, value, currency, jurisdiction, escalation_id, at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(id, agent.grantId, agent.agentId, dayOf(now), outcome, bound, action.scope, action.action,
    action.value, action.currency, action.jurisdiction, escalationId, isoNow(ctx.clock));
  return id;
}

function allowedToday(ctx: ServerContext, grantId: string): number {
  return stmt<[string, string], number>(ctx.db, "SELECT COUNT(*) FROM authority_actions WHERE grant_id = ? AND day = ? AND outcome = 'allowed'")
    .pluck().get(grantId, dayOf(ctx.clock.now())) as unknown as number;
}

function exercised(ctx: ServerContext, agent: AgentPrincipal, grant: GrantRecord, action: ProposedAction, escalationId: string | null): AuthorityCheck {
  const actionId = recordAction(ctx, agent, action, 'allowed', null, escalationId);
  appendAuditEvent(ctx, {
    applicationId: grant.application_id, type: 'authority.exercised',
    data: {
      action_id: actionId, delegation_grant_id: grant.id, agent_identity_id: agent.agentId, scope: action.scope, action: action.action,
      value: action.value, currency: action.currency, jurisdiction: action.jurisdiction, escalation_id: escalationId,
    },
  });
  return {
    outcome: 'allowed', action, delegation_grant_id: grant.id,
    remaining_today: grant.max_actions_per_day === null ? null : Math.max(0, grant.max_actions_per_day - allowedToday(ctx, grant.id)),
    checked_at: isoNow(ctx.clock),
  };
}

/** The grant the agent's token acts under, as it stands inside the transaction. */
function liveGrant(ctx: ServerContext, agent: AgentPrincipal): GrantRecord {
  const grant = findGrant(ctx, agent.grantId)!;
  // The token's scopes narrow the grant's (an exchange may ask for fewer).
  return { ...grant, delegated_scopes: grant.delegated_scopes.filter((s) => agent.scopes.includes(s)) };
}

const sameAction = (a: ProposedAction, b: ProposedAction) =>
  a.scope === b.scope && a.action === b.action && a.value === b.value && a.currency === b.currency && a.jurisdiction === b.jurisdiction;

/** Uses an approved escalation of exactly this action, once. */
function useEscalation(ctx: ServerContext, agent: AgentPrincipal, action: ProposedAction, escalationId: string): AuthorityCheck {
  const row = findEscalationRow(ctx, escalationId);
  if (!row || row.grant_id !== agent.grantId) throw notFound('No such escalation under this grant.');
  const status = escalationStatusAt(row, ctx.clock.now());
  if (row.used_at !== null) throw new ApiError(409, `Escalation ${row.id} was already used at ${row.used_at}: an approval lets its action through once.`, 'escalation_used');
  if (status !== 'approved') {
    throw new ApiError(409, `Escalation ${row.id} is ${status}, not approved: ${status === 'pending' ? 'wait for the principal' : 'the action may not pass'}.`, 'escalation_not_approved');
  }
  if (Date.parse(row.decided_at!) + ESCALATION_USE_SECONDS * 1000 <= ctx.clock.now()) {
    throw new ApiError(409, `The approval of escalation ${row.id} was given more than ${ESCALATION_USE_SECONDS / 3600} hours ago and can no longer be used.`, 'escalation_not_approved');
  }
  if (!sameAction(actionOf(row), action)) {
    throw unprocessable(`Escalation ${row.id} approved a different action: the scope, action, value, currency and jurisdiction must be the ones approved.`,
      'escalation_mismatch', [{ path: 'escalation_id', code: 'escalation_mismatch', message: 'approved a different action' }]);
  }
  stmt(ctx.db, 'UPDATE escalations SET used_at = ? WHERE id = ? AND used_at IS NULL').run(isoNow(ctx.clock), row.id);
  return exercised(ctx, agent, liveGrant(ctx, agent), action, row.id);
}

/**
 * Checks a proposed action. Allowed: 200 and `authority exercised`. Beyond an escalatable bound of a grant that
 * allows escalation: 202 with a new escalation. Otherwise 403 `bound_exceeded` naming the bound; the denial is
 * recorded (it counts against the agent's trust score) before the refusal is thrown.
 */
export function checkAuthority(ctx: ServerContext, agent: AgentPrincipal, input: AuthorityCheckRequest): CheckAnswer {
  const action = proposalOf(input);
  const { answer, refusal } = transaction(ctx.db, (): { answer?: CheckAnswer; refusal?: ApiError } => {
    if (input.escalation_id !== undefined) return { answer: { status: 200, check: useEscalation(ctx, agent, action, input.escalation_id) } };
    const grant = liveGrant(ctx, agent);
    const terms = termsOf(grant);
    const failure = firstFailedBound(terms, action, {
      now: ctx.clock.now(),
      trustScore: terms.bounds.reputation ? trustScore(ctx, agent.agentId).score : 100,
      allowedToday: terms.max_actions_per_day === null ? 0 : allowedToday(ctx, grant.id),
    });
    if (!failure) return { answer: { status: 200, check: exercised(ctx, agent, grant, action, null) } };
    if (failure.escalatable && escalationAllowed(terms)) {
      const row = openEscalation(ctx, agent, grant, action, triggerOf(failure), failure.message);
      recordAction(ctx, agent, action, 'escalated', failure.bound, row.id);
      const escalation: Escalation = toEscalation(ctx, row, false);
      return {
        answer: {
          status: 202,
          check: { outcome: 'escalated', action, delegation_grant_id: grant.id, bound: failure.bound, escalation, checked_at: isoNow(ctx.clock) },
        },
      };
    }
    recordAction(ctx, agent, action, 'denied', failure.bound, null);
    const why = failure.escalatable ? ' The grant does not allow escalation, so the principal cannot be asked.' : '';
    return { refusal: boundExceeded(failure, why) };
  });
  if (refusal) throw refusal;
  return answer!;
}

/**
 * The agent asks its principal for more before acting (trigger `escalation`): needs the escalation bound allowed,
 * else 403 `bound_exceeded` naming `escalation`. Jurisdiction and the daily allowance still apply: beyond them no
 * one can be asked.
 */
export function requestEscalation(ctx: ServerContext, agent: AgentPrincipal, input: CreateEscalationRequest): Escalation {
  const action = proposalOf(input);
  return transaction(ctx.db, () => {
    const grant = liveGrant(ctx, agent);
    const terms = termsOf(grant);
    if (!escalationAllowed(terms)) {
      throw boundExceeded({ bound: 'escalation', path: 'escalation', message: `Delegation grant ${grant.id} does not allow its agent to ask for more.` });
    }
    const failure = firstFailedBound({ ...terms, delegated_scopes: [action.scope] }, action, {
      now: ctx.clock.now(), trustScore: 100, allowedToday: terms.max_actions_per_day === null ? 0 : allowedToday(ctx, grant.id),
    });
    if (failure && !failure.escalatable) throw boundExceeded(failure, ' No approval can lift this bound.');
    const row = openEscalation(ctx, agent, grant, action, 'escalation', `The agent asked for approval: ${action.description}`);
    recordAction(ctx, agent, action, 'escalated', 'escalation', row.id);
    return toEscalation(ctx, row, false);
  });
}
