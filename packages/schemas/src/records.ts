import { z } from 'zod/mini';
import { countryCode } from './countries.js';
import { decisionEntry, noticeDigest, wordingVerdict } from './captures.js';
import { dateTime, listOf, listQuery } from './common.js';
import { purposeBasis } from './flows.js';
import { depthWithin } from './json-bounds.js';

/** Most purposes one record may name (a flow declares at most 50). */
export const RECORD_MAX_PURPOSES = 50;

/** Largest `client_facts` object, counted as characters of its JSON. */
export const CLIENT_FACTS_MAX_LENGTH = 8192;

// A purpose key as a record names it; a key the flow does not resolve is refused by name, not rejected as malformed.
const purposeKey = z.string().check(z.minLength(1), z.maxLength(64));

const locale = z.string().check(z.regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,3}$/, 'locale must be a BCP 47 language tag'));

/**
 * Where a consent record came from (the receipt's `extensions.collection_channel`). `hosted`, `embedded`,
 * `embedded_field` and `embedded_field_browser` are rendered by the service; the `_browser` variants are committed
 * by the browser at lower assurance.
 */
export const collectionChannel = z.enum([
  'hosted',
  'embedded',
  'embedded_field',
  'embedded_field_browser',
  'form_capture',
  'form_capture_browser',
  'form_platform_webhook',
  'controller_attested',
  'imported',
]);
export type CollectionChannel = z.infer<typeof collectionChannel>;

/**
 * Where a withdrawal or objection was made (the receipt event's `event_channel`): the person's records, the
 * management link in their email, the record link in their receipt, the organisation's mailing tool, a newer record
 * from the organisation's form, the organisation or its systems, the end of the term, the platform's subject sweep,
 * or `unspecified` (the evidence predates the channel).
 */
export const eventChannel = z.enum([
  'person_records',
  'email_management_link',
  'receipt_record_link',
  'mailing_tool',
  'newer_record',
  'organisation',
  'end_of_term',
  'subject_sweep',
  'unspecified',
]);
export type EventChannel = z.infer<typeof eventChannel>;

/** The channels a caller may name when withdrawing; the others are set by the platform itself. */
export const withdrawEventChannel = z.enum([
  'person_records',
  'email_management_link',
  'receipt_record_link',
  'mailing_tool',
  'organisation',
  'unspecified',
]);
export type WithdrawEventChannel = z.infer<typeof withdrawEventChannel>;

/** The person a record is about: bound by email; `external_id` is stored on the record, never on the person. */
export const recordSubject = z.strictObject({
  email: z.email().check(z.maxLength(320)),
  /** The organisation's own id of the person. */
  external_id: z.optional(z.string().check(z.minLength(1), z.maxLength(256))),
  /** The person's home country: their records live only in its cell. Default the application's `home_country`. */
  country: z.optional(countryCode),
});
export type RecordSubject = z.infer<typeof recordSubject>;

/** Map purpose key -> Decision entry, at most 50 purposes. */
export const recordDecisions = z
  .record(purposeKey, decisionEntry)
  .check(z.refine((map) => Object.keys(map).length <= RECORD_MAX_PURPOSES, `decisions may name at most ${RECORD_MAX_PURPOSES} purposes`));

/** Deepest nesting of `client_facts` (the object itself is depth 1). */
export const CLIENT_FACTS_MAX_DEPTH = 8;

/** Capture context sent with a record: never personal data (an email or phone number anywhere in it is refused). */
export const clientFacts = z.record(z.string().check(z.maxLength(100)), z.unknown()).check(
  z.refine((facts) => depthWithin(facts, CLIENT_FACTS_MAX_DEPTH), {
    message: `client_facts may nest at most ${CLIENT_FACTS_MAX_DEPTH} levels`,
    abort: true,
  }),
  z.refine(
    (facts) => JSON.stringify(facts).length <= CLIENT_FACTS_MAX_LENGTH,
    `client_facts must be at most ${CLIENT_FACTS_MAX_LENGTH} characters of JSON`,
  ),
);

