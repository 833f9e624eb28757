// The approval kind: a person authorizes an action an AI agent (its escalation) or a workflow proposes.
import { escalationOfDecision } from '../../../../authority/delegations/escalation-store.js';
import type { DecisionKindModule } from '../kind.js';
import { prepareApproval } from './create.js';
import { approvalInbox } from './inbox.js';
import { approvalPage } from './page.js';
import { approvalClaimsOf, approvalEvent, approvalRecordIdOf, recordApproval } from './record.js';
import { actApproval, approvalActions } from './steps.js';

export const approvalKind: DecisionKindModule<'approval'> = {
  kind: 'approval',
  actions: approvalActions,
  prepare: prepareApproval,
  totalSteps: () => 1,
  page: approvalPage,
  act: actApproval,
  record: recordApproval,
  event: approvalEvent,
  recordId: approvalRecordIdOf,
  claims: approvalClaimsOf,
  inbox: approvalInbox,
  // The approval trigger type, when it answers one of the account's escalations.
  wire: (ctx, row) => {
    const escalation = escalationOfDecision(ctx, row.account_id, row.subject_ref);
    return escalation ? { trigger: escalation.trigger } : {};
  },
};
