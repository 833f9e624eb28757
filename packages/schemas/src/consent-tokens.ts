import { z } from 'zod/mini';
import { dateTime } from './common.js';
import { decisionOutcome } from './decisions.js';

const token = z.string().check(z.minLength(1), z.maxLength(512));

/** `POST /api/v1/consent_tokens/verify`: the consent token to check (and consume). */
export const verifyConsentTokenRequest = z.strictObject({ consent_token: token });
export type VerifyConsentTokenRequest = z.infer<typeof verifyConsentTokenRequest>;

/**
 * What a consent token verification reports. `fulfilled`: valid, and now consumed; `expired`: past its 5 minutes or
 * already verified once (verifying clears the token); `revoked`: the person's consent was withdrawn since it was issued
 * (use stops, whatever the token's age); `invalid`: never issued to the caller's account.
 */
export const consentTokenStatus = z.enum(['fulfilled', 'expired', 'revoked', 'invalid']).register(z.globalRegistry, {
  description:
    'fulfilled, expired and revoked are consent token statuses of the spec; invalid is an addition (a token never issued to the caller), always with valid false.',
});

/**
 * ConsentVerification. `flow_id`, `flow_version` and `consent_transaction_id` are present whenever the token is
 * known to the caller's account (also when it has expired); `expires_at` is the token's end of life, null when
 * the token is not known.
 */
export const consentVerification = z.object({
  valid: z.boolean(),
  status: consentTokenStatus,
  flow_id: z.optional(z.string()),
  expires_at: z.nullable(dateTime()),
  flow_version: z.optional(z.int()),
  consent_transaction_id: z.optional(z.string()),
});
export type ConsentVerification = z.infer<typeof consentVerification>;

/** `POST /api/v1/decisions/{session_token}/exchange`: the `exchange_token` the page posted in `svc:complete`. */
export const exchangeRequest = z.strictObject({ exchange_token: token });
export type ExchangeRequest = z.infer<typeof exchangeRequest>;

/** How one purpose of the flow ended in a consent decision. */
export const purposeOutcome = z.object({
  key: z.string(),
  basis: z.string(),
  mechanism: z.string(),
  outcome: z.enum(['granted', 'declined', 'noticed', 'objected']),
});
export type PurposeOutcome = z.infer<typeof purposeOutcome>;

/** Claims of a completed consent decision: the flow version that governs it and each purpose's outcome. */
export const consentClaims = z.object({
  kind: z.literal('consent'),
  decision_id: z.string(),
  outcome: z.enum(['granted', 'declined']),
  flow_id: z.string(),
  flow_version: z.int(),
  /** Keys of the consent purposes granted (empty when declined). */
  purposes_granted: z.array(z.string()),
  purposes: z.array(purposeOutcome),
  /**
   * The person, when the flow established who they are (signed in, and passed the verification step when the flow
   * has one: the standard path); null otherwise, and then the decision's consent record is anonymous.
   */
  subject: z.nullable(z.object({ email: z.string() })),
  decided_at: dateTime(),
  scope: z.nullable(z.string()),
  state: z.nullable(z.string()),
  meeting_id: z.nullable(z.string()),
});

/** Claims of a completed approval decision: the escalation decided and how. */
export const approvalClaims = z.object({
  kind: z.literal('approval'),
  decision_id: z.string(),
  outcome: z.enum(['approved', 'denied', 'countered']),
  escalation_id: z.string(),
  counter_proposal: z.nullable(z.string()),
  decided_at: dateTime(),
  scope: z.nullable(z.string()),
  state: z.nullable(z.string()),
});

/**
 * Claims of a completed signing session: the agreement and party, how it ended, and for a signature the party's typed
 * name and the signature itself (a compact JWS over the document hash, the party and the time; also in the
 * agreement's receipt).
 */
export const signatureClaims = z.object({
  kind: z.literal('signature_request'),
  decision_id: z.string(),
  outcome: z.enum(['signed', 'declined', 'countered']),
  agreement_id: z.string(),
  party_id: z.string(),
  party_email: z.string(),
  home_country: z.string(),
  document_sha256: z.string(),
  /** The name the party typed to sign (`signed`), otherwise null. */
  signed_name: z.nullable(z.string()),
  /** The signature's compact JWS (`signed`), otherwise null. */
  signature: z.nullable(z.string()),
  /** The party's counter-proposal (`countered`), otherwise null. */
  counter_proposal: z.nullable(z.string()),
  /** The party's comment on a decline, otherwise null. */
  comment: z.nullable(z.string()),
  decided_at: dateTime(),
});

/** The claims of any kind, discriminated by `kind`. */
export const decisionClaims = z.discriminatedUnion('kind', [consentClaims, approvalClaims, signatureClaims]);
export type DecisionClaims = z.infer<typeof decisionClaims>;

/**
 * ConsentExchange. A granted consent carries its consent token in `access_token` with `token_type:
 * "consent_token"` and `expires_in` (seconds the token has left of its 5 minutes). A declined consent, every
 * approval and every signing session carry no token. `status` is the decision's final status; `provenance` says how it was collected.
 */
export const consentExchange = z.object({
  claims: decisionClaims,
  access_token: z.optional(z.string()),
  token_type: z.optional(z.literal('consent_token')),
  expires_in: z.optional(z.int()),
  scope: z.optional(z.string()),
  status: z.string(),
  outcome: decisionOutcome,
  application_id: z.string(),
  consent_transaction_id: z.string(),
  /** The consent record the decision made (consent only); its receipt is at `/api/v1/consent_receipts/{record_id}`. */
  record_id: z.optional(z.string()),
  provenance: z.object({
    collection_channel: z.enum(['hosted', 'embedded']),
    delivery_mode: z.string(),
  }),
});
export type ConsentExchange = z.infer<typeof consentExchange>;
