// Authorization records: the proof an approval decision leaves. Written in the completion's transaction together
// with the frozen receipt and the audit event, as consent records are; read by the receipt routes. They live in
// their own table, so record reads, withdrawals, consent status and imports (all about consent) never see them.
import type { AuthorizationReceiptRecord } from '@svc/schemas';
import { appendAuditEvent } from '../audit/chain.js';
import { findApplication } from '../../platform/application-store.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { homedId } from '../../infra/ids.js';
import { freezeAuthorizationReceipt, type ApprovalOutcome, type AuthenticationFact } from '../receipts/authorization.js';
import { personFor } from '../records/person.js';
import { lifecycleEvents } from '../../authority/delegations/receipt.js';
import {
  actionOf,
  ESCALATION_USE_SECONDS,
  escalationOfDecision,
  type EscalationRow,
} from '../../authority/delegations/escalation-store.js';

/** The audit event type (and webhook event type) of each approval outcome. */
export const APPROVAL_EVENT_TYPE: Record<ApprovalOutcome, 'approval.granted' | 'approval.denied' | 'approval.countered'> = {
  approved: 'approval.granted',
  denied: 'approval.denied',
  countered: 'approval.countered',
};

/** The `decision` an approval outcome is in the audit trail (beside consent's granted, denied, modified, revoked). */
const AUDIT_DECISION: Record<ApprovalOutcome, 'granted' | 'denied' | 'countered'> = {
  approved: 'granted',
  denied: 'denied',
  countered: 'countered',
};

/** What a completed approval decision hands to {@link recordApprovalDecision}. */
export interface ApprovalDecisionInput {
  accountId: string;
  applicationId: string;
  decisionId: string;
  /** The escalation the decision answered (its `subject_ref`): the receipt events' `approval_id`. */
  escalationId: string;
  outcome: ApprovalOutcome;
  requestedAt: string;
  decidedAt: string;
  deliveryMode: 'embed' | 'popup' | 'redirect';
  channel: 'hosted' | 'embedded';
  scope: string | null;
  /** The person the approval was addressed to, once they proved it on the page (lower-case email); else null. */
  addressee: string | null;
  /** How and when the person who answered was authenticated on the page, when someone was. */
  authentication: AuthenticationFact | undefined;
}

interface AuthorizationRow {
  seq: number;
  id: string;
  account_id: string;
  application_id: string;
  decision_id: string | null;
  grant_id: string | null;
  outcome: ApprovalOutcome | 'granted';
  recorded_at: string;
  receipt: string;
}

/** A record id shaped like one this module issues (`ar_` and 20 characters); anything else is not looked up. */
export function isAuthorizationRecordId(id: string): boolean {
  return /^ar_(?:[a-z]{2}_)?[A-Za-z0-9]{20}$/.test(id);
}

/**
 * The credential-free page that says how to withdraw an approval (`authority.withdrawal_method`): stable for the
 * record, holding no secret, on the hosted pages' origin.
 */
export function withdrawalMethodOf(ctx: ServerContext, recordId: string): string {
  return `${ctx.trustUrl}/authorization_receipts/${recordId}/withdraw`;
}

/**
 * Makes the authorization record of a completed approval decision, inside the caller's (the completion's)
 * transaction: the record with its frozen receipt, and the outcome appended to the application's audit chain
 * (`approval.granted`, `approval.denied`, `approval.countered`; ids and the outcome only: the counter-proposal is
 * the person's free text and stays out of the trail). Returns the record id.
 */
