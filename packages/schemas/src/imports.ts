import { z } from 'zod/mini';
import { noticeDigest } from './captures.js';
import { dateTime, fieldError } from './common.js';
import { recordDecisions, recordSubject } from './records.js';

/** Most rows one import may carry; a longer import is refused (422) before anything runs. */
export const IMPORT_MAX_ROWS = 5000;

/**
 * Why a purpose or a row is refused. Attestation (Errors rule 3): `unknown_purpose` (the flow does not resolve the
 * key), `purpose_missing` (a consent purpose without a decision), `default_checked`, `mandatory` (a consent control
 * shown ticked or required), `notice_only_purpose` (a contract or legal-obligation purpose cannot be declined).
 * Rows: `invalid_row` (the row does not match the row shape), `captured_in_future`, `idempotency_key_reused` (the
 * key names an earlier record with different content), `wrong_country` (the subject's home country, or else the
 * application's, is another cell's: send the row there).
 */
export const refusalCode = z.enum([
  'unknown_purpose',
  'purpose_missing',
  'default_checked',
  'mandatory',
  'notice_only_purpose',
  'invalid_row',
  'captured_in_future',
  'idempotency_key_reused',
  'wrong_country',
]);
export type RefusalCode = z.infer<typeof refusalCode>;

/** One row of an import: a decision captured earlier, outside the service. */
export const importRow = z.strictObject({
  subject: recordSubject,
  decisions: recordDecisions,
  /** When the decision was made (required: an import carries history). */
  captured_at: dateTime(),
  /** A re-run with the same key finds the earlier record instead of creating another. */
  idempotency_key: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
  locale: z.optional(z.string().check(z.regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,3}$/, 'locale must be a BCP 47 language tag'))),
  notice_hash: z.optional(noticeDigest),
});
export type ImportRow = z.infer<typeof importRow>;

/** `POST /api/v1/consent_records/imports`: no additional properties, at most 5000 rows. */
export const createImportRequest = z.strictObject({
  flow_id: z.string().check(z.minLength(1), z.maxLength(100)),
  records: z.array(importRow).check(z.minLength(1), z.maxLength(IMPORT_MAX_ROWS)),
  /** Report what would happen and write nothing. */
  dry_run: z.optional(z.boolean()),
  /** Queue a receipt email to each person (default off). */
  send_receipts: z.optional(z.boolean()),
});
export type CreateImportRequest = z.infer<typeof createImportRequest>;

/** Import status: `pending` (accepted, not started), `running`, `completed`, `failed` (nothing was written). */
export const importStatus = z.enum(['pending', 'running', 'completed', 'failed']);
export type ImportStatus = z.infer<typeof importStatus>;

/** The import allowance, checked before the run: `remaining` is null when unlimited. */
export const importAllowance = z.object({
  /** What is counted: `consent_records` (records created by imports). */
  meter: z.string(),
  /** `unlimited`, `available` or `exhausted`. */
  state: z.enum(['unlimited', 'available', 'exhausted']),
  remaining: z.nullable(z.int()),
});
export type ImportAllowance = z.infer<typeof importAllowance>;

/** The result of one row: accepted with its record id, or refused by name with a code and the purpose. */
export const importResult = z.object({
  /** Zero-based position of the row in `records`. */
  index: z.int(),
  outcome: z.enum(['accepted', 'refused']),
  /** The record (new, or the earlier one with the same idempotency key); null when refused or on a dry run. */
  record_id: z.nullable(z.string()),
  /** True when the idempotency key found an earlier record, so nothing new was written. */
  existing: z.optional(z.boolean()),
  code: z.nullable(refusalCode),
  /** The purpose key the refusal names, when it names one. */
  purpose: z.nullable(z.string()),
  /** Every problem of a refused row, as `{path, code, message}`. */
  errors: z.optional(z.array(fieldError)),
  captured_at: z.nullable(z.string()),
  recorded_at: z.nullable(dateTime()),
});
export type ImportResult = z.infer<typeof importResult>;

/** An import as the API returns it. */
export const consentImport = z.object({
  id: z.string(),
  status: importStatus,
  dry_run: z.boolean(),
  row_count: z.int(),
  accepted_count: z.int(),
  refused_count: z.int(),
  flow_id: z.optional(z.string()),
  send_receipts: z.optional(z.boolean()),
  started_at: z.nullable(dateTime()),
  finished_at: z.nullable(dateTime()),
  error: z.nullable(z.string()),
  allowance: importAllowance,
  results: z.array(importResult),
});
export type ConsentImport = z.infer<typeof consentImport>;

/** `{import}` envelope. */
export const consentImportEnvelope = z.object({ import: consentImport });
