// The events of `<svc-records>`: `svc-records-withdraw` (the person withdrew consent, and the service recorded it)
// and its own `svc-error` (the records could not be read, or a withdrawal failed).
import type { PersonConsentRecord, PersonRecordPurpose } from '@svc/schemas';
import type { PersonListErrorDetail } from '../internal/person-list.js';

/** One of the person's consent records, as `GET /api/v1/me/consent_records` answers it (`PersonConsentRecord` of `@svc/schemas`). */
export type RecordRow = PersonConsentRecord;

/** One purpose of a {@link RecordRow}: its label, outcome, basis and whether it can be withdrawn now. */
export type RecordPurpose = PersonRecordPurpose;

/** Detail of `svc-records-withdraw`: which record, which purposes were withdrawn, and the record as it reads now. */
export interface SvcRecordsWithdrawDetail {
  /** The record's id. */
  record_id: string;
  /** The keys of the purposes withdrawn (or objected to). */
  purposes: string[];
  /** The record as the service answered after the withdrawal. */
  consent_record: RecordRow;
}

/** Fired (bubbles, composed) once the service has recorded a withdrawal the person confirmed. */
export type SvcRecordsWithdrawEvent = CustomEvent<SvcRecordsWithdrawDetail>;

/** Detail of an `svc-error` from `<svc-records>` itself: `code` `unauthorized`, `forbidden` (no `records:read`/`records:write`), `network`, `http` or `invalid_configuration`. */
export type RecordsErrorDetail = PersonListErrorDetail;

/** Fired (bubbles, composed) by `<svc-records>` when the records could not be read or a withdrawal failed. */
export type SvcRecordsErrorEvent = CustomEvent<RecordsErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-records-withdraw': SvcRecordsWithdrawEvent;
  }
  interface SvcErrorDetailMap {
    records: RecordsErrorDetail;
  }
}
