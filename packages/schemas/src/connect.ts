import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';

// The Connect surface: accounts and their users, connections between a person and an application, and pairing a
// person's second device by a short code (device links) into a trust pairing.

const id = () => z.string().check(z.minLength(1), z.maxLength(64));
const name = () => z.string().check(z.minLength(1), z.maxLength(100));

// ---- Accounts ---------------------------------------------------------------------------------------------------

/** What an account user may do in the organisation's console: `admin` changes keys, tokens and settings; `viewer` reads. */
export const ACCOUNT_USER_ROLES = ['admin', 'viewer'] as const;
export const accountUserRole = z.enum(ACCOUNT_USER_ROLES);
export type AccountUserRole = z.infer<typeof accountUserRole>;

/** A person added to an account as one of its users (`user_id` is the person's id, `prs_…`), with their console role. */
export const accountUser = z.object({
  id: z.string(),
  user_id: z.string(),
  role: accountUserRole,
  created_at: dateTime(),
});
export type AccountUser = z.infer<typeof accountUser>;

/**
 * The spec's Account. `owner_id` is the `user_id` of the account user who owns it, or, while no user has been made
 * owner, the account's own id (an organisation account owns itself). `personal` is true for an account of one person.
 */
export const account = z.object({
  id: z.string(),
  name: z.string(),
  owner_id: z.string(),
  personal: z.boolean(),
  created_at: dateTime(),
  updated_at: dateTime(),
  account_users: z.array(accountUser),
});
export type Account = z.infer<typeof account>;

/** `{account}`. */
export const accountEnvelope = z.object({ account });
/** `{accounts: [...], next_cursor}`: the spec's "array of Account" in the list envelope of the API. */
export const accountList = listOf('accounts', account);

/**
 * `PATCH /api/v1/accounts/{id}`: a new `name` (`write`), or a new owner (`admin`): `owner_id` names the `user_id` of
 * one of the account's users.
 */
export const updateAccountRequest = z.strictObject({
  account: z.strictObject({
    name: z.optional(name()),
    owner_id: z.optional(id()),
  }),
});
export type UpdateAccountRequest = z.input<typeof updateAccountRequest>;

/**
 * `POST /api/v1/accounts/{id}/account_users`: a person of the account (`prs_…`, from their home cell) as a user, a
 * `viewer` unless `role` says `admin` (which needs the `admin` permission).
 */
export const createAccountUserRequest = z.strictObject({ user_id: id(), role: z.optional(accountUserRole) });
export type CreateAccountUserRequest = z.input<typeof createAccountUserRequest>;

/** `PATCH /api/v1/accounts/{id}/account_users/{account_user_id}`: a new console role (`admin` permission). */
export const updateAccountUserRequest = z.strictObject({ account_user: z.strictObject({ role: accountUserRole }) });
export type UpdateAccountUserRequest = z.input<typeof updateAccountUserRequest>;

/** `{account_user}`. */
export const accountUserEnvelope = z.object({ account_user: accountUser });

// ---- Connections ------------------------------------------------------------------------------------------------

/** A connection's status: `active`, `suspended` (paused, with a reason), `disconnected` (final). */
export const CONNECTION_STATUSES = ['active', 'suspended', 'disconnected'] as const;
export const connectionStatus = z.enum(CONNECTION_STATUSES);
export type ConnectionStatus = z.infer<typeof connectionStatus>;

/**
 * How far the person trusts the application, from what the service holds now: `delegated` (a delegation grant in
 * force to the application or its agents), `consented` (consent in force), `connected` (neither). Null once
 * disconnected.
 */
export const TRUST_TIERS = ['connected', 'consented', 'delegated'] as const;
export const trustTier = z.enum(TRUST_TIERS);
export type TrustTier = z.infer<typeof trustTier>;

/** Who suspended or resumed a connection: the person, or the organisation (an API token). */
export const connectionActor = z.enum(['person', 'organisation']);
export type ConnectionActor = z.infer<typeof connectionActor>;

/** One suspension of a connection, with its reason; `resumed_at` is null while it lasts. */
export const connectionSuspension = z.object({
  reason: z.string(),
  suspended_by: connectionActor,
  suspended_at: dateTime(),
  resumed_by: z.nullable(connectionActor),
  resumed_at: z.nullable(dateTime()),
});
export type ConnectionSuspension = z.infer<typeof connectionSuspension>;

/** A consent in force between the person and the application: the latest record of a flow with purposes granted now. */
export const consentPolicy = z.object({
  type: z.literal('consent_record'),
  id: z.string(),
  flow_id: z.string(),
  purposes: z.array(z.string()),
  granted_at: dateTime(),
  expires_at: z.nullable(dateTime()),
});

/** A delegation grant in force from the person, made through the application or to one of its agents. */
export const delegationPolicy = z.object({
  type: z.literal('delegation_grant'),
  id: z.string(),
  status: z.enum(['active', 'suspended']),
  delegate_type: z.enum(['person', 'agent']),
  delegate_id: z.string(),
  delegated_scopes: z.array(z.string()),
  expires_at: z.nullable(dateTime()),
});

/** What governs the connection now; each is what disconnecting stops. */
export const activePolicy = z.discriminatedUnion('type', [consentPolicy, delegationPolicy]);
export type ActivePolicy = z.infer<typeof activePolicy>;

/** The spec's Connection (list rows), plus `user_id`: the person (`prs_…`). */
export const connection = z.object({
  id: z.string(),
  status: connectionStatus,
  user_id: z.string(),
  application_id: z.nullable(z.string()),
  application_name: z.nullable(z.string()),
  trust_tier: z.nullable(trustTier),
  connected_at: z.nullable(dateTime()),
  last_active_at: z.nullable(dateTime()),
});
export type Connection = z.infer<typeof connection>;

