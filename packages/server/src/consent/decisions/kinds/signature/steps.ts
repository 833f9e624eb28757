// The participant steps of a signing session, on three screens: the document (`pending`), the sign-in code sent to
// the party's own email (`verifying`; the sandbox shows it on the page), then the typed name (`reviewing`). Every
// outcome is the party's, so each needs the code first: `sign` (signed), `decline` (declined, optional comment) or
// `counter` (countered, with the counter-proposal).
import { z } from 'zod/mini';
import type { ServerContext } from '../../../../infra/context.js';
import { actionBody, counterAction, declineAction, sendCodeAction, verifyAction } from '../../actions.js';
import { invalidTransition, refuse } from '../../refusals.js';
import type { DecisionRow } from '../../row.js';
import { checkCode, issueCode } from '../../sign-in.js';
import type { KindAction, StepResult } from '../kind.js';

/** The screens of a signing session, by step index; the terminal statuses sit on the position after them. */
export const SIGNATURE_SCREENS = ['document', 'code', 'sign'] as const;
const CODE = 1;
const SIGN = 2;

/** What a signing session keeps of its outcome besides the shared columns (in `evidence`). */
export interface SignatureEvidence {
  signed_name?: string | undefined;
  comment?: string | null | undefined;
}

/** The evidence a signing session kept. */
export function signatureEvidenceOf(row: Pick<DecisionRow, 'evidence'>): SignatureEvidence {
  return row.evidence ? (JSON.parse(row.evidence) as SignatureEvidence) : {};
}

/** The actions of a signing session's page. */
export const signatureActions = [
  sendCodeAction,
  verifyAction,
  actionBody('sign', {
    name: z.string().check(z.trim(), z.minLength(1, 'Type your full name to sign.'), z.maxLength(200)),
    // The signer's remark, kept with their quorum vote (a party approving through the API gives one).
    comment: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(1000))),
  }),
  declineAction,
  counterAction,
];

/**
 * One step. Refusals (422): `invalid_transition`, `email_mismatch` (a code asked for another address than the
 * party's), `wrong_code`, `code_required`, `sign_in_required` (an outcome before the code was checked).
 */
export function actSignature(_ctx: ServerContext, row: DecisionRow, request: KindAction, now: string): StepResult {
  const invalid = () => invalidTransition(row, request.action);
  const signedIn = () => {
    if (row.step_index !== SIGN) throw refuse('sign_in_required', 'Confirm it is you with the code sent to your email first.', 'action');
  };
  switch (request.action) {
    case 'send_code': {
      if (row.step_index > CODE) throw invalid();
      if (request.email !== undefined && request.email.toLowerCase() !== row.addressee_email) {
        throw refuse('email_mismatch', 'This signing request is addressed to another email address.', 'email');
      }
      row.subject_email = row.addressee_email;
      const code = issueCode(row);
      if (row.step_index === CODE) return { sandboxCode: code, unchanged: true };
      row.step_index = CODE;
      row.status = 'verifying';
      return { sandboxCode: code };
    }
    case 'verify': {
      if (row.step_index !== CODE) throw invalid();
      const wrong = checkCode(row, request.code, now);
      if (wrong) return { refusal: wrong };
      row.step_index = SIGN;
      row.status = 'reviewing';
      return {};
    }
    case 'sign':
      signedIn();
      row.evidence = JSON.stringify({
        signed_name: request.name,
        ...(request.comment ? { comment: request.comment } : {}),
      } satisfies SignatureEvidence);
      return { complete: { status: 'signed', outcome: 'signed' } };
    case 'decline':
      signedIn();
      row.evidence = JSON.stringify({ comment: request.comment ?? null } satisfies SignatureEvidence);
      return { complete: { status: 'declined', outcome: 'declined' } };
    case 'counter':
      signedIn();
      row.counter_proposal = request.proposal;
      return { complete: { status: 'countered', outcome: 'countered' } };
    default:
      throw invalid();
  }
}
