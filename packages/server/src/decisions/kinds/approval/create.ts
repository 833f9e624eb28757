// Creating an approval: `subject_ref` is an escalation id (one of the account's agents' escalations) or the
// organisation's own free-form reference.
import { escalationOfDecision, escalationStatusAt } from '../../../delegations/escalation-store.js';
import type { Principal, ServerContext } from '../../../lib/context.js';
import { ApiError } from '../../../lib/errors.js';
import { defaultApplication, getApplication } from '../../applications.js';
import { field } from '../../refusals.js';
import type { CreateOptions, OpenDecisionRequest, Prepared } from '../kind.js';

const NOTHING_FROZEN: Prepared['frozen'] = { flow_id: null, flow_version: null, terms: null };

/**
 * An approval belongs to `options.applicationId` when the caller names one; else an approval of one of the account's
 * escalations belongs to the escalation's application and cannot outlive it (decided or expired: 409
 * `escalation_decided`); else to the publishable key's application, or for an API token the account's first one.
 */
export function prepareApproval(ctx: ServerContext, principal: Principal, request: OpenDecisionRequest, options: CreateOptions): Prepared {
  if (options.applicationId) return { application: getApplication(ctx, options.applicationId), deadlineAt: options.deadlineAt, frozen: NOTHING_FROZEN };
  const escalation = escalationOfDecision(ctx, principal.accountId, request.subject_ref);
  if (!escalation) {
    const application = principal.kind === 'publishable_key' ? getApplication(ctx, principal.applicationId) : defaultApplication(ctx, principal.accountId);
    return { application, deadlineAt: options.deadlineAt, frozen: NOTHING_FROZEN };
  }
  const status = escalationStatusAt(escalation, ctx.clock.now());
  if (status !== 'pending') {
    throw new ApiError(409, `Escalation ${escalation.id} is ${status}: there is nothing left to decide.`, 'escalation_decided',
      field('subject_ref', 'escalation_decided', 'the escalation is no longer pending'));
  }
  return {
    application: getApplication(ctx, escalation.application_id),
    deadlineAt: Date.parse(escalation.expires_at) < Date.parse(options.deadlineAt) ? escalation.expires_at : options.deadlineAt,
    frozen: NOTHING_FROZEN,
  };
}
