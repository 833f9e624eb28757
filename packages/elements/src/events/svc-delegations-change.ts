// The events of `<svc-delegations>`: `svc-delegations-change` (the person made a grant, or suspended, resumed or
// revoked one they made, and the service recorded it) and its own `svc-error` (the grants could not be read, or a change failed).
import type { PersonDelegation } from '@svc/schemas';
import type { PersonListErrorDetail } from '../internal/person-list.js';

/** One grant the person made, as `GET /api/v1/me/delegations` answers it (`PersonDelegation` of `@svc/schemas`). */
export type DelegationRow = PersonDelegation;

/** What the person did to a grant. */
export type DelegationChange = 'suspend' | 'resume' | 'revoke';

/** What the person did: made a grant, or changed one. */
export type DelegationAction = DelegationChange | 'create';

/** Detail of `svc-delegations-change`: which grant, what was done, and the grant as it reads now. */
export interface SvcDelegationsChangeDetail {
  /** The grant's id. */
  delegation_id: string;
  /** `create` (a new grant), `suspend`, `resume` or `revoke`. */
  action: DelegationAction;
  /** The grant as the service answered after the change (or made it). */
  delegation: DelegationRow;
}

/** Fired (bubbles, composed) once the service has recorded a change the person asked for (and confirmed, to make or revoke a grant). */
export type SvcDelegationsChangeEvent = CustomEvent<SvcDelegationsChangeDetail>;

/** Detail of an `svc-error` from `<svc-delegations>` itself: `code` `unauthorized`, `forbidden` (no `delegations:read`/`delegations:write`), `network`, `http` or `invalid_configuration`. */
export type DelegationsErrorDetail = PersonListErrorDetail;

/** Fired (bubbles, composed) by `<svc-delegations>` when the grants could not be read or a change failed. */
export type SvcDelegationsErrorEvent = CustomEvent<DelegationsErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-delegations-change': SvcDelegationsChangeEvent;
  }
  interface SvcErrorDetailMap {
    delegations: DelegationsErrorDetail;
  }
}
