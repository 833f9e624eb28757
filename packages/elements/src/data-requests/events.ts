// The events of `<svc-data-requests>`: `svc-data-requests-file` (the person filed a request, and the service received
// it) and its own `svc-error` (the requests could not be read, or filing failed).
import type { DsarType, PersonDataRequest, RequestableOrganisation } from '@svc/schemas';
import type { PersonListErrorDetail } from '../internal/person-list.js';

/** One of the person's data requests, as `GET /api/v1/me/data_requests` answers it (`PersonDataRequest` of `@svc/schemas`). */
export type DataRequestRow = PersonDataRequest;

/** An organisation the person may file a request with. */
export type DataRequestOrganisation = RequestableOrganisation;

/** What a request asks for: `access`, `erasure`, `portability` or `rectification`. */
export type DataRequestType = DsarType;

/** Detail of `svc-data-requests-file`: the request as the service received it. */
export interface SvcDataRequestsFileDetail {
  data_request: DataRequestRow;
}

/** Fired (bubbles, composed) once the service has received a request the person confirmed. */
export type SvcDataRequestsFileEvent = CustomEvent<SvcDataRequestsFileDetail>;

/** Detail of an `svc-error` from `<svc-data-requests>` itself: `message`, `fatal` (trying again cannot help) and `recoverable_via` (`retry`, `sign_in` or null). */
export interface DataRequestsErrorDetail extends PersonListErrorDetail {
  /** `unauthorized` (the token was refused), `forbidden` (no `data_requests:read`/`:write`), `not_found`, `invalid`, `network`, `http` or `invalid_configuration`. */
  code: 'unauthorized' | 'forbidden' | 'not_found' | 'invalid' | 'network' | 'http' | 'invalid_configuration';
}

/** Fired (bubbles, composed) by `<svc-data-requests>` when the requests could not be read or filing failed. */
export type SvcDataRequestsErrorEvent = CustomEvent<DataRequestsErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-data-requests-file': SvcDataRequestsFileEvent;
  }
  interface SvcErrorDetailMap {
    'data-requests': DataRequestsErrorDetail;
  }
}
