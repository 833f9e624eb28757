import { z } from 'zod/mini';

/** The most days `GET /api/v1/applications/{id}/consent_activity` counts back. */
export const CONSENT_ACTIVITY_MAX_DAYS = 90;

/** `?days=` (1 to 90; 30 when absent): how many UTC days, ending today, to count. */
export const consentActivityQuery = z.strictObject({
  days: z.optional(
    z
      .pipe(z.string().check(z.regex(/^\d{1,2}$/)), z.transform(Number))
      .check(z.refine((n) => n >= 1 && n <= CONSENT_ACTIVITY_MAX_DAYS, `days must be between 1 and ${CONSENT_ACTIVITY_MAX_DAYS}`)),
  ),
});
export type ConsentActivityQuery = z.input<typeof consentActivityQuery>;

/**
 * One purpose on one UTC day: `granted` (records captured that day that grant it), `denied` (records that decline it
 * or object to it) and `withdrawn` (withdrawals of it that day, from records captured on any day).
 */
export const consentActivityDay = z.object({
  /** `YYYY-MM-DD`, UTC. */
  date: z.iso.date(),
  purpose: z.string(),
  granted: z.int(),
  denied: z.int(),
  withdrawn: z.int(),
});
export type ConsentActivityDay = z.infer<typeof consentActivityDay>;

/**
 * `GET /api/v1/applications/{id}/consent_activity`: consent given, refused and withdrawn per purpose per day, from
 * `from` to `to` (UTC dates, both included), oldest first; a day and purpose with nothing is left out.
 */
export const consentActivity = z.object({
  application_id: z.string(),
  from: z.iso.date(),
  to: z.iso.date(),
  days: z.array(consentActivityDay),
});
export type ConsentActivity = z.infer<typeof consentActivity>;
export const consentActivityEnvelope = z.object({ consent_activity: consentActivity });
