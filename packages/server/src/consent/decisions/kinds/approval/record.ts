// What an approval's completion records and announces: an authorization record (and the escalation it answers
// decided), one `approval.granted`, `approval.denied` or `approval.countered` event, and the exchange's claims.
import type { DecisionClaims } from '@svc/schemas';
import { APPROVAL_EVENT_TYPE, authorizationRecordIdOf, recordApprovalDecision } from '../../../authorizations/store.js';
import { decideEscalation, escalationOfDecision } from '../../../../authority/delegations/escalation-store.js';
import type { ServerContext } from '../../../../infra/context.js';
import type { DomainEvent } from '../../../../infra/events.js';
import { authenticationOf } from '../../authentication.js';
import { collectionChannelOf, eventBaseOf, type DecisionRow } from '../../row.js';

type ApprovalOutcome = 'approved' | 'denied' | 'countered';

/** The authorization record a completed approval made; null for approvals completed before the server recorded them. */
export function approvalRecordIdOf(ctx: ServerContext, row: DecisionRow): string | null {
  return authorizationRecordIdOf(ctx, row.id) ?? null;
}

/**
 * Makes the authorization record of a completed approval, in the completion's transaction (record, frozen receipt,
 * audit event), decides the escalation it answers, then announces the outcome with the record id (and the grant and
 * agent of the escalation).
 */
export function recordApproval(ctx: ServerContext, row: DecisionRow, announce: (data: Record<string, unknown>) => void): void {
  const recordId = recordApprovalDecision(ctx, {
    accountId: row.account_id,
    applicationId: row.application_id,
    decisionId: row.id,
    escalationId: row.subject_ref,
    outcome: row.outcome as ApprovalOutcome,
    requestedAt: row.created_at,
    decidedAt: row.completed_at!,
    deliveryMode: row.delivery_mode,
    channel: collectionChannelOf(row),
    scope: row.scope,
    addressee: row.authenticated_email === row.addressee_email ? row.addressee_email : null,
    authentication: authenticationOf(row),
  });
  const escalation = escalationOfDecision(ctx, row.account_id, row.subject_ref);
  if (escalation) {
    decideEscalation(ctx, escalation.id, {
      outcome: row.outcome as ApprovalOutcome,
      decidedAt: row.completed_at!,
      counterProposal: row.counter_proposal,
      recordId,
    });
  }
  announce({
    record_id: recordId,
    ...(escalation ? { delegation_grant_id: escalation.grant_id, agent_identity_id: escalation.agent_id } : {}),
  });
}

/** `approval.granted`, `approval.denied` or `approval.countered`, carrying the authorization record's `record_id`. */
export function approvalEvent(row: DecisionRow, _issued: string | undefined, record: Record<string, unknown>): DomainEvent {
  return {
    type: APPROVAL_EVENT_TYPE[row.outcome as ApprovalOutcome],
    application_id: row.application_id,
    occurred_at: row.completed_at!,
    data: {
      ...record,
      ...eventBaseOf(row),
      escalation_id: row.subject_ref,
      outcome: row.outcome,
      counter_proposal: row.counter_proposal,
      scope: row.scope,
      state: row.state,
    },
  };
}

/** The claims of a completed approval: the escalation decided and how. */
export function approvalClaimsOf(row: DecisionRow): Extract<DecisionClaims, { kind: 'approval' }> {
  return {
    kind: 'approval',
    decision_id: row.id,
    outcome: row.outcome as ApprovalOutcome,
    escalation_id: row.subject_ref,
    counter_proposal: row.counter_proposal,
    decided_at: row.completed_at!,
    scope: row.scope,
    state: row.state,
  };
}
