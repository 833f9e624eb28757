// A person's own consent records, as they read and withdraw them with their own access token (`/api/v1/me/
// consent_records`): what the people's records pages and `<svc-records>` show. Not the organisation's view of a record
// (`consentRecord`): no subject, but the organisation and application that hold it and each purpose's label.
import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';
import { purposeBasis } from './flows.js';
import { consentRecordStatus, purposeOutcomeValue, RECORD_MAX_PURPOSES } from './records.js';

/** The OAuth scope a person's access token needs to read their own consent records (and a delegate's grant must delegate). */
export const RECORDS_READ_SCOPE = 'records:read';
/** The OAuth scope a person's access token needs to withdraw their own consent (and a delegate's grant must delegate). */
export const RECORDS_WRITE_SCOPE = 'records:write';

const named = z.object({ id: z.string(), name: z.string() });

/**
 * One purpose of the person's record: its label in the terms the person agreed to, its outcome now, its lawful basis,
 * and whether the person can withdraw it now (granted consent, or a legitimate interest they may object to, on a
 * record whose term has not ended).
 */
export const personRecordPurpose = z.object({
  key: z.string(),
  label: z.string(),
  outcome: purposeOutcomeValue,
  basis: z.nullable(purposeBasis),
  withdrawable: z.boolean(),
});
export type PersonRecordPurpose = z.infer<typeof personRecordPurpose>;

/**
 * A consent record as the person it is about reads it. `title` is the title of the flow version whose terms govern
 * the record (null when those terms are not found); `withdrawal_method` is the receipt's credential-free withdrawal
 * link for this record; `receipt_id` the receipt (`GET /api/v1/consent_receipts/{receipt_id}` for the organisation).
 */
export const personConsentRecord = z.object({
  id: z.string(),
  status: consentRecordStatus,
  recorded_at: dateTime(),
  captured_at: dateTime(),
  expires_at: z.nullable(dateTime()),
  flow_id: z.string(),
  organisation: named,
  application: named,
  title: z.nullable(z.string()),
  purposes: z.array(personRecordPurpose),
  receipt_id: z.string(),
  withdrawal_method: z.string(),
});
export type PersonConsentRecord = z.infer<typeof personConsentRecord>;

/** `{consent_record}`: one of the person's records. */
export const personConsentRecordEnvelope = z.object({ consent_record: personConsentRecord });
export type PersonConsentRecordEnvelope = z.infer<typeof personConsentRecordEnvelope>;

/** Query of `GET /api/v1/me/consent_records`: the list query and the status each record reads with now. */
export const personConsentRecordListQuery = z.strictObject({
  ...listQuery.shape,
  status: z.optional(consentRecordStatus),
});
export type PersonConsentRecordListQuery = z.input<typeof personConsentRecordListQuery>;

/** `{consent_records: [...], next_cursor}`: a page of the person's records, most recently recorded first. */
export const personConsentRecordList = listOf('consent_records', personConsentRecord);
export type PersonConsentRecordList = z.infer<typeof personConsentRecordList>;

/** `POST /api/v1/me/consent_records/{id}/withdraw`: the purposes to withdraw or object to (default: every withdrawable one). */
export const withdrawPersonConsentRecordRequest = z.strictObject({
  purposes: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.minLength(1), z.maxLength(RECORD_MAX_PURPOSES))),
});
export type WithdrawPersonConsentRecordRequest = z.input<typeof withdrawPersonConsentRecordRequest>;
