// The events of `<svc-vouches>`: `svc-vouches-change` (the person vouched for someone, or withdrew a vouch they gave,
// and the service recorded it) and its own `svc-error` (the vouches or scores could not be read, or an action failed).
import type { PersonTrustScore, PersonVouch } from '@svc/schemas';
import type { PersonListErrorDetail } from '../internal/person-list.js';

/** A vouch the person gave or received, as `GET /api/v1/me/vouches` answers it (`PersonVouch` of `@svc/schemas`). */
export type VouchRow = PersonVouch;

/**
 * The person's trust score at one organisation, as `GET /api/v1/me/trust_scores` answers it (`PersonTrustScore` of
 * `@svc/schemas`), keyed in the list by `id`, its `subject_id` (the person's id at that organisation).
 */
export type TrustScoreRow = PersonTrustScore & { id: string };

/** What the person did: `vouch` (for someone new, or the vouch they already gave them) or `revoke` (withdrew one they gave). */
export type VouchChange = 'vouch' | 'revoke';

/** Detail of `svc-vouches-change`: which vouch, what was done, and the vouch as it reads now. */
export interface SvcVouchesChangeDetail {
  vouch_id: string;
  action: VouchChange;
  vouch: VouchRow;
}

/** Fired (bubbles, composed) once the service has recorded a vouch the person gave, or a withdrawal they confirmed. */
export type SvcVouchesChangeEvent = CustomEvent<SvcVouchesChangeDetail>;

/** Detail of an `svc-error` from `<svc-vouches>` itself: `message`, `fatal` (trying again cannot help) and `recoverable_via` (`retry`, `sign_in` or null). */
export interface VouchesErrorDetail extends PersonListErrorDetail {
  /** `unauthorized` (the token was refused), `forbidden` (no `vouches:read`/`:write`, or not their vouch), `not_found`, `invalid` (nobody to vouch for with that id), `network`, `http` or `invalid_configuration`. */
  code: 'unauthorized' | 'forbidden' | 'not_found' | 'invalid' | 'network' | 'http' | 'invalid_configuration';
}

/** Fired (bubbles, composed) by `<svc-vouches>` when the list could not be read or an action failed. */
export type SvcVouchesErrorEvent = CustomEvent<VouchesErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-vouches-change': SvcVouchesChangeEvent;
  }
  interface SvcErrorDetailMap {
    vouches: VouchesErrorDetail;
  }
}
