// Step 7 of recording: apply withdrawals. A new record withdraws, on the person's previous record, the purposes it
// moved from granted to declined. The same writing serves the Record API's withdraw: each withdrawal is a row beside
// the record (the record itself never changes), an audit event, and the domain events webhooks listen to.
import type { ConsentRecord, EventChannel, RecordPurposeOutcome } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { notFound, unprocessable, type FieldError } from '../../infra/errors.js';
import { transaction } from '../../infra/transaction.js';
import { getFlowVersion } from '../../platform/flows/store.js';
import { appendAuditEvent } from '../audit/chain.js';
import {
  emailOf,
  findRow,
  isAnonymousPrincipal,
  issuedOf,
  recordState,
  subjectRef,
  toWire,
  withdrawalsOf,
  type RecordRow,
} from './rows.js';
import type { RecordDraft, RecordOptions } from './types.js';

/** A purpose to withdraw and what it becomes. */
interface WithdrawalTarget {
  key: string;
  outcome: 'revoked' | 'objected';
}

interface WithdrawalManner {
  eventChannel: EventChannel;
  scoped: boolean;
  supersedingRecordId?: string;
  now: string;
  quiet?: boolean | undefined;
}

/** Withdraws, on the person's previous record, the purposes the drafted record moved from granted to declined. */
export function withdrawSuperseded(ctx: ServerContext, draft: RecordDraft, options: Pick<RecordOptions, 'quiet'>): void {
  if (!draft.previous || !draft.moved.length) return;
  withdrawPurposes(
    ctx,
    draft.previous,
    draft.moved.map((key) => ({ key, outcome: 'revoked' as const })),
    {
      eventChannel: 'newer_record',
      scoped: true,
      supersedingRecordId: draft.id,
      now: draft.now,
      quiet: options.quiet,
    },
  );
}

