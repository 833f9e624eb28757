import { z } from 'zod/mini';
import { countryCode } from './countries.js';
import { dateTime, listOf, listQuery } from './common.js';

// ---- Vocabulary -------------------------------------------------------------------------------------------------

/** The human-to-human delegation types (Authentication item 6); the delegate is another person. */
export const HUMAN_DELEGATION_TYPES = ['guardian', 'caregiver', 'power_of_attorney', 'it_admin', 'peer'] as const;
/** The delegation type of a grant to an agent identity (Authentication item 5). */
export const AGENT_DELEGATION_TYPE = 'ai_agent';
export const delegationType = z.enum([...HUMAN_DELEGATION_TYPES, AGENT_DELEGATION_TYPE]);
export type DelegationType = z.infer<typeof delegationType>;

/** What an action does: the action bound lists the ones an agent may take. */
export const AUTHORITY_ACTIONS = ['read', 'write', 'delete'] as const;
export const authorityAction = z.enum(AUTHORITY_ACTIONS);
export type AuthorityAction = z.infer<typeof authorityAction>;

/** The eight bound dimensions an authorization record lists, in the spec's order. */
export const BOUND_NAMES = ['scope', 'action', 'value', 'time', 'escalation', 'reputation', 'jurisdiction', 'sequence'] as const;
export const boundName = z.enum(BOUND_NAMES);
export type BoundName = z.infer<typeof boundName>;

/**
 * The approval trigger types (the inbox filters by them): the bound an action went beyond, or `escalation` when the
 * agent asked for more on its own. Jurisdiction and sequence are never escalated: beyond them is a plain denial.
 */
export const ESCALATION_TRIGGERS = ['scope', 'action', 'value', 'time', 'escalation', 'reputation'] as const;
export const escalationTrigger = z.enum(ESCALATION_TRIGGERS);
export type EscalationTrigger = z.infer<typeof escalationTrigger>;

