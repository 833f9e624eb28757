// What a consent decision's completion records and announces: a consent record through the records service (like
// every other channel), one `consent.granted` or `consent.denied` event, and the claims the exchange returns.
import type { DecisionClaims, DecisionEntry, PurposeOutcome } from '@svc/schemas';
import type { ServerContext } from '../../../../infra/context.js';
import { stmt } from '../../../../infra/db.js';
import type { DomainEvent } from '../../../../infra/events.js';
import { getConsentRecord } from '../../../records/read.js';
import { createConsentRecord } from '../../../records/service.js';
import { authenticationOf } from '../../authentication.js';
import { collectionChannelOf, eventBaseOf, plusSeconds, TOKEN_LIFETIME_SECONDS, type DecisionRow } from '../../row.js';
import { screensOfRow } from './screens.js';

/**
 * The idempotency key of the consent record a decision makes: one record per decision, and the link from the
 * decision to its record (the records table's unique key per application).
 */
function recordKey(row: Pick<DecisionRow, 'id'>): string {
  return `decision:${row.id}`;
}

/** The consent record a completed consent decision made, or null. */
export function consentRecordIdOf(ctx: ServerContext, row: Pick<DecisionRow, 'id' | 'application_id'>): string | null {
  const id = stmt<[string, string], string>(ctx.db, 'SELECT id FROM consent_records WHERE application_id = ? AND idempotency_key = ?')
    .pluck()
    .get(row.application_id, recordKey(row)) as unknown as string | undefined;
  return id ?? null;
}

/**
 * How much of the consent a decision recorded has been withdrawn since, through any channel (the organisation, the
 * person's own pages and links, a newer record): `none`; `some` (a consent purpose it granted is withdrawn, so the
 * claims its consent token stands for no longer hold); `all` (its record is revoked: no consent of it is in force).
 * Objections to a legitimate interest withdraw no consent.
 */
export function consentWithdrawalOf(
  ctx: ServerContext,
  row: Pick<DecisionRow, 'id' | 'application_id' | 'account_id'>,
): 'none' | 'some' | 'all' {
  return recordWithdrawalOf(ctx, row.account_id, consentRecordIdOf(ctx, row));
}

/** How much of a consent record's consent was withdrawn since it was made (see {@link consentWithdrawalOf}). */
export function recordWithdrawalOf(ctx: ServerContext, accountId: string, recordId: string | null): 'none' | 'some' | 'all' {
  if (!recordId) return 'none';
  const withdrawn =
    stmt<[string], number>(ctx.db, "SELECT 1 FROM consent_withdrawals WHERE record_id = ? AND outcome = 'revoked' LIMIT 1")
      .pluck()
      .get(recordId) !== undefined;
  if (!withdrawn) return 'none';
  return getConsentRecord(ctx, accountId, recordId)?.status === 'revoked' ? 'all' : 'some';
}

/**
 * The Decision entries (per purpose key, as the records service takes them) that reproduce a consent decision's
 * purpose outcomes: each consent purpose granted or declined, an objection to a legitimate interest as a decline;
 * notice-only purposes and legitimate interests not objected to need no entry.
 */
function decisionEntries(purposes: readonly PurposeOutcome[]): Record<string, DecisionEntry> {
  const entries: Record<string, DecisionEntry> = {};
  for (const p of purposes) {
    if (p.basis === 'consent') entries[p.key] = { decision: p.outcome === 'granted' ? 'granted' : 'declined' };
    else if (p.outcome === 'objected') entries[p.key] = { decision: 'declined' };
  }
  return entries;
}

/**
 * Makes the consent record of a completed consent decision, in the completion's transaction: through the records
 * service like every other channel, so it leaves the same proof (record, frozen receipt, audit event, withdrawals
 * on the person's earlier record). The record is anonymous when no identity was established. The decision, not the
 * record, announces the outcome: one `consent.granted` or `consent.denied` per decision, carrying the consent token
 * (which only the decision has) together with the record's fields.
 */
