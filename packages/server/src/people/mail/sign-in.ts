// The sign-in code email, for the provider's sign-in and the decision pages' "is it you?" step. An address receives
// at most as many codes in a window as it may guess wrong codes in one (the sign-in guessing limit): past it, asking
// for a code is answered 429 until the oldest code of the window is old enough.
import type { ServerContext } from '../../infra/context.js';
import { queueMail } from '../../infra/mail/index.js';
import { GUESS_LIMITS } from '../../platform/oauth/guessing.js';
import { compose } from './compose.js';

/** Codes one address may be sent in any window: the sign-in guessing limit's numbers. */
export const SIGN_IN_MAIL_LIMIT = {
  name: 'sign_in_mail',
  max: GUESS_LIMITS.sign_in_code.points,
  windowSeconds: GUESS_LIMITS.sign_in_code.windowSeconds,
} as const;

/** Queues the code for `to` in the caller's transaction; `asker` names who asked (a client, an application). */
export function mailSignInCode(ctx: ServerContext, to: string, code: string, asker: string): void {
  const content = compose('Your sign-in code', `Your code is ${code}`, [
    { text: `Enter ${code} on the page of ${asker} that asked for it, to confirm that this email address is yours.` },
    { text: 'If you did not ask for a code, ignore this email: nothing happens without it.' },
  ]);
  queueMail(ctx, { to, kind: 'sign_in_code', limit: SIGN_IN_MAIL_LIMIT, ...content });
}
