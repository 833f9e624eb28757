// The authorization receipt of a grant's activation: the principal, the delegate (an agent as `software_agent`),
// each bound exactly when enforced, the grant's content hash with the key that signs receipts, the chain root of a
// sub-delegation and the agent's capability manifest digest. Frozen at activation; the lifecycle (exercised,
// suspended, resumed, revoked, expired) is appended when it is read, as the spec's state table says.
import {
  RECEIPT_CONFORMS_TO,
  RECEIPT_SCHEMA_VERSION,
  type AuthorizationReceiptRecord,
  type DelegationBounds,
  type ReceiptEvent,
} from '@svc/schemas';
import { grantCapabilityManifestDigest } from '../agents/manifest.js';
import type { AgentIdentityRecord } from '../agents/store.js';
import { jcsHash } from '../../consent/audit/hash.js';
import { findApplication } from '../../platform/application-store.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { PLATFORM_PARTY_ID, PLATFORM_PARTY_NAME } from '../../consent/receipts/canonical.js';

/** The grant terms a receipt and its content hash are made of. */
export interface GrantContent {
  id: string;
  principal_id: string;
  delegate_id: string;
  delegate_type: 'person' | 'agent';
  delegation_type: string;
  delegated_scopes: string[];
  allow_sub_delegation: boolean;
  max_actions_per_day: number | null;
  expires_at: string | null;
  bounds: DelegationBounds;
  parent_grant_id: string | null;
  delegation_chain_root: string;
  created_at: string;
}

/**
 * `sha256:<hex>` over the RFC 8785 JSON of the grant's terms: what `GET /api/v1/delegations/{id}` answers for these
 * fields, so anyone holding the grant can recompute it.
 */
export function grantContentHash(grant: GrantContent): string {
  const {
    id,
    principal_id,
    delegate_id,
    delegate_type,
    delegation_type,
    delegated_scopes,
    allow_sub_delegation,
    max_actions_per_day,
    expires_at,
    bounds,
    parent_grant_id,
    delegation_chain_root,
    created_at,
  } = grant;
  return `sha256:${jcsHash({
    id,
    principal_id,
    delegate_id,
    delegate_type,
    delegation_type,
    delegated_scopes: [...delegated_scopes].sort(),
    allow_sub_delegation,
    max_actions_per_day,
    expires_at,
    bounds,
    parent_grant_id,
    delegation_chain_root,
    created_at,
  })}`;
}

/** The receipt's `authority`: each bound exactly when the grant configures it (the scope bound always). */
export function authorityOf(grant: GrantContent, withdrawalMethod: string): AuthorizationReceiptRecord['authority'] {
  const { bounds } = grant;
  return {
    withdrawal_method: withdrawalMethod,
    scope_bounds: { scopes: [...grant.delegated_scopes].sort() },
    ...(bounds.actions ? { action_bounds: { actions: bounds.actions } } : {}),
    ...(bounds.value ? { value_bounds: { max_per_transaction: bounds.value.max_per_transaction, currency: bounds.value.currency } } : {}),
    ...(bounds.time ? { time_bounds: { ...bounds.time } } : {}),
    ...(bounds.escalation ? { escalation_bounds: { allowed: bounds.escalation.allowed } } : {}),
    ...(bounds.reputation ? { reputation_bounds: { min_trust_score: bounds.reputation.min_trust_score } } : {}),
    ...(bounds.jurisdiction ? { jurisdiction_bounds: { allowed: bounds.jurisdiction.allowed } } : {}),
    ...(grant.max_actions_per_day !== null ? { sequence_bounds: { max_actions_per_day: grant.max_actions_per_day } } : {}),
    valid_from: grant.created_at,
    ...(validUntil(grant) ? { valid_until: validUntil(grant)! } : {}),
  };
}

/** Where the grant's authority ends: the earlier of its expiry and its time bound's close, or undefined. */
function validUntil(grant: GrantContent): string | undefined {
  const ends = [grant.expires_at, grant.bounds.time?.not_after].filter((x): x is string => typeof x === 'string').map((x) => Date.parse(x));
  return ends.length ? new Date(Math.min(...ends)).toISOString() : undefined;
}

/** The credential-free page that says how to revoke a grant (`authority.withdrawal_method`). */
export function revocationPageOf(ctx: ServerContext, recordId: string): string {
  return `${ctx.trustUrl}/authorization_receipts/${recordId}/withdraw`;
}

function personEmail(ctx: ServerContext, personId: string): string {
  return (
    (stmt<[string], string>(ctx.db, 'SELECT email FROM persons WHERE id = ?').pluck().get(personId) as unknown as string | undefined) ??
    personId
  );
}

