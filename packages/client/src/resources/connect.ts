import {
  accountEnvelope,
  accountList,
  accountUserEnvelope,
  connectionEnvelope,
  connectionList,
  deviceLinkEnvelope,
  deviceLinkList,
  disconnectResult,
  trustPairingEnvelope,
  trustPairingList,
  type Account,
  type AccountUser,
  type ClaimDeviceLinkRequest,
  type Connection,
  type ConnectionDetail,
  type ConnectionStatus,
  type CreateAccountUserRequest,
  type CreateConnectionRequest,
  type CreateDeviceLinkRequest,
  type DeviceLink,
  type DeviceLinkStatus,
  type DisconnectResult,
  type SuspendConnectionRequest,
  type TrustPairing,
  type UpdateAccountRequest,
  type UpdateAccountUserRequest,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { SvcResponseValidationError } from '../lib/errors.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

const ACCOUNTS = '/api/v1/accounts';
const CONNECTIONS = '/api/v1/connections';
const DEVICE_LINKS = '/api/v1/device_links';
const PAIRINGS = '/api/v1/trust_pairings';
const at = (base: string, id: string, sub = '') => `${base}/${encodeURIComponent(id)}${sub}`;

// ---- Accounts ---------------------------------------------------------------------------------------------------

/** Lists the accounts the API token sees: its own (`GET /api/v1/accounts`, `read`). */
export function listAccounts(connection: SvcConnection<'bearer'>, query?: ListQuery, options?: CallOptions): SvcList<Account> {
  return listEndpoint(connection, ACCOUNTS, accountList, 'accounts', query, options);
}

/** Reads the account with its users (`GET /api/v1/accounts/{id}`). */
export function getAccount(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<Account> {
  return connection.request({ method: 'GET', path: at(ACCOUNTS, id), schema: accountEnvelope }, options).then((body) => body.account);
}

/**
 * Renames the account (`write`) or hands it to a new owner (`admin`; `owner_id` is one of its users' `user_id`, or the
 * account's id for the organisation itself): `PATCH /api/v1/accounts/{id}`.
 */
export function updateAccount(
  connection: SvcConnection<'bearer'>,
  id: string,
  changes: UpdateAccountRequest['account'],
  options?: WriteOptions,
): Promise<Account> {
  return connection
    .request(
      { method: 'PATCH', path: at(ACCOUNTS, id), body: { account: changes } satisfies UpdateAccountRequest, schema: accountEnvelope },
      options,
    )
    .then((body) => body.account);
}

/**
 * Adds a person of the account (`prs_…`) as one of its users (`POST /api/v1/accounts/{id}/account_users`, `admin`),
 * at the person's home cell (the client follows a 421 there).
 */
export function addAccountUser(
  connection: SvcConnection<'bearer'>,
  accountId: string,
  request: CreateAccountUserRequest,
  options?: WriteOptions,
): Promise<AccountUser> {
  return connection
    .request({ method: 'POST', path: at(ACCOUNTS, accountId, '/account_users'), body: request, schema: accountUserEnvelope }, options)
    .then((body) => body.account_user);
}

/**
 * Gives an account user another console role, `admin` or `viewer` (`PATCH /api/v1/accounts/{id}/account_users/
 * {account_user_id}`, `admin`); the owner stays an admin (409 `owner_stays_admin`).
 */
export function updateAccountUser(
  connection: SvcConnection<'bearer'>,
  accountId: string,
  accountUserId: string,
  changes: UpdateAccountUserRequest['account_user'],
  options?: WriteOptions,
): Promise<AccountUser> {
  return connection
    .request(
      {
        method: 'PATCH',
        path: at(ACCOUNTS, accountId, `/account_users/${encodeURIComponent(accountUserId)}`),
        body: { account_user: changes } satisfies UpdateAccountUserRequest,
        schema: accountUserEnvelope,
      },
      options,
    )
    .then((body) => body.account_user);
}

/** Removes an account user (`DELETE /api/v1/accounts/{id}/account_users/{account_user_id}`, `admin`); not the owner. */
export async function removeAccountUser(
  connection: SvcConnection<'bearer'>,
  accountId: string,
  accountUserId: string,
  options?: CallOptions,
): Promise<void> {
  await connection.request(
    { method: 'DELETE', path: at(ACCOUNTS, accountId, `/account_users/${encodeURIComponent(accountUserId)}`) },
    options,
  );
}

// ---- Connections ------------------------------------------------------------------------------------------------

/** Query of the connection list. */
export type ConnectionQuery = ListQuery & {
  /** Only connections in this status. */
  status?: ConnectionStatus | undefined;
  /** Only connections to this application. */
  application_id?: string | undefined;
};

/**
 * Connects the calling person to an application of the account (`POST /api/v1/connections`, a person's access
 * token). A connection that is not disconnected is answered as it is.
 */
export function createConnection(
  connection: SvcConnection<'bearer'>,
  request: CreateConnectionRequest,
  options?: WriteOptions,
): Promise<ConnectionDetail> {
  return connection
    .request({ method: 'POST', path: CONNECTIONS, body: request, schema: connectionEnvelope }, options)
    .then((body) => body.connection);
}

/** Lists connections (`GET /api/v1/connections`): a person's own with their token, the account's with an API token. */
export function listConnections(connection: SvcConnection<'bearer'>, query?: ConnectionQuery, options?: CallOptions): SvcList<Connection> {
  return listEndpoint(connection, CONNECTIONS, connectionList, 'connections', query, options);
}

/** Reads a connection with the policies in force and its suspensions (`GET /api/v1/connections/{id}`). */
export function getConnection(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<ConnectionDetail> {
  return connection
    .request({ method: 'GET', path: at(CONNECTIONS, id), schema: connectionEnvelope }, options)
    .then((body) => body.connection);
}

/** Suspends an active connection with a reason (`POST /api/v1/connections/{id}/suspend`). */
export function suspendConnection(
  connection: SvcConnection<'bearer'>,
  id: string,
  request: SuspendConnectionRequest,
  options?: WriteOptions,
): Promise<ConnectionDetail> {
  return connection
    .request({ method: 'POST', path: at(CONNECTIONS, id, '/suspend'), body: request, schema: connectionEnvelope }, options)
    .then((body) => body.connection);
}

/** Resumes a suspended connection; only the party that suspended it can (`POST /api/v1/connections/{id}/resume`). */
export function resumeConnection(connection: SvcConnection<'bearer'>, id: string, options?: WriteOptions): Promise<ConnectionDetail> {
  return connection
    .request({ method: 'POST', path: at(CONNECTIONS, id, '/resume'), schema: connectionEnvelope }, options)
    .then((body) => body.connection);
}

/**
 * Disconnects, for good (`POST /api/v1/connections/{id}/disconnect`): the consent in force is withdrawn and the
 * delegation grants made through the application or to its agents are revoked; `warnings` names each thing that
 * stopped working, and the decisions still open.
 */
export function disconnectConnection(connection: SvcConnection<'bearer'>, id: string, options?: WriteOptions): Promise<DisconnectResult> {
  return connection.request({ method: 'POST', path: at(CONNECTIONS, id, '/disconnect'), schema: disconnectResult }, options);
}

// ---- Device links and trust pairings ----------------------------------------------------------------------------

/** Query of the device link list. */
export type DeviceLinkQuery = ListQuery & { status?: DeviceLinkStatus | undefined };
/** Query of the trust pairing list. */
export type TrustPairingQuery = ListQuery & { status?: 'active' | 'revoked' | undefined };

/**
 * Makes a device link on the person's first device (`POST /api/v1/device_links`, their access token): show its
 * `code` (`XXXX-XXXX`, valid ten minutes, once) and type it on the second device.
 */
export function createDeviceLink(
  connection: SvcConnection<'bearer'>,
  request: CreateDeviceLinkRequest = {},
  options?: WriteOptions,
): Promise<DeviceLink & { code: string }> {
  return connection.request({ method: 'POST', path: DEVICE_LINKS, body: request, schema: deviceLinkEnvelope }, options).then((body) => {
    const { code } = body.device_link;
    if (code === undefined) throw new SvcResponseValidationError('The device link came back without its code.');
    return { ...body.device_link, code };
  });
}

/** Lists the person's device links, never their codes (`GET /api/v1/device_links`). */
export function listDeviceLinks(connection: SvcConnection<'bearer'>, query?: DeviceLinkQuery, options?: CallOptions): SvcList<DeviceLink> {
  return listEndpoint(connection, DEVICE_LINKS, deviceLinkList, 'device_links', query, options);
}

/** Reads a device link: the first device waits for `claimed` (`GET /api/v1/device_links/{id}`). */
export function getDeviceLink(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<DeviceLink> {
  return connection
    .request({ method: 'GET', path: at(DEVICE_LINKS, id), schema: deviceLinkEnvelope }, options)
    .then((body) => body.device_link);
}

/** Cancels a pending device link (`POST /api/v1/device_links/{id}/cancel`). */
export function cancelDeviceLink(connection: SvcConnection<'bearer'>, id: string, options?: WriteOptions): Promise<DeviceLink> {
  return connection
    .request({ method: 'POST', path: at(DEVICE_LINKS, id, '/cancel'), schema: deviceLinkEnvelope }, options)
    .then((body) => body.device_link);
}

/**
 * Claims a device link on the second device with the same person's access token from another sign-in
 * (`POST /api/v1/device_links/claim`): the trust pairing of the two devices.
 */
export function claimDeviceLink(
  connection: SvcConnection<'bearer'>,
  request: ClaimDeviceLinkRequest,
  options?: WriteOptions,
): Promise<TrustPairing> {
  return connection
    .request({ method: 'POST', path: `${DEVICE_LINKS}/claim`, body: request, schema: trustPairingEnvelope }, options)
    .then((body) => body.trust_pairing);
}

/** Lists trust pairings (`GET /api/v1/trust_pairings`): a person's own, or the account's with an API token. */
export function listTrustPairings(
  connection: SvcConnection<'bearer'>,
  query?: TrustPairingQuery,
  options?: CallOptions,
): SvcList<TrustPairing> {
  return listEndpoint(connection, PAIRINGS, trustPairingList, 'trust_pairings', query, options);
}

/** Reads a trust pairing (`GET /api/v1/trust_pairings/{id}`). */
export function getTrustPairing(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<TrustPairing> {
  return connection
    .request({ method: 'GET', path: at(PAIRINGS, id), schema: trustPairingEnvelope }, options)
    .then((body) => body.trust_pairing);
}

/** Revokes a trust pairing (`POST /api/v1/trust_pairings/{id}/revoke`). */
export function revokeTrustPairing(connection: SvcConnection<'bearer'>, id: string, options?: WriteOptions): Promise<TrustPairing> {
  return connection
    .request({ method: 'POST', path: at(PAIRINGS, id, '/revoke'), schema: trustPairingEnvelope }, options)
    .then((body) => body.trust_pairing);
}

// ---- Resource objects -------------------------------------------------------------------------------------------

/** `svc.accounts`. */
export interface AccountsResource {
  /** Lists the accounts; see {@link listAccounts}. */
  list(query?: ListQuery, options?: CallOptions): SvcList<Account>;
  /** Reads an account; see {@link getAccount}. */
  get(id: string, options?: CallOptions): Promise<Account>;
  /** Renames an account or changes its owner; see {@link updateAccount}. */
  update(id: string, changes: UpdateAccountRequest['account'], options?: WriteOptions): Promise<Account>;
  /** Adds a person as an account user; see {@link addAccountUser}. */
  addUser(accountId: string, request: CreateAccountUserRequest, options?: WriteOptions): Promise<AccountUser>;
  /** Changes an account user's console role; see {@link updateAccountUser}. */
  updateUser(
    accountId: string,
    accountUserId: string,
    changes: UpdateAccountUserRequest['account_user'],
    options?: WriteOptions,
  ): Promise<AccountUser>;
  /** Removes an account user; see {@link removeAccountUser}. */
  removeUser(accountId: string, accountUserId: string, options?: CallOptions): Promise<void>;
}

/** `svc.connections`. */
export interface ConnectionsResource {
  /** Connects the calling person; see {@link createConnection}. */
  create(request: CreateConnectionRequest, options?: WriteOptions): Promise<ConnectionDetail>;
  /** Lists connections; see {@link listConnections}. */
  list(query?: ConnectionQuery, options?: CallOptions): SvcList<Connection>;
  /** Reads a connection; see {@link getConnection}. */
  get(id: string, options?: CallOptions): Promise<ConnectionDetail>;
  /** Suspends a connection; see {@link suspendConnection}. */
  suspend(id: string, request: SuspendConnectionRequest, options?: WriteOptions): Promise<ConnectionDetail>;
  /** Resumes a connection; see {@link resumeConnection}. */
  resume(id: string, options?: WriteOptions): Promise<ConnectionDetail>;
  /** Disconnects; see {@link disconnectConnection}. */
  disconnect(id: string, options?: WriteOptions): Promise<DisconnectResult>;
}

/** `svc.deviceLinks`. */
export interface DeviceLinksResource {
  /** Makes a device link and its code; see {@link createDeviceLink}. */
  create(request?: CreateDeviceLinkRequest, options?: WriteOptions): Promise<DeviceLink & { code: string }>;
  /** Lists the person's device links; see {@link listDeviceLinks}. */
  list(query?: DeviceLinkQuery, options?: CallOptions): SvcList<DeviceLink>;
  /** Reads a device link; see {@link getDeviceLink}. */
  get(id: string, options?: CallOptions): Promise<DeviceLink>;
  /** Cancels a pending device link; see {@link cancelDeviceLink}. */
  cancel(id: string, options?: WriteOptions): Promise<DeviceLink>;
  /** Claims a device link on the second device; see {@link claimDeviceLink}. */
  claim(request: ClaimDeviceLinkRequest, options?: WriteOptions): Promise<TrustPairing>;
}

/** `svc.trustPairings`. */
export interface TrustPairingsResource {
  /** Lists trust pairings; see {@link listTrustPairings}. */
  list(query?: TrustPairingQuery, options?: CallOptions): SvcList<TrustPairing>;
  /** Reads a trust pairing; see {@link getTrustPairing}. */
  get(id: string, options?: CallOptions): Promise<TrustPairing>;
  /** Revokes a trust pairing; see {@link revokeTrustPairing}. */
  revoke(id: string, options?: WriteOptions): Promise<TrustPairing>;
}

/** Binds the account functions to a connection. */
export function accountsResource(connection: SvcConnection<'bearer'>): AccountsResource {
  return {
    list: (query, options) => listAccounts(connection, query, options),
    get: (id, options) => getAccount(connection, id, options),
    update: (id, changes, options) => updateAccount(connection, id, changes, options),
    addUser: (accountId, request, options) => addAccountUser(connection, accountId, request, options),
    updateUser: (accountId, accountUserId, changes, options) => updateAccountUser(connection, accountId, accountUserId, changes, options),
    removeUser: (accountId, accountUserId, options) => removeAccountUser(connection, accountId, accountUserId, options),
  };
}

/** Binds the connection functions to a connection. */
export function connectionsResource(connection: SvcConnection<'bearer'>): ConnectionsResource {
  return {
    create: (request, options) => createConnection(connection, request, options),
    list: (query, options) => listConnections(connection, query, options),
    get: (id, options) => getConnection(connection, id, options),
    suspend: (id, request, options) => suspendConnection(connection, id, request, options),
    resume: (id, options) => resumeConnection(connection, id, options),
    disconnect: (id, options) => disconnectConnection(connection, id, options),
  };
}

/** Binds the device link functions to a connection. */
export function deviceLinksResource(connection: SvcConnection<'bearer'>): DeviceLinksResource {
  return {
    create: (request, options) => createDeviceLink(connection, request, options),
    list: (query, options) => listDeviceLinks(connection, query, options),
    get: (id, options) => getDeviceLink(connection, id, options),
    cancel: (id, options) => cancelDeviceLink(connection, id, options),
    claim: (request, options) => claimDeviceLink(connection, request, options),
  };
}

/** Binds the trust pairing functions to a connection. */
export function trustPairingsResource(connection: SvcConnection<'bearer'>): TrustPairingsResource {
  return {
    list: (query, options) => listTrustPairings(connection, query, options),
    get: (id, options) => getTrustPairing(connection, id, options),
    revoke: (id, options) => revokeTrustPairing(connection, id, options),
  };
}
