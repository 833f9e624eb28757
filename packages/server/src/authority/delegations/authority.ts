// The authority check: an agent asks before it acts. The action is held against every bound of its grant (and its
// token's scopes) now, in one transaction with the day's count, so two actions racing for the last of the daily
// allowance cannot both pass. The count is the chain's: actions under grants made below a grant count against it
// too, so re-delegating never multiplies an allowance. Allowed is recorded as `authority exercised`; beyond bounds
// an approval can lift is escalated to the principal when the grant allows it, else denied naming the bound. An
// approval lifts only the bounds the principal was asked about; every other is checked again when it is used.
import type { AuthorityCheck, AuthorityCheckRequest, CreateEscalationRequest, Escalation, ProposedAction } from '@svc/schemas';
import { appendAuditEvent } from '../../consent/audit/chain.js';
import { isoNow } from '../../infra/clock.js';
import type { Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError, notFound, unprocessable } from '../../infra/errors.js';
import { newId } from '../../infra/ids.js';
import { transaction } from '../../infra/transaction.js';
import {
  escalationAllowed,
  failedBounds,
  missingFields,
  triggerOf,
  type AncestorAllowance,
  type BoundFailure,
  type CheckState,
} from './bounds.js';
import { ESCALATION_USE_SECONDS, actionOf, escalationStatusAt, findEscalationRow, liftsOf, toEscalation } from './escalation-store.js';
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

/**
 * Refuses, 422 naming each field, an action that leaves out what the grant's bounds need to be held (its value under
 * a value bound, its jurisdiction under a jurisdiction bound): a request that cannot be judged, so nothing is
 * recorded and no one is asked (the principal would be approving a blank).
 */
function requireBoundFields(grant: GrantRecord, action: ProposedAction): void {
  const missing = missingFields(termsOf(grant), action);
  if (missing.length === 0) return;
  throw unprocessable(
    missing.map((m) => m.message).join(' '),
    'validation_failed',
    missing.map((m) => ({ path: m.path, code: 'required_by_bound', message: m.message })),
  );
}

/** The refusal of an action beyond `failure`'s bound. */
export function boundExceeded(failure: Pick<BoundFailure, 'bound' | 'path' | 'message'>, extra = ''): ApiError {
  return new ApiError(403, `${failure.message}${extra}`, 'bound_exceeded', [
    { path: failure.path, code: failure.bound, message: failure.message },
  ]);
}

