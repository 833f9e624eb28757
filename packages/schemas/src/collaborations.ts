import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';
import { depthWithin, jsonBytes } from './json-bounds.js';

/**
 * A collaboration is `pending` until it has at least two current members and every one of them signed, then `active`;
 * `dissolved` (for good) when dissolved, or when revocations leave an active one fewer than two members.
 */
export const collaborationStatus = z.enum(['pending', 'active', 'dissolved']);
export type CollaborationStatus = z.infer<typeof collaborationStatus>;

/** `initiator` (the person who created it), `member` (shares data), `observer` (signs the terms, shares nothing). */
export const membershipRole = z.enum(['initiator', 'member', 'observer']);
export type MembershipRole = z.infer<typeof membershipRole>;

/** A membership is `pending` until its member signs (`signed`); `revoked` (for good) when it ends. */
export const membershipStatus = z.enum(['pending', 'signed', 'revoked']);
export type MembershipStatus = z.infer<typeof membershipStatus>;

/** The most bytes a collaboration's terms may hold, as JSON. */
export const COLLABORATION_TERMS_MAX_BYTES = 16 * 1024;
/** The most participants a create request may name. */
export const COLLABORATION_MAX_PARTICIPANTS = 50;

/** A person's id (`prs_…`). */
export const memberPersonId = z.string().check(z.maxLength(64), z.regex(/^prs_[A-Za-z0-9_]{1,60}$/, 'must be the id of a person (prs_…)'));

/** A category of data a member shares (`contact`, `health.steps`): lower case, digits, `_`, `.` and `-`. */
export const sharedDataCategory = z
  .string()
  .check(z.regex(/^[a-z][a-z0-9_.-]{0,63}$/, 'must be a data category: lower case letters, digits, _ . - (at most 64)'));
/** The data categories a membership shares, each named once. */
export const sharedDataCategories = z.array(sharedDataCategory).check(
  z.maxLength(50),
  z.refine((list) => new Set(list).size === list.length, 'a category appears once'),
);

/** How deep a collaboration's terms may nest. */
export const COLLABORATION_TERMS_MAX_DEPTH = 20;

const terms = z
  .record(z.string(), z.unknown())
  .check(
    z.refine(
      (value) => depthWithin(value, COLLABORATION_TERMS_MAX_DEPTH) && jsonBytes(value) <= COLLABORATION_TERMS_MAX_BYTES,
      `terms must be at most ${COLLABORATION_TERMS_MAX_BYTES} bytes of JSON, nested at most ${COLLABORATION_TERMS_MAX_DEPTH} deep`,
    ),
  );

/** One person's place in a collaboration. */
export const collaborationMembership = z.object({
  id: z.string(),
  collaboration_id: z.string(),
  role: membershipRole,
  status: membershipStatus,
  /** The member (a person of the account). */
  user_id: z.nullable(z.string()),
  /** What the member shares with the collaboration: proposed when added, the member's own choice once signed. */
  shared_data_categories: z.array(z.string()),
  created_at: dateTime(),
  signed_at: z.nullable(dateTime()),
  revoked_at: z.nullable(dateTime()),
});
export type CollaborationMembership = z.infer<typeof collaborationMembership>;

/** The spec's Collaboration: `member_count` counts the current memberships, `signed_count` the signed ones. */
export const collaboration = z.object({
  id: z.string(),
  status: collaborationStatus,
  /** The person who created it with their own access token; null when an API token did. */
  initiator_id: z.nullable(z.string()),
  application_id: z.string(),
  member_count: z.int(),
  signed_count: z.int(),
  terms: z.record(z.string(), z.unknown()),
  created_at: dateTime(),
  updated_at: dateTime(),
  activated_at: z.nullable(dateTime()),
  dissolved_at: z.nullable(dateTime()),
});
export type Collaboration = z.infer<typeof collaboration>;

/** A collaboration read on its own: with its memberships, oldest first (revoked ones included). */
export const collaborationDetail = z.extend(collaboration, { memberships: z.array(collaborationMembership) });
export type CollaborationDetail = z.infer<typeof collaborationDetail>;

/**
 * `POST /api/v1/collaborations` (all optional): the application it belongs to (default: the account's first), the
 * persons taking part (each a `member` membership, pending until they sign), and the terms (immutable once made). A
 * person creating it with their own access token is its initiator (an `initiator` membership of their own).
 */
export const createCollaborationRequest = z.strictObject({
  application_id: z.optional(z.string().check(z.maxLength(64))),
  participant_ids: z.optional(
    z.array(memberPersonId).check(
      z.maxLength(COLLABORATION_MAX_PARTICIPANTS),
      z.refine((ids) => new Set(ids).size === ids.length, 'a participant appears once'),
    ),
  ),
  terms: z.optional(terms),
});
export type CreateCollaborationRequest = z.input<typeof createCollaborationRequest>;

/** `POST /api/v1/collaborations/{id}/memberships`: a person joins a pending collaboration. */
export const addMembershipRequest = z
  .strictObject({
    user_id: memberPersonId,
    role: z.optional(z.enum(['member', 'observer'])),
    /** The categories proposed to the member (they choose when they sign). */
    shared_data_categories: z.optional(sharedDataCategories),
  })
  .check(
    z.refine((m) => m.role !== 'observer' || !m.shared_data_categories?.length, {
      message: 'an observer shares no data',
      path: ['shared_data_categories'],
    }),
  );
export type AddMembershipRequest = z.input<typeof addMembershipRequest>;

/**
 * `POST /api/v1/collaborations/{id}/memberships/{membership_id}/sign`, with the member's own access token; the body is
 * optional: the categories the member agrees to share (default: those proposed).
 */
export const signMembershipRequest = z.strictObject({ shared_data_categories: z.optional(sharedDataCategories) });
export type SignMembershipRequest = z.input<typeof signMembershipRequest>;

export const collaborationEnvelope = z.object({ collaboration: collaborationDetail });
export const collaborationList = listOf('collaborations', collaboration);
export const collaborationListQuery = z.object({ ...listQuery.shape, status: z.optional(collaborationStatus) });
export type CollaborationListQuery = z.input<typeof collaborationListQuery>;
export const membershipEnvelope = z.object({ membership: collaborationMembership });
