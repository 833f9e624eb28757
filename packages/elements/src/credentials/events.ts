// The events of `<svc-credentials>`: `svc-credentials-present` (the person presented a credential, sharing the claims
// they chose) and its own `svc-error` (the credentials could not be read, or presenting failed).
import type { CreatedPersonPresentation, PersonCredential, PersonCredentialClaim, PersonPresentation } from '@svc/schemas';
import type { PersonListErrorDetail } from '../internal/person-list.js';

/** One of the person's credentials, as `GET /api/v1/me/credentials` answers it (`PersonCredential` of `@svc/schemas`). */
export type CredentialRow = PersonCredential;

/** One claim of a {@link CredentialRow}: its path, label, value and whether it is always shared. */
export type CredentialClaim = PersonCredentialClaim;

/** What the person presented, as `GET /api/v1/me/presentations` answers it. */
export type PresentationRow = PersonPresentation;

/** A presentation just made: its history row, the SD-JWT presentation and what the service's verifier made of it. */
export type MadePresentation = CreatedPersonPresentation;

/** Detail of `svc-credentials-present`: which credential, to whom, which claims, and the presentation itself. */
export interface SvcCredentialsPresentDetail {
  credential_id: string;
  audience: string;
  /** The paths of the claims shared (the chosen ones and those always shared). */
  disclosed: string[];
  presentation: MadePresentation;
}

/** Fired (bubbles, composed) once the service has made a presentation the person chose. */
export type SvcCredentialsPresentEvent = CustomEvent<SvcCredentialsPresentDetail>;

/** Detail of an `svc-error` from `<svc-credentials>` itself: `message`, `fatal` (trying again cannot help) and `recoverable_via` (`retry`, `sign_in` or null). */
export interface CredentialsErrorDetail extends PersonListErrorDetail {
  /** `unauthorized` (the token was refused), `forbidden` (no `credentials:read`/`:write`), `invalid` (the service refused the presentation), `network`, `http` or `invalid_configuration`. */
  code: 'unauthorized' | 'forbidden' | 'invalid' | 'network' | 'http' | 'invalid_configuration';
}

/** Fired (bubbles, composed) by `<svc-credentials>` when the credentials could not be read or presenting failed. */
export type SvcCredentialsErrorEvent = CustomEvent<CredentialsErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-credentials-present': SvcCredentialsPresentEvent;
  }
  interface SvcErrorDetailMap {
    credentials: CredentialsErrorDetail;
  }
}
