import { z } from 'zod/mini';
import { countryCode } from './countries.js';
import { wordingVerdict } from './captures.js';
import { dateTime } from './common.js';
import { purposeBasis } from './flows.js';

/** The channels a capture token can commit to: the field (`embedded_field`) or the snippet (`form_capture`). */
export const captureChannel = z.enum(['embedded_field', 'embedded_field_browser', 'form_capture', 'form_capture_browser']);
export type CaptureChannel = z.infer<typeof captureChannel>;

/**
 * `POST /api/v1/decisions/{session_token}/authorize` (API token, write): commits a capture token. Binds the person
 * by `subject.email`; `external_id` is stored on the record only. No additional properties.
 */
export const authorizeRequest = z.strictObject({
  subject: z.strictObject({
    email: z.email().check(z.maxLength(320)),
    /** The organisation's own id of the person; stored on the record, never on the person. */
    external_id: z.optional(z.string().check(z.minLength(1), z.maxLength(256))),
    /** The person's home country; it must be the capture's (the cell it was posted to). */
    country: z.optional(countryCode),
  }),
  /** Do not send the receipt email to the person. */
  suppress_receipt: z.optional(z.boolean()),
});
export type AuthorizeRequest = z.infer<typeof authorizeRequest>;

/** One purpose's outcome as the committed capture recorded it. */
export const capturedPurposeOutcome = z.object({
  key: z.string(),
  outcome: z.enum(['granted', 'declined', 'noticed', 'objected']),
  basis: purposeBasis,
});

/**
 * A committed capture as the decision it became, and the spec's ConsentAuthorized: `status` is `fulfilled`,
 * `consent_token` is the single-use consent token (verify it once within 5 minutes at
 * `POST /api/v1/consent_tokens/verify`; it expires at `consent_token_expires_at`), and `record_id` names the consent
 * record (its receipt is at `/api/v1/consent_receipts/{record_id}`).
 */
export const authorizedDecision = z.object({
  /** The capture's attestation id (`att_...`). */
  id: z.string(),
  /** The capture token that was committed. */
  session_token: z.string(),
  kind: z.literal('consent'),
  status: z.literal('fulfilled'),
  application_id: z.string(),
  flow_id: z.string(),
  /** The flow version the person saw, which governs the record. */
  flow_version: z.int(),
  channel: captureChannel,
  record_id: z.string(),
  /**
   * ConsentAuthorized: the consent token (32 bytes, URL-safe base64), single use. Null when the person granted no
   * consent purpose (the record's `consent.denied`): there is no consent to verify, as for a declined hosted decision.
   */
  consent_token: z.nullable(z.string()),
  /** ConsentAuthorized: when the consent token expires (5 minutes after the commit); null without a token. */
  consent_token_expires_at: z.nullable(dateTime()),
  subject: z.object({ email: z.string(), external_id: z.nullable(z.string()) }),
  purposes: z.array(capturedPurposeOutcome),
  wording_verdict: wordingVerdict,
  /** Whether a receipt email was queued for the person. */
  receipt_email_queued: z.boolean(),
  captured_at: dateTime(),
  committed_at: dateTime(),
});
export type AuthorizedDecision = z.infer<typeof authorizedDecision>;

/** `{decision}` envelope of the authorize answer. */
export const authorizedDecisionEnvelope = z.object({ decision: authorizedDecision });
export type AuthorizedDecisionEnvelope = z.infer<typeof authorizedDecisionEnvelope>;
