// The rules of a grant's bounds, as pure functions: whether a proposed action is within them, and whether a
// sub-delegation stays within its parent. Kept free of storage so every rule is tested exhaustively (fast-check).
import type { BoundName, DelegationBounds, EscalationTrigger } from '@svc/schemas';
import { ESCALATION_TRIGGERS } from '@svc/schemas';

/** The terms of a grant the checks read. */
export interface GrantTerms {
  delegated_scopes: string[];
  max_actions_per_day: number | null;
  expires_at: string | null;
  allow_sub_delegation: boolean;
  bounds: DelegationBounds;
}

/** An action an agent proposes. */
export interface ActionProposal {
  scope: string;
  action: 'read' | 'write' | 'delete';
  value?: number | null | undefined;
  currency?: string | null | undefined;
  jurisdiction?: string | null | undefined;
}

/** What the check knows besides the action: the time, the agent's trust score, actions allowed so far today. */
export interface CheckState {
  now: number;
  trustScore: number;
  /** Actions allowed today under this grant and every grant made under it. */
  allowedToday: number;
  /** The daily allowances of the grants above this one, each with the actions allowed today under it (its whole subtree). */
  ancestors?: readonly AncestorAllowance[];
}

/** A grant above the one acting, with a daily allowance: sub-delegation never multiplies it. */
export interface AncestorAllowance {
  grant_id: string;
  max_actions_per_day: number;
  allowed_today: number;
}

/** A bound the action went beyond, with a message naming it, and whether the principal may be asked instead. */
export interface BoundFailure {
  bound: BoundName;
  /** The request field the failure is about (for the error's `errors[].path`). */
  path: string;
  message: string;
  /** Whether this bound is an approval trigger (scope, action, value, time, reputation). */
  escalatable: boolean;
}

const TRIGGERS = new Set<string>(ESCALATION_TRIGGERS);

function fail(bound: BoundName, path: string, message: string, escalatable = TRIGGERS.has(bound)): BoundFailure {
  return { bound, path, message, escalatable };
}

/**
 * What the grant's bounds need the action to name that it leaves out: its `value` under a value bound, its
 * `jurisdiction` under a jurisdiction bound (without them the bound cannot be held). Empty when nothing is missing.
 */
export function missingFields(terms: GrantTerms, action: ActionProposal): { path: 'value' | 'jurisdiction'; message: string }[] {
  const { bounds } = terms;
  return [
    ...(bounds.jurisdiction && action.jurisdiction == null
      ? [
          {
            path: 'jurisdiction' as const,
            message: `The grant has a jurisdiction bound (${bounds.jurisdiction.allowed.join(', ')}): the action must name its jurisdiction.`,
          },
        ]
      : []),
    ...(bounds.value && action.value == null
      ? [
          {
            path: 'value' as const,
            message: `The grant has a value bound (${bounds.value.max_per_transaction} ${bounds.value.currency} per transaction): the action must name its value (0 when it moves no money).`,
          },
        ]
      : []),
  ];
}

/**
 * Every bound `action` goes beyond (one failure per bound), empty when it is within every bound the grant
 * configures. Bounds are checked in a fixed order (scope, action, jurisdiction, value, time, reputation, sequence),
 * so the answer is deterministic. A bound that is not configured is not checked; the scope bound is always
 * configured. Some failures no approval can lift: jurisdiction, the daily allowance, and an action that names no
 * value under a value bound (the principal would be approving a blank amount).
 */
export function failedBounds(terms: GrantTerms, action: ActionProposal, state: CheckState): BoundFailure[] {
  const { bounds } = terms;
  const out: BoundFailure[] = [];
  if (!terms.delegated_scopes.includes(action.scope)) {
    out.push(
      fail('scope', 'scope', `Scope ${action.scope} is outside the grant's delegated scopes (${terms.delegated_scopes.join(', ')}).`),
    );
  }
  if (bounds.actions && !bounds.actions.includes(action.action)) {
    out.push(fail('action', 'action', `Action ${action.action} is outside the grant's action bound (${bounds.actions.join(', ')}).`));
  }
  if (bounds.jurisdiction) {
    if (action.jurisdiction == null) {
      out.push(
        fail(
          'jurisdiction',
          'jurisdiction',
          `The grant has a jurisdiction bound (${bounds.jurisdiction.allowed.join(', ')}): the action must name its jurisdiction.`,
        ),
      );
    } else if (!bounds.jurisdiction.allowed.includes(action.jurisdiction)) {
      out.push(
        fail(
          'jurisdiction',
          'jurisdiction',
          `Jurisdiction ${action.jurisdiction} is outside the grant's jurisdiction bound (${bounds.jurisdiction.allowed.join(', ')}).`,
        ),
      );
    }
  }
  if (bounds.value) {
    const { max_per_transaction: max, currency } = bounds.value;
    if (action.value == null) {
      out.push(
        fail('value', 'value', `The grant has a value bound (${max} ${currency} per transaction): the action must name its value.`, false),
      );
    } else if (action.currency !== currency) {
      out.push(fail('value', 'currency', `The grant's value bound is in ${currency}; an action in ${action.currency} is beyond it.`));
    } else if (action.value > max) {
      out.push(
        fail('value', 'value', `Value ${action.value} ${currency} is above the grant's value bound of ${max} ${currency} per transaction.`),
      );
    }
  }
  if (bounds.time) {
    const { not_before: from, not_after: until } = bounds.time;
    if (from !== undefined && state.now < Date.parse(from)) out.push(fail('time', 'time', `The grant's time bound opens at ${from}.`));
    else if (until !== undefined && state.now > Date.parse(until))
      out.push(fail('time', 'time', `The grant's time bound closed at ${until}.`));
  }
  if (bounds.reputation && state.trustScore < bounds.reputation.min_trust_score) {
    out.push(
      fail(
        'reputation',
        'reputation',
        `The agent's trust score ${state.trustScore} is below the grant's reputation bound of ${bounds.reputation.min_trust_score}.`,
      ),
    );
  }
  // The allowance is counted across the chain: a sub-grant's actions count against every grant above it too.
  const spent = state.ancestors?.find((a) => a.allowed_today >= a.max_actions_per_day);
  if (terms.max_actions_per_day !== null && state.allowedToday >= terms.max_actions_per_day) {
    out.push(fail('sequence', 'sequence', `The grant's allowance of ${terms.max_actions_per_day} actions a day (UTC) is used up.`));
  } else if (spent) {
    out.push(
      fail(
        'sequence',
        'sequence',
        `The allowance of ${spent.max_actions_per_day} actions a day (UTC) of ${spent.grant_id}, which this grant was made under, is used up.`,
      ),
    );
  }
  return out;
}

