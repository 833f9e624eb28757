// Trust scores: one deterministic function of what the service recorded about a subject (an agent identity or a
// person), returned with its factors. The reputation bound of a delegation reads an agent's score; the Verify surface
// (`GET /api/v1/trust_scores/{subject_id}`, and the older `GET /api/v1/agent_identities/{id}/trust_score`) exposes
// this same function.
import type { TrustScore, TrustScoreFactor, TrustSubjectType } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import type { WithdrawalFact } from '../../consent/receipts/canonical.js';
import type { IssuedOutcome } from '../../consent/records/attestation.js';
import { recordState } from '../../consent/records/rows.js';

/** What an agent's score is computed from. */
export interface TrustFacts {
  /** Actions the agent took within its bounds. */
  actions_allowed: number;
  /** Actions refused for going beyond a bound. */
  actions_denied: number;
  /** Escalations the principal denied. */
  escalations_denied: number;
  /** Grants to the agent that a principal revoked. */
  grants_revoked: number;
  /** Active vouches people of the account gave the agent. */
  vouches_received: number;
  /** Vouches for the agent that their voucher revoked. */
  vouches_revoked: number;
}

/** What a person's score is computed from. */
export interface PersonTrustFacts {
  /** Sign-ins confirmed with the code sent to the person's email. */
  sign_ins_verified: number;
  /** Consent records of the person with a granted purpose still in force. */
  consents_fulfilled: number;
  /** Consent records the person withdrew entirely (reported; withdrawing is a right and never lowers a score). */
  consents_revoked: number;
  /** Whole days since the service first knew the person. */
  age_days: number;
  /** Active vouches other people gave the person. */
  vouches_received: number;
  /** Vouches for the person that their voucher revoked. */
  vouches_revoked: number;
}

/** Where every subject starts. */
export const BASE_TRUST_SCORE = 50;

/**
 * The version of the arithmetic below, published in the platform attestation (`/.well-known/oap-attestation`):
 * change it whenever a weight, cap or factor changes. 2: vouches count for agents; persons have a score.
 */
export const TRUST_SCORE_FUNCTION_VERSION = 'svc-trust-score/2';

/** One factor's rule: `points` for every `per` units of the value, at most `cap` points either way. */
interface FactorRule<K extends string> {
  name: K;
  points: number;
  per: number;
  cap: number;
}

/** An agent's factors, in the order they are reported. */
const AGENT_RULES: FactorRule<keyof TrustFacts>[] = [
  { name: 'actions_allowed', points: 1, per: 10, cap: 30 },
  { name: 'actions_denied', points: -2, per: 1, cap: 30 },
  { name: 'escalations_denied', points: -5, per: 1, cap: 20 },
  { name: 'grants_revoked', points: -10, per: 1, cap: 40 },
  { name: 'vouches_received', points: 5, per: 1, cap: 20 },
  { name: 'vouches_revoked', points: -5, per: 1, cap: 20 },
];

/** A person's factors, in the order they are reported. */
const PERSON_RULES: FactorRule<keyof PersonTrustFacts>[] = [
  { name: 'sign_ins_verified', points: 2, per: 1, cap: 10 },
  { name: 'consents_fulfilled', points: 1, per: 1, cap: 10 },
  { name: 'consents_revoked', points: 0, per: 1, cap: 0 },
  { name: 'age_days', points: 1, per: 30, cap: 10 },
  { name: 'vouches_received', points: 5, per: 1, cap: 20 },
  { name: 'vouches_revoked', points: -5, per: 1, cap: 20 },
];

/** The names of an agent's factors (the platform attestation lists them). */
export const AGENT_TRUST_FACTORS: readonly string[] = AGENT_RULES.map((r) => r.name);
/** The names of a person's factors. */
export const PERSON_TRUST_FACTORS: readonly string[] = PERSON_RULES.map((r) => r.name);

/**
 * Integer arithmetic, so a score never depends on floating point: a factor contributes `points` for every whole `per`
 * units of its value, bounded by `cap`; the score is 50 plus the contributions, clamped to 0-100.
 */
function scoreBy<K extends string>(
  rules: readonly FactorRule<K>[],
  facts: Record<K, number>,
): { score: number; factors: TrustScoreFactor[] } {
  const factors = rules.map((rule): TrustScoreFactor => {
    const value = facts[rule.name];
    const units = Math.floor(Math.max(0, value) / rule.per);
    const magnitude = Math.min(rule.cap, units * Math.abs(rule.points));
    return {
      name: rule.name,
      weight: Math.round((rule.points / rule.per) * 10_000) / 10_000,
      value,
      contribution: rule.points < 0 ? -magnitude : magnitude,
      cap: rule.cap,
    };
  });
  const sum = factors.reduce((total, f) => total + f.contribution, BASE_TRUST_SCORE);
  return { score: Math.max(0, Math.min(100, sum)), factors };
}

/**
 * An agent's score, 0-100: 50, plus one point per ten allowed actions (at most 30) and five per active vouch (at most
 * 20), minus two per denied action (at most 30), five per denied escalation (at most 20), ten per revoked grant (at
 * most 40) and five per revoked vouch (at most 20).
 */
export function trustScoreOf(facts: TrustFacts): { score: number; factors: TrustScoreFactor[] } {
  return scoreBy(AGENT_RULES, facts);
}

