// The delegation grants a person made, as they read, suspend, resume and revoke them with their own access token
// (`/api/v1/me/delegations`): what the people's delegations page and `<svc-delegations>` show. Not the organisation's
// view of a grant (`delegationGrant`): the organisation that holds it and who the delegate is, by name, not by id.
import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';
import { delegationBounds, delegationStatus, delegationType } from './delegations.js';

/** The OAuth scope a person's access token needs to read the grants they made (and a delegate's grant must delegate). */
export const DELEGATIONS_READ_SCOPE = 'delegations:read';
/** The OAuth scope a person's access token needs to suspend, resume or revoke their grants (and a delegate's grant must delegate). */
export const DELEGATIONS_WRITE_SCOPE = 'delegations:write';

/** Who may act for the person: another person (named by their email) or an agent identity (by its display name). */
export const personDelegationDelegate = z.object({
  type: z.enum(['person', 'agent']),
  id: z.string(),
  name: z.string(),
});
export type PersonDelegationDelegate = z.infer<typeof personDelegationDelegate>;

/**
 * A grant the person made, as they read it. Its bounds in machine shape: `delegated_scopes` (the scope bound: the
 * only scopes the delegate may act in), `max_actions_per_day` (the sequence bound) and `bounds` (actions, value,
 * time window, escalation, reputation, jurisdiction; each absent when not configured), for the element to say in
 * plain words. Valid from `created_at` until `expires_at` (null: until revoked).
 */
export const personDelegation = z.object({
  id: z.string(),
  status: delegationStatus,
  delegation_type: delegationType,
  organisation: z.object({ id: z.string(), name: z.string() }),
  delegate: personDelegationDelegate,
  delegated_scopes: z.array(z.string()),
  max_actions_per_day: z.nullable(z.int()),
  bounds: delegationBounds,
  allow_sub_delegation: z.boolean(),
  parent_grant_id: z.nullable(z.string()),
  created_at: dateTime(),
  expires_at: z.nullable(dateTime()),
  suspended_at: z.nullable(dateTime()),
  revoked_at: z.nullable(dateTime()),
});
export type PersonDelegation = z.infer<typeof personDelegation>;

/** `{delegation}`: one of the person's grants. */
export const personDelegationEnvelope = z.object({ delegation: personDelegation });
export type PersonDelegationEnvelope = z.infer<typeof personDelegationEnvelope>;

/** Query of `GET /api/v1/me/delegations`: the list query and the status each grant reads with now. */
export const personDelegationListQuery = z.strictObject({
  ...listQuery.shape,
  status: z.optional(delegationStatus),
});
export type PersonDelegationListQuery = z.input<typeof personDelegationListQuery>;

/** `{delegations: [...], next_cursor}`: a page of the grants the person made, most recently made first. */
export const personDelegationList = listOf('delegations', personDelegation);
export type PersonDelegationList = z.infer<typeof personDelegationList>;
