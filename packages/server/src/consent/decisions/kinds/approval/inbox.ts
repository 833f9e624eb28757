// An approval in the Trust Inbox of the person it is addressed to. An agent's escalation is one row: its own decision
// (the one its webhook and `/oap/escalations/{id}` point at), while the escalation waits; a decision an organisation
// opened for the same escalation in its own page is that page's, and once any of them answers the escalation, none
// waits any more.
import { escalationOfDecision, escalationStatusAt } from '../../../../authority/delegations/escalation-store.js';
import type { ServerContext } from '../../../../infra/context.js';
import type { DecisionRow } from '../../row.js';
import type { InboxEntry } from '../kind.js';
import { agentRequestOf } from './page.js';

/** The approval's inbox entry: what the agent asks and why, with the trigger type; or null when it waits no more. */
export function approvalInbox(ctx: ServerContext, row: DecisionRow): InboxEntry | null {
  const escalation = escalationOfDecision(ctx, row.account_id, row.subject_ref);
  if (!escalation)
    return { title: 'Approval requested', summary: row.scope ? `Scope: ${row.scope}` : `Reference: ${row.subject_ref}`, trigger: null };
  if (escalation.decision_id !== row.id || escalationStatusAt(escalation, ctx.clock.now()) !== 'pending') return null;
  const agent = agentRequestOf(ctx, row)!;
  return {
    title: agent.amount ? `${agent.description} (${agent.amount})` : agent.description,
    summary: `${agent.name}, an AI agent, asks: ${agent.reason}`,
    trigger: escalation.trigger,
  };
}
