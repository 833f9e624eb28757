// The canonical receipt (schema version svc-cr/2.13): frozen at issue, with the events that happen later appended
// when it is read. A field the platform cannot state truthfully is left out.
import {
  type AnswerAuthentication,
  RECEIPT_CONFORMS_TO,
  RECEIPT_SCHEMA_VERSION,
  type CollectionChannel,
  type ConsentReceiptRecord,
  type EventChannel,
  type FlowConfig,
  type ReceiptEvent,
} from '@svc/schemas';
import type { IssuedOutcome } from '../records/attestation.js';
import { noticeHash, noticeReference } from './notice.js';

/** The platform's party id: the processor that records and proves decisions. */
export const PLATFORM_PARTY_ID = 'svc-reference-server';
export const PLATFORM_PARTY_NAME = 'svc reference server';

/** Human labels of the collection channels (`pii_processing.collection_method`). */
export const COLLECTION_METHODS: Record<CollectionChannel, string> = {
  hosted: 'Hosted decision page of the service',
  embedded: "Decision page of the service embedded in the organisation's site",
  embedded_field: "Consent field rendered by the service in the organisation's form",
  embedded_field_browser: "Consent field rendered by the service in the organisation's form, committed by the browser",
  form_capture: "The organisation's own form, captured by the service's snippet",
  form_capture_browser: "The organisation's own form, captured by the service's snippet and committed by the browser",
  form_platform_webhook: "A hosted form platform's signed webhook",
  controller_attested: 'Attested by the organisation through the Record API',
  imported: 'Imported by the organisation from records it kept before',
};

/** What a receipt is frozen from. */
export interface FrozenReceiptInput {
  recordId: string;
  /** The principal: the person, or for an anonymous record the record id standing in for them. */
  personId: string;
  /** No identity was established: `anonymous: true` and no `pii_principal_id` (the record id stands in). */
  anonymous?: boolean | undefined;
  application: { id: string; name: string; region: string };
  flow: { id: string; title: string; description: string | null; config: FlowConfig };
  outcomes: readonly IssuedOutcome[];
  channel: CollectionChannel;
  locale: string;
  capturedAt: string;
  recordedAt: string;
  expiresAt: string | null;
  wordingVerdict: 'match' | 'wording_drift' | null;
  supersedesRecordId?: string | null | undefined;
  deliveryMode?: 'redirect' | 'embed' | 'popup' | 'link' | undefined;
  /** What the service itself saw of how the decision was collected (the informed path's comprehension check). */
  collectionMechanism?: string | undefined;
  /** How the person proved it was them on the hosted page, and when. */
  authentication?: AnswerAuthentication | undefined;
  presentationAttested?: boolean | undefined;
  renderingEvidence?: Record<string, unknown> | undefined;
  collectionPlatform?: string | undefined;
  /** The agents the flow version discloses (`extensions.agent_disclosures`), when it declares any. */
  agentDisclosures?: readonly Record<string, unknown>[] | undefined;
  /** The signature the consent was captured with (`extensions.signature_evidence`): where to find it, and its digest. */
  signatureEvidence?: { pointer: string; digest: string } | undefined;
  /** The country of the cell that stores the record: the person's home (`storage_locations`). */
  storedIn: string;
  /** The credential-free page that withdraws this record (`withdrawal_method`). */
  withdrawalMethod?: string | undefined;
}

/** Whether a purpose counts as granted on the receipt: consent given, a legitimate interest not objected to, or notice-only. */
const countsAsGranted = (o: IssuedOutcome) => o.outcome === 'granted' || o.outcome === 'noticed';

