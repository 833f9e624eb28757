// The JSON-LD context of the dpv receipt flavor, shipped with the package and embedded in every document, so a
// JSON-LD processor needs no network. Terms come from the W3C Data Privacy Vocabulary (DPV 2.3, namespace
// https://w3id.org/dpv#) and Dublin Core terms.

/** The DPV namespace. */
export const DPV_NAMESPACE = 'https://w3id.org/dpv#';

/** The context object: prefixes plus the coercions the document needs (IRIs and date-times). */
export const DPV_CONTEXT = {
  dpv: DPV_NAMESPACE,
  dct: 'http://purl.org/dc/terms/',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  'dpv:hasConsentStatus': { '@type': '@id' },
  'dpv:hasLegalBasis': { '@type': '@id' },
  'dpv:hasStatus': { '@type': '@id' },
  'dpv:isIndicatedBy': { '@type': '@id' },
  'dpv:isIndicatedAtTime': { '@type': 'xsd:dateTime' },
  'dct:created': { '@type': 'xsd:dateTime' },
  'dct:valid': { '@type': 'xsd:dateTime' },
  'dct:date': { '@type': 'xsd:dateTime' },
} as const;

/** Every DPV term the dpv flavor uses (a test checks each against the DPV 2.3 Turtle). */
export const DPV_TERMS = [
  'ConsentRecord',
  'Record',
  'DataSubject',
  'DataController',
  'DataProcessor',
  'Purpose',
  'PrivacyNotice',
  'AINotice',
  'Consent',
  'LegitimateInterest',
  'Contract',
  'LegalObligation',
  'ConsentGiven',
  'ConsentWithdrawn',
  'ConsentRevoked',
  'ConsentExpired',
  'LegitimateInterestNotObjected',
  'LegitimateInterestObjected',
  'hasDataSubject',
  'hasDataController',
  'hasDataProcessor',
  'hasPurpose',
  'hasLegalBasis',
  'hasConsentStatus',
  'hasStatus',
  'hasNotice',
  'hasName',
  'isIndicatedBy',
  'isIndicatedAtTime',
] as const;
