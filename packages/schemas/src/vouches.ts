import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';
import { trustSubjectType } from './delegations.js';

/** A vouch is `active` until its voucher revokes it (`revoked`, for good). */
export const vouchStatus = z.enum(['active', 'revoked']);
export type VouchStatus = z.infer<typeof vouchStatus>;

/** The id of a person (`prs_…`) or of an agent identity (`agt_…`): what a trust score and a vouch are about. */
export const trustSubjectId = z
  .string()
  .check(
    z.maxLength(64),
    z.regex(/^(?:prs|agt)_[A-Za-z0-9_]{1,60}$/, 'must be the id of a person (prs_…) or of an agent identity (agt_…)'),
  );

/**
 * A person's word for another person, or for an agent identity of the account: it counts in the vouchee's trust score
 * while active (and a revoked one counts against it), so it can lift an agent over a delegation's reputation bound.
 */
export const vouch = z.object({
  id: z.string(),
  /** The person who vouches. */
  voucher_id: z.string(),
  vouchee_id: z.string(),
  vouchee_type: trustSubjectType,
  statement: z.nullable(z.string()),
  status: vouchStatus,
  created_at: dateTime(),
  revoked_at: z.nullable(dateTime()),
});
export type Vouch = z.infer<typeof vouch>;

/**
 * `POST /api/v1/vouches`, with the voucher's own access token: whom they vouch for (a person or an agent identity of
 * the same account, never themselves; one active vouch per pair) and, optionally, what they say.
 */
export const createVouchRequest = z.strictObject({
  vouchee_id: trustSubjectId,
  statement: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(500))),
});
export type CreateVouchRequest = z.input<typeof createVouchRequest>;

export const vouchEnvelope = z.object({ vouch });
export const vouchList = listOf('vouches', vouch);

/**
 * Query of `GET /api/v1/vouches`. A person sees the vouches they gave and received (`direction` narrows it); an API
 * token sees the account's (`voucher_id` and `vouchee_id` narrow it).
 */
export const vouchListQuery = z.object({
  ...listQuery.shape,
  direction: z.optional(z.enum(['given', 'received'])),
  status: z.optional(vouchStatus),
  voucher_id: z.optional(z.string().check(z.maxLength(64))),
  vouchee_id: z.optional(z.string().check(z.maxLength(64))),
});
export type VouchListQuery = z.input<typeof vouchListQuery>;