/** An API scope: letters, digits and `_ . : - /`, as OAuth scope tokens are (e.g. `payments:write`). */
export const apiScope = z.string().check(z.regex(/^[A-Za-z0-9_.:/-]{1,100}$/, 'must be a scope token such as payments:write'));
/** An ISO 4217 currency code, upper case. */
export const currencyCode = z.string().check(z.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 currency code such as EUR'));

const unique = <T>(items: T[]) => new Set(items).size === items.length;
/** An amount of money: positive, finite, at most two decimals' worth of precision beyond the integer part. */
const amount = () => z.number().check(z.gt(0), z.lte(1e12), z.refine(Number.isFinite, 'must be a finite number'));
/** The money an action moves: as `amount`, or 0 for an action that moves none (a value bound needs every action to say). */
const moved = () => z.number().check(z.gte(0), z.lte(1e12), z.refine(Number.isFinite, 'must be a finite number'));

// ---- Bounds -----------------------------------------------------------------------------------------------------

/**
 * The bounds of a grant to an agent, beyond its `delegated_scopes` (the scope bound) and `max_actions_per_day` (the
 * sequence bound). Each is enforced exactly when present; an absent bound is not configured, which never means
 * unlimited: an action needing it (a value, a jurisdiction) is checked against what is configured only.
 */
export const delegationBounds = z.strictObject({
  /** The actions the agent may take. */
  actions: z.optional(z.array(authorityAction).check(z.minLength(1), z.refine(unique, 'actions must not repeat'))),
  /** The most one action may be worth, in one currency; an action of another currency is beyond it. */
  value: z.optional(z.strictObject({ max_per_transaction: amount(), currency: currencyCode })),
  /** The window actions must fall in (either end may be open, not both). */
  time: z.optional(
    z.strictObject({ not_before: z.optional(dateTime()), not_after: z.optional(dateTime()) }).check(
      z.refine((t) => t.not_before !== undefined || t.not_after !== undefined, 'time needs not_before, not_after or both'),
      z.refine(
        (t) => !t.not_before || !t.not_after || Date.parse(t.not_before) < Date.parse(t.not_after),
        'not_before must be before not_after',
      ),
    ),
  ),
  /** Whether the agent may ask the principal for more (an escalation) when an action is beyond a bound. */
  escalation: z.optional(z.strictObject({ allowed: z.boolean() })),
  /** The lowest trust score (0-100) the agent must hold to act. */
  reputation: z.optional(z.strictObject({ min_trust_score: z.int().check(z.gte(0), z.lte(100)) })),
  /** The countries actions may take place in. */
  jurisdiction: z.optional(
    z.strictObject({
      allowed: z.array(countryCode).check(z.minLength(1), z.maxLength(250), z.refine(unique, 'countries must not repeat')),
    }),
  ),
});
export type DelegationBounds = z.infer<typeof delegationBounds>;

// ---- Delegation grants ------------------------------------------------------------------------------------------

/**
 * A grant's status: `active` may be used; `suspended` is paused by the principal and can be resumed; `revoked` is
 * final and stops every token issued from it at once; `expired` once `expires_at` has passed (read time).
 */
export const delegationStatus = z.enum(['active', 'suspended', 'revoked', 'expired']);
export type DelegationStatus = z.infer<typeof delegationStatus>;

/**
 * `POST /api/v1/delegations`: the spec's CreateDelegationRequest. `delegate_id` is a person (`prs_...`) for the
 * human types, an agent identity (`agt_...`) for `ai_agent`. `bounds` (agents only) and `parent_grant_id` (a
 * sub-delegation, made by the parent's delegate, never wider than its parent) are this server's additions.
 */
export const createDelegationRequest = z.strictObject({
  delegate_id: z
    .string()
    .check(z.regex(/^(prs|agt)_[A-Za-z0-9_]{1,60}$/, 'must be a person id (prs_...) or an agent identity id (agt_...)')),
  delegation_grant: z.strictObject({
    delegation_type: delegationType,
    delegated_scopes: z.optional(z.array(apiScope).check(z.maxLength(50), z.refine(unique, 'scopes must not repeat'))),
    allow_sub_delegation: z.optional(z.boolean()),
    max_actions_per_day: z.optional(z.int().check(z.gte(1), z.lte(1_000_000))),
    expires_at: z.optional(dateTime()),
    bounds: z.optional(delegationBounds),
    parent_grant_id: z.optional(z.string().check(z.regex(/^dlg_[a-z]+_[A-Za-z0-9]{1,40}$/, 'must be a delegation grant id (dlg_...)'))),
  }),
});
export type CreateDelegationRequest = z.input<typeof createDelegationRequest>;

/** A delegation grant (`dlg_<region>_<hashid>`). */
export const delegationGrant = z.object({
  id: z.string(),
  status: delegationStatus,
  delegation_type: delegationType,
  /** The person who delegates (`prs_...`). */
  principal_id: z.string(),
  delegate_id: z.string(),
  delegate_type: z.enum(['person', 'agent']),
  /** The scope bound: the only API scopes the delegate may act in. */
  delegated_scopes: z.array(z.string()),
  allow_sub_delegation: z.boolean(),
  /** The sequence bound, null when not configured. */
  max_actions_per_day: z.nullable(z.int()),
  expires_at: z.nullable(dateTime()),
  bounds: delegationBounds,
  /** The grant this one narrows, null for a grant made by the principal. */
  parent_grant_id: z.nullable(z.string()),
  /** The first grant of the chain (itself for a grant made by the principal). */
  delegation_chain_root: z.string(),
  /** The authorization record activation made; its receipt is at `/api/v1/authorization_receipts/{id}`. */
  authorization_record_id: z.string(),
  application_id: z.string(),
  created_at: dateTime(),
  updated_at: dateTime(),
  suspended_at: z.nullable(dateTime()),
  revoked_at: z.nullable(dateTime()),
});
export type DelegationGrant = z.infer<typeof delegationGrant>;

/** `{delegation_grant}` envelope. */
export const delegationGrantEnvelope = z.object({ delegation_grant: delegationGrant });
/** `{delegation_grants: [...], next_cursor}`. */
export const delegationGrantList = listOf('delegation_grants', delegationGrant);

/** Query of `GET /api/v1/delegations`: a page, optionally of one status or one side of the grant (a person's list). */
export const delegationListQuery = z.object({
  ...listQuery.shape,
  status: z.optional(delegationStatus),
  /** For a person: grants they made (`principal`) or received (`delegate`); both when absent. */
  role: z.optional(z.enum(['principal', 'delegate'])),
});

// ---- Token exchange (RFC 8693) ----------------------------------------------------------------------------------

export const TOKEN_EXCHANGE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:token-exchange';
/** The `subject_token_type` of a delegation grant id. */
export const DELEGATION_GRANT_TOKEN_TYPE = 'urn:svc:params:oauth:token-type:delegation_grant';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/** RFC 8693 section 2.2.1: the answer of `POST /oauth/token/exchange` for a delegation grant. */
export const tokenExchangeResponse = z.object({
  /** The agent token, `ra_agent_...`. */
  access_token: z.string().check(z.regex(/^ra_agent_[A-Za-z0-9_-]{20,}$/, 'must be an agent token (ra_agent_...)')),
  issued_token_type: z.literal(ACCESS_TOKEN_TYPE),
  token_type: z.literal('Bearer'),
  expires_in: z.int().check(z.gte(1)),
  scope: z.optional(z.string()),
});
export type TokenExchangeResponse = z.infer<typeof tokenExchangeResponse>;

// ---- Authority checks -------------------------------------------------------------------------------------------

/**
 * `POST /api/v1/authorities/check` (agent token): the action an agent proposes, asked before it acts. `value` needs
 * `currency`. `escalation_id` names an approved escalation of this very action, which lets it through once.
 */
export const authorityCheckRequest = z
  .strictObject({
    scope: apiScope,
    action: authorityAction,
    value: z.optional(moved()),
    currency: z.optional(currencyCode),
    jurisdiction: z.optional(countryCode),
    description: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)),
    escalation_id: z.optional(z.string().check(z.regex(/^esc_(?:[a-z]{2}_)?[A-Za-z0-9]{1,40}$/, 'must be an escalation id (esc_...)'))),
  })
  .check(
    z.refine((r) => (r.value === undefined) === (r.currency === undefined), {
      message: 'value and currency go together',
      path: ['currency'],
    }),
  );
