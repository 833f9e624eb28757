// A person's own credentials, as they read and present them with their own access token (`/api/v1/me/credentials`,
// `/api/v1/me/presentations`): what the people's credentials pages and `<svc-credentials>` show. Not the
// organisation's view of a credential (`credential`): never the SD-JWT itself, but the organisation that issued it and
// each claim with its label, and whether the person may withhold it.
import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';
import { credentialStatus, presentationVerification, PRESENTATION_MAX_LENGTH } from './credentials.js';

/** The OAuth scope a person's access token needs to read their own credentials and what they presented. */
export const CREDENTIALS_READ_SCOPE = 'credentials:read';
/** The OAuth scope a person's access token needs to present one of their credentials. */
export const CREDENTIALS_WRITE_SCOPE = 'credentials:write';

/** How many claims a person may name in one presentation. */
export const PRESENTATION_MAX_CLAIMS = 64;

const named = z.object({ id: z.string(), name: z.string() });

/**
 * One claim of the person's credential: its path (`email`, `purposes.newsletter`), its label, its value as the
 * credential states it, and `required` when it is always shared (the issuer made it visible to every verifier);
 * every other claim is shared only when the person chooses it.
 */
export const personCredentialClaim = z.object({
  path: z.string(),
  label: z.string(),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  required: z.boolean(),
});
export type PersonCredentialClaim = z.infer<typeof personCredentialClaim>;

/**
 * A credential as the person it attests reads it. `presentable` is false when the service cannot present it for them
 * (revoked, expired, or bound to a key only their wallet holds).
 */
export const personCredential = z.object({
  id: z.string(),
  credential_type: z.string(),
  name: z.string(),
  status: credentialStatus,
  issued_at: dateTime(),
  expires_at: dateTime(),
  revoked_at: z.nullable(dateTime()),
  home_country: z.string(),
  organisation: named,
  application: named,
  holder_bound: z.boolean(),
  presentable: z.boolean(),
  claims: z.array(personCredentialClaim),
});
export type PersonCredential = z.infer<typeof personCredential>;

/** `{credential}`: one of the person's credentials. */
export const personCredentialEnvelope = z.object({ credential: personCredential });
export type PersonCredentialEnvelope = z.infer<typeof personCredentialEnvelope>;

/** Query of `GET /api/v1/me/credentials`: the list query and the status each credential reads with now. */
export const personCredentialListQuery = z.strictObject({
  ...listQuery.shape,
  status: z.optional(credentialStatus),
});
export type PersonCredentialListQuery = z.input<typeof personCredentialListQuery>;

/** `{credentials: [...], next_cursor}`: a page of the person's credentials, most recently issued first. */
export const personCredentialList = listOf('credentials', personCredential);
export type PersonCredentialList = z.infer<typeof personCredentialList>;

/**
 * `POST /api/v1/me/credentials/{id}/presentations`: the claims the person chose to share (paths from the credential's
 * `claims`; the required ones are shared anyway), who they present to (`audience`: the verifier, as the person names
 * it), and the verifier's `nonce` when it sent one.
 */
export const createPersonPresentationRequest = z.strictObject({
  disclose: z.array(z.string().check(z.minLength(1), z.maxLength(200))).check(z.maxLength(PRESENTATION_MAX_CLAIMS)),
  audience: z.string().check(z.minLength(1), z.maxLength(200)),
  nonce: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
});
export type CreatePersonPresentationRequest = z.input<typeof createPersonPresentationRequest>;

/** A claim the person shared, with its label. */
export const sharedClaim = z.object({ path: z.string(), label: z.string() });
export type SharedClaim = z.infer<typeof sharedClaim>;

/** What the person presented, to whom and when: the history row (never the presentation itself). */
export const personPresentation = z.object({
  id: z.string(),
  credential_id: z.string(),
  credential_name: z.string(),
  organisation: named,
  audience: z.string(),
  nonce: z.nullable(z.string()),
  disclosed: z.array(sharedClaim),
  presented_at: dateTime(),
});
export type PersonPresentation = z.infer<typeof personPresentation>;

/**
 * The answer to a presentation: its history row, the SD-JWT presentation to hand to the verifier (disclosing exactly
 * the chosen claims), and what the service's verifier (`POST /api/v1/presentations`) makes of it; null when it could
 * not check it now (its status list unreachable).
 */
export const createdPersonPresentation = z.object({
  ...personPresentation.shape,
  presentation: z.string().check(z.maxLength(PRESENTATION_MAX_LENGTH)),
  verification: z.nullable(presentationVerification),
});
export type CreatedPersonPresentation = z.infer<typeof createdPersonPresentation>;
export const createdPersonPresentationEnvelope = z.object({ presentation: createdPersonPresentation });
export type CreatedPersonPresentationEnvelope = z.infer<typeof createdPersonPresentationEnvelope>;

/** Query of `GET /api/v1/me/presentations`: the list query, optionally of one credential. */
export const personPresentationListQuery = z.strictObject({
  ...listQuery.shape,
  credential_id: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
});
export type PersonPresentationListQuery = z.input<typeof personPresentationListQuery>;

/** `{presentations: [...], next_cursor}`: what the person presented, most recent first. */
export const personPresentationList = listOf('presentations', personPresentation);
export type PersonPresentationList = z.infer<typeof personPresentationList>;
