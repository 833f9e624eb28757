// The events of `<svc-data-offers>`: `svc-data-offers-answer` (the person accepted or declined an organisation's
// terms, or revoked a licence over their data, and the service recorded it) and its own `svc-error`.
import type { PersonDataLicense, PersonDataOffer } from '@svc/schemas';
import type { PersonListErrorDetail } from '../internal/person-list.js';

/** One of the person's data offers, as `GET /api/v1/me/data_offers` answers it (`PersonDataOffer` of `@svc/schemas`). */
export type DataOfferRow = PersonDataOffer;

/** One licence over the person's data, as `GET /api/v1/me/data_licenses` answers it (`PersonDataLicense` of `@svc/schemas`). */
export type DataLicenseRow = PersonDataLicense;

/** What the person did: accepted or declined an offer's terms, or revoked a licence. */
export type DataDealAnswer = 'accept' | 'decline' | 'revoke';

/** Detail of `svc-data-offers-answer`: the answer, and the offer or licence as the service answered after it. */
export interface SvcDataOffersAnswerDetail {
  action: DataDealAnswer;
  /** The offer's id (accept, decline) or the licence's (revoke). */
  id: string;
  /** The offer after an accept or decline. */
  data_offer?: DataOfferRow;
  /** The licence after a revoke. */
  data_license?: DataLicenseRow;
}

/** Fired (bubbles, composed) once the service has recorded the person's answer. */
export type SvcDataOffersAnswerEvent = CustomEvent<SvcDataOffersAnswerDetail>;

/** Detail of an `svc-error` from `<svc-data-offers>` itself: `code` `unauthorized`, `forbidden` (no `data_offers:read`/`data_offers:write`), `network`, `http` or `invalid_configuration`. */
export type DataOffersErrorDetail = PersonListErrorDetail;

/** Fired (bubbles, composed) by `<svc-data-offers>` when the list could not be read or an answer failed. */
export type SvcDataOffersErrorEvent = CustomEvent<DataOffersErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-data-offers-answer': SvcDataOffersAnswerEvent;
  }
  interface SvcErrorDetailMap {
    'data-offers': DataOffersErrorDetail;
  }
}