export type AuthorityCheckRequest = z.input<typeof authorityCheckRequest>;

/** The action an authority check or an escalation is about. */
export const proposedAction = z.object({
  scope: z.string(),
  action: authorityAction,
  value: z.nullable(z.number()),
  currency: z.nullable(z.string()),
  jurisdiction: z.nullable(z.string()),
  description: z.string(),
});
export type ProposedAction = z.infer<typeof proposedAction>;

// ---- Escalations ------------------------------------------------------------------------------------------------

/**
 * An escalation's status: `pending` until the principal decides (`approved`, `denied`, `countered`) or it runs out
 * (`expired`). An approved escalation lets its action through once; `used_at` says when.
 */
export const escalationStatus = z.enum(['pending', 'approved', 'denied', 'countered', 'expired']);
export type EscalationStatus = z.infer<typeof escalationStatus>;

/**
 * An escalation (`esc_...`): an agent's action beyond its grant, waiting for the principal. `decision` (the approval
 * decision opened for the principal) is shown to the principal and the organisation, never to the agent.
 */
export const escalation = z.object({
  id: z.string(),
  status: escalationStatus,
  trigger: escalationTrigger,
  delegation_grant_id: z.string(),
  agent_identity_id: z.string(),
  principal_id: z.string(),
  application_id: z.string(),
  action: proposedAction,
  /** Why it was escalated, naming the bound. */
  reason: z.string(),
  counter_proposal: z.nullable(z.string()),
  decision: z.optional(z.nullable(z.object({ session_token: z.string(), url: z.string() }))),
  /** The authorization record of the principal's answer, once decided. */
  authorization_record_id: z.nullable(z.string()),
  created_at: dateTime(),
  expires_at: dateTime(),
  decided_at: z.nullable(dateTime()),
  used_at: z.nullable(dateTime()),
});
export type Escalation = z.infer<typeof escalation>;

