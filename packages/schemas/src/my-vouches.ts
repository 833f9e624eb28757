// A person's own trust scores and vouches, as they read them and vouch with their own access token
// (`/api/v1/me/trust_scores`, `/api/v1/me/vouches`): what the people's trust pages and `<svc-vouches>` show. A person
// has one person row per organisation, so one score per organisation; a vouch is always within one organisation.
// Another person is named by id only (never their email): the person vouched for knows who they are, and a vouch
// received says who gave it no more than the organisation's API does.
import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';
import { trustScoreFactor, trustSubjectType } from './delegations.js';
import { createVouchRequest, vouchStatus } from './vouches.js';

/** The OAuth scope a person's access token needs to read their own trust scores and vouches. */
export const VOUCHES_READ_SCOPE = 'vouches:read';
/** The OAuth scope a person's access token needs to vouch for someone, or withdraw a vouch they gave. */
export const VOUCHES_WRITE_SCOPE = 'vouches:write';

const named = z.object({ id: z.string(), name: z.string() });

/** One factor of the person's score, with what it counts in plain words (`description`). */
export const personTrustScoreFactor = z.object({ ...trustScoreFactor.shape, description: z.string() });
export type PersonTrustScoreFactor = z.infer<typeof personTrustScoreFactor>;

/**
 * The person's trust score at one organisation: `subject_id` is their id there (what someone who vouches for them
 * names), `score` 0-100 is the same function the organisation reads (and a delegation's reputation bound).
 */
export const personTrustScore = z.object({
  organisation: named,
  subject_id: z.string(),
  score: z.int().check(z.gte(0), z.lte(100)),
  factors: z.array(personTrustScoreFactor),
  computed_at: dateTime(),
});
export type PersonTrustScore = z.infer<typeof personTrustScore>;

/** Query of `GET /api/v1/me/trust_scores`. */
export const personTrustScoreListQuery = z.strictObject({ ...listQuery.shape });
export type PersonTrustScoreListQuery = z.input<typeof personTrustScoreListQuery>;

/** `{trust_scores: [...], next_cursor}`: one score per organisation the person is known to, oldest relationship first. */
export const personTrustScoreList = listOf('trust_scores', personTrustScore);
export type PersonTrustScoreList = z.infer<typeof personTrustScoreList>;

/** The other side of a vouch: an agent by its display name, a person by id only (`name` null). */
export const personVouchCounterpart = z.object({ type: trustSubjectType, id: z.string(), name: z.nullable(z.string()) });
export type PersonVouchCounterpart = z.infer<typeof personVouchCounterpart>;

/** A vouch as the person reads it: one they `given` (which they may revoke) or `received`. */
export const personVouch = z.object({
  id: z.string(),
  direction: z.enum(['given', 'received']),
  organisation: named,
  counterpart: personVouchCounterpart,
  statement: z.nullable(z.string()),
  status: vouchStatus,
  created_at: dateTime(),
  revoked_at: z.nullable(dateTime()),
});
export type PersonVouch = z.infer<typeof personVouch>;

/** `{vouch}`: one of the person's vouches. */
export const personVouchEnvelope = z.object({ vouch: personVouch });
export type PersonVouchEnvelope = z.infer<typeof personVouchEnvelope>;

/** Query of `GET /api/v1/me/vouches`: given, received (default both), and the status. */
export const personVouchListQuery = z.strictObject({
  ...listQuery.shape,
  direction: z.optional(z.enum(['given', 'received'])),
  status: z.optional(vouchStatus),
});
export type PersonVouchListQuery = z.input<typeof personVouchListQuery>;

/** `{vouches: [...], next_cursor}`: a page of the vouches the person gave and received, most recent first. */
export const personVouchList = listOf('vouches', personVouch);
export type PersonVouchList = z.infer<typeof personVouchList>;

/**
 * `POST /api/v1/me/vouches`: whom the person vouches for (a person, `prs_…`, or an agent identity, `agt_…`, of an
 * organisation they are known to; never themselves) and, optionally, what they say. The organisation's own rule.
 */
export const createPersonVouchRequest = createVouchRequest;
export type CreatePersonVouchRequest = z.input<typeof createPersonVouchRequest>;
