// Opening a signing session: `subject_ref` is a party of one of the caller's agreements, which has no session yet.
// Only the agreement opens them (`POST /api/v1/agreements`); the API's Decision creation request cannot name this kind.
import { agreementOfParty, findPartyRow } from '../../../../surfaces/agree/agreements/store.js';
import type { Principal, ServerContext } from '../../../../infra/context.js';
import { ApiError } from '../../../../infra/errors.js';
import { getApplication } from '../../applications.js';
import { field } from '../../refusals.js';
import type { CreateOptions, OpenDecisionRequest, Prepared } from '../kind.js';

/**
 * The session belongs to the agreement's application, is addressed to the party's email with their home country,
 * and lasts until the agreement's deadline. An unknown party (or another account's) is 404 `party_not_found`; a party
 * with a session already is 409 `party_session_open`.
 */
export function prepareSignature(ctx: ServerContext, principal: Principal, request: OpenDecisionRequest, options: CreateOptions): Prepared {
  const party = findPartyRow(ctx, request.subject_ref);
  const agreement = party && agreementOfParty(ctx, party);
  if (!party || !agreement || agreement.account_id !== principal.accountId) {
    throw new ApiError(
      404,
      `No party ${request.subject_ref} of the caller's agreements.`,
      'party_not_found',
      field('subject_ref', 'party_not_found', 'no such party'),
    );
  }
  if (party.decision_id) {
    throw new ApiError(
      409,
      `Party ${party.id} already has a signing session.`,
      'party_session_open',
      field('subject_ref', 'party_session_open', 'the party has a session'),
    );
  }
  return {
    application: getApplication(ctx, agreement.application_id),
    deadlineAt: agreement.expires_at ?? options.deadlineAt,
    frozen: { flow_id: null, flow_version: null, terms: null, addressee_email: party.email, home_country: party.home_country },
  };
}