/** `{escalation}` envelope. */
export const escalationEnvelope = z.object({ escalation });
/** `{escalations: [...], next_cursor}`. */
export const escalationList = listOf('escalations', escalation);
/** Query of `GET /api/v1/oap/escalations`. */
export const escalationListQuery = z.object({
  ...listQuery.shape,
  status: z.optional(escalationStatus),
  trigger: z.optional(escalationTrigger),
  /** Escalations created at or after this instant (RFC 3339 with an offset), such as the first of the days a chart shows. */
  created_since: z.optional(dateTime()),
});

/**
 * `POST /api/v1/oap/escalations` (agent token): the agent asks for more before acting (trigger `escalation`),
 * for the same action shape an authority check takes. Needs the escalation bound allowed.
 */
export const createEscalationRequest = z
  .strictObject({
    scope: apiScope,
    action: authorityAction,
    value: z.optional(moved()),
    currency: z.optional(currencyCode),
    jurisdiction: z.optional(countryCode),
    description: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)),
  })
  .check(
    z.refine((r) => (r.value === undefined) === (r.currency === undefined), {
      message: 'value and currency go together',
      path: ['currency'],
    }),
  );
export type CreateEscalationRequest = z.input<typeof createEscalationRequest>;

/**
 * The answer of an authority check that was not denied (a denial is a 403 `bound_exceeded` naming the bound):
 * `allowed` (the action is recorded as `authority exercised`) or `escalated` (202, with the escalation to poll).
 */
export const authorityCheck = z.object({
  outcome: z.enum(['allowed', 'escalated']),
  action: proposedAction,
  delegation_grant_id: z.string(),
  /** The bound an escalated action went beyond. */
  bound: z.optional(boundName),
  /** Actions left today under the sequence bound, when configured (after this one). */
  remaining_today: z.optional(z.nullable(z.int())),
  escalation: z.optional(escalation),
  checked_at: dateTime(),
});
export type AuthorityCheck = z.infer<typeof authorityCheck>;
/** `{authority_check}` envelope. */
export const authorityCheckEnvelope = z.object({ authority_check: authorityCheck });

// ---- Trust scores -----------------------------------------------------------------------------------------------

/**
 * One factor of a trust score: the signal's `value` (a count, or days), its `weight` (points per unit of value), and
 * its `contribution`, `weight` times `value` rounded towards zero and bounded by `cap` either way.
 */
export const trustScoreFactor = z.object({
  name: z.string(),
  weight: z.number(),
  value: z.number(),
  contribution: z.number(),
  /** The most this factor adds (or, for a negative weight, takes away). */
  cap: z.number(),
});
export type TrustScoreFactor = z.infer<typeof trustScoreFactor>;

/** What a trust score is about: a person (`prs_…`) or an agent identity (`agt_…`). */
export const trustSubjectType = z.enum(['person', 'agent']);
export type TrustSubjectType = z.infer<typeof trustSubjectType>;

/**
 * A trust score, 0-100: 50 plus the sum of its factors' contributions, a deterministic function of what the service
 * recorded about the subject (`function_version` in `/.well-known/oap-attestation` names the arithmetic).
 */
export const trustScore = z.object({
  subject_id: z.string(),
  subject_type: trustSubjectType,
  score: z.int().check(z.gte(0), z.lte(100)),
  factors: z.array(trustScoreFactor),
  computed_at: dateTime(),
});
export type TrustScore = z.infer<typeof trustScore>;
/** `{trust_score}` envelope. */
export const trustScoreEnvelope = z.object({ trust_score: trustScore });
