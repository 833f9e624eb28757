// The events of `<svc-connections>`: `svc-connections-change` (the person disconnected an application, linked this
// device with a code, cancelled a device link or unpaired two devices, and the service recorded it) and its own
// `svc-error` (the list could not be read, or an action failed).
import type { PersonConnection, PersonDeviceLink, PersonTrustPairing } from '@svc/schemas';
import type { PersonListErrorDetail } from '../internal/person-list.js';

/** One of the person's connections, as `GET /api/v1/me/connections` answers it (`PersonConnection` of `@svc/schemas`). */
export type ConnectionRow = PersonConnection;
/** One of the person's device links, as `GET /api/v1/me/device_links` answers it (never its code). */
export type DeviceLinkRow = PersonDeviceLink;
/** One of the person's trust pairings, as `GET /api/v1/me/trust_pairings` answers it. */
export type TrustPairingRow = PersonTrustPairing;

/** What the person did: `disconnect` (a connection), `claim` or `cancel` (a device link), `revoke` (a trust pairing). */
export type ConnectionsAction = 'disconnect' | 'claim' | 'cancel' | 'revoke';

/** Detail of `svc-connections-change`: what was done to which row, and the row as it reads now. */
export interface SvcConnectionsChangeDetail {
  action: ConnectionsAction;
  /** The id of the connection, device link or trust pairing acted on. */
  id: string;
  /** After `disconnect`: the connection as it reads now. */
  connection?: ConnectionRow;
  /** After `disconnect`: what stopped working because of it, in the service's words. */
  warnings?: string[];
  /** After `claim` or `cancel`: the device link as it reads now. */
  device_link?: DeviceLinkRow;
  /** After `claim`: the new pairing of this device; after `revoke`: the pairing, revoked. */
  trust_pairing?: TrustPairingRow;
}

/** Fired (bubbles, composed) once the service has recorded what the person did (and confirmed, when it ends something). */
export type SvcConnectionsChangeEvent = CustomEvent<SvcConnectionsChangeDetail>;

/** Detail of an `svc-error` from `<svc-connections>` itself: `code` `unauthorized`, `forbidden` (no `connections:read`/`connections:write`), `network`, `http`, `invalid` (a code the service refused) or `invalid_configuration`. */
export type ConnectionsErrorDetail = PersonListErrorDetail;

/** Fired (bubbles, composed) by `<svc-connections>` when the list could not be read or an action failed. */
export type SvcConnectionsErrorEvent = CustomEvent<ConnectionsErrorDetail>;

declare global {
  interface GlobalEventHandlersEventMap {
    'svc-connections-change': SvcConnectionsChangeEvent;
  }
  interface SvcErrorDetailMap {
    connections: ConnectionsErrorDetail;
  }
}
