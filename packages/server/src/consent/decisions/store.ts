// Decision storage, shared by every kind: creation (the kind resolves `subject_ref`), reading with the deadline
// applied, the transitions table and dropped-message reports. Every expiry reads ctx.clock.
import { isoNow } from '../../infra/clock.js';
import type { Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { notFound, unprocessable } from '../../infra/errors.js';
import { homedId } from '../../infra/ids.js';
import { applicationHome, assertCreatesHere, SESSION_TOKEN, sessionTokenFor } from '../../infra/cells/routing.js';
import { transaction } from '../../infra/transaction.js';
import { assertMeetingOpen } from '../../surfaces/comply/meetings.js';
import { mailAddressee } from '../../people/mail/approval.js';
import type { PageProgress, PageStatus } from './participant-types.js';
import { allowedOrigins, type ApplicationRow } from './applications.js';
import { notAllowedOriginMessage } from '../../platform/origins.js';
import { kindModules, kindOf } from './kinds/index.js';
import type { OpenDecisionRequest } from './kinds/kind.js';
import { field } from './refusals.js';
import { plusSeconds, TERMINAL, type DecisionRow } from './row.js';

/** How long a decision can be decided, from creation. */
export const DECISION_LIFETIME_SECONDS = 15 * 60;

/** Whether `value` looks like a session token; anything else is answered 404 before touching storage. */
export function isSessionToken(value: string): boolean {
  return SESSION_TOKEN.test(value);
}

/** Options of {@link createDecision}. */
export interface CreateDecisionOptions {
  applicationId?: string;
  deadlineAt?: string;
  /** Answer 421 unless this cell is the application's home (a decision asked for through the API). */
  atApplicationHome?: boolean;
}

/**
 * Creates a decision. Its kind resolves `subject_ref` (consent: an active flow, approval: an escalation or a free
 * reference, signing session: its agreement's party); `embed_origin` must be an allowed origin of the application
 * (422 `embed_origin_not_allowed`); with a publishable key, `redirect_uri` must be on an allowed origin (422
 * `redirect_uri_not_allowed`); a production application needs https for it.
 */
export function createDecision(
  ctx: ServerContext,
  principal: Principal,
  request: OpenDecisionRequest,
  options: CreateDecisionOptions = {},
): DecisionRow {
  // The reads that check the request and the insert are one transaction: one read snapshot, not one per statement.
  const row = transaction(ctx.db, () => {
    const drafted = draftDecision(ctx, principal, request, options);
    stmt(
      ctx.db,
      `INSERT INTO decisions (id, session_token, account_id, application_id, kind, subject_ref, flow_id,
      flow_version, terms, delivery_mode, embed_origin, redirect_uri, scope, state, meeting_id, status, deadline_at, created_at, updated_at,
      addressee_email, home_country)
    VALUES (@id, @session_token, @account_id, @application_id, @kind, @subject_ref, @flow_id, @flow_version, @terms,
      @delivery_mode, @embed_origin, @redirect_uri, @scope, @state, @meeting_id, @status, @deadline_at, @created_at, @updated_at,
      @addressee_email, @home_country)`,
    ).run(drafted);
    mailAddressee(ctx, drafted); // a decision addressed to someone tells them, in the same transaction
    return drafted;
  });
  ctx.metrics.increment('decisions.created_total', { kind: row.kind });
  return row;
}

/** The new decision's row, once its kind resolved `subject_ref` and the request passed every check. */
function draftDecision(
  ctx: ServerContext,
  principal: Principal,
  request: OpenDecisionRequest,
  options: CreateDecisionOptions,
): DecisionRow {
  const now = isoNow(ctx.clock);
  const prepared = kindOf(request.kind).prepare(ctx, principal, request, {
    applicationId: options.applicationId,
    deadlineAt: plusSeconds(now, DECISION_LIFETIME_SECONDS),
  });
  const application = prepared.application;
  if (!application) throw unprocessable('The account has no active application to hold this decision.', 'application_missing');
  if (options.atApplicationHome) assertCreatesHere(ctx, applicationHome(ctx, application.id));
  // A decision for a meeting: the account's meeting consent, still open, asked with its template.
  if (request.meeting_id !== undefined) assertMeetingOpen(ctx, application.account_id, request.meeting_id, request);
  checkDelivery(ctx, principal, application, request);
  return {
    id: homedId(ctx.country, 'dec_'),
    session_token: sessionTokenFor(ctx.country),
    account_id: application.account_id,
    application_id: application.id,
    kind: request.kind,
    subject_ref: request.subject_ref,
    addressee_email: null,
    home_country: null,
    ...prepared.frozen,
    delivery_mode: request.delivery_mode,
    embed_origin: request.embed_origin ?? null,
    redirect_uri: request.redirect_uri ?? null,
    scope: request.scope ?? null,
    state: request.state ?? null,
    meeting_id: request.meeting_id ?? null,
    status: 'pending',
    step_index: 0,
    outcome: null,
    subject_email: null,
    verify_code_hash: null,
    verify_attempts: 0,
    evidence: null,
    purposes: null,
    counter_proposal: null,
    cancelled_by: null,
    consent_transaction_id: null,
    exchange_token_hash: null,
    exchange_expires_at: null,
    exchanged_at: null,
    sealed_consent_token: null,
    drop_reports: 0,
    deadline_at: options.deadlineAt ?? prepared.deadlineAt,
    created_at: now,
    updated_at: now,
    completed_at: null,
    authenticated_email: null,
    authentication_method: null,
    authenticated_at: null,
  };
}

/** Refuses an `embed_origin` or `redirect_uri` the application does not allow. */
function checkDelivery(ctx: ServerContext, principal: Principal, application: ApplicationRow, request: OpenDecisionRequest): void {
  const origins = request.embed_origin !== undefined || request.redirect_uri !== undefined ? allowedOrigins(ctx, application.id) : [];
  if (request.embed_origin !== undefined && !origins.includes(request.embed_origin)) {
    throw unprocessable(
      notAllowedOriginMessage(request.embed_origin, application.id, `embed_origin ${request.embed_origin}`),
      'embed_origin_not_allowed',
      field('embed_origin', 'embed_origin_not_allowed', 'not an allowed origin of the application'),
    );
  }
  if (request.redirect_uri === undefined) return;
  const target = new URL(request.redirect_uri);
  if (application.environment === 'production' && target.protocol !== 'https:') {
    throw unprocessable(
      'A production application needs an https redirect_uri.',
      'redirect_uri_not_allowed',
      field('redirect_uri', 'redirect_uri_not_allowed', 'must be https'),
    );
  }
  // A page holds a publishable key, so anyone can use it: it may only send people back to the application's own origins.
  if (principal.kind === 'publishable_key' && !origins.includes(target.origin)) {
    throw unprocessable(
      `redirect_uri must be on one of the application's allowed origins when a publishable key creates the decision.`,
      'redirect_uri_not_allowed',
      field('redirect_uri', 'redirect_uri_not_allowed', 'origin is not an allowed origin'),
    );
  }
}

/** The step index terminal statuses sit on: the last position of the kind's page. */
export function lastIndex(row: DecisionRow): number {
  return kindOf(row.kind).totalSteps(row) - 1;
}

/** Appends a row to the transitions table (the decision's history of steps). */
export function recordTransition(ctx: ServerContext, row: DecisionRow, action: string, from: PageStatus, now: string): void {
  stmt(
    ctx.db,
    `INSERT INTO decision_transitions (decision_id, action, from_status, to_status, step_index, created_at)
    VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(row.id, action, from, row.status, row.step_index, now);
}

/**
 * The decision behind a session token, with its deadline and withdrawals applied: an in-flight decision past
 * `deadline_at` is moved to `expired` here, since expiry is a matter of the server clock, not of anyone calling (and
 * a fulfilled consent whose record was withdrawn to `revoked`, whichever channel withdrew it). The move is one
 * conditional update, and what the kind records of an expiry (its `expire`) runs in the same transaction only when
 * that update moved the row: so it happens exactly once, whoever reads first (and not at all if the caller's
 * transaction rolls back, in which case the next read moves it again).
 */
export function findDecision(ctx: ServerContext, token: string): DecisionRow | undefined {
  if (!isSessionToken(token)) return undefined;
  const row = stmt<[string], DecisionRow>(ctx.db, 'SELECT * FROM decisions WHERE session_token = ?').get(token);
  if (!row) return undefined;
  const now = isoNow(ctx.clock);
  if (!TERMINAL.has(row.status) && Date.parse(now) >= Date.parse(row.deadline_at)) {
    const from = row.status;
    row.status = 'expired';
    row.step_index = lastIndex(row);
    row.updated_at = now;
    transaction(ctx.db, () => {
      const moved =
        stmt(ctx.db, "UPDATE decisions SET status = 'expired', step_index = ?, updated_at = ? WHERE id = ? AND status = ?").run(
          row.step_index,
          now,
          row.id,
          from,
        ).changes === 1;
      if (!moved) return;
      recordTransition(ctx, row, 'expire', from, now);
      kindOf(row.kind).expire?.(ctx, row, now);
    });
  }
  // Withdrawal ends the consent at once: whoever reads next sees `revoked`, and the move is recorded once.
  if (row.status === 'fulfilled' && kindOf(row.kind).withdrawn?.(ctx, row)) {
    row.status = 'revoked';
    row.updated_at = now;
    transaction(ctx.db, () => {
      const moved =
        stmt(ctx.db, "UPDATE decisions SET status = 'revoked', updated_at = ? WHERE id = ? AND status = 'fulfilled'").run(now, row.id)
          .changes === 1;
      if (moved) recordTransition(ctx, row, 'withdraw', 'fulfilled', now);
    });
  }
  return row;
}

/** Kinds whose expiry records something (their decisions are swept, not only moved when read). */
const SWEPT_KINDS = kindModules.filter((kind) => kind.expire).map((kind) => kind.kind);
const OPEN = `status NOT IN (${[...TERMINAL].map((s) => `'${s}'`).join(', ')})`;

/**
 * Moves every open decision of a kind whose expiry records something (a signing session) that is past its deadline
 * to `expired`, through {@link findDecision}, so what the kind records of it does not wait for someone to read the
 * decision. At most `limit` per call; answers how many it moved.
 */
export function expireDue(ctx: ServerContext, limit = 200): number {
  if (SWEPT_KINDS.length === 0) return 0;
  const now = isoNow(ctx.clock);
  let moved = 0;
  for (const kind of SWEPT_KINDS) {
    const tokens = stmt<[string, string, number], string>(
      ctx.db,
      `SELECT session_token FROM decisions WHERE kind = ? AND deadline_at <= ? AND ${OPEN} ORDER BY deadline_at LIMIT ?`,
    )
      .pluck()
      .all(kind, now, limit - moved) as unknown as string[];
    for (const token of tokens) if (findDecision(ctx, token)?.status === 'expired') moved += 1;
    if (moved >= limit) break;
  }
  return moved;
}

/**
 * Starts the expiry sweep: every second (so a test clock moved forward is noticed at once) it runs
 * {@link expireDue}. Answers the function that stops it.
 */
export function startExpirySweep(ctx: ServerContext, options: { checkEveryMs?: number } = {}): () => void {
  const timer = setInterval(() => {
    if (!ctx.db.open) return clearInterval(timer);
    try {
      expireDue(ctx);
    } catch (err) {
      if (ctx.db.open) console.error('[svc-server] decision expiry sweep failed', err);
    }
  }, options.checkEveryMs ?? 1000);
  timer.unref();
  return () => clearInterval(timer);
}

/** The decision behind a session token if it belongs to the caller's account; 404 otherwise. */
export function findOwnedDecision(ctx: ServerContext, principal: Principal, token: string): DecisionRow {
  const row = findDecision(ctx, token);
  if (!row || row.account_id !== principal.accountId) throw notFound(`No decision with that session token.`);
  return row;
}

/** Where a decision stands, for the page. */
export function progressOf(row: DecisionRow): PageProgress {
  return {
    status: row.status,
    step_index: row.step_index,
    total_steps: kindOf(row.kind).totalSteps(row),
    outcome: row.outcome,
    subject_email: row.subject_email,
    completed_at: row.completed_at,
  };
}

/**
 * Counts a message the hosted page could not post (`trust_surface.postmessage_dropped_total`), when the reason
 * is one the server agrees with: `origin_missing` only when the page really has no target origin. At most 200
 * reports per decision, so a page cannot inflate the counter without bound.
 */
export function recordDrop(
  ctx: ServerContext,
  row: DecisionRow,
  reason: 'origin_missing' | 'target_missing',
  targetOrigin: string | null,
): boolean {
  if (reason === 'origin_missing' && targetOrigin !== null) return false;
  const updated =
    stmt(ctx.db, 'UPDATE decisions SET drop_reports = drop_reports + 1 WHERE id = ? AND drop_reports < 200').run(row.id).changes === 1;
  if (updated) ctx.metrics.increment('trust_surface.postmessage_dropped_total', { reason });
  return updated;
}
