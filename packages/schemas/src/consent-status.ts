import { z } from 'zod/mini';
import { dateTime } from './common.js';

/** A purpose's consent status for one person: from their latest record of the flow that asks it. */
export const purposeConsentStatus = z.enum(['granted', 'declined', 'revoked', 'expired', 'objected', 'noticed', 'pending']);
export type PurposeConsentStatus = z.infer<typeof purposeConsentStatus>;

/** Overall status over the purposes a person decides (consent and right-to-object purposes). */
export const overallConsentStatus = z.enum(['granted', 'partial', 'declined', 'pending']);
export type OverallConsentStatus = z.infer<typeof overallConsentStatus>;

/** One purpose of a consent status. */
export const consentStatusPurpose = z.object({
  /** The purpose key. */
  purpose: z.string(),
  status: purposeConsentStatus,
  /** When the consent in force was given (captured). */
  granted_at: z.nullable(dateTime()),
  /** When the consent in force ends. */
  expires_at: z.nullable(dateTime()),
  /** Who gave it: the person's id (no guardian or delegate in the reference server). */
  granted_by: z.nullable(z.string()),
  /** The flow that asks the purpose. */
  flow_id: z.optional(z.string()),
  /** The record the status comes from. */
  record_id: z.optional(z.nullable(z.string())),
});
export type ConsentStatusPurpose = z.infer<typeof consentStatusPurpose>;

/** `GET /api/v1/applications/{id}/consent_status`: one person's consent with one application. */
export const consentStatus = z.object({
  /** The person's id. */
  user_id: z.string(),
  application_id: z.string(),
  overall_status: overallConsentStatus,
  purposes: z.array(consentStatusPurpose),
  guardian_consent: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  subject_ref: z.optional(z.object({ email: z.nullable(z.string()), external_id: z.nullable(z.string()) })),
});
export type ConsentStatus = z.infer<typeof consentStatus>;

/** The query of the consent status: exactly one of `subject[external_id]`, `subject[email]` or `person_id`. */
export const consentStatusQuery = z
  .strictObject({
    'subject[external_id]': z.optional(z.string().check(z.minLength(1), z.maxLength(256))),
    'subject[email]': z.optional(z.email().check(z.maxLength(320))),
    person_id: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    /** Limit the status to one flow; its undecided purposes are then listed as `pending`. */
    flow_id: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  })
  .check(
    z.refine(
      (q) => [q['subject[external_id]'], q['subject[email]'], q.person_id].filter((v) => v !== undefined).length === 1,
      'name the person with exactly one of subject[external_id], subject[email] or person_id',
    ),
  );
