// Creating a consent decision: `subject_ref` names an active flow the caller may use, whose terms are frozen into
// the decision (the version that governs it, whatever is published later).
import { getActiveTermsText } from '../../../../platform/flows/store.js';
import type { Principal, ServerContext } from '../../../../infra/context.js';
import { ApiError, unprocessable } from '../../../../infra/errors.js';
import { addresseeOf } from '../../addressee.js';
import { getApplication } from '../../applications.js';
import { field } from '../../refusals.js';
import type { CreateOptions, OpenDecisionRequest, Prepared } from '../kind.js';

/**
 * Unknown or inaccessible flow: 404 `flow_not_found`; a draft: 422 `flow_not_active`. The decision is addressed to the
 * `addressee` the caller names, if any.
 */
export function prepareConsent(ctx: ServerContext, principal: Principal, request: OpenDecisionRequest, options: CreateOptions): Prepared {
  const flow = getActiveTermsText(ctx, request.subject_ref);
  if (
    !flow ||
    flow.account_id !== principal.accountId ||
    (principal.kind === 'publishable_key' && flow.application_id !== principal.applicationId)
  ) {
    throw new ApiError(
      404,
      `No flow ${request.subject_ref} is accessible to this credential.`,
      'flow_not_found',
      field('subject_ref', 'flow_not_found', 'no such flow'),
    );
  }
  if (flow.terms === null) {
    throw unprocessable(
      `Flow ${flow.flow_id} is a draft: activate it before creating decisions against it.`,
      'flow_not_active',
      field('subject_ref', 'flow_not_active', 'the flow is a draft'),
    );
  }
  return {
    application: getApplication(ctx, flow.application_id),
    deadlineAt: options.deadlineAt,
    frozen: { flow_id: flow.flow_id, flow_version: flow.version, terms: flow.terms, addressee_email: addresseeOf(request) },
  };
}
