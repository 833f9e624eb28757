// Consent status: one person's standing consent with one application, from their latest record per flow.
import type { ConsentStatus, ConsentStatusPurpose, OverallConsentStatus, PurposeConsentStatus } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { getActiveFlowVersion, getFlowVersion } from '../../platform/flows/store.js';
import { latestRecordsPerFlow, type StatusRecord } from './read.js';
import { recordState } from './rows.js';

const POSITIVE = new Set<PurposeConsentStatus>(['granted', 'noticed']);
const NEGATIVE = new Set<PurposeConsentStatus>(['declined', 'revoked', 'expired', 'objected']);

function purposeRows(ctx: ServerContext, record: StatusRecord, now: string): (ConsentStatusPurpose & { decided: boolean })[] {
  const { purposes, status } = recordState(record.issued, record.withdrawals, record.expires_at, now);
  const terms = getFlowVersion(ctx, record.flow_id, record.flow_version);
  const byKey = new Map(terms?.config.purposes.map((p) => [p.key, p]));
  return purposes.map((p) => {
    const purpose = byKey.get(p.key);
    // Purposes the person decides: consent, and legitimate interests they may object to. Notice-only ones are informational.
    const decided = purpose
      ? purpose.basis === 'consent' || (purpose.basis === 'legitimate_interest' && purpose.mechanism === 'opt_out')
      : p.basis === 'consent';
    const value: PurposeConsentStatus = p.outcome === 'granted' && status === 'expired' ? 'expired' : p.outcome;
    const inForce = value === 'granted';
    return {
      purpose: p.key,
      status: value,
      granted_at: p.outcome === 'granted' || p.outcome === 'revoked' ? record.captured_at : null,
      expires_at: inForce || value === 'expired' ? record.expires_at : null,
      granted_by: p.outcome === 'granted' || p.outcome === 'revoked' ? record.person_id : null,
      flow_id: record.flow_id,
      record_id: record.id,
      decided,
    };
  });
}

/** Overall status over the purposes the person decides: all positive `granted`, all negative `declined`, a mix `partial`, none `pending`. */
export function overallStatus(statuses: readonly PurposeConsentStatus[]): OverallConsentStatus {
  const decided = statuses.filter((s) => s !== 'pending');
  if (decided.length === 0) return 'pending';
  if (decided.length === statuses.length && decided.every((s) => POSITIVE.has(s))) return 'granted';
  if (decided.every((s) => NEGATIVE.has(s)) && decided.length === statuses.length) return 'declined';
  return 'partial';
}

/**
 * The consent status of a person with an application. Each purpose comes from the person's latest record (by capture
 * time) of the flow that asks it; when `flowId` is given only that flow counts, and its purposes the person has no
 * record for are `pending`.
 */
export function consentStatusOf(
  ctx: ServerContext,
  applicationId: string,
  person: { id: string; email: string },
  options: { flowId?: string | undefined } = {},
): ConsentStatus {
  const now = isoNow(ctx.clock);
  let records = latestRecordsPerFlow(ctx, applicationId, person.id);
  if (options.flowId) records = records.filter((r) => r.flow_id === options.flowId);
  // Newest record first, so a purpose key asked by two flows shows its most recent decision.
  records.sort((a, b) => (a.captured_at < b.captured_at ? 1 : -1));
  const rows = new Map<string, ConsentStatusPurpose & { decided: boolean }>();
  for (const record of records) for (const row of purposeRows(ctx, record, now)) if (!rows.has(row.purpose)) rows.set(row.purpose, row);
  if (options.flowId) {
    const flow = getActiveFlowVersion(ctx, options.flowId);
    for (const p of flow?.config.purposes ?? []) {
      if (rows.has(p.key)) continue;
      const decided = p.basis === 'consent' || (p.basis === 'legitimate_interest' && p.mechanism === 'opt_out');
      rows.set(p.key, {
        purpose: p.key,
        status: 'pending',
        granted_at: null,
        expires_at: null,
        granted_by: null,
        flow_id: options.flowId,
        record_id: null,
        decided,
      });
    }
  }
  const all = [...rows.values()];
  const decidedStatuses = all.filter((r) => r.decided).map((r) => r.status);
  const latest = records[0];
  return {
    user_id: person.id,
    application_id: applicationId,
    overall_status: decidedStatuses.length ? overallStatus(decidedStatuses) : records.length ? 'granted' : 'pending',
    purposes: all.map(({ decided: _d, ...row }) => row),
    guardian_consent: null,
    // An anonymous principal (a record standing in for nobody known) has no email.
    subject_ref: { email: person.email || null, external_id: latest?.external_id ?? null },
  };
}