/** The first bound `action` goes beyond (in the order of `failedBounds`), or undefined when it is within them all. */
export function firstFailedBound(terms: GrantTerms, action: ActionProposal, state: CheckState): BoundFailure | undefined {
  return failedBounds(terms, action, state)[0];
}

/** Whether the grant lets its agent ask the principal for more. */
export function escalationAllowed(terms: GrantTerms): boolean {
  return terms.bounds.escalation?.allowed === true;
}

/** The trigger an escalation of this failure carries. */
export function triggerOf(failure: BoundFailure): EscalationTrigger {
  return failure.bound as EscalationTrigger;
}

/** One way a sub-delegation would be wider than its parent. */
export interface Widening {
  path: string;
  message: string;
}

const subset = (child: readonly string[], parent: readonly string[]) => child.every((x) => parent.includes(x));

/**
 * Every way `child` would be wider than `parent` (empty when it is within). A bound the parent configures must be
 * configured on the child, no wider; the child may add bounds of its own.
 */
export function wideningsOf(parent: GrantTerms, child: GrantTerms): Widening[] {
  const out: Widening[] = [];
  const at = (path: string, message: string) => out.push({ path: `delegation_grant.${path}`, message });
  const p = parent.bounds;
  const c = child.bounds;
  if (!subset(child.delegated_scopes, parent.delegated_scopes)) at('delegated_scopes', 'names scopes the parent grant does not delegate');
  if (p.actions && !(c.actions && subset(c.actions, p.actions)))
    at('bounds.actions', `must be within the parent's actions (${p.actions.join(', ')})`);
  if (p.value) {
    if (!c.value) at('bounds.value', 'the parent grant has a value bound, so this one needs one too');
    else if (c.value.currency !== p.value.currency) at('bounds.value.currency', `must be the parent's currency, ${p.value.currency}`);
    else if (c.value.max_per_transaction > p.value.max_per_transaction)
      at('bounds.value.max_per_transaction', `must be at most the parent's ${p.value.max_per_transaction}`);
  }
  if (
    p.time?.not_before !== undefined &&
    !(c.time?.not_before !== undefined && Date.parse(c.time.not_before) >= Date.parse(p.time.not_before))
  ) {
    at('bounds.time.not_before', `must be at or after the parent's ${p.time.not_before}`);
  }
  if (
    p.time?.not_after !== undefined &&
    !(c.time?.not_after !== undefined && Date.parse(c.time.not_after) <= Date.parse(p.time.not_after))
  ) {
    at('bounds.time.not_after', `must be at or before the parent's ${p.time.not_after}`);
  }
  if (c.escalation?.allowed === true && p.escalation?.allowed !== true)
    at('bounds.escalation.allowed', 'the parent grant does not allow escalation');
  if (p.reputation && !(c.reputation && c.reputation.min_trust_score >= p.reputation.min_trust_score)) {
    at('bounds.reputation.min_trust_score', `must be at least the parent's ${p.reputation.min_trust_score}`);
  }
  if (p.jurisdiction && !(c.jurisdiction && subset(c.jurisdiction.allowed, p.jurisdiction.allowed))) {
    at('bounds.jurisdiction.allowed', `must be within the parent's jurisdictions (${p.jurisdiction.allowed.join(', ')})`);
  }
  if (
    parent.max_actions_per_day !== null &&
    !(child.max_actions_per_day !== null && child.max_actions_per_day <= parent.max_actions_per_day)
  ) {
    at('max_actions_per_day', `must be at most the parent's ${parent.max_actions_per_day}`);
  }
  if (parent.expires_at !== null && !(child.expires_at !== null && Date.parse(child.expires_at) <= Date.parse(parent.expires_at))) {
    at('expires_at', `must be at or before the parent's ${parent.expires_at}`);
  }
  return out;
}
