// The authorization record's receipt (schema version svc-cr/2.13, record_type authorization_record): what an approval
// decision leaves. Frozen at issue; an approval has no lifecycle after its outcome, so nothing is appended later.
// Only what the platform can state truthfully is in it: no personal-data processing (nobody was identified), no
// bound it does not enforce, none of the consent-only extensions.
import {
  type AnswerAuthentication,
  RECEIPT_CONFORMS_TO,
  RECEIPT_SCHEMA_VERSION,
  type AuthorizationReceiptRecord,
  type ProposedAction,
  type ReceiptEvent,
} from '@svc/schemas';
import { PLATFORM_PARTY_ID, PLATFORM_PARTY_NAME } from './canonical.js';

/** The approval outcomes an authorization record is made for. */
export type ApprovalOutcome = 'approved' | 'denied' | 'countered';

/** The event state of each outcome. */
const OUTCOME_STATE: Record<ApprovalOutcome, ReceiptEvent['event_state']> = {
  approved: 'approval granted',
  denied: 'approval denied',
  countered: 'approval countered',
};

/** How the person who answered proved it was them on the page (`extensions.authentication`). */
export type AuthenticationFact = AnswerAuthentication;

/** What an authorization receipt is frozen from. */
export interface AuthorizationReceiptInput {
  recordId: string;
  /** The application that asked for the approval (the requesting party). */
  application: { id: string; name: string };
  /** The approval the events name (`approval_id`): the escalation the decision answered (its `subject_ref`). */
  approvalId: string;
  outcome: ApprovalOutcome;
  /** When the decision was created: the approval was requested. */
  requestedAt: string;
  /** When the principal decided. */
  decidedAt: string;
  recordedAt: string;
  /** The stable, credential-free entry that explains how to withdraw (`authority.withdrawal_method`). */
  withdrawalMethod: string;
  deliveryMode: 'embed' | 'popup' | 'redirect';
  channel: 'hosted' | 'embedded';
  /** The decision's `scope`, as the request named it; omitted when there was none. */
  scope: string | null;
  /**
   * The escalation the approval answered, when it was one of an agent's: the principal is then known, the agent is
   * the `agent` party, and an approval's authority is bounded to exactly the escalated action, once.
   */
  escalation?: {
    principal: { id: string; name: string };
    agent: { id: string; name: string };
    grantId: string;
    action: ProposedAction;
    useBy: string;
  };
  /** The addressee of an approval that answered no escalation, once they proved it was them: then identified. */
  principal?: { id: string; name: string };
  /** How and when the person who answered was authenticated; absent when nobody was (an approval addressed to no one). */
  authentication?: AuthenticationFact;
}

/** The party name of a principal no identity was established for: the record id stands in for them. */
export const UNIDENTIFIED_PRINCIPAL = 'Unidentified principal (no identity was established)';

/** Longest scope token the receipt schema takes (`scopes` items are ids of at most 500 characters). */
const MAX_SCOPE_TOKEN = 500;

/**
 * The scope's tokens, space-delimited as in OAuth (RFC 6749 section 3.3), or undefined when there is no scope or a
 * token is longer than the receipt schema allows (then the receipt cannot state it and leaves it out).
 */
export function scopesOf(scope: string | null): string[] | undefined {
  const tokens = scope?.split(/\s+/).filter(Boolean) ?? [];
  if (tokens.length === 0 || tokens.some((t) => t.length > MAX_SCOPE_TOKEN)) return undefined;
  return [...new Set(tokens)];
}

/**
 * Builds the authorization receipt frozen at issue. An approval addressed to no one establishes no identity, so its
 * record is anonymous: its id stands in for the principal; one whose addressee proved it was them names that person. The requesting application is the `agent` party (the reference
 * server does not know which agent or workflow of the application proposed the action). The `authority` block holds
 * only its required `withdrawal_method` and, for an approval, `valid_from`: the server enforces no bound on what was
 * approved, and an absent bound means "not configured". No `pii_processing`, so the dpv flavor is refused.
 */
