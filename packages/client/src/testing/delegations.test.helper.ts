// Test support for the delegation suites: wire objects as the service sends them, for fetch doubles.
import type { Escalation, ProposedAction } from '@svc/schemas';

export const checkedAt = '2026-11-24T12:00:00.000Z';

/** The action the doubles' checks and escalations are about: 240 EUR, beyond a 100 EUR value bound. */
export const proposedAction: ProposedAction = {
  scope: 'payments:write',
  action: 'write',
  value: 240,
  currency: 'EUR',
  jurisdiction: null,
  description: 'Pay the plumber',
};

/** An escalation of {@link proposedAction}, pending unless `changes` say otherwise. */
export function escalationOf(changes: Partial<Escalation> = {}): Escalation {
  return {
    id: 'esc_Ab12',
    status: 'pending',
    trigger: 'value',
    delegation_grant_id: 'dlg_dev_1',
    agent_identity_id: 'agt_dev_1',
    principal_id: 'prs_1',
    application_id: 'tp_dev_1',
    action: proposedAction,
    reason: 'The value 240 EUR is beyond the value bound of 100 EUR.',
    counter_proposal: null,
    authorization_record_id: null,
    created_at: checkedAt,
    expires_at: '2026-11-24T12:15:00.000Z',
    decided_at: null,
    used_at: null,
    ...changes,
  };
}
