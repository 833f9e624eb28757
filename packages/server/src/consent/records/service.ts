// Consent records: the one place records are made, whatever the channel (Record API, import, captures, form
// platforms). Each record is written in one transaction, in these steps, each a module of its own:
//   1. terms.ts         resolve the flow's terms (the flow is the account's, active, capturable; the version in force)
//   2. evaluate.ts      evaluate the input and its decisions (capture time, idempotency key, home cell, attestation)
//   3. person.ts        find or make the person (or the anonymous principal)
//   4. supersession.ts  compare with the person's previous record under the flow
//   5. freeze.ts        freeze the receipt (stored with the record; it never changes)
//   6. persist.ts       persist the record, queue the receipt email, append the audit event, emit the domain event
//   7. withdrawals.ts   apply the withdrawals the record causes on the previous record
// The stored shape and its reading live in rows.ts and read.ts; the shapes passed between steps in types.ts.
import type { ServerContext } from '../../infra/context.js';
import { unprocessable } from '../../infra/errors.js';
import { homedId } from '../../infra/ids.js';
import { transaction } from '../../infra/transaction.js';
import { wordingVerdictOf } from '../receipts/notice.js';
import { addDuration } from './attestation.js';
import { evaluateInput, refusePersonalData } from './evaluate.js';
import { freezeRecordReceipt } from './freeze.js';
import { subjectOf } from './person.js';
import { persistRecord } from './persist.js';
import { supersessionOf } from './supersession.js';
import { FlowTermsResolver, HOSTED_DECISION_CHANNELS } from './terms.js';
import type { ConsentRecordInput, CreatedConsentRecord, RecordDraft, RecordOptions, RecordOutcome } from './types.js';
import { withdrawSuperseded } from './withdrawals.js';

// The record routes reach these through here (other callers import them from their own modules).
export { findPerson } from './person.js';
export { getConsentRecord } from './read.js';
export { withdrawConsentRecord } from './withdrawals.js';

/**
 * Creates a consent record through any channel, in one transaction (record, frozen receipt, audit event, domain
 * events, withdrawals on the person's previous record for the flow). Returns the record and whether it is new.
 * Throws `ApiError`: 404 `flow_not_found`; 422 `flow_not_active`, `flow_not_capturable`, `personal_data`
 * (client facts), `attestation_refused` (errors name `decisions.<key>` with the refusal code),
 * `captured_in_future`, `idempotency_key_reused`. The hosted decision channels (`HOSTED_DECISION_CHANNELS`)
 * are not held to the capturability rule. `options.announce` lets the channel emit the record's event itself;
 * `options.terms` is the input's {@link termsResolver} when the caller read the flow already (in its transaction).
 *
 * @example
 * const { record, created } = createConsentRecord(ctx, {
 *   accountId, flowId, channel: 'embedded_field', subject: { email: 'ada@example.com' },
 *   decisions: { newsletter: { decision: 'granted' } }, flowVersion: 3, renderingEvidence: { ... },
 * });
 */
export function createConsentRecord(
  ctx: ServerContext,
  input: ConsentRecordInput,
  options: Pick<RecordOptions, 'announce'> & { terms?: FlowTermsResolver } = {},
): CreatedConsentRecord {
  refusePersonalData(input.clientFacts);
  // Resolving the flow and recording are one transaction: one read snapshot, not one per statement.
  const outcome = transaction(ctx.db, () => {
    const resolver = options.terms ?? termsResolver(ctx, input);
    resolver.check();
    return recordDecisions(ctx, input, resolver, options);
  });
  if (outcome.kind !== 'refused') return { record: outcome.record, created: outcome.kind === 'created' };
  const [first] = outcome.refusals;
  const code =
    first && (first.code === 'captured_in_future' || first.code === 'idempotency_key_reused') ? first.code : 'attestation_refused';
  throw unprocessable(
    code === 'attestation_refused' ? `The decisions were refused: ${outcome.refusals.map((r) => r.message).join(' ')}` : first!.message,
    code,
    outcome.errors,
  );
}

/** The resolver of an input's flow terms: the account's flow (the application's, when the input names one). */
export function termsResolver(
  ctx: ServerContext,
  input: Pick<ConsentRecordInput, 'accountId' | 'flowId' | 'applicationId' | 'channel'>,
): FlowTermsResolver {
  return new FlowTermsResolver(ctx, input.accountId, input.flowId, input.applicationId, {
    requireCapturable: !HOSTED_DECISION_CHANNELS.has(input.channel),
  });
}

/**
 * Records decisions in one transaction (a savepoint inside the caller's); never throws for a refusal (the import
 * needs them per row) but returns it. `resolver` resolves the flow (it throws 404/422 for the flow as a whole).
 */
export function recordDecisions(
  ctx: ServerContext,
  input: ConsentRecordInput,
  resolver: FlowTermsResolver,
  options: RecordOptions = {},
): RecordOutcome {
  return transaction(ctx.db, () => recordInTransaction(ctx, input, resolver, options));
}

/** The steps, in order (see the top of this file). */
function recordInTransaction(
  ctx: ServerContext,
  input: ConsentRecordInput,
  resolver: FlowTermsResolver,
  options: RecordOptions,
): RecordOutcome {
  const admitted = evaluateInput(ctx, input, resolver);
  if ('kind' in admitted) return admitted;
  const { terms, capturedAt, now } = admitted;
  const id = homedId(ctx.country, 'cr_', 20);
  const subject = subjectOf(ctx, input, terms.account_id, id, now);
  const draft: RecordDraft = {
    ...admitted,
    ...subject,
    ...supersessionOf(ctx, { personId: subject.personId, flowId: input.flowId, capturedAt, now }, admitted.outcomes),
    id,
    expiresAt: terms.config.consent_duration ? addDuration(capturedAt, terms.config.consent_duration) : null,
    verdict: input.wordingVerdict !== undefined ? input.wordingVerdict : wordingVerdictOf(input.noticeHash, terms),
  };
  const receipt = freezeRecordReceipt(ctx, input, draft, resolver);
  const record = persistRecord(ctx, input, draft, receipt, options);
  withdrawSuperseded(ctx, draft, options);
  return { kind: 'created', record };
}
