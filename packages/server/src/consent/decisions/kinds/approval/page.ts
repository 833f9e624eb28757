// An approval on the hosted page: what is asked and, for an agent's escalation, who asks and why.
import { actionOf, escalationOfDecision } from '../../../../authority/delegations/escalation-store.js';
import type { ServerContext } from '../../../../infra/context.js';
import { stmt } from '../../../../infra/db.js';
import type { ApprovalPagePart } from '../../participant-types.js';
import type { DecisionRow } from '../../row.js';
import type { KindPage } from '../kind.js';

/** The approval part of the page data. */
export function approvalPage(ctx: ServerContext, row: DecisionRow): KindPage<'approval'> {
  return {
    heading: 'Approval requested',
    part: {
      escalation_id: row.subject_ref,
      scope: row.scope,
      state: row.state,
      meeting_id: row.meeting_id,
      agent: agentRequestOf(ctx, row),
    },
  };
}

/** What an agent's escalation asks (null for an approval that answers no escalation). */
export function agentRequestOf(ctx: ServerContext, row: DecisionRow): ApprovalPagePart['agent'] {
  const escalation = escalationOfDecision(ctx, row.account_id, row.subject_ref);
  if (!escalation) return null;
  const action = actionOf(escalation);
  const name = stmt<[string], string>(ctx.db, 'SELECT display_name FROM agent_identities WHERE id = ?')
    .pluck()
    .get(escalation.agent_id) as unknown as string | undefined;
  return {
    name: name ?? escalation.agent_id,
    description: action.description,
    action: action.action,
    amount: action.value !== null ? `${action.value} ${action.currency}` : null,
    jurisdiction: action.jurisdiction,
    reason: escalation.reason,
  };
}
