// The events of `<svc-applications>`: `svc-applications-change` (an allowed origin was added or removed, an API token
// was created, rotated or revoked, and the service recorded it) and its own `svc-error`. No detail ever carries a
// token's value.
import type { AllowedOrigin, ApiToken, Application, OAuthClient } from '@svc/schemas';
import type { PersonListErrorDetail } from '../internal/person-list.js';

/** An application as `GET /api/v1/applications` answers it (`Application` of `@svc/schemas`), its publishable keys with it. */
export type ApplicationRow = Application;

/** An allowed origin of an application, as `GET /api/v1/applications/{id}/allowed_origins` answers it. */
export type AllowedOriginRow = AllowedOrigin;

/** An OAuth client of an application, as `GET /api/v1/applications/{id}/oauth_clients` answers it (read-only here). */
export type OAuthClientRow = OAuthClient;

/** An API token of the account as `GET /api/v1/api_tokens` answers it: never its value. */
export type ApiTokenRow = Omit<ApiToken, 'token'>;

/** What was done: to an allowed origin (`add`, `remove`) or to an API token (`create`, `rotate`, `revoke`). */
export type ApplicationsChange = 'add' | 'remove' | 'create' | 'rotate' | 'revoke';

/** Detail of `svc-applications-change`: what changed, by id; never a token's value. */
export interface SvcApplicationsChangeDetail {
  action: ApplicationsChange;
  /** The application whose allowed origin changed (`add`, `remove`). */
  application_id?: string;
  /** The allowed origin added or removed, as the service wrote it. */
  origin?: string;
  /** The API token created, rotated or revoked. */
  api_token_id?: string;
  /** `active` (added, created, rotated) or `removed` (removed, revoked). */
  status: 'active' | 'removed';
}

/** Fired (bubbles, composed) once the service has recorded a change. */
export type SvcApplicationsChangeEvent = CustomEvent<SvcApplicationsChangeDetail>;

/** Detail of an `svc-error` from `<svc-applications>` itself: `message`, `fatal` and `recoverable_via`. */
export interface ApplicationsErrorDetail extends PersonListErrorDetail {
  /** `unauthorized`, `forbidden` (the role lacks the permission), `not_found`, `invalid` (the service's 422), `network`, `http` or `invalid_configuration`. */
  code: 'unauthorized' | 'forbidden' | 'not_found' | 'invalid' | 'network' | 'http' | 'invalid_configuration';
}

/** Fired (bubbles, composed) by `<svc-applications>` when a list could not be read or an action failed. */
export type SvcApplicationsErrorEvent = CustomEvent<ApplicationsErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-applications-change': SvcApplicationsChangeEvent;
  }
  interface SvcErrorDetailMap {
    applications: ApplicationsErrorDetail;
  }
}