/** `POST /api/v1/consent_records`: the Record API request, no additional properties. */
export const createConsentRecordRequest = z.strictObject({
  flow_id: z.string().check(z.minLength(1), z.maxLength(100)),
  subject: recordSubject,
  decisions: recordDecisions,
  /** When the decision was made; defaults to now. Never in the future. */
  captured_at: z.optional(dateTime()),
  /** A repeat with the same key returns the same record (200 instead of 201). */
  idempotency_key: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
  locale: z.optional(locale),
  /** Digest of the notice shown; compared with the published wording, recorded as match or drift, never refused. */
  notice_hash: z.optional(noticeDigest),
  client_facts: z.optional(clientFacts),
  /** Do not send the receipt email to the person. */
  suppress_receipt: z.optional(z.boolean()),
  /**
   * The signature the consent was captured with: a party of one of the caller's agreements who signed, and who is
   * the record's subject (the same email). The record's receipt then carries `extensions.signature_evidence`: a
   * pointer to the agreement's receipt and the SHA-256 of the signature's JWS. An addition to the spec's request.
   */
  signature: z.optional(
    z.strictObject({
      agreement_id: z.string().check(z.minLength(1), z.maxLength(64)),
      party_id: z.string().check(z.minLength(1), z.maxLength(64)),
    }),
  ),
});
export type CreateConsentRecordRequest = z.infer<typeof createConsentRecordRequest>;

/** A purpose's outcome on a record: consent `granted|declined|revoked`, legitimate interest `noticed|objected`, notice-only `noticed`. */
export const purposeOutcomeValue = z.enum(['granted', 'declined', 'revoked', 'noticed', 'objected']);
export type PurposeOutcomeValue = z.infer<typeof purposeOutcomeValue>;

/** One purpose of a record and its current outcome. */
export const recordPurposeOutcome = z.object({
  key: z.string(),
  outcome: purposeOutcomeValue,
  /** The purpose's lawful basis in the flow version that governs the record. */
  basis: z.nullable(purposeBasis),
});
export type RecordPurposeOutcome = z.infer<typeof recordPurposeOutcome>;

/** Record status: `fulfilled`, `revoked` (every granted consent purpose withdrawn) or `expired` (its term ran out). */
export const consentRecordStatus = z.enum(['fulfilled', 'revoked', 'expired']);
export type ConsentRecordStatus = z.infer<typeof consentRecordStatus>;

/** A consent record as the API returns it. */
export const consentRecord = z.object({
  id: z.string(),
  status: consentRecordStatus,
  purposes: z.array(recordPurposeOutcome),
  /** Fetch the receipt with `GET /api/v1/consent_receipts/{receipt_id}`; it equals the record id. */
  receipt_id: z.string(),
  captured_at: z.nullable(dateTime()),
  recorded_at: z.nullable(dateTime()),
  /** End of the consent term (`captured_at` plus the flow's `consent_duration`). */
  expires_at: z.nullable(dateTime()),
  channel: collectionChannel,
  flow_id: z.string(),
  /** The flow version whose terms govern this record. */
  flow_version: z.optional(z.int()),
  subject: z.object({ email: z.string(), external_id: z.nullable(z.string()) }),
  wording_verdict: z.optional(wordingVerdict),
});
export type ConsentRecord = z.infer<typeof consentRecord>;

/** `{consent_record}` envelope. */
export const consentRecordEnvelope = z.object({ consent_record: consentRecord });

/**
 * `GET /api/v1/consent_records`: a page of the account's records homed in the cell asked, most recently recorded
 * first. Filters combine (all must hold); the subject is named as the consent status names it.
 */
export const consentRecordListQuery = z.strictObject({
  ...listQuery.shape,
  flow_id: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  /** The status each record reads with now (an expired term or a withdrawal moves it). */
  status: z.optional(consentRecordStatus),
  /** Records that name this purpose, whatever its outcome. */
  purpose: z.optional(purposeKey),
  /** The subject's email, in any case. */
  'subject[email]': z.optional(z.email().check(z.maxLength(320))),
  'subject[external_id]': z.optional(z.string().check(z.minLength(1), z.maxLength(256))),
  /** Records captured at or after this instant (RFC 3339 with an offset). */
  captured_since: z.optional(dateTime()),
});
export type ConsentRecordListQuery = z.input<typeof consentRecordListQuery>;

/** `{consent_records: [...], next_cursor}`. */
export const consentRecordList = listOf('consent_records', consentRecord);
export type ConsentRecordList = z.infer<typeof consentRecordList>;

/** `POST /api/v1/consent_records/{id}/withdraw`: some purposes (default: every withdrawable one) and where. */
export const withdrawConsentRecordRequest = z.strictObject({
  /** Purpose keys to withdraw (consent) or object to (legitimate interest with a right to object). */
  purposes: z.optional(z.array(purposeKey).check(z.minLength(1), z.maxLength(RECORD_MAX_PURPOSES))),
  /** Where the withdrawal was made; default `organisation`. */
  event_channel: z.optional(withdrawEventChannel),
});
export type WithdrawConsentRecordRequest = z.infer<typeof withdrawConsentRecordRequest>;
