import { z } from 'zod/mini';

/** ISO 8601 date-time with an offset (`Z` or `+hh:mm`). */
export const dateTime = () => z.iso.datetime({ offset: true });

/** One field-level problem in an error body. */
export const fieldError = z.object({ path: z.string(), code: z.string(), message: z.string() });

/** The error body of every non-2xx answer. */
export const errorBody = z.looseObject({
  message: z.string(),
  code: z.optional(z.string()),
  errors: z.optional(z.array(fieldError)),
  home_country: z.optional(z.string()),
});
export type ErrorBody = z.infer<typeof errorBody>;

/** Query of every list endpoint: page size and the opaque cursor of the previous page's `next_cursor`. */
export const listQuery = z.object({
  limit: z.optional(
    z
      .pipe(z.string().check(z.regex(/^\d{1,3}$/)), z.transform(Number))
      .check(z.refine((n) => n >= 1 && n <= 100, 'limit must be between 1 and 100')),
  ),
  cursor: z.optional(z.string().check(z.maxLength(200))),
});

/** A list envelope: `{<name>: [...], next_cursor}`. */
export const listOf = <K extends string, T extends z.ZodMiniType>(name: K, item: T) =>
  z.object({ [name]: z.array(item), next_cursor: z.nullable(z.string()) } as { [P in K]: z.ZodMiniArray<T> } & {
    next_cursor: z.ZodMiniNullable<z.ZodMiniString>;
  });

/**
 * How the person a decision was addressed to proved it was them before answering, and when: `trust_session` (signed
 * in on the trust URL), `email_code` (the hosted page's code sent to their address) or `access_token` (their own
 * access token, for a party's quorum vote through the API). On approval receipts (`extensions.authentication`) and
 * in signatures' payloads.
 */
export const answerAuthentication = z.strictObject({
  method: z.enum(['trust_session', 'email_code', 'access_token']),
  authenticated_at: dateTime(),
});
export type AnswerAuthentication = z.infer<typeof answerAuthentication>;