function recordAction(
  ctx: ServerContext,
  agent: AgentPrincipal,
  action: ProposedAction,
  outcome: 'allowed' | 'denied' | 'escalated',
  bound: string | null,
  escalationId: string | null,
): string {
  const id = newId('act_', 20);
  const now = ctx.clock.now();
  stmt(
    ctx.db,
    `INSERT INTO authority_actions (id, grant_id, agent_id, day, outcome, bound, scope, action, value, currency, jurisdiction, escalation_id, at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    agent.grantId,
    agent.agentId,
    dayOf(now),
    outcome,
    bound,
    action.scope,
    action.action,
    action.value,
    action.currency,
    action.jurisdiction,
    escalationId,
    isoNow(ctx.clock),
  );
  return id;
}

/** Actions allowed today under `grantId` and every grant made under it, at any depth. */
function allowedToday(ctx: ServerContext, grantId: string): number {
  return stmt<[string, string], number>(
    ctx.db,
    `WITH RECURSIVE sub(id) AS (SELECT ? UNION SELECT g.id FROM delegation_grants g JOIN sub ON g.parent_grant_id = sub.id)
    SELECT COUNT(*) FROM authority_actions WHERE day = ? AND outcome = 'allowed' AND grant_id IN (SELECT id FROM sub)`,
  )
    .pluck()
    .get(grantId, dayOf(ctx.clock.now())) as unknown as number;
}

/** The daily allowances of the grants above `grant` (nearest first), each with what was allowed today under it. */
function ancestorAllowances(ctx: ServerContext, grant: GrantRecord): AncestorAllowance[] {
  const out: AncestorAllowance[] = [];
  for (let at = grant.parent_grant_id ? findGrant(ctx, grant.parent_grant_id) : undefined, hops = 0; at && hops < 32; hops += 1) {
    if (at.max_actions_per_day !== null)
      out.push({ grant_id: at.id, max_actions_per_day: at.max_actions_per_day, allowed_today: allowedToday(ctx, at.id) });
    at = at.parent_grant_id ? findGrant(ctx, at.parent_grant_id) : undefined;
  }
  return out;
}

/** What the bounds read besides the action, now: the clock, the agent's trust score, the day's counts up the chain. */
function stateOf(ctx: ServerContext, agent: AgentPrincipal, grant: GrantRecord): CheckState {
  return {
    now: ctx.clock.now(),
    trustScore: grant.bounds.reputation ? trustScore(ctx, agent.agentId).score : 100,
    allowedToday: grant.max_actions_per_day === null ? 0 : allowedToday(ctx, grant.id),
    ancestors: ancestorAllowances(ctx, grant),
  };
}

/** What is left of the tightest daily allowance in the chain, or null when no grant in it has one. */
function remainingToday(ctx: ServerContext, grant: GrantRecord): number | null {
  const left = ancestorAllowances(ctx, grant).map((a) => a.max_actions_per_day - a.allowed_today);
  if (grant.max_actions_per_day !== null) left.push(grant.max_actions_per_day - allowedToday(ctx, grant.id));
  return left.length === 0 ? null : Math.max(0, Math.min(...left));
}

function exercised(
  ctx: ServerContext,
  agent: AgentPrincipal,
  grant: GrantRecord,
  action: ProposedAction,
  escalationId: string | null,
): AuthorityCheck {
  const actionId = recordAction(ctx, agent, action, 'allowed', null, escalationId);
  appendAuditEvent(ctx, {
    applicationId: grant.application_id,
    type: 'authority.exercised',
    data: {
      action_id: actionId,
      delegation_grant_id: grant.id,
      agent_identity_id: agent.agentId,
      scope: action.scope,
      action: action.action,
      value: action.value,
      currency: action.currency,
      jurisdiction: action.jurisdiction,
      escalation_id: escalationId,
    },
  });
  return {
    outcome: 'allowed',
    action,
    delegation_grant_id: grant.id,
    remaining_today: remainingToday(ctx, grant),
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

/**
 * Uses an approved escalation of exactly this action, once. The approval lifts the bounds the principal was asked
 * about and no other: the rest (jurisdiction, the daily allowance, a time window that closed meanwhile) are checked
 * again now; a use they refuse is a recorded denial and leaves the approval unused.
 */
function useEscalation(ctx: ServerContext, agent: AgentPrincipal, action: ProposedAction, escalationId: string): Verdict {
  const row = findEscalationRow(ctx, escalationId);
  if (!row || row.grant_id !== agent.grantId) throw notFound('No such escalation under this grant.');
  const status = escalationStatusAt(row, ctx.clock.now());
  if (row.used_at !== null)
    throw new ApiError(
      409,
      `Escalation ${row.id} was already used at ${row.used_at}: an approval lets its action through once.`,
      'escalation_used',
    );
  if (status !== 'approved') {
    throw new ApiError(
      409,
      `Escalation ${row.id} is ${status}, not approved: ${status === 'pending' ? 'wait for the principal' : 'the action may not pass'}.`,
      'escalation_not_approved',
    );
  }
  if (Date.parse(row.decided_at!) + ESCALATION_USE_SECONDS * 1000 <= ctx.clock.now()) {
    throw new ApiError(
      409,
      `The approval of escalation ${row.id} was given more than ${ESCALATION_USE_SECONDS / 3600} hours ago and can no longer be used.`,
      'escalation_not_approved',
    );
  }
  if (!sameAction(actionOf(row), action)) {
    throw unprocessable(
      `Escalation ${row.id} approved a different action: the scope, action, value, currency and jurisdiction must be the ones approved.`,
      'escalation_mismatch',
      [{ path: 'escalation_id', code: 'escalation_mismatch', message: 'approved a different action' }],
    );
  }
  const grant = liveGrant(ctx, agent);
  const lifts = liftsOf(row);
  const [failure] = failedBounds(termsOf(grant), action, stateOf(ctx, agent, grant)).filter((f) => !lifts.includes(f.bound));
  if (failure) {
    recordAction(ctx, agent, action, 'denied', failure.bound, row.id);
    const lifted = lifts.length ? `only its ${lifts.join(', ')} bound${lifts.length === 1 ? '' : 's'}` : 'no bound of the grant';
    return { refusal: boundExceeded(failure, ` The approval of escalation ${row.id} lifts ${lifted}.`) };
  }
  stmt(ctx.db, 'UPDATE escalations SET used_at = ? WHERE id = ? AND used_at IS NULL').run(isoNow(ctx.clock), row.id);
  return { answer: { status: 200, check: exercised(ctx, agent, grant, action, row.id) } };
}

/** An answer, or a refusal thrown once the transaction that recorded it has committed. */
interface Verdict {
  answer?: CheckAnswer;
  refusal?: ApiError;
}

/**
 * Checks a proposed action. Allowed: 200 and `authority exercised`. Beyond an escalatable bound of a grant that
 * allows escalation: 202 with a new escalation. Otherwise 403 `bound_exceeded` naming the bound; the denial is
 * recorded (it counts against the agent's trust score) before the refusal is thrown. An action that leaves out what
 * a bound needs (a value, a jurisdiction) is 422 before anything.
 */
export function checkAuthority(ctx: ServerContext, agent: AgentPrincipal, input: AuthorityCheckRequest): CheckAnswer {
  const action = proposalOf(input);
  const { answer, refusal } = transaction(ctx.db, (): Verdict => {
    if (input.escalation_id !== undefined) return useEscalation(ctx, agent, action, input.escalation_id);
    const grant = liveGrant(ctx, agent);
    requireBoundFields(grant, action);
    const terms = termsOf(grant);
    const failures = failedBounds(terms, action, stateOf(ctx, agent, grant));
    if (failures.length === 0) return { answer: { status: 200, check: exercised(ctx, agent, grant, action, null) } };
    // The principal is asked only when one approval could let the action through: never past a bound no one can lift.
    const unliftable = failures.find((f) => !f.escalatable);
    if (!unliftable && escalationAllowed(terms)) {
      const [first] = failures as [BoundFailure, ...BoundFailure[]];
      const row = openEscalation(
        ctx,
        agent,
        grant,
        action,
        triggerOf(first),
        failures.map((f) => f.message).join(' '),
        failures.map((f) => f.bound),
      );
      recordAction(ctx, agent, action, 'escalated', first.bound, row.id);
      const escalation: Escalation = toEscalation(ctx, row, false);
      return {
        answer: {
          status: 202,
          check: {
            outcome: 'escalated',
            action,
            delegation_grant_id: grant.id,
            bound: first.bound,
            escalation,
            checked_at: isoNow(ctx.clock),
          },
        },
      };
    }
    const failure = escalationAllowed(terms) && unliftable ? unliftable : failures[0]!;
    recordAction(ctx, agent, action, 'denied', failure.bound, null);
    const why = failure.escalatable
      ? ' The grant does not allow escalation, so the principal cannot be asked.'
      : escalationAllowed(terms)
        ? ' No approval can lift this bound.'
        : '';
    return { refusal: boundExceeded(failure, why) };
  });
  if (refusal) throw refusal;
  return answer!;
}

/**
 * The agent asks its principal for more before acting (trigger `escalation`): needs the escalation bound allowed,
 * else 403 `bound_exceeded` naming `escalation`. A missing value or jurisdiction is 422; jurisdiction and the daily
 * allowance still apply: beyond them no one can be asked. The approval lifts the bounds the action is beyond now, no other.
 */
export function requestEscalation(ctx: ServerContext, agent: AgentPrincipal, input: CreateEscalationRequest): Escalation {
  const action = proposalOf(input);
  return transaction(ctx.db, () => {
    const grant = liveGrant(ctx, agent);
    const terms = termsOf(grant);
    if (!escalationAllowed(terms)) {
      throw boundExceeded({
        bound: 'escalation',
        path: 'escalation',
        message: `Delegation grant ${grant.id} does not allow its agent to ask for more.`,
      });
    }
    requireBoundFields(grant, action);
    const failures = failedBounds(terms, action, stateOf(ctx, agent, grant));
    const unliftable = failures.find((f) => !f.escalatable);
    if (unliftable) throw boundExceeded(unliftable, ' No approval can lift this bound.');
    const row = openEscalation(
      ctx,
      agent,
      grant,
      action,
      'escalation',
      `The agent asked for approval: ${action.description}`,
      failures.map((f) => f.bound),
    );
    recordAction(ctx, agent, action, 'escalated', 'escalation', row.id);
    return toEscalation(ctx, row, false);
  });
}
