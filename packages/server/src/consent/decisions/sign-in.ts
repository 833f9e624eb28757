// The sign-in every kind that asks "is it you?" shares: a 6-digit code to the person's email, kept only hashed on the
// decision, at most five wrong tries. It is mailed (transitions.ts); without an SMTP server the sandbox (a development
// application) shows it on the page too, a production page never. A right code proves the address (authentication.ts).
import { randomInt } from 'node:crypto';
import type { ApiError } from '../../infra/errors.js';
import { hashSecret, safeEqual } from '../../infra/ids.js';
import { provenByCode } from './authentication.js';
import { refuse } from './refusals.js';
import type { DecisionRow } from './row.js';

/** Wrong sign-in codes tolerated before the code is void and a new one must be sent. */
export const MAX_CODE_ATTEMPTS = 5;

const codeHash = (row: Pick<DecisionRow, 'id'>, code: string) => hashSecret(`${row.id}:${code}`);

/** Issues a new code (voiding any earlier one) and answers it, for the page to show in the sandbox. */
export function issueCode(row: DecisionRow): string {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  row.verify_code_hash = codeHash(row, code);
  row.verify_attempts = 0;
  return code;
}

/**
 * Checks `code`: undefined when it is right (the code is used up and the address it went to is proven, `now`), else
 * the refusal to store with the step (a wrong code counts as an attempt; the last tolerated one voids the code).
 * Throws `code_required` when no code is out.
 */
export function checkCode(row: DecisionRow, code: string, now: string): ApiError | undefined {
  if (!row.verify_code_hash) throw refuse('code_required', 'Request a new code first.', 'code');
  if (safeEqual(codeHash(row, code), row.verify_code_hash)) {
    row.verify_code_hash = null;
    provenByCode(row, now);
    return undefined;
  }
  row.verify_attempts += 1;
  if (row.verify_attempts >= MAX_CODE_ATTEMPTS) row.verify_code_hash = null;
  return row.verify_code_hash
    ? refuse('wrong_code', 'That code is not right. Check it and try again.', 'code')
    : refuse('code_required', 'Too many wrong codes: request a new code.', 'code');
}
