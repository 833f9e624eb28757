// The dpv receipt flavor: the canonical receipt as JSON-LD in terms of the W3C Data Privacy Vocabulary.
import type { ReceiptEvent, ReceiptRecord } from '@svc/schemas';
import { DPV_CONTEXT } from '../vocab/dpv-context.js';

/** Errors rule 11: the dpv flavor of an authorization record without personal-data processing is refused. */
export class DpvNotApplicableError extends Error {
  readonly code = 'dpv_not_applicable';
  constructor(message: string) {
    super(message);
    this.name = 'DpvNotApplicableError';
  }
}

const LEGAL_BASIS: Record<string, string> = {
  consent: 'dpv:Consent',
  legitimate_interest: 'dpv:LegitimateInterest',
  contract: 'dpv:Contract',
  legal_obligation: 'dpv:LegalObligation',
};

const urn = (kind: string, id: string) => `urn:svc:${kind}:${id}`;

/** A purpose's status after the appended events: withdrawn by the person, revoked by someone else, objected, expired. */
function purposeStatus(purposeId: string, basis: string, events: readonly ReceiptEvent[], principal: string): string | undefined {
  if (basis === 'legitimate_interest') {
    return events.some((e) => e.event_state === 'objection recorded' && e.purpose_id === purposeId)
      ? 'dpv:LegitimateInterestObjected'
      : 'dpv:LegitimateInterestNotObjected';
  }
  if (basis !== 'consent') return undefined;
  const withdrawal = events.find(
    (e) => e.event_state === 'consent withdrawn' && (e.purpose_id === undefined || e.purpose_id === purposeId),
  );
  if (withdrawal) return withdrawal.entity_id === principal ? 'dpv:ConsentWithdrawn' : 'dpv:ConsentRevoked';
  if (events.some((e) => e.event_state === 'consent expired')) return 'dpv:ConsentExpired';
  return 'dpv:ConsentGiven';
}

/**
 * `dpv:hasNotice`: the privacy notice, and a `dpv:AINotice` for each agent the record discloses (consent and notice
 * records of a flow that declares agents). One notice is an object, several an array; none, absent.
 */
function noticesOf(receipt: ReceiptRecord): Record<string, unknown> {
  const processing = receipt.pii_processing;
  const disclosures = receipt.record_type === 'authorization_record' ? [] : (receipt.extensions?.agent_disclosures ?? []);
  const notices: Record<string, unknown>[] = [
    ...(processing?.privacy_notice
      ? [
          {
            '@id': processing.privacy_notice.reference,
            '@type': 'dpv:PrivacyNotice',
            'dct:identifier': `sha256:${processing.privacy_notice.sha256}`,
          },
        ]
      : []),
    ...disclosures.map((d) => ({
      '@id': urn('agent', String(d.agent_id)),
      '@type': 'dpv:AINotice',
      'dct:identifier': String(d.agent_id),
      'dct:title': String(d.agent_name ?? d.agent_id),
      ...(typeof d.role === 'string' ? { 'dct:description': d.role } : {}),
      ...(typeof d.disclosed_at === 'string' ? { 'dct:date': d.disclosed_at } : {}),
    })),
  ];
  if (notices.length === 0) return {};
  return { 'dpv:hasNotice': notices.length === 1 ? notices[0] : notices };
}

/**
 * Maps a canonical receipt to JSON-LD with DPV terms: a `dpv:ConsentRecord` with its data subject, controller,
 * processor, notice, the consent status, and each granted purpose with its legal basis and status. The context is
 * embedded. Throws {@link DpvNotApplicableError} for an authorization record without personal-data processing.
 */
export function toDpv(receipt: ReceiptRecord): Record<string, unknown> {
  const processing = receipt.pii_processing;
  if (receipt.record_type === 'authorization_record' && !processing) {
    throw new DpvNotApplicableError(
      'The dpv flavor describes personal-data processing; this authorization record has none. Use the canonical or signed flavor.',
    );
  }
  const principal = receipt.pii_principal_id ?? receipt.record_id;
  const given = receipt.event.find((e) => e.event_state === 'consent given');
  const controller = receipt.party_identification.find((p) => p.party_role === 'controller');
  const processor = receipt.party_identification.find((p) => p.party_role === 'processor');
  const purposes = (processing?.purposes ?? []).map((p) => {
    const status = purposeStatus(p.purpose_id, p.lawful_basis, receipt.event, principal);
    return {
      '@id': urn('purpose', `${receipt.extensions?.consent_flow_id ?? receipt.record_id}:${p.purpose_id}`),
      '@type': 'dpv:Purpose',
      'dct:identifier': p.purpose_id,
      'dct:title': p.purpose,
      'dpv:hasLegalBasis': LEGAL_BASIS[p.lawful_basis] ?? 'dpv:Consent',
      ...(status ? { [p.lawful_basis === 'consent' ? 'dpv:hasConsentStatus' : 'dpv:hasStatus']: status } : {}),
    };
  });
  const consentStatuses = purposes
    .map((p) => p['dpv:hasConsentStatus' as keyof typeof p] as string | undefined)
    .filter((s): s is string => s !== undefined);
  const recordStatus =
    receipt.record_type === 'authorization_record' || receipt.record_type === 'notice_record'
      ? undefined
      : consentStatuses.length === 0 || consentStatuses.includes('dpv:ConsentGiven')
        ? 'dpv:ConsentGiven'
        : consentStatuses.includes('dpv:ConsentExpired')
          ? 'dpv:ConsentExpired'
          : consentStatuses.every((s) => s === 'dpv:ConsentRevoked')
            ? 'dpv:ConsentRevoked'
            : 'dpv:ConsentWithdrawn';
  return {
    '@context': DPV_CONTEXT,
    '@id': urn('record', receipt.record_id),
    '@type': receipt.record_type === undefined || receipt.record_type === 'consent_record' ? 'dpv:ConsentRecord' : 'dpv:Record',
    'dct:identifier': receipt.record_id,
    'dct:conformsTo': [receipt.conforms_to, receipt.schema_version],
    ...(receipt.extensions?.recorded_at ? { 'dct:created': receipt.extensions.recorded_at } : {}),
    ...(receipt.pii_principal_id
      ? { 'dpv:hasDataSubject': { '@id': urn('person', receipt.pii_principal_id), '@type': 'dpv:DataSubject' } }
      : {}),
    ...(controller
      ? {
          'dpv:hasDataController': {
            '@id': urn('party', controller.party_id),
            '@type': 'dpv:DataController',
            'dpv:hasName': controller.party_name,
          },
        }
      : {}),
    ...(processor
      ? {
          'dpv:hasDataProcessor': {
            '@id': urn('party', processor.party_id),
            '@type': 'dpv:DataProcessor',
            'dpv:hasName': processor.party_name,
          },
        }
      : {}),
    ...noticesOf(receipt),
    ...(processing ? { 'dct:language': processing.language } : {}),
    ...(recordStatus ? { 'dpv:hasConsentStatus': recordStatus } : {}),
    ...(given
      ? {
          'dpv:isIndicatedBy': urn(given.entity_id === principal ? 'person' : 'party', given.entity_id),
          'dpv:isIndicatedAtTime': given.event_time,
        }
      : {}),
    'dpv:hasPurpose': purposes,
  };
}
