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