/**
 * A person's score, 0-100: 50, plus two points per verified sign-in (at most 10), one per consent in force (at most
 * 10), one per thirty days the service has known them (at most 10) and five per active vouch received (at most 20),
 * minus five per vouch received and then revoked (at most 20). Withdrawn consents are reported with weight 0.
 */
export function personTrustScoreOf(facts: PersonTrustFacts): { score: number; factors: TrustScoreFactor[] } {
  return scoreBy(PERSON_RULES, facts);
}

const count = (ctx: ServerContext, sql: string, ...params: string[]): number =>
  stmt<string[], number>(ctx.db, sql)
    .pluck()
    .get(...params) as unknown as number;

/** Active and revoked vouches for `subjectId`. */
function vouchFacts(ctx: ServerContext, subjectId: string): { vouches_received: number; vouches_revoked: number } {
  const rows = stmt<[string], { status: string; n: number }>(
    ctx.db,
    'SELECT status, COUNT(*) AS n FROM vouches WHERE vouchee_id = ? GROUP BY status',
  ).all(subjectId);
  const of = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
  return { vouches_received: of('active'), vouches_revoked: of('revoked') };
}

/** What the service recorded about agent `agentId`. */
export function trustFactsOf(ctx: ServerContext, agentId: string): TrustFacts {
  const actions = stmt<[string], { outcome: string; n: number }>(
    ctx.db,
    'SELECT outcome, COUNT(*) AS n FROM authority_actions WHERE agent_id = ? GROUP BY outcome',
  ).all(agentId);
  const outcome = (name: string) => actions.find((a) => a.outcome === name)?.n ?? 0;
  return {
    actions_allowed: outcome('allowed'),
    actions_denied: outcome('denied'),
    escalations_denied: count(ctx, "SELECT COUNT(*) FROM escalations WHERE agent_id = ? AND status = 'denied'", agentId),
    grants_revoked: count(ctx, "SELECT COUNT(*) FROM delegation_grants WHERE delegate_id = ? AND status = 'revoked'", agentId),
    ...vouchFacts(ctx, agentId),
  };
}

/** What the service recorded about person `personId`, at the server clock's now. */
export function personTrustFactsOf(ctx: ServerContext, personId: string): PersonTrustFacts {
  const now = isoNow(ctx.clock);
  const person = stmt<[string], { created_at: string }>(ctx.db, 'SELECT created_at FROM persons WHERE id = ?').get(personId);
  const records = stmt<[string], { id: string; purposes: string; expires_at: string | null }>(
    ctx.db,
    'SELECT id, purposes, expires_at FROM consent_records WHERE person_id = ?',
  ).all(personId);
  const withdrawals = stmt<[string], Omit<WithdrawalFact, 'scoped'> & { record_id: string; scoped: number }>(
    ctx.db,
    `SELECT w.record_id, w.purpose_key, w.outcome, w.withdrawn_at, w.event_channel, w.scoped
       FROM consent_withdrawals w JOIN consent_records r ON r.id = w.record_id WHERE r.person_id = ?`,
  )
    .all(personId)
    .map((w) => ({ ...w, scoped: w.scoped === 1 }));
  let fulfilled = 0;
  let revoked = 0;
  for (const record of records) {
    const state = recordState(
      JSON.parse(record.purposes) as IssuedOutcome[],
      withdrawals.filter((w) => w.record_id === record.id),
      record.expires_at,
      now,
    );
    if (state.status === 'revoked') revoked += 1;
    else if (state.status === 'fulfilled' && state.purposes.some((p) => p.outcome === 'granted')) fulfilled += 1;
  }
  return {
    sign_ins_verified: count(ctx, 'SELECT COUNT(*) FROM person_sign_ins WHERE person_id = ?', personId),
    consents_fulfilled: fulfilled,
    consents_revoked: revoked,
    age_days: person ? Math.max(0, Math.floor((Date.parse(now) - Date.parse(person.created_at)) / 86_400_000)) : 0,
    ...vouchFacts(ctx, personId),
  };
}

/** The agent's trust score now. */
export function trustScore(ctx: ServerContext, agentId: string): TrustScore {
  return { subject_id: agentId, subject_type: 'agent', ...trustScoreOf(trustFactsOf(ctx, agentId)), computed_at: isoNow(ctx.clock) };
}

/** The person's trust score now. */
export function personTrustScore(ctx: ServerContext, personId: string): TrustScore {
  return {
    subject_id: personId,
    subject_type: 'person',
    ...personTrustScoreOf(personTrustFactsOf(ctx, personId)),
    computed_at: isoNow(ctx.clock),
  };
}

/** The score of a subject of either kind. */
export function trustScoreOfSubject(ctx: ServerContext, type: TrustSubjectType, id: string): TrustScore {
  return type === 'agent' ? trustScore(ctx, id) : personTrustScore(ctx, id);
}

/** Records a sign-in the person confirmed with the code sent to their email (counted by their trust score). */
export function recordVerifiedSignIn(ctx: ServerContext, personId: string, method = 'email_code'): void {
  stmt(ctx.db, 'INSERT INTO person_sign_ins (person_id, method, signed_in_at) VALUES (?, ?, ?)').run(personId, method, isoNow(ctx.clock));
}
