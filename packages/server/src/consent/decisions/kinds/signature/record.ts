// What a signing session's end records and announces: the party's outcome on its agreement (with its quorum vote,
// and for a signature the JWS over the document hash, the party and the time), one `signature.<outcome>` event,
// and the exchange's claims. An expiry records the party `expired` and announces `signature.expired` once.
import type { DecisionClaims, SignatureDecisionData } from '@svc/schemas';
import {
  agreementOfParty,
  findPartyRow,
  partyOfDecision,
  recordPartyOutcome,
  type PartyOutcome,
} from '../../../../surfaces/agree/agreements/store.js';
import type { ServerContext } from '../../../../infra/context.js';
import type { DomainEvent } from '../../../../infra/events.js';
import { authenticationOf } from '../../authentication.js';
import { eventBaseOf, type DecisionRow } from '../../row.js';
import { signatureEvidenceOf } from './steps.js';

type SignatureOutcome = 'signed' | 'declined' | 'countered';

/** The party outcome a completed session records. */
function partyOutcomeOf(row: DecisionRow): PartyOutcome {
  const evidence = signatureEvidenceOf(row);
  switch (row.outcome as SignatureOutcome) {
    case 'signed':
      return {
        outcome: 'signed',
        signedName: evidence.signed_name ?? '',
        comment: evidence.comment ?? null,
        authentication: authenticationOf(row),
      };
    case 'declined':
      return { outcome: 'declined', comment: evidence.comment ?? null };
    case 'countered':
      return { outcome: 'countered', counterProposal: row.counter_proposal ?? '' };
  }
}

/** Records the party's outcome in the completion's transaction and announces it. */
export function recordSignature(ctx: ServerContext, row: DecisionRow, announce: (data: Record<string, unknown>) => void): void {
  const party = partyOfDecision(ctx, row.id);
  if (!party) throw new Error(`signing session ${row.id} has no party`);
  announce(recordPartyOutcome(ctx, party, partyOutcomeOf(row), row.completed_at!));
}

/** `signature.signed`, `signature.declined` or `signature.countered`. */
export function signatureEvent(row: DecisionRow, _issued: string | undefined, data: Record<string, unknown>): DomainEvent {
  return {
    type: `signature.${row.outcome}`,
    application_id: row.application_id,
    occurred_at: row.completed_at!,
    data: { ...data, ...eventBaseOf(row) },
  };
}

/**
 * At the deadline (once, in the transaction that moved the session to `expired`): the party `expired`, no vote, and
 * `signature.expired`. A party decided some other way is left as it is.
 */
export function expireSignature(ctx: ServerContext, row: DecisionRow, now: string): void {
  const party = partyOfDecision(ctx, row.id);
  if (!party || party.status !== 'pending') return;
  const data: SignatureDecisionData = recordPartyOutcome(ctx, party, { outcome: 'expired' }, now);
  ctx.events.emit(ctx, {
    type: 'signature.expired',
    application_id: row.application_id,
    occurred_at: now,
    data: { ...data, decision_id: row.id, delivery_mode: row.delivery_mode },
  });
}

/** The claims of a completed signing session. */
export function signatureClaimsOf(row: DecisionRow, ctx: ServerContext): Extract<DecisionClaims, { kind: 'signature_request' }> {
  const party = findPartyRow(ctx, row.subject_ref)!;
  const agreement = agreementOfParty(ctx, party);
  const evidence = signatureEvidenceOf(row);
  return {
    kind: 'signature_request',
    decision_id: row.id,
    outcome: row.outcome as SignatureOutcome,
    agreement_id: agreement.id,
    party_id: party.id,
    party_email: party.email,
    home_country: party.home_country,
    document_sha256: agreement.document_sha256,
    signed_name: evidence.signed_name ?? null,
    signature: party.signature_jws,
    counter_proposal: row.counter_proposal,
    comment: evidence.comment ?? null,
    decided_at: row.completed_at!,
  };
}