/** Builds the receipt frozen at issue: the record, its granted purposes with frozen labels, and the event prefix. */
export function freezeReceipt(input: FrozenReceiptInput): ConsentReceiptRecord {
  const { flow, application } = input;
  const labels = new Map(flow.config.purposes.map((p) => [p.key, p.label]));
  const hash = noticeHash(flow);
  const controller = application.id;
  const events: ReceiptEvent[] = [];
  // Imported evidence predates the service: the platform saw neither the notice nor the request.
  if (input.channel !== 'imported') {
    if (flow.config.steps[0]?.type === 'disclosure') {
      events.push({ event_time: input.capturedAt, entity_id: controller, event_type: 'regular', event_state: 'notice shown' });
    }
    events.push({ event_time: input.capturedAt, entity_id: controller, event_type: 'regular', event_state: 'consent requested' });
  }
  events.push({
    event_time: input.capturedAt,
    entity_id: input.anonymous ? input.recordId : input.personId,
    event_type: 'explicit',
    event_state: 'consent given',
    ...(input.expiresAt && flow.config.consent_duration ? { validity_duration: flow.config.consent_duration } : {}),
    ...(input.supersedesRecordId ? { record_reference: input.supersedesRecordId } : {}),
  });
  const storage = { storage_locations: [input.storedIn] };
  return {
    schema_version: RECEIPT_SCHEMA_VERSION,
    conforms_to: RECEIPT_CONFORMS_TO,
    record_id: input.recordId,
    record_type: 'consent_record',
    ...(input.anonymous ? { anonymous: true as const } : { pii_principal_id: input.personId }),
    pii_processing: {
      language: input.locale,
      jurisdiction: 'unspecified',
      purposes: input.outcomes
        .filter(countsAsGranted)
        .map((o) => ({ purpose_id: o.key, purpose: labels.get(o.key) ?? o.key, lawful_basis: o.basis })),
      privacy_notice: { reference: noticeReference(flow.id, hash), sha256: hash },
      collection_method: COLLECTION_METHODS[input.channel],
      ...storage,
      ...(input.withdrawalMethod ? { withdrawal_method: input.withdrawalMethod } : {}),
    },
    party_identification: [
      { party_id: controller, party_name: application.name, party_role: 'controller', party_type: 'organization', provenance: 'declared' },
      { party_id: PLATFORM_PARTY_ID, party_name: PLATFORM_PARTY_NAME, party_role: 'processor', party_type: 'organization' },
    ],
    event: events,
    extensions: {
      consent_flow_id: flow.id,
      collection_channel: input.channel,
      captured_at: input.capturedAt,
      recorded_at: input.recordedAt,
      ...(input.wordingVerdict ? { wording_drift: input.wordingVerdict === 'wording_drift' } : {}),
      ...(input.deliveryMode ? { delivery_mode: input.deliveryMode } : {}),
      ...(input.collectionMechanism ? { collection_mechanism: input.collectionMechanism } : {}),
      ...(input.authentication ? { authentication: { ...input.authentication } } : {}),
      ...(input.presentationAttested !== undefined ? { presentation_attested: input.presentationAttested } : {}),
      ...(input.renderingEvidence ? { rendering_evidence: input.renderingEvidence } : {}),
      ...(input.collectionPlatform ? { collection_platform: input.collectionPlatform } : {}),
      ...(input.agentDisclosures?.length ? { agent_disclosures: [...input.agentDisclosures] } : {}),
      ...(input.signatureEvidence ? { signature_evidence: { ...input.signatureEvidence } } : {}),
    },
  };
}

/** A withdrawal or objection recorded after issue. */
export interface WithdrawalFact {
  purpose_key: string;
  outcome: 'revoked' | 'objected';
  withdrawn_at: string;
  event_channel: EventChannel;
  /** Whether the withdrawal named its purposes (its events carry `purpose_id`). */
  scoped: boolean;
}

/** Who acts when a withdrawal arrives through a channel: the person, the organisation, or the platform. */
function actorOf(channel: EventChannel, principal: string, controller: string): { entity_id: string; event_type: 'explicit' | 'regular' } {
  if (channel === 'organisation' || channel === 'mailing_tool') return { entity_id: controller, event_type: 'regular' };
  if (channel === 'end_of_term' || channel === 'subject_sweep') return { entity_id: PLATFORM_PARTY_ID, event_type: 'regular' };
  return { entity_id: principal, event_type: 'explicit' };
}

/**
 * The receipt as read at `now`: the frozen record with withdrawal and objection events appended (scoped ones carry
 * `purpose_id`; a withdrawal of everything is one event), and `consent expired` at the end of the term when consent
 * was still in force then, with the platform processor as actor. The frozen part is never changed.
 */
export function renderReceipt(
  frozen: ConsentReceiptRecord,
  facts: { withdrawals: readonly WithdrawalFact[]; expiresAt: string | null; grantedConsentKeys: readonly string[]; now: string },
): ConsentReceiptRecord {
  const principal = frozen.pii_principal_id ?? frozen.record_id;
  const controller = frozen.party_identification.find((p) => p.party_role === 'controller')?.party_id ?? PLATFORM_PARTY_ID;
  const appended: ReceiptEvent[] = [];
  const unscopedSeen = new Set<string>();
  for (const w of facts.withdrawals) {
    const actor = actorOf(w.event_channel, principal, controller);
    if (w.outcome === 'objected') {
      appended.push({
        event_time: w.withdrawn_at,
        ...actor,
        event_state: 'objection recorded',
        purpose_id: w.purpose_key,
        event_channel: w.event_channel,
      });
    } else if (w.scoped) {
      appended.push({
        event_time: w.withdrawn_at,
        ...actor,
        event_state: 'consent withdrawn',
        purpose_id: w.purpose_key,
        event_channel: w.event_channel,
      });
    } else {
      const group = `${w.withdrawn_at}|${w.event_channel}`;
      if (unscopedSeen.has(group)) continue;
      unscopedSeen.add(group);
      appended.push({ event_time: w.withdrawn_at, ...actor, event_state: 'consent withdrawn', event_channel: w.event_channel });
    }
  }
  if (facts.expiresAt && facts.expiresAt <= facts.now) {
    const withdrawnBefore = new Set(
      facts.withdrawals.filter((w) => w.outcome === 'revoked' && w.withdrawn_at < facts.expiresAt!).map((w) => w.purpose_key),
    );
    if (facts.grantedConsentKeys.some((k) => !withdrawnBefore.has(k))) {
      appended.push({ event_time: facts.expiresAt, entity_id: PLATFORM_PARTY_ID, event_type: 'regular', event_state: 'consent expired' });
    }
  }
  appended.sort((a, b) => (a.event_time < b.event_time ? -1 : a.event_time > b.event_time ? 1 : 0));
  return { ...frozen, event: [...frozen.event, ...appended] };
}
