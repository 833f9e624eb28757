// Decision storage and the rules that move a decision: creation, participant steps, completion, the exchange and
// consent token verification. Every expiry reads ctx.clock.
import type {
  CollectionChannel,
  ConsentExchange,
  ConsentVerification,
  CreateDecisionRequest,
  Decision,
  DecisionClaims,
  DecisionEntry,
  FlowConfig,
  PurposeOutcome,
} from '@svc/client/schemas';
import { randomInt } from 'node:crypto';
import { isoNow } from '../lib/clock.js';
import type { Principal, ServerContext } from '../lib/context.js';
import { stmt, type Db } from '../lib/db.js';
import { transaction } from '../lib/transaction.js';
import type { DomainEvent } from '../lib/events.js';
import { ApiError, notFound, unprocessable } from '../lib/errors.js';
import { hashSecret, newId, newSecret, safeEqual } from '../lib/ids.js';
import { getActiveTermsText } from '../flows/store.js';
import { createConsentRecord } from '../records/service.js';
import { authorizationRecordIdOf, recordApprovalDecision } from '../authorizations/store.js';
import { decideEscalation, escalationOfDecision, escalationStatusAt } from '../delegations/escalation-store.js';
import type { PageProgress, PageStatus, Screen, TransitionRequest, TransitionResult } from '../pages/page-data.js';
import { answerAt, screensOf, statusOfScreen, TERMINAL, totalSteps } from './machine.js';
import { seal, unseal } from './seal.js';

/** How long a decision can be decided, from creation. */
export const DECISION_LIFETIME_SECONDS = 15 * 60;
/** Lifetime of a consent token (spec: 5 minutes, single use) and of the exchange token issued with it. */
export const TOKEN_LIFETIME_SECONDS = 5 * 60;
/** Wrong sign-in codes tolerated before the code is void and a new one must be sent. */
export const MAX_CODE_ATTEMPTS = 5;