export function freezeAuthorizationReceipt(input: AuthorizationReceiptInput): AuthorizationReceiptRecord {
  if (input.escalation) return freezeEscalationReceipt(input, input.escalation);
  const principal = input.principal?.id ?? input.recordId;
  const controller = input.application.id;
  const scopes = scopesOf(input.scope);
  return {
    schema_version: RECEIPT_SCHEMA_VERSION,
    conforms_to: RECEIPT_CONFORMS_TO,
    record_id: input.recordId,
    record_type: 'authorization_record',
    ...(input.principal ? { pii_principal_id: input.principal.id } : { anonymous: true as const }),
    party_identification: [
      input.principal
        ? { party_id: principal, party_name: input.principal.name, party_role: 'principal', party_type: 'natural person' }
        : { party_id: principal, party_name: UNIDENTIFIED_PRINCIPAL, party_role: 'principal' },
      { party_id: controller, party_name: input.application.name, party_role: 'agent', party_type: 'organization', provenance: 'declared' },
      { party_id: PLATFORM_PARTY_ID, party_name: PLATFORM_PARTY_NAME, party_role: 'processor', party_type: 'organization' },
    ],
    authority: {
      withdrawal_method: input.withdrawalMethod,
      ...(input.outcome === 'approved' ? { valid_from: input.decidedAt } : {}),
    },
    event: [
      {
        event_time: input.requestedAt,
        entity_id: controller,
        event_type: 'regular',
        event_state: 'approval requested',
        approval_id: input.approvalId,
      },
      {
        event_time: input.decidedAt,
        entity_id: principal,
        event_type: 'explicit',
        event_state: OUTCOME_STATE[input.outcome],
        approval_id: input.approvalId,
      },
    ],
    extensions: {
      delivery_mode: input.deliveryMode,
      ...(scopes ? { scopes } : {}),
      collection_channel: input.channel,
      captured_at: input.decidedAt,
      recorded_at: input.recordedAt,
      ...(input.authentication ? { authentication: input.authentication } : {}),
    },
  };
}

/**
 * The receipt of an approval that answered an agent's escalation: identified (the grant's principal decided), the
 * agent as `software_agent`, the requesting application as controller. An approval's authority is bounded to the
 * escalated action, exactly as it is enforced: its scope, its action, its value and currency, its jurisdiction,
 * one use (`sequence_bounds.max_uses`), until `valid_until`. A denial or counter-proposal enforces nothing, so it
 * lists no bound.
 */
function freezeEscalationReceipt(
  input: AuthorizationReceiptInput,
  escalation: NonNullable<AuthorizationReceiptInput['escalation']>,
): AuthorizationReceiptRecord {
  const { action } = escalation;
  const approved = input.outcome === 'approved';
  return {
    schema_version: RECEIPT_SCHEMA_VERSION,
    conforms_to: RECEIPT_CONFORMS_TO,
    record_id: input.recordId,
    record_type: 'authorization_record',
    pii_principal_id: escalation.principal.id,
    party_identification: [
      { party_id: escalation.principal.id, party_name: escalation.principal.name, party_role: 'principal', party_type: 'natural person' },
      {
        party_id: escalation.agent.id,
        party_name: escalation.agent.name,
        party_role: 'agent',
        party_type: 'software_agent',
        provenance: 'declared',
      },
      {
        party_id: input.application.id,
        party_name: input.application.name,
        party_role: 'controller',
        party_type: 'organization',
        provenance: 'declared',
      },
      { party_id: PLATFORM_PARTY_ID, party_name: PLATFORM_PARTY_NAME, party_role: 'processor', party_type: 'organization' },
    ],
    authority: {
      withdrawal_method: input.withdrawalMethod,
      ...(approved
        ? {
            scope_bounds: { scopes: [action.scope] },
            action_bounds: { actions: [action.action] },
            ...(action.value !== null ? { value_bounds: { max_per_transaction: action.value, currency: action.currency } } : {}),
            ...(action.jurisdiction !== null ? { jurisdiction_bounds: { allowed: [action.jurisdiction] } } : {}),
            sequence_bounds: { max_uses: 1 },
            valid_from: input.decidedAt,
            valid_until: escalation.useBy,
          }
        : {}),
    },
    event: [
      {
        event_time: input.requestedAt,
        entity_id: escalation.agent.id,
        event_type: 'regular',
        event_state: 'approval requested',
        approval_id: input.approvalId,
      },
      {
        event_time: input.decidedAt,
        entity_id: escalation.principal.id,
        event_type: 'explicit',
        event_state: OUTCOME_STATE[input.outcome],
        approval_id: input.approvalId,
      },
    ],
    extensions: {
      delivery_mode: input.deliveryMode,
      scopes: [action.scope],
      collection_channel: input.channel,
      captured_at: input.decidedAt,
      recorded_at: input.recordedAt,
      ...(input.authentication ? { authentication: input.authentication } : {}),
    },
  };
}
