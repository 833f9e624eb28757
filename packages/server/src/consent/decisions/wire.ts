// The decision as the API returns it: the same shape for every kind, plus the fields a kind adds.
import type { Decision } from '@svc/schemas';
import type { ServerContext } from '../../infra/context.js';
import { kindOf } from './kinds/index.js';
import type { DecisionRow } from './row.js';

/**
 * The id of the record a completed decision made: the consent record of a consent decision, the authorization record
 * of an approval; null while pending, for cancelled and expired decisions, and for approvals completed before the
 * server recorded them.
 */
export function recordIdOf(ctx: ServerContext, row: DecisionRow): string | null {
  if (row.outcome === null || row.completed_at === null) return null;
  return kindOf(row.kind).recordId(ctx, row);
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
    ...(row.addressee_email ? { addressee_email: row.addressee_email } : {}),
    ...(row.home_country ? { home_country: row.home_country } : {}),
    ...kindOf(row.kind).wire?.(ctx, row),
  };
}