/** A stored decision. */
export interface DecisionRow {
  id: string;
  session_token: string;
  account_id: string;
  application_id: string;
  kind: 'consent' | 'approval';
  subject_ref: string;
  flow_id: string | null;
  flow_version: number | null;
  terms: string | null;
  delivery_mode: 'embed' | 'popup' | 'redirect';
  embed_origin: string | null;
  redirect_uri: string | null;
  scope: string | null;
  state: string | null;
  meeting_id: string | null;
  status: PageStatus;
  step_index: number;
  outcome: string | null;
  subject_email: string | null;
  verify_code_hash: string | null;
  verify_attempts: number;
  evidence: string | null;
  purposes: string | null;
  counter_proposal: string | null;
  cancelled_by: string | null;
  consent_transaction_id: string | null;
  exchange_token_hash: string | null;
  exchange_expires_at: string | null;
  exchanged_at: string | null;
  sealed_consent_token: string | null;
  drop_reports: number;
  deadline_at: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

/** The flow version's terms frozen into a consent decision. */
export interface DecisionTerms {
  title: string;
  description: string | null;
  config: FlowConfig;
}

/** An application as decisions need it. */
export interface ApplicationRow {
  id: string;
  account_id: string;
  name: string;
  environment: 'development' | 'production';
}


const SESSION_TOKEN = /^dts_[A-Za-z0-9_-]{43}$/;
const SECRET = /^[A-Za-z0-9_-]{43}$/;

const plusSeconds = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();

/** Whether `value` looks like a session token; anything else is answered 404 before touching storage. */
export function isSessionToken(value: string): boolean {
  return SESSION_TOKEN.test(value);
}

/** The application `id`, or undefined. */
export function getApplication(ctx: ServerContext, id: string): ApplicationRow | undefined {
  return stmt<[string], ApplicationRow>(ctx.db, 'SELECT id, account_id, name, environment FROM applications WHERE id = ?').get(id);
}

/** The allowed origins registered for an application. */
export function allowedOrigins(ctx: ServerContext, applicationId: string): string[] {
  return stmt<[string], string>(ctx.db, 'SELECT origin FROM allowed_origins WHERE application_id = ? ORDER BY origin')
    .pluck()
    .all(applicationId) as unknown as string[];
}

/** The terms a consent decision is governed by. */
export function termsOf(row: DecisionRow): DecisionTerms | undefined {
  return row.terms ? (JSON.parse(row.terms) as DecisionTerms) : undefined;
}

/** The screens of a consent decision (empty for approvals). */
export function screensOfRow(row: DecisionRow): Screen[] {
  const terms = termsOf(row);
  return terms ? screensOf(terms.config) : [];
}

function field(path: string, code: string, message: string) {
  return [{ path, code, message }];
}

function defaultApplication(ctx: ServerContext, accountId: string): ApplicationRow | undefined {
  return stmt<[string], ApplicationRow>(
    ctx.db,
    'SELECT id, account_id, name, environment FROM applications WHERE account_id = ? AND active = 1 ORDER BY created_at, rowid LIMIT 1',
  ).get(accountId);
}

/**
 * Creates a decision. Consent needs an active flow the caller may use (unknown: 404 `flow_not_found`; draft: 422
 * `flow_not_active`); `embed_origin` must be an allowed origin of the application (422 `embed_origin_not_allowed`);
 * with a publishable key, `redirect_uri` must be on an allowed origin (422 `redirect_uri_not_allowed`); a
 * production application needs https for it. Approvals belong to the publishable key's application, or for an API
 * token to the account's first application.
 */
export function createDecision(
  ctx: ServerContext,
  principal: Principal,
  request: CreateDecisionRequest,
  options: { applicationId?: string; deadlineAt?: string } = {},
): DecisionRow {
  const now = isoNow(ctx.clock);
  let deadlineAt = plusSeconds(now, DECISION_LIFETIME_SECONDS);
  let application: ApplicationRow | undefined;
  let flowId: string | null = null;
  let flowVersion: number | null = null;
  let terms: string | null = null;

  if (request.kind === 'consent') {
    const flow = getActiveTermsText(ctx, request.subject_ref);
    if (!flow || flow.account_id !== principal.accountId || (principal.kind === 'publishable_key' && flow.application_id !== principal.applicationId)) {
      throw new ApiError(404, `No flow ${request.subject_ref} is accessible to this credential.`, 'flow_not_found',
        field('subject_ref', 'flow_not_found', 'no such flow'));
    }
    if (flow.terms === null) {
      throw unprocessable(`Flow ${flow.flow_id} is a draft: activate it before creating decisions against it.`, 'flow_not_active',
        field('subject_ref', 'flow_not_active', 'the flow is a draft'));
    }
    application = getApplication(ctx, flow.application_id);
    flowId = flow.flow_id;
    flowVersion = flow.version;
    terms = flow.terms;
  } else if (options.applicationId) {
    application = getApplication(ctx, options.applicationId);
  } else {
    // An approval of one of the account's escalations belongs to the escalation's application and cannot outlive it.
    const escalation = escalationOfDecision(ctx, principal.accountId, request.subject_ref);
    if (escalation) {
      if (escalationStatusAt(escalation, ctx.clock.now()) !== 'pending') {
        throw new ApiError(409, `Escalation ${escalation.id} is ${escalationStatusAt(escalation, ctx.clock.now())}: there is nothing left to decide.`, 'escalation_decided',
          field('subject_ref', 'escalation_decided', 'the escalation is no longer pending'));
      }
      application = getApplication(ctx, escalation.application_id);
      if (Date.parse(escalation.expires_at) < Date.parse(deadlineAt)) deadlineAt = escalation.expires_at;
    } else {
      application = principal.kind === 'publishable_key' ? getApplication(ctx, principal.applicationId) : defaultApplication(ctx, principal.accountId);
    }
  }
  if (options.deadlineAt) deadlineAt = options.deadlineAt;
  if (!application) throw unprocessable('The account has no active application to hold this decision.', 'application_missing');

  const origins = request.embed_origin !== undefined || request.redirect_uri !== undefined ? allowedOrigins(ctx, application.id) : [];
  if (request.embed_origin !== undefined && !origins.includes(request.embed_origin)) {
    throw unprocessable(`embed_origin ${request.embed_origin} is not among the application's allowed origins.`, 'embed_origin_not_allowed',
      field('embed_origin', 'embed_origin_not_allowed', 'not an allowed origin of the application'));
  }
  if (request.redirect_uri !== undefined) {
    const target = new URL(request.redirect_uri);
    if (application.environment === 'production' && target.protocol !== 'https:') {
      throw unprocessable('A production application needs an https redirect_uri.', 'redirect_uri_not_allowed',
        field('redirect_uri', 'redirect_uri_not_allowed', 'must be https'));
    }
    // A page holds a publishable key, so anyone can use it: it may only send people back to the application's own origins.
    if (principal.kind === 'publishable_key' && !origins.includes(target.origin)) {
      throw unprocessable(`redirect_uri must be on one of the application's allowed origins when a publishable key creates the decision.`,
        'redirect_uri_not_allowed', field('redirect_uri', 'redirect_uri_not_allowed', 'origin is not an allowed origin'));
    }
  }

  const row: DecisionRow = {
    id: newId('dec_'),
    session_token: `dts_${newSecret()}`,
    account_id: application.account_id,
    application_id: application.id,
    kind: request.kind,
    subject_ref: request.subject_ref,
    flow_id: flowId,
    flow_version: flowVersion,
    terms,
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
    deadline_at: deadlineAt,
    created_at: now,
    updated_at: now,
    completed_at: null,
  };
  transaction(ctx.db, () => stmt(ctx.db, `INSERT INTO decisions (id, session_token, account_id, application_id, kind, subject_ref, flow_id,
      flow_version, terms, delivery_mode, embed_origin, redirect_uri, scope, state, meeting_id, status, deadline_at, created_at, updated_at)
    VALUES (@id, @session_token, @account_id, @application_id, @kind, @subject_ref, @flow_id, @flow_version, @terms,
      @delivery_mode, @embed_origin, @redirect_uri, @scope, @state, @meeting_id, @status, @deadline_at, @created_at, @updated_at)`)
    .run(row));
  ctx.metrics.increment('decisions.created_total', { kind: row.kind });
  return row;
}

function lastIndex(row: DecisionRow): number {
  return row.kind === 'consent' ? screensOfRow(row).length : 0;
}

function recordTransition(ctx: ServerContext, row: DecisionRow, action: string, from: PageStatus, now: string): void {
  stmt(ctx.db, `INSERT INTO decision_transitions (decision_id, action, from_status, to_status, step_index, created_at)
    VALUES (?, ?, ?, ?, ?, ?)`).run(row.id, action, from, row.status, row.step_index, now);
}

/**
 * The decision behind a session token, with its deadline applied: an in-flight decision past `deadline_at` is
 * moved to `expired` here, since expiry is a matter of the server clock, not of anyone calling.
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
      stmt(ctx.db, "UPDATE decisions SET status = 'expired', step_index = ?, updated_at = ? WHERE id = ? AND status = ?")
        .run(row.step_index, now, row.id, from);
      recordTransition(ctx, row, 'expire', from, now);
    });
  }
  return row;
}

/** The decision behind a session token if it belongs to the caller's account; 404 otherwise. */
export function findOwnedDecision(ctx: ServerContext, principal: Principal, token: string): DecisionRow {
  const row = findDecision(ctx, token);
  if (!row || row.account_id !== principal.accountId) throw notFound(`No decision with that session token.`);
  return row;
}

/** Where a consent decision was collected (the record's channel): `embedded` in the iframe embed, else `hosted`. */
export function collectionChannelOf(row: Pick<DecisionRow, 'delivery_mode'>): Extract<CollectionChannel, 'hosted' | 'embedded'> {
  return row.delivery_mode === 'embed' ? 'embedded' : 'hosted';
}

/**
 * The idempotency key of the consent record a decision makes: one record per decision, and the link from the
 * decision to its record (the records table's unique key per application).
 */
function recordKey(row: Pick<DecisionRow, 'id'>): string {
  return `decision:${row.id}`;
}

/**
 * The id of the record a completed decision made: the consent record of a consent decision, the authorization record
 * of an approval; null while pending, for cancelled and expired decisions, and for approvals completed before the
 * server recorded them.
 */
export function recordIdOf(ctx: ServerContext, row: DecisionRow): string | null {
  if (row.outcome === null || row.completed_at === null) return null;
  if (row.kind === 'approval') return authorizationRecordIdOf(ctx, row.id) ?? null;
  const id = stmt<[string, string], string>(ctx.db, 'SELECT id FROM consent_records WHERE application_id = ? AND idempotency_key = ?')
    .pluck().get(row.application_id, recordKey(row)) as unknown as string | undefined;
  return id ?? null;
}

/** The decision as the API returns it. */
export function toWire(ctx: ServerContext, row: DecisionRow): Decision {
  const url = `${ctx.trustUrl}/decisions/${row.session_token}`;
  return {
    id: row.id,
    session_token: row.session_token,
    kind: row.kind,
    status: row.status,
    outcome: row.outcome as Decision['outcome'],
    delivery_mode: row.delivery_mode,
    subject_ref: row.subject_ref,
    application_id: row.application_id,
    flow_id: row.flow_id,
    flow_version: row.flow_version,
    embed_origin: row.embed_origin,
    redirect_uri: row.redirect_uri,
    scope: row.scope,
    state: row.state,
    meeting_id: row.meeting_id,
    url,
    embed_url: `${url}/embed`,
    deadline_at: row.deadline_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    completed_at: row.completed_at,
    consent_transaction_id: row.consent_transaction_id,
    counter_proposal: row.counter_proposal,
    record_id: recordIdOf(ctx, row),
    ...triggerOf(ctx, row),
  };
}

/** The approval trigger type of an approval that answers one of the account's escalations. */
function triggerOf(ctx: ServerContext, row: DecisionRow): Pick<Decision, 'trigger'> {
  const escalation = row.kind === 'approval' ? escalationOfDecision(ctx, row.account_id, row.subject_ref) : undefined;
  return escalation ? { trigger: escalation.trigger } : {};
}

/** Where a decision stands, for the page. */
export function progressOf(row: DecisionRow): PageProgress {
  return {
    status: row.status,
    step_index: row.step_index,
    total_steps: row.kind === 'consent' ? totalSteps(screensOfRow(row)) : 1,
    outcome: row.outcome,
    subject_email: row.subject_email,
    completed_at: row.completed_at,
  };
}

/** A refusal of a participant step: 422 with a stable code. */
function refuse(code: string, message: string, path?: string): ApiError {
  return unprocessable(message, code, path ? field(path, code, message) : undefined);
}

function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

const codeHash = (row: DecisionRow, code: string) => hashSecret(`${row.id}:${code}`);

/** How each purpose ends when the person agrees with `granted` consent purposes and `objected` opt-outs. */
function purposeOutcomes(config: FlowConfig, granted: readonly string[], objected: readonly string[]): PurposeOutcome[] {
  const byKey = new Map(config.purposes.map((p) => [p.key, p]));
  const unknown = [...granted, ...objected].filter((key) => !byKey.has(key));
  if (unknown.length) throw refuse('unknown_purpose', `No purpose ${unknown.map((k) => `"${k}"`).join(', ')} in this flow.`, 'purposes');
  const notConsent = granted.filter((key) => byKey.get(key)?.basis !== 'consent');
  if (notConsent.length) throw refuse('not_a_consent_purpose', `Only consent purposes can be granted: ${notConsent.join(', ')}.`, 'granted');
  const notObjectable = objected.filter((key) => byKey.get(key)?.mechanism !== 'opt_out');
  if (notObjectable.length) throw refuse('not_objectable', `Only opt-out purposes can be objected to: ${notObjectable.join(', ')}.`, 'objected');
  const missing = config.purposes.filter((p) => p.basis === 'consent' && p.required && !granted.includes(p.key));
  if (missing.length) {
    throw refuse('required_purpose_missing', `The flow needs consent to ${missing.map((p) => `"${p.label}"`).join(', ')} to continue; decline instead if you do not agree.`, 'granted');
  }
  return config.purposes.map((p) => ({
    key: p.key,
    basis: p.basis,
    mechanism: p.mechanism,
    outcome: p.basis === 'consent' ? (granted.includes(p.key) ? 'granted' : 'declined') : objected.includes(p.key) ? 'objected' : 'noticed',
  }));
}

/**
 * Whether the person's identity was established by the time they completed on screen `index`: they signed in, and
 * passed the verification step when the flow has one (every screen before `index` was passed; the screens run in
 * order). An email typed at sign-in but never verified establishes nothing.
 */
function identityEstablished(screens: readonly Screen[], row: Pick<DecisionRow, 'subject_email'>, index: number): boolean {
  return row.subject_email !== null && screens.every((screen, i) => screen.type !== 'verify' || i < index);
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
function recordConsentDecision(ctx: ServerContext, row: DecisionRow, consentToken: string | undefined): void {
  createConsentRecord(ctx, {
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
  }, {
    announce: (recorded) => ctx.events.emit(ctx, completionEvent(row, consentToken, recorded.data)),
  });
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

/**
 * Makes the authorization record of a completed approval, in the completion's transaction (record, frozen receipt,
 * audit event), then announces the outcome: one `approval.granted`, `approval.denied` or `approval.countered`
 * carrying the record id.
 */
function recordApproval(ctx: ServerContext, row: DecisionRow): void {
  const recordId = recordApprovalDecision(ctx, {
    accountId: row.account_id,
    applicationId: row.application_id,
    decisionId: row.id,
    escalationId: row.subject_ref,
    outcome: row.outcome as 'approved' | 'denied' | 'countered',
    requestedAt: row.created_at,
    decidedAt: row.completed_at!,
    deliveryMode: row.delivery_mode,
    channel: collectionChannelOf(row),
    scope: row.scope,
  });
  const escalation = escalationOfDecision(ctx, row.account_id, row.subject_ref);
  if (escalation) {
    decideEscalation(ctx, escalation.id, {
      outcome: row.outcome as 'approved' | 'denied' | 'countered', decidedAt: row.completed_at!, counterProposal: row.counter_proposal, recordId,
    });
  }
  ctx.events.emit(ctx, completionEvent(row, undefined, {
    record_id: recordId, ...(escalation ? { delegation_grant_id: escalation.grant_id, agent_identity_id: escalation.agent_id } : {}),
  }));
}

function declinedOutcomes(config: FlowConfig): PurposeOutcome[] {
  return config.purposes.map((p) => ({
    key: p.key, basis: p.basis, mechanism: p.mechanism, outcome: p.basis === 'consent' ? 'declined' : 'noticed',
  }));
}

/**
 * Applies one participant step inside a transaction, validating it against the decision's current screen. Refusals
 * are 422 with a code: `decision_expired`, `decision_completed`, `invalid_transition`, `stale_step`, `wrong_code`,
 * `code_required`, `wrong_answer`, `required_purpose_missing`, `unknown_purpose`.
 */
export function applyTransition(ctx: ServerContext, token: string, request: TransitionRequest): TransitionResult {
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
    const screens = screensOfRow(row);
    const screen = screens[row.step_index];
    const terms = termsOf(row);
    let sandboxCode: string | undefined;
    let refusal: ApiError | undefined;
    let complete: { status: PageStatus; outcome: string } | undefined;
    const advance = () => {
      row.step_index += 1;
      row.status = statusOfScreen(screens, row.step_index);
    };
    const invalid = () => refuse('invalid_transition', `"${request.action}" is not possible while the decision is ${row.status}.`, 'action');

    if (request.action === 'cancel') {
      row.status = 'cancelled';
      row.cancelled_by = request.cancelled_by;
      row.step_index = lastIndex(row);
    } else if (row.kind === 'approval') {
      const escalation = escalationOfDecision(ctx, row.account_id, row.subject_ref);
      if (escalation && escalationStatusAt(escalation, ctx.clock.now()) !== 'pending') {
        throw refuse('escalation_decided', `This request was already ${escalationStatusAt(escalation, ctx.clock.now())}; there is nothing left to decide.`);
      }
      switch (request.action) {
        case 'approve':
          complete = { status: 'approved', outcome: 'approved' };
          break;
        case 'deny':
          complete = { status: 'denied', outcome: 'denied' };
          break;
        case 'counter':
          row.counter_proposal = request.proposal;
          complete = { status: 'countered', outcome: 'countered' };
          break;
        default:
          throw invalid();
      }
    } else {
      switch (request.action) {
        case 'begin':
          if (screen?.type !== 'intro') throw invalid();
          advance();
          break;
        case 'sign_in':
          if (screen?.type !== 'sign_in') throw invalid();
          row.subject_email = request.email.toLowerCase();
          advance();
          if (screens[row.step_index]?.type === 'verify') {
            sandboxCode = newCode();
            row.verify_code_hash = codeHash(row, sandboxCode);
            row.verify_attempts = 0;
          }
          break;
        case 'send_code':
          if (screen?.type !== 'verify') throw invalid();
          if (request.email) row.subject_email = request.email.toLowerCase();
          if (!row.subject_email) throw refuse('email_required', 'Enter your email address first.', 'email');
          sandboxCode = newCode();
          row.verify_code_hash = codeHash(row, sandboxCode);
          row.verify_attempts = 0;
          break;
        case 'verify':
          if (screen?.type !== 'verify') throw invalid();
          if (!row.verify_code_hash) throw refuse('code_required', 'Request a new code first.', 'code');
          if (!safeEqual(codeHash(row, request.code), row.verify_code_hash)) {
            row.verify_attempts += 1;
            if (row.verify_attempts >= MAX_CODE_ATTEMPTS) row.verify_code_hash = null;
            refusal = row.verify_code_hash
              ? refuse('wrong_code', 'That code is not right. Check it and try again.', 'code')
              : refuse('code_required', 'Too many wrong codes: request a new code.', 'code');
            break;
          }
          row.verify_code_hash = null;
          advance();
          break;
        case 'acknowledge':
          if (screen?.type !== 'disclosure') throw invalid();
          advance();
          break;
        case 'answer': {
          if (screen?.type !== 'comprehension_check' || !terms) throw invalid();
          const evidence = JSON.parse(row.evidence ?? '[]') as unknown[];
          const correct = answerAt(terms.config, row.step_index) === request.answer;
          evidence.push({ step_index: row.step_index, answer: request.answer, correct, at: now });
          row.evidence = JSON.stringify(evidence);
          if (!correct) {
            refusal = refuse('wrong_answer', 'That is not right. Read the information again and choose another answer.', 'answer');
            break;
          }
          advance();
          break;
        }
        case 'agree':
          if ((screen?.type !== 'review' && screen?.type !== 'confirm') || !terms) throw invalid();
          row.purposes = JSON.stringify(purposeOutcomes(terms.config, request.granted, request.objected));
          complete = { status: 'fulfilled', outcome: 'granted' };
          break;
        case 'decline':
          if (!terms) throw invalid();
          row.purposes = JSON.stringify(declinedOutcomes(terms.config));
          complete = { status: 'declined', outcome: 'declined' };
          break;
        default:
          throw invalid();
      }
    }

    let completion: TransitionResult['completion'];
    let consentToken: string | undefined;
    let pendingEvent: { consentToken: string | undefined } | undefined;
    if (complete) {
      const exchangeToken = newSecret();
      // An email typed at sign-in but never verified is not kept: it names nobody the decision can be bound to.
      if (row.kind === 'consent' && !identityEstablished(screens, row, row.step_index)) row.subject_email = null;
      row.status = complete.status;
      row.outcome = complete.outcome;
      row.step_index = lastIndex(row);
      row.completed_at = now;
      row.consent_transaction_id = newId('ctxn_');
      row.exchange_token_hash = hashSecret(exchangeToken);
      row.exchange_expires_at = plusSeconds(now, TOKEN_LIFETIME_SECONDS);
      if (complete.status === 'fulfilled') {
        consentToken = newSecret();
        row.sealed_consent_token = seal(consentToken, exchangeToken);
        stmt(ctx.db, `INSERT INTO consent_tokens (token_hash, decision_id, account_id, application_id, flow_id, flow_version,
            consent_transaction_id, issued_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
          .run(hashSecret(consentToken), row.id, row.account_id, row.application_id, row.flow_id, row.flow_version,
            row.consent_transaction_id, now, plusSeconds(now, TOKEN_LIFETIME_SECONDS));
      }
      completion = { outcome: complete.outcome, exchange_token: exchangeToken, completed_at: now };
      ctx.metrics.increment('decisions.completed_total', { kind: row.kind, outcome: complete.outcome });
      pendingEvent = { consentToken };
    } else if (row.status === 'cancelled') {
      row.completed_at = now;
    }
    row.updated_at = now;
    stmt(ctx.db, `UPDATE decisions SET status = @status, step_index = @step_index, outcome = @outcome, subject_email = @subject_email,
        verify_code_hash = @verify_code_hash, verify_attempts = @verify_attempts, evidence = @evidence, purposes = @purposes,
        counter_proposal = @counter_proposal, cancelled_by = @cancelled_by, consent_transaction_id = @consent_transaction_id,
        exchange_token_hash = @exchange_token_hash, exchange_expires_at = @exchange_expires_at,
        sealed_consent_token = @sealed_consent_token, updated_at = @updated_at, completed_at = @completed_at
      WHERE id = @id`).run(row);
    if (refusal) return { refusal };
    // Inside the transaction, so the record, its receipt and audit event, and what listeners write (the webhook
    // outbox) commit together with the decision.
    if (pendingEvent) {
      if (row.kind === 'consent') recordConsentDecision(ctx, row, pendingEvent.consentToken);
      else recordApproval(ctx, row);
    }
    const changed = request.action !== 'send_code';
    if (changed) recordTransition(ctx, row, request.action, from, now);
    const progress = progressOf(row);
    return {
      result: {
        progress,
        transition: changed ? { from, to: row.status, step_index: progress.step_index, total_steps: progress.total_steps } : null,
        ...(completion ? { completion } : {}),
        ...(sandboxCode ? { sandbox_code: sandboxCode } : {}),
      },
    };
  });
  if (refusal || !result) throw refusal ?? new Error('transition produced no result');
  return result;
}

/**
 * The domain event of a completed decision: `consent.granted` (with the consent token, as the webhook carries
 * it: one single-use token, whichever of exchange or webhook reaches verification first), `consent.denied`,
 * `approval.granted`, `approval.denied` or `approval.countered`. A consent event also carries `record` (the data of
 * the event its consent record would have emitted: record id, user id, channel, subject reference, times); an
 * approval event carries its authorization record's `record_id`.
 */
function completionEvent(row: DecisionRow, consentToken: string | undefined, record?: Record<string, unknown>): DomainEvent {
  const base = { decision_id: row.id, consent_transaction_id: row.consent_transaction_id, decided_at: row.completed_at, delivery_mode: row.delivery_mode };
  if (row.kind === 'approval') {
    const type = row.outcome === 'approved' ? 'approval.granted' : `approval.${row.outcome}`;
    return {
      type,
      application_id: row.application_id,
      occurred_at: row.completed_at!,
      data: { ...record, ...base, escalation_id: row.subject_ref, outcome: row.outcome, counter_proposal: row.counter_proposal, scope: row.scope, state: row.state },
    };
  }
  const claims = claimsOf(row) as Extract<DecisionClaims, { kind: 'consent' }>;
  return {
    type: row.outcome === 'granted' ? 'consent.granted' : 'consent.denied',
    application_id: row.application_id,
    occurred_at: row.completed_at!,
    data: {
      ...record,
      ...base,
      flow_id: row.flow_id,
      flow_version: row.flow_version,
      subject_ref: claims.subject ? { email: claims.subject.email, external_id: null } : null,
      purposes: claims.purposes,
      purposes_granted: claims.purposes_granted,
      ...(consentToken ? { consent_token: consentToken, consent_token_expires_at: plusSeconds(row.completed_at!, TOKEN_LIFETIME_SECONDS) } : {}),
    },
  };
}

/** The claims of a completed decision. */
function claimsOf(row: DecisionRow): DecisionClaims {
  if (row.kind === 'approval') {
    return {
      kind: 'approval',
      decision_id: row.id,
      outcome: row.outcome as 'approved' | 'denied' | 'countered',
      escalation_id: row.subject_ref,
      counter_proposal: row.counter_proposal,
      decided_at: row.completed_at!,
      scope: row.scope,
      state: row.state,
    };
  }
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
 * Exchanges a completed decision's exchange token, once, for its ConsentExchange. Refusals (422): `not_completed`,
 * `exchange_token_invalid`, `exchange_token_used`, `exchange_token_expired`.
 */
export function exchangeDecision(ctx: ServerContext, principal: Principal, token: string, exchangeToken: string): ConsentExchange {
  return transaction(ctx.db, (): ConsentExchange => {
    const row = findOwnedDecision(ctx, principal, token);
    if (!row.exchange_token_hash || !row.completed_at || !row.outcome) {
      throw refuse('not_completed', `The decision is ${row.status}: there is nothing to exchange yet.`);
    }
    if (!SECRET.test(exchangeToken) || !safeEqual(hashSecret(exchangeToken), row.exchange_token_hash)) {
      throw refuse('exchange_token_invalid', 'The exchange token does not belong to this decision.', 'exchange_token');
    }
    if (row.exchanged_at) throw refuse('exchange_token_used', 'The exchange token was already exchanged; it is single use.', 'exchange_token');
    const now = isoNow(ctx.clock);
    if (Date.parse(now) >= Date.parse(row.exchange_expires_at!)) {
      throw refuse('exchange_token_expired', 'The exchange token has expired (it lives 5 minutes).', 'exchange_token');
    }
    const consentToken = row.sealed_consent_token ? unseal(row.sealed_consent_token, exchangeToken) : undefined;
    const recordId = recordIdOf(ctx, row);
    stmt(ctx.db, 'UPDATE decisions SET exchanged_at = ?, sealed_consent_token = NULL, updated_at = ? WHERE id = ?').run(now, now, row.id);
    ctx.metrics.increment('decisions.exchanged_total', { kind: row.kind });

    const result: ConsentExchange = {
      claims: claimsOf(row),
      status: row.status,
      outcome: row.outcome as ConsentExchange['outcome'],
      application_id: row.application_id,
      consent_transaction_id: row.consent_transaction_id!,
      ...(recordId ? { record_id: recordId } : {}),
      provenance: { collection_channel: collectionChannelOf(row), delivery_mode: row.delivery_mode },
      ...(row.scope ? { scope: row.scope } : {}),
    };
    if (consentToken) {
      const expiresAt = stmt<[string], string>(ctx.db, 'SELECT expires_at FROM consent_tokens WHERE token_hash = ?')
        .pluck().get(hashSecret(consentToken)) as unknown as string;
      result.access_token = consentToken;
      result.token_type = 'consent_token';
      result.expires_in = Math.max(0, Math.ceil((Date.parse(expiresAt) - Date.parse(now)) / 1000));
    }
    return result;
  });
}

interface ConsentTokenRow {
  token_hash: string;
  account_id: string;
  flow_id: string;
  flow_version: number;
  consent_transaction_id: string;
  expires_at: string;
  verified_at: string | null;
}

/**
 * Verifies a consent token for the caller's account and clears it: the first verification within 5 minutes is
 * `fulfilled` and valid; a second one, or one after 5 minutes, is `expired`; a token the account never received
 * is `invalid`.
 */
export function verifyConsentToken(ctx: ServerContext, accountId: string, consentToken: string): ConsentVerification {
  const invalid = (): ConsentVerification => {
    ctx.metrics.increment('consent_tokens.verified_total', { status: 'invalid' });
    return { valid: false, status: 'invalid', expires_at: null };
  };
  if (!SECRET.test(consentToken)) return invalid();
  const hash = hashSecret(consentToken);
  const now = isoNow(ctx.clock);
  // The first verification clears the token and reads it back in one statement; a miss is told apart after.
  const consumed = transaction(ctx.db, () => stmt<[string, string, string, string], ConsentTokenRow>(ctx.db,
    'UPDATE consent_tokens SET verified_at = ? WHERE token_hash = ? AND account_id = ? AND verified_at IS NULL AND expires_at > ? RETURNING *',
  ).get(now, hash, accountId, now));
  const row = consumed ?? stmt<[string], ConsentTokenRow>(ctx.db, 'SELECT * FROM consent_tokens WHERE token_hash = ?').get(hash);
  if (!row || row.account_id !== accountId) return invalid();
  const status = consumed ? 'fulfilled' : 'expired';
  ctx.metrics.increment('consent_tokens.verified_total', { status });
  return {
    valid: consumed !== undefined,
    status,
    flow_id: row.flow_id,
    expires_at: row.expires_at,
    flow_version: row.flow_version,
    consent_transaction_id: row.consent_transaction_id,
  };
}

/**
 * Counts a message the hosted page could not post (`trust_surface.postmessage_dropped_total`), when the reason
 * is one the server agrees with: `origin_missing` only when the page really has no target origin. At most 200
 * reports per decision, so a page cannot inflate the counter without bound.
 */
export function recordDrop(ctx: ServerContext, row: DecisionRow, reason: 'origin_missing' | 'target_missing', targetOrigin: string | null): boolean {
  if (reason === 'origin_missing' && targetOrigin !== null) return false;
  const updated = stmt(ctx.db, 'UPDATE decisions SET drop_reports = drop_reports + 1 WHERE id = ? AND drop_reports < 200').run(row.id).changes === 1;
  if (updated) ctx.metrics.increment('trust_surface.postmessage_dropped_total', { reason });
  return updated;
}
