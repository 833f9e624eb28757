// The participant steps of an approval: one screen, answered `approve` (approved), `deny` (denied) or `counter`
// (countered, with the person's counter-proposal). An approval addressed to someone (an escalation's principal, an
// `addressee`) is theirs to answer: the page proves it with their signed-in session, or with `send_code` (to their
// address only) and `verify` first; the shared layer refuses an answer nobody proved (authentication.ts).
import { escalationOfDecision, escalationStatusAt } from '../../../../authority/delegations/escalation-store.js';
import type { ServerContext } from '../../../../infra/context.js';
import { actionBody, counterAction, sendCodeAction, verifyAction } from '../../actions.js';
import { invalidTransition, refuse } from '../../refusals.js';
import type { DecisionRow } from '../../row.js';
import { checkCode, issueCode } from '../../sign-in.js';
import type { KindAction, StepResult } from '../kind.js';

/** The actions of an approval's page. */
export const approvalActions = [sendCodeAction, verifyAction, actionBody('approve'), actionBody('deny'), counterAction];

/**
 * One step. Refusals (422): `escalation_decided` (its escalation was decided or expired meanwhile),
 * `invalid_transition`, `email_mismatch` (a code asked for another address than the addressee's), `wrong_code`,
 * `code_required`.
 */
export function actApproval(ctx: ServerContext, row: DecisionRow, request: KindAction, now: string): StepResult {
  const escalation = escalationOfDecision(ctx, row.account_id, row.subject_ref);
  const status = escalation && escalationStatusAt(escalation, ctx.clock.now());
  if (status && status !== 'pending') {
    throw refuse('escalation_decided', `This request was already ${status}; there is nothing left to decide.`);
  }
  switch (request.action) {
    case 'send_code': {
      if (!row.addressee_email) throw invalidTransition(row, request.action);
      if (request.email !== undefined && request.email.toLowerCase() !== row.addressee_email) {
        throw refuse('email_mismatch', 'This request is addressed to another email address.', 'email');
      }
      row.subject_email = row.addressee_email;
      const code = issueCode(row);
      if (row.status === 'verifying') return { sandboxCode: code, unchanged: true };
      row.status = 'verifying';
      return { sandboxCode: code };
    }
    case 'verify': {
      if (row.status !== 'verifying') throw invalidTransition(row, request.action);
      const wrong = checkCode(row, request.code, now);
      if (wrong) return { refusal: wrong };
      row.status = 'reviewing';
      return {};
    }
    case 'approve':
      return { complete: { status: 'approved', outcome: 'approved' } };
    case 'deny':
      return { complete: { status: 'denied', outcome: 'denied' } };
    case 'counter':
      row.counter_proposal = request.proposal;
      return { complete: { status: 'countered', outcome: 'countered' } };
    default:
      throw invalidTransition(row, request.action);
  }
}
