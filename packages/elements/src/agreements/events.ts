// The events of `<svc-agreements>`: `svc-agreements-change` (the person signed or declined an agreement, or signed or
// left a collaboration, and the service recorded it) and its own `svc-error` (the list could not be read, or an
// action failed).
import type { PersonAgreement, PersonCollaboration } from '@svc/schemas';
import type { PersonListErrorDetail } from '../internal/person-list.js';

/** One agreement the person is a party of, as `GET /api/v1/me/agreements` answers it. */
export type AgreementRow = PersonAgreement;
/** One collaboration the person takes part in, as `GET /api/v1/me/collaborations` answers it. */
export type CollaborationRow = PersonCollaboration;

/** What the person did: `sign` or `decline` an agreement; `sign` (join) or `leave` a collaboration. */
export type AgreementsAction = 'sign' | 'decline' | 'leave';

/** Detail of `svc-agreements-change`: what was acted on, what was done, and the thing as it reads now. */
export interface SvcAgreementsChangeDetail {
  /** `agreement` or `collaboration`. */
  kind: 'agreement' | 'collaboration';
  /** The agreement's or the collaboration's id. */
  id: string;
  action: AgreementsAction;
  /** The agreement as the service answered after the change (for `kind: agreement`). */
  agreement?: AgreementRow;
  /** The collaboration as the service answered after the change (for `kind: collaboration`). */
  collaboration?: CollaborationRow;
}

/** Fired (bubbles, composed) once the service has recorded an action the person confirmed. */
export type SvcAgreementsChangeEvent = CustomEvent<SvcAgreementsChangeDetail>;

/** Detail of an `svc-error` from `<svc-agreements>` itself: `code` `unauthorized`, `forbidden` (no `agreements:read`/`agreements:write`), `network`, `http` or `invalid_configuration`. */
export type AgreementsErrorDetail = PersonListErrorDetail;

/** Fired (bubbles, composed) by `<svc-agreements>` when the list could not be read or an action failed. */
export type SvcAgreementsErrorEvent = CustomEvent<AgreementsErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-agreements-change': SvcAgreementsChangeEvent;
  }
  interface SvcErrorDetailMap {
    agreements: AgreementsErrorDetail;
  }
}
