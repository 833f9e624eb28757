// A person's own agreements and collaborations, as they read, sign and leave them with their own access token
// (`/api/v1/me/agreements`, `/api/v1/me/collaborations`): what the people's agreements, multi-party agreements and
// collaborations pages and `<svc-agreements>` show. Not the organisation's view: no party's email or signing session
// (holding a session token opens a signing page), but the organisation, the document itself and the person's own part.
import { z } from 'zod/mini';
import { agreementStatus, partyStatus, quorumStatus } from './agreements.js';
import { collaborationStatus, membershipRole, membershipStatus } from './collaborations.js';
import { dateTime, listOf, listQuery } from './common.js';

/** The OAuth scope a person's access token needs to read their agreements and collaborations (a delegate's grant may delegate it). */
export const AGREEMENTS_READ_SCOPE = 'agreements:read';
/** The OAuth scope a person's access token needs to sign an agreement, or sign or leave a collaboration (the person themself only). */
export const AGREEMENTS_WRITE_SCOPE = 'agreements:write';

const named = z.object({ id: z.string(), name: z.string() });

/** One party of an agreement as a fellow party reads it: the name the organisation gave it and its outcome, never its email. */
export const personAgreementParty = z.object({
  name: z.nullable(z.string()),
  status: partyStatus,
  /** Whether this party is the signed-in person. */
  is_you: z.boolean(),
});
export type PersonAgreementParty = z.infer<typeof personAgreementParty>;

/**
 * An agreement the person is a party of (by their verified email), as they read it: the document they are asked to
 * sign (its text and SHA-256), where the quorum stands, and their own part. `can_sign` holds while their party is
 * pending and its signing session open (not past `expires_at`). `multi_party`: the quorum is two or more.
 */
export const personAgreement = z.object({
  id: z.string(),
  title: z.string(),
  status: agreementStatus,
  quorum_status: quorumStatus,
  quorum: z.int(),
  signed_count: z.int(),
  multi_party: z.boolean(),
  organisation: named,
  application: named,
  document: z.object({ text: z.string(), sha256: z.string() }),
  you: z.object({
    party_id: z.string(),
    status: partyStatus,
    decided_at: z.nullable(dateTime()),
  }),
  parties: z.array(personAgreementParty),
  can_sign: z.boolean(),
  created_at: dateTime(),
  activated_at: z.nullable(dateTime()),
  expires_at: z.nullable(dateTime()),
});
export type PersonAgreement = z.infer<typeof personAgreement>;

/** `{agreement}`: one of the person's agreements. */
export const personAgreementEnvelope = z.object({ agreement: personAgreement });
export type PersonAgreementEnvelope = z.infer<typeof personAgreementEnvelope>;

/**
 * Query of `GET /api/v1/me/agreements`: the list query, the agreement's status, and `multi_party=true` for the
 * multi-party agreements only (quorum two or more), `false` for those of quorum one.
 */
export const personAgreementListQuery = z.strictObject({
  ...listQuery.shape,
  status: z.optional(agreementStatus),
  multi_party: z.optional(z.enum(['true', 'false'])),
});
export type PersonAgreementListQuery = z.input<typeof personAgreementListQuery>;

/** `{agreements: [...], next_cursor}`: a page of the person's agreements, most recently created first. */
export const personAgreementList = listOf('agreements', personAgreement);
export type PersonAgreementList = z.infer<typeof personAgreementList>;

/** `POST /api/v1/me/agreements/{id}/sign`: an optional comment kept with the person's vote. */
export const signPersonAgreementRequest = z.strictObject({
  comment: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(1000))),
});
export type SignPersonAgreementRequest = z.input<typeof signPersonAgreementRequest>;

/**
 * A collaboration the person takes part in, as they read it: its state and terms, the organisation, and their own
 * membership (the latest, when they left and were added again): role, status and the data categories they share.
 * `can_sign` while their membership is pending and the collaboration not dissolved; `can_leave` while their
 * membership is current (pending or signed) and the collaboration not dissolved.
 */
export const personCollaboration = z.object({
  id: z.string(),
  status: collaborationStatus,
  organisation: named,
  application: named,
  terms: z.record(z.string(), z.unknown()),
  member_count: z.int(),
  signed_count: z.int(),
  membership: z.object({
    id: z.string(),
    role: membershipRole,
    status: membershipStatus,
    shared_data_categories: z.array(z.string()),
    created_at: dateTime(),
    signed_at: z.nullable(dateTime()),
    revoked_at: z.nullable(dateTime()),
  }),
  can_sign: z.boolean(),
  can_leave: z.boolean(),
  created_at: dateTime(),
  activated_at: z.nullable(dateTime()),
  dissolved_at: z.nullable(dateTime()),
});
export type PersonCollaboration = z.infer<typeof personCollaboration>;

/** `{collaboration}`: one of the person's collaborations. */
export const personCollaborationEnvelope = z.object({ collaboration: personCollaboration });
export type PersonCollaborationEnvelope = z.infer<typeof personCollaborationEnvelope>;

/** Query of `GET /api/v1/me/collaborations`: the list query and the collaboration's status. */
export const personCollaborationListQuery = z.strictObject({ ...listQuery.shape, status: z.optional(collaborationStatus) });
export type PersonCollaborationListQuery = z.input<typeof personCollaborationListQuery>;

/** `{collaborations: [...], next_cursor}`: a page of the person's collaborations, most recently created first. */
export const personCollaborationList = listOf('collaborations', personCollaboration);
export type PersonCollaborationList = z.infer<typeof personCollaborationList>;