/** A connection read on its own: the summary plus times, the policies in force and every suspension. */
export const connectionDetail = z.extend(connection, {
  created_at: dateTime(),
  updated_at: dateTime(),
  disconnected_at: z.nullable(dateTime()),
  active_policies: z.array(activePolicy),
  suspensions: z.array(connectionSuspension),
});
export type ConnectionDetail = z.infer<typeof connectionDetail>;

/** `{connection}`. */
export const connectionEnvelope = z.object({ connection: connectionDetail });
/** `{connections: [...], next_cursor}`. */
export const connectionList = listOf('connections', connection);
export const connectionListQuery = z.object({
  ...listQuery.shape,
  status: z.optional(connectionStatus),
  application_id: z.optional(id()),
});
export type ConnectionListQuery = z.input<typeof connectionListQuery>;

/** `POST /api/v1/connections` (a person's access token): connect to an application of the account. */
export const createConnectionRequest = z.strictObject({ application_id: id() });
export type CreateConnectionRequest = z.input<typeof createConnectionRequest>;

/** `POST /api/v1/connections/{id}/suspend`: why, kept in `suspensions`. */
export const suspendConnectionRequest = z.strictObject({ reason: z.string().check(z.minLength(1), z.maxLength(500)) });
export type SuspendConnectionRequest = z.input<typeof suspendConnectionRequest>;

/** The spec's disconnect result: the connection, and what stopped working because of it. */
export const disconnectResult = z.object({
  connection: z.object({ id: z.string(), status: connectionStatus, disconnected_at: z.nullable(dateTime()) }),
  warnings: z.array(z.string()),
});
export type DisconnectResult = z.infer<typeof disconnectResult>;

// ---- Device links and trust pairings ----------------------------------------------------------------------------

/** How long a device link's code can be claimed, and how many wrong codes a pending link survives. */
export const DEVICE_LINK_TTL_SECONDS = 600;
export const DEVICE_LINK_MAX_ATTEMPTS = 5;
/** The alphabet of device link codes: no 0/O, 1/I/L, so a code read aloud or typed is not mistaken. */
export const DEVICE_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** Characters in a code (shown as `XXXX-XXXX`). */
export const DEVICE_CODE_LENGTH = 8;

/**
 * A device link's status: `pending` (its code can be claimed), `claimed` (a trust pairing came of it), `expired`
 * (ten minutes passed), `locked` (too many wrong codes), `cancelled` (by the person).
 */
export const DEVICE_LINK_STATUSES = ['pending', 'claimed', 'expired', 'locked', 'cancelled'] as const;
export const deviceLinkStatus = z.enum(DEVICE_LINK_STATUSES);
export type DeviceLinkStatus = z.infer<typeof deviceLinkStatus>;

/** A device link: `code` only in the create answer (it is stored hashed). */
export const deviceLink = z.object({
  id: z.string(),
  status: deviceLinkStatus,
  device_name: z.nullable(z.string()),
  code: z.optional(z.string()),
  attempts_remaining: z.int(),
  created_at: dateTime(),
  expires_at: dateTime(),
  claimed_at: z.nullable(dateTime()),
  trust_pairing_id: z.nullable(z.string()),
});
export type DeviceLink = z.infer<typeof deviceLink>;

/** `{device_link}`. */
export const deviceLinkEnvelope = z.object({ device_link: deviceLink });
/** `{device_links: [...], next_cursor}`. */
export const deviceLinkList = listOf('device_links', deviceLink);
export const deviceLinkListQuery = z.object({ ...listQuery.shape, status: z.optional(deviceLinkStatus) });
export type DeviceLinkListQuery = z.input<typeof deviceLinkListQuery>;

/** `POST /api/v1/device_links` (a person's access token, on the first device): its name, optionally. */
export const createDeviceLinkRequest = z.strictObject({ device_name: z.optional(name()) });
export type CreateDeviceLinkRequest = z.input<typeof createDeviceLinkRequest>;

/**
 * `POST /api/v1/device_links/claim` (the same person's access token, on the second device): the code shown on the
 * first device (case, spaces and hyphens do not matter) and the second device's name.
 */
export const claimDeviceLinkRequest = z.strictObject({
  code: z.string().check(z.minLength(1), z.maxLength(32)),
  device_name: name(),
});
export type ClaimDeviceLinkRequest = z.input<typeof claimDeviceLinkRequest>;

/** One side of a trust pairing: the device's name and the OAuth client its token came from. */
export const pairedDevice = z.object({ device_name: z.nullable(z.string()), client_id: z.string() });

/** A trust pairing of two devices of one person, made by claiming a device link. */
export const trustPairing = z.object({
  id: z.string(),
  status: z.enum(['active', 'revoked']),
  user_id: z.string(),
  device_link_id: z.string(),
  initiator: pairedDevice,
  claimant: pairedDevice,
  created_at: dateTime(),
  revoked_at: z.nullable(dateTime()),
});
export type TrustPairing = z.infer<typeof trustPairing>;

/** `{trust_pairing}`. */
export const trustPairingEnvelope = z.object({ trust_pairing: trustPairing });
/** `{trust_pairings: [...], next_cursor}`. */
export const trustPairingList = listOf('trust_pairings', trustPairing);
export const trustPairingListQuery = z.object({ ...listQuery.shape, status: z.optional(z.enum(['active', 'revoked'])) });
export type TrustPairingListQuery = z.input<typeof trustPairingListQuery>;