/** Freezes the receipt of a grant's activation. */
export function freezeGrantReceipt(
  ctx: ServerContext,
  input: { recordId: string; grant: GrantContent; applicationId: string; agent: AgentIdentityRecord | undefined; recordedAt: string },
): AuthorizationReceiptRecord {
  const { grant, agent } = input;
  const application = findApplication(ctx, input.applicationId);
  const delegate = agent
    ? {
        party_id: agent.id,
        party_name: agent.display_name,
        party_role: 'agent' as const,
        party_type: 'software_agent' as const,
        provenance: 'declared' as const,
      }
    : {
        party_id: grant.delegate_id,
        party_name: personEmail(ctx, grant.delegate_id),
        party_role: 'agent' as const,
        party_type: 'natural person' as const,
      };
  const events: ReceiptEvent[] = [
    { event_time: grant.created_at, entity_id: grant.principal_id, event_type: 'explicit', event_state: 'authority requested' },
    {
      event_time: grant.created_at,
      entity_id: grant.principal_id,
      event_type: 'explicit',
      event_state: 'authority granted',
      ...(grant.expires_at ? { validity_duration: isoDurationBetween(grant.created_at, grant.expires_at) } : {}),
    },
  ];
  return {
    schema_version: RECEIPT_SCHEMA_VERSION,
    conforms_to: RECEIPT_CONFORMS_TO,
    record_id: input.recordId,
    record_type: 'authorization_record',
    pii_principal_id: grant.principal_id,
    party_identification: [
      {
        party_id: grant.principal_id,
        party_name: personEmail(ctx, grant.principal_id),
        party_role: 'principal',
        party_type: 'natural person',
      },
      delegate,
      {
        party_id: input.applicationId,
        party_name: application?.name ?? input.applicationId,
        party_role: 'controller',
        party_type: 'organization',
        provenance: 'declared',
      },
      { party_id: PLATFORM_PARTY_ID, party_name: PLATFORM_PARTY_NAME, party_role: 'processor', party_type: 'organization' },
    ],
    authority: authorityOf(grant, revocationPageOf(ctx, input.recordId)),
    event: events,
    extensions: {
      scopes: [...grant.delegated_scopes].sort(),
      grant_integrity: { content_hash: grantContentHash(grant), key_versions: { receipt_signing_key: ctx.keys.kid } },
      ...(grant.parent_grant_id ? { delegation_chain_root: grant.delegation_chain_root } : {}),
      ...(agent ? { capability_manifest: grantCapabilityManifestDigest(ctx, agent, grant.delegated_scopes) } : {}),
      captured_at: grant.created_at,
      recorded_at: input.recordedAt,
    },
  };
}

/** An ISO 8601 duration in whole seconds (`PT3600S`), as `validity_duration` carries it. */
function isoDurationBetween(from: string, to: string): string {
  return `PT${Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000))}S`;
}

/**
 * The lifecycle rows appended to a grant's receipt when it is read: `authority exercised` aggregated per UTC day
 * (`occurrences`, at the day's last action), each suspension, resumption and revocation, and `authority expired` once
 * `expires_at` passed, unless the grant was revoked before (suppressed after revocation). Sorted by time.
 */
export function lifecycleEvents(ctx: ServerContext, grantId: string, now: number): ReceiptEvent[] {
  const grant = stmt<
    [string],
    { delegate_id: string; principal_id: string; expires_at: string | null; revoked_at: string | null; application_id: string }
  >(ctx.db, 'SELECT delegate_id, principal_id, expires_at, revoked_at, application_id FROM delegation_grants WHERE id = ?').get(grantId);
  if (!grant) return [];
  const exercised = stmt<[string], { at: string; n: number }>(
    ctx.db,
    "SELECT MAX(at) AS at, COUNT(*) AS n FROM authority_actions WHERE grant_id = ? AND outcome = 'allowed' GROUP BY day ORDER BY day",
  ).all(grantId);
  const changes = stmt<[string], { state: 'suspended' | 'resumed' | 'revoked'; entity_id: string; at: string }>(
    ctx.db,
    'SELECT state, entity_id, at FROM delegation_grant_events WHERE grant_id = ? ORDER BY seq',
  ).all(grantId);
  const rows: ReceiptEvent[] = [
    ...exercised.map(
      (e): ReceiptEvent => ({
        event_time: e.at,
        entity_id: grant.delegate_id,
        event_type: 'regular',
        event_state: 'authority exercised',
        occurrences: e.n,
      }),
    ),
    ...changes.map(
      (c): ReceiptEvent => ({ event_time: c.at, entity_id: c.entity_id, event_type: 'explicit', event_state: `authority ${c.state}` }),
    ),
  ];
  const expiredBeforeRevocation =
    grant.expires_at !== null &&
    Date.parse(grant.expires_at) <= now &&
    (grant.revoked_at === null || Date.parse(grant.revoked_at) > Date.parse(grant.expires_at));
  if (expiredBeforeRevocation) {
    rows.push({ event_time: grant.expires_at!, entity_id: PLATFORM_PARTY_ID, event_type: 'regular', event_state: 'authority expired' });
  }
  return rows.sort((a, b) => Date.parse(a.event_time) - Date.parse(b.event_time));
}
