// The trust score of an agent: one deterministic function of what the service recorded about it, returned with its
// factors. The reputation bound reads it; the Verify surface's trust scores expose this same function.
import type { TrustScore } from '@svc/client/schemas';
import { isoNow } from '../lib/clock.js';
import type { ServerContext } from '../lib/context.js';
import { stmt } from '../lib/db.js';

/** What the score is computed from. */
export interface TrustFacts {
  /** Actions the agent took within its bounds. */
  actions_allowed: number;
  /** Actions refused for going beyond a bound. */
  actions_denied: number;
  /** Escalations the principal denied. */
  escalations_denied: number;
  /** Grants to the agent that a principal revoked. */
  grants_revoked: number;
}

/** Where every agent starts. */
export const BASE_TRUST_SCORE = 50;

/**
 * The version of {@link trustScoreOf}'s arithmetic, published in the platform attestation
 * (`/.well-known/oap-attestation`): change it whenever a weight, cap or factor changes.
 */
export const TRUST_SCORE_FUNCTION_VERSION = 'svc-trust-score/1';

/**
 * The score, 0-100: 50, plus one point per ten allowed actions (at most 30), minus two per denied action (at most
 * 30), five per denied escalation (at most 20) and ten per revoked grant (at most 40).
 */
export function trustScoreOf(facts: TrustFacts): { score: number; factors: TrustScore['factors'] } {
  const factors: TrustScore['factors'] = [
    { name: 'actions_allowed', value: facts.actions_allowed, contribution: Math.min(30, Math.floor(facts.actions_allowed / 10)) },
    { name: 'actions_denied', value: facts.actions_denied, contribution: -Math.min(30, 2 * facts.actions_denied) },
    { name: 'escalations_denied', value: facts.escalations_denied, contribution: -Math.min(20, 5 * facts.escalations_denied) },
    { name: 'grants_revoked', value: facts.grants_revoked, contribution: -Math.min(40, 10 * facts.grants_revoked) },
  ];
  const sum = factors.reduce((total, f) => total + f.contribution, BASE_TRUST_SCORE);
  return { score: Math.max(0, Math.min(100, sum)), factors };
}

/** What the service recorded about agent `agentId`. */
export function trustFactsOf(ctx: ServerContext, agentId: string): TrustFacts {
  const actions = stmt<[string], { outcome: string; n: number }>(ctx.db,
    'SELECT outcome, COUNT(*) AS n FROM authority_actions WHERE agent_id = ? GROUP BY outcome').all(agentId);
  const count = (outcome: string) => actions.find((a) => a.outcome === outcome)?.n ?? 0;
  const escalationsDenied = stmt<[string], number>(ctx.db,
    "SELECT COUNT(*) FROM escalations WHERE agent_id = ? AND status = 'denied'").pluck().get(agentId) as unknown as number;
  const grantsRevoked = stmt<[string], number>(ctx.db,
    "SELECT COUNT(*) FROM delegation_grants WHERE delegate_id = ? AND status = 'revoked'").pluck().get(agentId) as unknown as number;
  return { actions_allowed: count('allowed'), actions_denied: count('denied'), escalations_denied: escalationsDenied, grants_revoked: grantsRevoked };
}

/** The agent's trust score now. */
export function trustScore(ctx: ServerContext, agentId: string): TrustScore {
  return { subject_id: agentId, ...trustScoreOf(trustFactsOf(ctx, agentId)), computed_at: isoNow(ctx.clock) };
}