export function recordConsentDecision(ctx: ServerContext, row: DecisionRow, announce: (data: Record<string, unknown>) => void): void {
  createConsentRecord(
    ctx,
    {
      accountId: row.account_id,
      applicationId: row.application_id,
      flowId: row.flow_id!,
      flowVersion: row.flow_version!,
      subject: row.subject_email ? { email: row.subject_email } : null,
      decisions: decisionEntries(JSON.parse(row.purposes ?? '[]') as PurposeOutcome[]),
      capturedAt: row.completed_at!,
      channel: collectionChannelOf(row),
      idempotencyKey: recordKey(row),
      // The service itself rendered the terms frozen into the decision, which are the governing version's.
      wordingVerdict: 'match',
      deliveryMode: row.delivery_mode,
      collectionMechanism: comprehensionEvidenceOf(row),
      // The person the record names proved it was them: say how and when.
      authentication: row.subject_email && row.authenticated_email === row.subject_email ? authenticationOf(row) : undefined,
    },
    {
      announce: (recorded) => announce(recorded.data),
    },
  );
}

/** One answer to a comprehension check, as the decision keeps it (`evidence`). */
interface ComprehensionAnswer {
  step_index: number;
  correct: boolean;
}

/**
 * What the receipt can say about the informed path's comprehension check: that the service checked the person's
 * answers and every check of the flow was passed, with how many answers it took. Undefined when the flow has no
 * check or the person completed (declined) before passing them all: then the receipt says nothing about it.
 */
function comprehensionEvidenceOf(row: DecisionRow): string | undefined {
  const checks = screensOfRow(row).flatMap((screen, index) => (screen.type === 'comprehension_check' ? [index] : []));
  if (checks.length === 0) return undefined;
  const answers = JSON.parse(row.evidence ?? '[]') as ComprehensionAnswer[];
  if (!checks.every((index) => answers.some((a) => a.step_index === index && a.correct))) return undefined;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `Informed consent on the service's decision page: ${checks.length === 1 ? 'the comprehension check' : `all ${checks.length} comprehension checks`} passed (${plural(answers.length, 'answer')} given)`;
}

/** The claims of a completed consent decision. */
export function consentClaimsOf(row: DecisionRow): Extract<DecisionClaims, { kind: 'consent' }> {
  const purposes = JSON.parse(row.purposes ?? '[]') as PurposeOutcome[];
  return {
    kind: 'consent',
    decision_id: row.id,
    outcome: row.outcome as 'granted' | 'declined',
    flow_id: row.flow_id!,
    flow_version: row.flow_version!,
    purposes_granted: purposes.filter((p) => p.outcome === 'granted').map((p) => p.key),
    purposes,
    subject: row.subject_email ? { email: row.subject_email } : null,
    decided_at: row.completed_at!,
    scope: row.scope,
    state: row.state,
    meeting_id: row.meeting_id,
  };
}

/**
 * `consent.granted` (with the consent token, as the webhook carries it: one single-use token, whichever of exchange
 * or webhook reaches verification first) or `consent.denied`, with `record` (the data of the event its consent
 * record would have emitted: record id, user id, channel, subject reference, times).
 */
export function consentEvent(row: DecisionRow, consentToken: string | undefined, record: Record<string, unknown>): DomainEvent {
  const claims = consentClaimsOf(row);
  return {
    type: row.outcome === 'granted' ? 'consent.granted' : 'consent.denied',
    application_id: row.application_id,
    occurred_at: row.completed_at!,
    data: {
      ...record,
      ...eventBaseOf(row),
      flow_id: row.flow_id,
      flow_version: row.flow_version,
      subject_ref: claims.subject ? { email: claims.subject.email, external_id: null } : null,
      purposes: claims.purposes,
      purposes_granted: claims.purposes_granted,
      ...(consentToken
        ? { consent_token: consentToken, consent_token_expires_at: plusSeconds(row.completed_at!, TOKEN_LIFETIME_SECONDS) }
        : {}),
    },
  };
}
