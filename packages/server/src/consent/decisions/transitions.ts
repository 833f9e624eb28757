// Participant steps, shared by every kind: the checks every step passes, `cancel`, and completion (the exchange
// token, the record and the event). What each other action does is the kind's.
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { notFound, type ApiError } from '../../infra/errors.js';
import { hashSecret, newSecret, homedId } from '../../infra/ids.js';
import { transaction } from '../../infra/transaction.js';
import { sendsMail } from '../../infra/mail/index.js';
import { mailSignInCode } from '../../people/mail/sign-in.js';
import type { TransitionRequest, TransitionResult } from './participant-types.js';
import { getApplication } from './applications.js';
import { requireAddressee, type Viewer } from './authentication.js';
import { kindOf } from './kinds/index.js';
import type { StepResult } from './kinds/kind.js';
import { refuse } from './refusals.js';
import { plusSeconds, TERMINAL, TOKEN_LIFETIME_SECONDS } from './row.js';
import { findDecision, lastIndex, progressOf, recordTransition } from './store.js';

/**
 * Applies one participant step inside a transaction, validating it against the decision's current screen. Refusals
 * are 422 with a code: `decision_expired`, `decision_completed`, `invalid_transition`, `stale_step`, and the kind's
 * own (`wrong_code`, `code_required`, `wrong_answer`, `required_purpose_missing`, `unknown_purpose`, ...); an answer
 * to a decision addressed to someone else than `viewer` (the person signed in on the trust URL, if any), when the
 * page has not proven the addressee, is 403 `sign_in_required` or `not_addressee`.
 */
export function applyTransition(ctx: ServerContext, token: string, request: TransitionRequest, viewer?: Viewer): TransitionResult {
  // A refusal that must still be stored (a wrong code counts as an attempt) is thrown after the commit.
  const { result, refusal } = transaction(ctx.db, (): { result?: TransitionResult; refusal?: ApiError } => {
    const row = findDecision(ctx, token);
    if (!row) throw notFound('No decision with that session token.');
    if (row.status === 'expired') throw refuse('decision_expired', 'This decision has expired.');
    if (TERMINAL.has(row.status)) throw refuse('decision_completed', `This decision is already ${row.status}.`);
    if (request.step_index !== undefined && request.step_index !== row.step_index) {
      throw refuse('stale_step', 'The page is out of date: this step was already taken.', 'step_index');
    }
    const now = isoNow(ctx.clock);
    const from = row.status;
    const kind = kindOf(row.kind);
    let step: StepResult = {};
    if (request.action === 'cancel') {
      if (kind.cancellable === false) {
        throw refuse(
          'invalid_transition',
          'This decision cannot be cancelled: it stays open until its deadline. Leave the page to decide later.',
          'action',
        );
      }
      row.status = 'cancelled';
      row.cancelled_by = request.cancelled_by;
      row.step_index = lastIndex(row);
      row.completed_at = now;
    } else {
      step = kind.act(ctx, row, request, now);
      // The code goes to the address by mail (at most the sign-in limit's count per window: past it, 429 rolls back).
      if (step.sandboxCode && row.subject_email) {
        mailSignInCode(ctx, row.subject_email, step.sandboxCode, getApplication(ctx, row.application_id)?.name ?? 'the service');
      }
      // Only the addressee answers; throwing here rolls back whatever the kind changed.
      if (step.complete) requireAddressee(row, viewer);
    }

    let completion: TransitionResult['completion'];
    let issued: string | undefined;
    if (step.complete) {
      const exchangeToken = newSecret();
      row.status = step.complete.status;
      row.outcome = step.complete.outcome;
      row.step_index = lastIndex(row);
      row.completed_at = now;
      row.consent_transaction_id = homedId(ctx.country, 'ctxn_');
      row.exchange_token_hash = hashSecret(exchangeToken);
      row.exchange_expires_at = plusSeconds(now, TOKEN_LIFETIME_SECONDS);
      issued = kind.issue?.(ctx, row, exchangeToken, now);
      completion = { outcome: step.complete.outcome, exchange_token: exchangeToken, completed_at: now };
      ctx.metrics.increment('decisions.completed_total', { kind: row.kind, outcome: step.complete.outcome });
    }
    row.updated_at = now;
    stmt(
      ctx.db,
      `UPDATE decisions SET status = @status, step_index = @step_index, outcome = @outcome, subject_email = @subject_email,
        verify_code_hash = @verify_code_hash, verify_attempts = @verify_attempts, evidence = @evidence, purposes = @purposes,
        counter_proposal = @counter_proposal, cancelled_by = @cancelled_by, consent_transaction_id = @consent_transaction_id,
        exchange_token_hash = @exchange_token_hash, exchange_expires_at = @exchange_expires_at,
        sealed_consent_token = @sealed_consent_token, updated_at = @updated_at, completed_at = @completed_at,
        authenticated_email = @authenticated_email, authentication_method = @authentication_method, authenticated_at = @authenticated_at
      WHERE id = @id`,
    ).run(row);
    if (step.refusal) return { refusal: step.refusal };
    // Inside the transaction, so the record, its receipt and audit event, and what listeners write (the webhook
    // outbox) commit together with the decision.
    if (completion) kind.record(ctx, row, (data) => ctx.events.emit(ctx, kind.event(row, issued, data)));
    const changed = !step.unchanged;
    if (changed) recordTransition(ctx, row, request.action, from, now);
    const progress = progressOf(row);
    return {
      result: {
        progress,
        transition: changed ? { from, to: row.status, step_index: progress.step_index, total_steps: progress.total_steps } : null,
        ...(completion ? { completion } : {}),
        // Without SMTP, the sandbox's stand-in for the email; a production page never learns the code it sent.
        ...(step.sandboxCode && !sendsMail(ctx) && getApplication(ctx, row.application_id)?.environment === 'development'
          ? { sandbox_code: step.sandboxCode }
          : {}),
      },
    };
  });
  if (refusal || !result) throw refusal ?? new Error('transition produced no result');
  return result;
}
