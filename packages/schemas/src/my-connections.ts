// A person's own connections, device links and trust pairings, as they read and end them with their own access
// token (`/api/v1/me/connections`, `/api/v1/me/device_links`, `/api/v1/me/trust_pairings`): what the people's
// connections pages and `<svc-connections>` show. The organisation's shapes (`connectionDetail`, `deviceLink`,
// `trustPairing`) plus the organisation that holds each, since one person has them with many organisations.
import { z } from 'zod/mini';
import { listOf, listQuery } from './common.js';
import { claimDeviceLinkRequest, connectionDetail, connectionStatus, deviceLink, deviceLinkStatus, trustPairing } from './connect.js';

/** The OAuth scope a person's access token needs to read their connections, device links and trust pairings. */
export const CONNECTIONS_READ_SCOPE = 'connections:read';
/** The OAuth scope a person's access token needs to disconnect, claim or cancel a device link, or unpair devices. */
export const CONNECTIONS_WRITE_SCOPE = 'connections:write';

const organisation = z.object({ id: z.string(), name: z.string() });

/**
 * A connection as the person reads it: the organisation's detail (status, trust tier, the consent and delegation
 * grants in force, which disconnecting stops, and its suspensions) and the organisation that holds it.
 */
export const personConnection = z.extend(connectionDetail, { organisation });
export type PersonConnection = z.infer<typeof personConnection>;

/** `{connection}`: one of the person's connections. */
export const personConnectionEnvelope = z.object({ connection: personConnection });
export type PersonConnectionEnvelope = z.infer<typeof personConnectionEnvelope>;

/** Query of `GET /api/v1/me/connections`: the list query and a status. */
export const personConnectionListQuery = z.strictObject({ ...listQuery.shape, status: z.optional(connectionStatus) });
export type PersonConnectionListQuery = z.input<typeof personConnectionListQuery>;

/** `{connections: [...], next_cursor}`: a page of the person's connections, most recently connected first. */
export const personConnectionList = listOf('connections', personConnection);
export type PersonConnectionList = z.infer<typeof personConnectionList>;

/** A device link as the person reads it (never its code), with the organisation that holds it. */
export const personDeviceLink = z.extend(deviceLink, { organisation });
export type PersonDeviceLink = z.infer<typeof personDeviceLink>;

/** `{device_link}`. */
export const personDeviceLinkEnvelope = z.object({ device_link: personDeviceLink });
/** Query of `GET /api/v1/me/device_links`. */
export const personDeviceLinkListQuery = z.strictObject({ ...listQuery.shape, status: z.optional(deviceLinkStatus) });
export type PersonDeviceLinkListQuery = z.input<typeof personDeviceLinkListQuery>;
/** `{device_links: [...], next_cursor}`: most recently made first. */
export const personDeviceLinkList = listOf('device_links', personDeviceLink);
export type PersonDeviceLinkList = z.infer<typeof personDeviceLinkList>;

/**
 * `POST /api/v1/me/device_links/{id}/claim`: the code the other device shows and this device's name. The link in the
 * path names the organisation whose device links of the person the code is compared with (as `POST
 * /api/v1/device_links/claim` does with that organisation's own token).
 */
export const claimPersonDeviceLinkRequest = claimDeviceLinkRequest;
export type ClaimPersonDeviceLinkRequest = z.input<typeof claimPersonDeviceLinkRequest>;

/** A trust pairing as the person reads it, with the organisation that holds it. */
export const personTrustPairing = z.extend(trustPairing, { organisation });
export type PersonTrustPairing = z.infer<typeof personTrustPairing>;

/** `{trust_pairing}`. */
export const personTrustPairingEnvelope = z.object({ trust_pairing: personTrustPairing });
/** Query of `GET /api/v1/me/trust_pairings`. */
export const personTrustPairingListQuery = z.strictObject({ ...listQuery.shape, status: z.optional(z.enum(['active', 'revoked'])) });
export type PersonTrustPairingListQuery = z.input<typeof personTrustPairingListQuery>;
/** `{trust_pairings: [...], next_cursor}`: most recently paired first. */
export const personTrustPairingList = listOf('trust_pairings', personTrustPairing);
export type PersonTrustPairingList = z.infer<typeof personTrustPairingList>;
