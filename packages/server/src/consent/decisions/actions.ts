// Participant action bodies, as `POST /decisions/{token}/transitions` validates them. Every action may carry the
// screen it was taken on (`step_index`), so a double click cannot skip a screen.
import { z } from 'zod/mini';

const stepIndex = { step_index: z.optional(z.int().check(z.gte(0), z.lte(100))) };

/** The body of participant action `action` with the fields `shape`. */
export function actionBody<A extends string, S extends z.core.$ZodLooseShape = Record<never, never>>(action: A, shape?: S) {
  return z.strictObject({ action: z.literal(action), ...(shape ?? ({} as S)), ...stepIndex });
}

/** `cancel`: every kind's, the person's "Decide later" or the host page's `svc:cancel`. */
export const cancelAction = actionBody('cancel', {
  cancelled_by: z.enum(['user', 'host']),
  reason: z.optional(z.string().check(z.maxLength(200))),
});

const email = z.email().check(z.maxLength(254));

/**
 * Bodies more than one kind accepts, shared so the participant API's union holds each action once: the sign-in code
 * (`send_code`, `verify`), `decline` (consent and signing; a signing session keeps the comment) and `counter`
 * (approval and signing).
 */
export const sendCodeAction = actionBody('send_code', { email: z.optional(email) });
export const verifyAction = actionBody('verify', { code: z.string().check(z.regex(/^\d{6}$/, 'code must be 6 digits')) });
export const declineAction = actionBody('decline', { comment: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(1000))) });
export const counterAction = actionBody('counter', { proposal: z.string().check(z.trim(), z.minLength(1), z.maxLength(1000)) });

/** An email address as a participant action carries it. */
export const actionEmail = email;