/** Writes withdrawals on a record (inside the caller's transaction), appends the audit event and emits the domain events. */
function withdrawPurposes(ctx: ServerContext, row: RecordRow, targets: readonly WithdrawalTarget[], how: WithdrawalManner): void {
  for (const t of targets) {
    stmt(
      ctx.db,
      `INSERT INTO consent_withdrawals (record_id, purpose_key, outcome, withdrawn_at, event_channel, scoped, superseding_record_id)
              VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(row.id, t.key, t.outcome, how.now, how.eventChannel, how.scoped ? 1 : 0, how.supersedingRecordId ?? null);
  }
  appendAuditEvent(ctx, {
    applicationId: row.application_id,
    type: 'consent.revoked',
    occurredAt: how.now,
    data: {
      decision: 'revoked',
      record_id: row.id,
      flow_id: row.flow_id,
      flow_version: row.flow_version,
      person_id: row.person_id,
      event_channel: how.eventChannel,
      withdrawn: targets.map((t) => ({ key: t.key, outcome: t.outcome })),
      ...(how.supersedingRecordId ? { superseding_record_id: how.supersedingRecordId } : {}),
    },
  });
  if (!how.quiet) announceWithdrawal(ctx, row, targets, how);
}

/** The withdrawal that leaves no consent in force is one `consent.revoked` (objections made with it ride along); else one `consent.purpose_revoked` per purpose. */
function announceWithdrawal(ctx: ServerContext, row: RecordRow, targets: readonly WithdrawalTarget[], how: WithdrawalManner): void {
  const state = recordState(issuedOf(row), withdrawalsOf(ctx, row.id), row.expires_at, how.now);
  const base = {
    record_id: row.id,
    user_id: isAnonymousPrincipal(row.person_id) ? null : row.person_id,
    flow_id: row.flow_id,
    flow_version: row.flow_version,
    subject_ref: subjectRef(row.person_id, emailOf(ctx, row.person_id), row.external_id),
    event_channel: how.eventChannel,
    status: state.status,
    purposes: state.purposes,
    ...(how.supersedingRecordId ? { superseding_record_id: how.supersedingRecordId } : {}),
  };
  const event = { application_id: row.application_id, occurred_at: how.now };
  if (state.status === 'revoked' && targets.some((t) => t.outcome === 'revoked')) {
    ctx.events.emit(ctx, {
      type: 'consent.revoked',
      ...event,
      data: { ...base, withdrawn: targets.map((t) => ({ key: t.key, outcome: t.outcome })) },
    });
    return;
  }
  for (const t of targets)
    ctx.events.emit(ctx, { type: 'consent.purpose_revoked', ...event, data: { ...base, purpose: t.key, outcome: t.outcome } });
}

/** The purposes a withdrawal request names, or throws 422 naming each that cannot be withdrawn. */
function namedTargets(
  purposes: readonly RecordPurposeOutcome[],
  requested: readonly string[],
  withdrawable: (p: RecordPurposeOutcome) => boolean,
): RecordPurposeOutcome[] {
  const errors: FieldError[] = [];
  const targets: RecordPurposeOutcome[] = [];
  for (const [i, key] of [...new Set(requested)].entries()) {
    const purpose = purposes.find((p) => p.key === key);
    if (!purpose) errors.push({ path: `purposes.${i}`, code: 'unknown_purpose', message: `The record has no purpose "${key}".` });
    else if (purpose.outcome === 'revoked' || purpose.outcome === 'objected') continue;
    else if (!withdrawable(purpose)) {
      errors.push({
        path: `purposes.${i}`,
        code: 'not_withdrawable',
        message: `Purpose "${key}" is ${purpose.outcome}; only granted consent and legitimate interests with a right to object can be withdrawn.`,
      });
    } else targets.push(purpose);
  }
  if (errors.length) throw unprocessable(`The withdrawal was refused: ${errors.map((e) => e.message).join(' ')}`, errors[0]!.code, errors);
  return targets;
}

/** Which purposes of a record can be withdrawn under its terms: granted consent, or a legitimate interest with a right to object. */
export function withdrawableUnder(ctx: ServerContext, row: RecordRow): (p: RecordPurposeOutcome) => boolean {
  const terms = getFlowVersion(ctx, row.flow_id, row.flow_version);
  const rightToObject = new Set(
    terms?.config.purposes.filter((p) => p.basis === 'legitimate_interest' && p.mechanism === 'opt_out').map((p) => p.key),
  );
  return (p) => p.outcome === 'granted' || (p.outcome === 'noticed' && rightToObject.has(p.key));
}

/**
 * Withdraws some purposes of a record (default: every withdrawable one): a granted consent purpose becomes
 * `revoked`, a legitimate interest with a right to object becomes `objected`. Purposes already withdrawn are
 * skipped (a repeat changes nothing). Throws 404, or 422 `record_expired`, `unknown_purpose`, `not_withdrawable`.
 */
export function withdrawConsentRecord(
  ctx: ServerContext,
  accountId: string,
  id: string,
  request: { purposes?: readonly string[] | undefined; eventChannel: EventChannel },
): ConsentRecord {
  return transaction(ctx.db, () => {
    const row = findRow(ctx, accountId, id);
    if (!row) throw notFound('No such consent record.');
    const now = isoNow(ctx.clock);
    const state = recordState(issuedOf(row), withdrawalsOf(ctx, row.id), row.expires_at, now);
    if (state.status === 'expired') {
      throw unprocessable('The consent term has ended; an expired record has nothing left to withdraw.', 'record_expired');
    }
    const withdrawable = withdrawableUnder(ctx, row);
    const targets = request.purposes ? namedTargets(state.purposes, request.purposes, withdrawable) : state.purposes.filter(withdrawable);
    if (targets.length) {
      withdrawPurposes(
        ctx,
        row,
        targets.map((p) => ({ key: p.key, outcome: p.outcome === 'granted' ? 'revoked' : 'objected' })),
        {
          eventChannel: request.eventChannel,
          scoped: request.purposes !== undefined,
          now,
        },
      );
    }
    return toWire(ctx, row);
  });
}
