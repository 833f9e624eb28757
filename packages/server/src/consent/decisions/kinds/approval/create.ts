// Creating an approval: `subject_ref` is an escalation id (one of the account's agents' escalations) or the
// organisation's own free-form reference.
import { assertHomedHere } from '../../../../infra/cells/routing.js';
import {
  escalationOfDecision,
  escalationStatusAt,
  isEscalationId,
  type EscalationRow,
} from '../../../../authority/delegations/escalation-store.js';
import type { Principal, ServerContext } from '../../../../infra/context.js';
import { stmt } from '../../../../infra/db.js';
import { ApiError, unprocessable } from '../../../../infra/errors.js';
import { addresseeOf } from '../../addressee.js';
import { defaultApplication, getApplication } from '../../applications.js';
import { field } from '../../refusals.js';
import type { CreateOptions, OpenDecisionRequest, Prepared } from '../kind.js';

const NOTHING_FROZEN: Prepared['frozen'] = { flow_id: null, flow_version: null, terms: null };

/** The escalation's principal's email, lower-case: the person who granted the agent its authority (verified at sign-in). */
function principalEmailOf(ctx: ServerContext, escalation: EscalationRow): string | null {
  const email = stmt<[string], string>(ctx.db, 'SELECT email FROM persons WHERE id = ?').pluck().get(escalation.principal_id) as unknown as
    | string
    | undefined;
  return email?.includes('@') ? email.toLowerCase() : null;
}

/**
 * An approval belongs to `options.applicationId` when the caller names one; else an approval of one of the account's
 * escalations belongs to the escalation's application and cannot outlive it (decided or expired: 409
 * `escalation_decided`); else to the publishable key's application, or for an API token the account's first one.
 *
 * It is addressed to the escalation's principal when it answers one of the account's escalations (an `addressee` is
 * then refused, 422 `addressee_not_allowed`: the escalation names who decides); else to the `addressee` named, if any.
 * A `subject_ref` shaped like an escalation id must name one of the account's (404 `escalation_not_found`, the same
 * for another account's; 421 for another cell's): only references of another shape are free-form.
 */
export function prepareApproval(ctx: ServerContext, principal: Principal, request: OpenDecisionRequest, options: CreateOptions): Prepared {
  const escalation = escalationOfDecision(ctx, principal.accountId, request.subject_ref);
  if (!escalation && isEscalationId(request.subject_ref)) {
    assertHomedHere(ctx, request.subject_ref);
    throw new ApiError(
      404,
      `No escalation ${request.subject_ref} is accessible to this credential.`,
      'escalation_not_found',
      field('subject_ref', 'escalation_not_found', 'no such escalation'),
    );
  }
  if (escalation && request.addressee) {
    throw unprocessable(
      `Escalation ${escalation.id} is decided by its principal: an approval of it takes no addressee.`,
      'addressee_not_allowed',
      field('addressee', 'addressee_not_allowed', "an escalation's approval is addressed to its principal"),
    );
  }
  const frozen: Prepared['frozen'] = {
    ...NOTHING_FROZEN,
    addressee_email: escalation ? principalEmailOf(ctx, escalation) : addresseeOf(request),
  };
  if (options.applicationId) return { application: getApplication(ctx, options.applicationId), deadlineAt: options.deadlineAt, frozen };
  if (!escalation) {
    const application =
      principal.kind === 'publishable_key' ? getApplication(ctx, principal.applicationId) : defaultApplication(ctx, principal.accountId);
    return { application, deadlineAt: options.deadlineAt, frozen };
  }
  const status = escalationStatusAt(escalation, ctx.clock.now());
  if (status !== 'pending') {
    throw new ApiError(
      409,
      `Escalation ${escalation.id} is ${status}: there is nothing left to decide.`,
      'escalation_decided',
      field('subject_ref', 'escalation_decided', 'the escalation is no longer pending'),
    );
  }
  return {
    application: getApplication(ctx, escalation.application_id),
    deadlineAt: Date.parse(escalation.expires_at) < Date.parse(options.deadlineAt) ? escalation.expires_at : options.deadlineAt,
    frozen,
  };
}
