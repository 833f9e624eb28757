// The participant steps of an approval: one screen, answered `approve` (approved), `deny` (denied) or `counter`
// (countered, with the person's counter-proposal).
import { escalationOfDecision, escalationStatusAt } from '../../../delegations/escalation-store.js';
import type { ServerContext } from '../../../lib/context.js';
import { actionBody, counterAction } from '../../actions.js';
import { invalidTransition, refuse } from '../../refusals.js';
import type { DecisionRow } from '../../row.js';
import type { KindAction, StepResult } from '../kind.js';

/** The actions of an approval's page. */
export const approvalActions = [
  actionBody('approve'),
  actionBody('deny'),
  counterAction,
];

/** One answer. Refusals (422): `escalation_decided` (its escalation was decided or expired meanwhile), `invalid_transition`. */
export function actApproval(ctx: ServerContext, row: DecisionRow, request: KindAction): StepResult {
  const escalation = escalationOfDecision(ctx, row.account_id, row.subject_ref);
  const status = escalation && escalationStatusAt(escalation, ctx.clock.now());
  if (status && status !== 'pending') {
    throw refuse('escalation_decided', `This request was already ${status}; there is nothing left to decide.`);
  }
  switch (request.action) {
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
