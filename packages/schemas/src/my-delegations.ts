// The delegation grants a person made, as they read, suspend, resume and revoke them with their own access token
// (`/api/v1/me/delegations`), and the grants they make there: what the people's delegations page and `<svc-delegations>`
// show and send. Not the organisation's
// view of a grant (`delegationGrant`): the organisation that holds it and who the delegate is, by name, not by id.
import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';
import { createDelegationRequest, delegationBounds, delegationStatus, delegationType } from './delegations.js';

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

/** An organisation the person may make a grant in: one with a person row of theirs and an active application. */
export const delegatingOrganisation = z.object({ id: z.string(), name: z.string() });
export type DelegatingOrganisation = z.infer<typeof delegatingOrganisation>;

/**
 * `{delegations: [...], next_cursor, organisations}`: a page of the grants the person made, most recently made first,
 * and the organisations they may make one in (with an organisation's client, that one only).
 */
export const personDelegationList = z.extend(listOf('delegations', personDelegation), {
  organisations: z.array(delegatingOrganisation),
});
export type PersonDelegationList = z.infer<typeof personDelegationList>;

/**
 * `POST /api/v1/me/delegations`: the person lets someone act for them in one organisation. Where: with one of the
 * service's own clients, `organisation_id` (one of the list's `organisations`) or `application_id` (one of that
 * organisation's); with an organisation's client, its own (either may be left out). Who: `delegate_email` (a person
 * of that organisation, by their email) or `delegate_id` (`prs_...` or `agt_...`, as the organisation's API takes
 * it), one of the two. The grant's terms and bounds are the organisation's API's own `delegation_grant`, checked by
 * the same schema, without `parent_grant_id` (a sub-delegation is made on that API by a grant's delegate).
 */
export const createPersonDelegation = z
  .strictObject({
    organisation_id: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    application_id: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    delegate_email: z.optional(z.email().check(z.maxLength(320))),
    delegate_id: z.optional(createDelegationRequest.shape.delegate_id),
    delegation_grant: z.omit(createDelegationRequest.shape.delegation_grant, { parent_grant_id: true }),
  })
  .check(
    z.refine((body) => (body.delegate_email === undefined) !== (body.delegate_id === undefined), {
      message: 'name the delegate with delegate_email or delegate_id (one of the two)',
      path: ['delegate_email'],
    }),
  );
export type CreatePersonDelegation = z.input<typeof createPersonDelegation>;