export function recordApprovalDecision(ctx: ServerContext, input: ApprovalDecisionInput): string {
  const now = isoNow(ctx.clock);
  const id = homedId(ctx.country, 'ar_', 20);
  const application = findApplication(ctx, input.applicationId);
  const escalation = escalationOfDecision(ctx, input.accountId, input.escalationId);
  const receipt = freezeAuthorizationReceipt({
    recordId: id,
    application: { id: input.applicationId, name: application?.name ?? input.applicationId },
    approvalId: input.escalationId,
    outcome: input.outcome,
    requestedAt: input.requestedAt,
    decidedAt: input.decidedAt,
    recordedAt: now,
    withdrawalMethod: withdrawalMethodOf(ctx, id),
    deliveryMode: input.deliveryMode,
    channel: input.channel,
    scope: input.scope,
    ...(escalation ? { escalation: escalationFacts(ctx, escalation, input.decidedAt) } : {}),
    // An addressee who proved it was them is identified: the account's person with that email.
    ...(input.addressee && input.authentication && !escalation
      ? { principal: { id: personFor(ctx, input.accountId, input.addressee, now), name: input.addressee } }
      : {}),
    ...(input.authentication ? { authentication: input.authentication } : {}),
  });
  stmt(
    ctx.db,
    `INSERT INTO authorization_records (id, account_id, application_id, decision_id, outcome, recorded_at, receipt)
    VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, input.accountId, input.applicationId, input.decisionId, input.outcome, now, JSON.stringify(receipt));
  appendAuditEvent(ctx, {
    applicationId: input.applicationId,
    type: APPROVAL_EVENT_TYPE[input.outcome],
    occurredAt: now,
    data: {
      decision: AUDIT_DECISION[input.outcome],
      record_id: id,
      record_type: 'authorization_record',
      decision_id: input.decisionId,
      approval_id: input.escalationId,
      outcome: input.outcome,
      channel: input.channel,
      decided_at: input.decidedAt,
    },
  });
  return id;
}

/** What an escalation's approval receipt says about the escalation: who asked, for whom, what, until when. */
function escalationFacts(ctx: ServerContext, escalation: EscalationRow, decidedAt: string) {
  const email = stmt<[string], string>(ctx.db, 'SELECT email FROM persons WHERE id = ?').pluck().get(escalation.principal_id) as unknown as
    | string
    | undefined;
  const agentName = stmt<[string], string>(ctx.db, 'SELECT display_name FROM agent_identities WHERE id = ?')
    .pluck()
    .get(escalation.agent_id) as unknown as string | undefined;
  return {
    principal: { id: escalation.principal_id, name: email ?? escalation.principal_id },
    agent: { id: escalation.agent_id, name: agentName ?? escalation.agent_id },
    grantId: escalation.grant_id,
    action: actionOf(escalation),
    useBy: new Date(Date.parse(decidedAt) + ESCALATION_USE_SECONDS * 1000).toISOString(),
  };
}

/** The id of the authorization record a decision made, or undefined. */
export function authorizationRecordIdOf(ctx: ServerContext, decisionId: string): string | undefined {
  return stmt<[string], string>(ctx.db, 'SELECT id FROM authorization_records WHERE decision_id = ?').pluck().get(decisionId) as unknown as
    | string
    | undefined;
}

function findRow(ctx: ServerContext, accountId: string, id: string): AuthorizationRow | undefined {
  if (!isAuthorizationRecordId(id)) return undefined;
  const row = stmt<[string], AuthorizationRow>(ctx.db, 'SELECT * FROM authorization_records WHERE id = ?').get(id);
  return row && row.account_id === accountId ? row : undefined;
}

/**
 * The receipt of the account's authorization record `id`, or undefined. An approval's is frozen at issue; a grant's
 * gets its lifecycle rows appended now (read time).
 */
export function readAuthorizationReceipt(ctx: ServerContext, accountId: string, id: string): AuthorizationReceiptRecord | undefined {
  const row = findRow(ctx, accountId, id);
  if (!row) return undefined;
  const receipt = JSON.parse(row.receipt) as AuthorizationReceiptRecord;
  if (row.grant_id) receipt.event = [...receipt.event, ...lifecycleEvents(ctx, row.grant_id, ctx.clock.now())];
  return receipt;
}

/** Stores the authorization record of a grant's activation, inside the caller's transaction. */
export function insertGrantRecord(
  ctx: ServerContext,
  input: { id: string; accountId: string; applicationId: string; grantId: string; recordedAt: string; receipt: AuthorizationReceiptRecord },
): void {
  stmt(
    ctx.db,
    `INSERT INTO authorization_records (id, account_id, application_id, grant_id, outcome, recorded_at, receipt)
    VALUES (?, ?, ?, ?, 'granted', ?, ?)`,
  ).run(input.id, input.accountId, input.applicationId, input.grantId, input.recordedAt, JSON.stringify(input.receipt));
}

/** Whether the account holds an authorization record `id` (to answer a consent-record read of it helpfully). */
export function isAuthorizationRecord(ctx: ServerContext, accountId: string, id: string): boolean {
  return findRow(ctx, accountId, id) !== undefined;
}

/**
 * What the withdrawal page may say about a record, whoever asks: its outcome, the application's name and, for a
 * grant, the grant's id (nothing personal: the page needs no credential).
 */
export function withdrawalFacts(
  ctx: ServerContext,
  id: string,
): { outcome: ApprovalOutcome | 'granted'; applicationName: string; grantId: string | null } | undefined {
  if (!isAuthorizationRecordId(id)) return undefined;
  const row = stmt<[string], Pick<AuthorizationRow, 'outcome' | 'application_id' | 'grant_id'>>(
    ctx.db,
    'SELECT outcome, application_id, grant_id FROM authorization_records WHERE id = ?',
  ).get(id);
  if (!row) return undefined;
  return {
    outcome: row.outcome,
    applicationName: findApplication(ctx, row.application_id)?.name ?? row.application_id,
    grantId: row.grant_id,
  };
}
