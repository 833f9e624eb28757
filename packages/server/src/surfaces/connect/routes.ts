// Connect: `/api/v1/accounts` (the caller's account and its users; API tokens), `/api/v1/connections` (a person and
// an application: the person's own with their access token, the account's with an API token), `/api/v1/device_links`
// (pairing a person's second device by a short code; the person's access token on both devices) and
// `/api/v1/trust_pairings` (what a claimed link made: the person's own, or the account's with an API token).
import {
  accountEnvelope,
  accountList,
  accountUserEnvelope,
  claimDeviceLinkRequest,
  connectionEnvelope,
  connectionList,
  connectionListQuery,
  createAccountUserRequest,
  createConnectionRequest,
  createDeviceLinkRequest,
  deviceLinkEnvelope,
  deviceLinkList,
  deviceLinkListQuery,
  disconnectResult,
  listQuery,
  suspendConnectionRequest,
  trustPairingEnvelope,
  trustPairingList,
  trustPairingListQuery,
  updateAccountRequest,
  DEVICE_LINK_MAX_ATTEMPTS,
  DEVICE_LINK_TTL_SECONDS,
} from '@svc/client/schemas';
import { routes } from '../../infra/http/route.js';
import { requires } from '../../infra/auth.js';
import type { Operation } from '../../infra/operations.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { readJson, readQuery } from '../../infra/validate.js';
import { addAccountUser, getAccount, listAccounts, removeAccountUser, updateAccount } from './accounts.js';
import {
  createConnection,
  disconnectConnection,
  followConsents,
  listConnections,
  personOnly,
  resumeConnection,
  suspendConnection,
  toConnectionDetail,
  visibleConnection,
} from './connections.js';
import {
  bearerHash,
  cancelDeviceLink,
  claimDeviceLink,
  createDeviceLink,
  getDeviceLink,
  listDeviceLinks,
  listTrustPairings,
  revokeTrustPairing,
  toTrustPairing,
  visiblePairing,
} from './devices.js';

const ACCOUNTS = '/api/v1/accounts';
const CONNECTIONS = '/api/v1/connections';
const DEVICE_LINKS = '/api/v1/device_links';
const PAIRINGS = '/api/v1/trust_pairings';

/** The Connect routes; connections follow consents from here on. */
export const connectRoutes = routes((app, ctx) => {
  followConsents(ctx);

  // ---- Accounts
  app.get(ACCOUNTS, requires('read'), (c) => {
    const { limit = DEFAULT_LIMIT, cursor } = readQuery(c, listQuery);
    return c.json(listAccounts(ctx, c.get('principal').accountId, { limit, cursor }));
  });

  app.get(`${ACCOUNTS}/:id`, requires('read'), (c) => c.json({ account: getAccount(ctx, c.get('principal').accountId, c.req.param('id')) }));

  app.patch(`${ACCOUNTS}/:id`, requires('write'), async (c) => {
    const { account } = await readJson(c, updateAccountRequest);
    return c.json({ account: updateAccount(ctx, c.get('principal'), c.req.param('id'), account) });
  });

  app.post(`${ACCOUNTS}/:id/account_users`, requires('admin'), async (c) => {
    const { user_id } = await readJson(c, createAccountUserRequest);
    const accountUser = addAccountUser(ctx, c.get('principal').accountId, c.req.param('id'), user_id);
    c.header('Location', `${ACCOUNTS}/${c.req.param('id')}/account_users/${accountUser.id}`);
    return c.json({ account_user: accountUser }, 201);
  });

  app.delete(`${ACCOUNTS}/:id/account_users/:account_user_id`, requires('admin'), (c) => {
    removeAccountUser(ctx, c.get('principal').accountId, c.req.param('id'), c.req.param('account_user_id'));
    return c.body(null, 204);
  });

  // ---- Connections
  app.post(CONNECTIONS, requires('write', { person: true }), async (c) => {
    const person = personOnly(c.get('principal'), 'Connecting to an application');
    const { application_id } = await readJson(c, createConnectionRequest);
    const { row, created } = createConnection(ctx, person, application_id);
    if (created) c.header('Location', `${CONNECTIONS}/${row.id}`);
    return c.json({ connection: toConnectionDetail(ctx, row) }, created ? 201 : 200);
  });

  app.get(CONNECTIONS, requires('read', { person: true }), (c) => {
    const { limit = DEFAULT_LIMIT, cursor, status, application_id } = readQuery(c, connectionListQuery);
    return c.json(listConnections(ctx, c.get('principal'), { limit, cursor, status, application_id }));
  });

  app.get(`${CONNECTIONS}/:id`, requires('read', { person: true }), (c) =>
    c.json({ connection: toConnectionDetail(ctx, visibleConnection(ctx, c.get('principal'), c.req.param('id'))) }));

  app.post(`${CONNECTIONS}/:id/suspend`, requires('write', { person: true }), async (c) => {
    const principal = c.get('principal');
    const row = visibleConnection(ctx, principal, c.req.param('id'));
    const { reason } = await readJson(c, suspendConnectionRequest);
    return c.json({ connection: toConnectionDetail(ctx, suspendConnection(ctx, principal, row, reason)) });
  });

  app.post(`${CONNECTIONS}/:id/resume`, requires('write', { person: true }), (c) => {
    const principal = c.get('principal');
    const row = visibleConnection(ctx, principal, c.req.param('id'));
    return c.json({ connection: toConnectionDetail(ctx, resumeConnection(ctx, principal, row)) });
  });

  app.post(`${CONNECTIONS}/:id/disconnect`, requires('write', { person: true }), (c) => {
    const principal = c.get('principal');
    const row = visibleConnection(ctx, principal, c.req.param('id'));
    return c.json(disconnectConnection(ctx, principal, row));
  });

  // ---- Device links
  app.post(DEVICE_LINKS, requires('write', { person: true }), async (c) => {
    const person = personOnly(c.get('principal'), 'A device link');
    const input = await readJson(c, createDeviceLinkRequest);
    const link = createDeviceLink(ctx, person, input, bearerHash(c.req.header('authorization')));
    c.header('Location', `${DEVICE_LINKS}/${link.id}`);
    c.header('Cache-Control', 'no-store');
    return c.json({ device_link: link }, 201);
  });

  app.get(DEVICE_LINKS, requires('read', { person: true }), (c) => {
    const person = personOnly(c.get('principal'), 'A device link');
    const { limit = DEFAULT_LIMIT, cursor, status } = readQuery(c, deviceLinkListQuery);
    return c.json(listDeviceLinks(ctx, person, { limit, cursor, status }));
  });

  app.post(`${DEVICE_LINKS}/claim`, requires('write', { person: true }), async (c) => {
    const person = personOnly(c.get('principal'), 'Claiming a device link');
    const input = await readJson(c, claimDeviceLinkRequest);
    const pairing = claimDeviceLink(ctx, person, input, bearerHash(c.req.header('authorization')));
    c.header('Location', `${PAIRINGS}/${pairing.id}`);
    return c.json({ trust_pairing: pairing }, 201);
  });

  app.get(`${DEVICE_LINKS}/:id`, requires('read', { person: true }), (c) => {
    const person = personOnly(c.get('principal'), 'A device link');
    return c.json({ device_link: getDeviceLink(ctx, person, c.req.param('id')) });
  });

  app.post(`${DEVICE_LINKS}/:id/cancel`, requires('write', { person: true }), (c) => {
    const person = personOnly(c.get('principal'), 'A device link');
    return c.json({ device_link: cancelDeviceLink(ctx, person, c.req.param('id')) });
  });

  // ---- Trust pairings
  app.get(PAIRINGS, requires('read', { person: true }), (c) => {
    const { limit = DEFAULT_LIMIT, cursor, status } = readQuery(c, trustPairingListQuery);
    return c.json(listTrustPairings(ctx, c.get('principal'), { limit, cursor, status }));
  });

  app.get(`${PAIRINGS}/:id`, requires('read', { person: true }), (c) =>
    c.json({ trust_pairing: toTrustPairing(visiblePairing(ctx, c.get('principal'), c.req.param('id'))) }));

  app.post(`${PAIRINGS}/:id/revoke`, requires('write', { person: true }), (c) => {
    const row = visiblePairing(ctx, c.get('principal'), c.req.param('id'));
    return c.json({ trust_pairing: revokeTrustPairing(ctx, row) });
  });
});

const accountsTag = 'Accounts';
const connectionsTag = 'Connections';
const devicesTag = 'Device links and trust pairings';

/** OpenAPI descriptors of the Connect routes. */
export const connectOperations: Operation[] = [
  {
    method: 'get', path: ACCOUNTS, summary: "List the accounts the caller sees: the API token's own account", tag: accountsTag,
    auth: ['api_token'], permission: 'read', query: listQuery,
    response: { status: 200, description: 'A page of accounts (an array of Account in the list envelope)', schema: accountList }, errors: [400],
  },
  {
    method: 'get', path: `${ACCOUNTS}/{id}`, summary: 'Read the account with its users (another account is a 404)', tag: accountsTag,
    auth: ['api_token'], permission: 'read',
    response: { status: 200, description: 'The account', schema: accountEnvelope }, errors: [404],
  },
  {
    method: 'patch', path: `${ACCOUNTS}/{id}`,
    summary: 'Rename the account (write), or hand it to a new owner (admin): owner_id is the user_id of one of its users, or the account id for the organisation itself. 422 not_an_account_user',
    tag: accountsTag, auth: ['api_token'], permission: 'write', body: updateAccountRequest,
    response: { status: 200, description: 'The account', schema: accountEnvelope }, errors: [404],
  },
  {
    method: 'post', path: `${ACCOUNTS}/{id}/account_users`,
    summary: "Add a person of the account (prs_…, at their home cell) as one of its users. 409 account_user_exists; 422 user_not_found, too_many_account_users; 421 for another cell's person",
    tag: accountsTag, auth: ['api_token'], permission: 'admin', body: createAccountUserRequest,
    response: { status: 201, description: 'The account user', schema: accountUserEnvelope }, errors: [404, 409],
  },
  {
    method: 'delete', path: `${ACCOUNTS}/{id}/account_users/{account_user_id}`,
    summary: 'Remove an account user (409 owner_cannot_be_removed for the owner)', tag: accountsTag,
    auth: ['api_token'], permission: 'admin',
    response: { status: 204, description: 'Removed' }, errors: [404, 409],
  },
  {
    method: 'post', path: CONNECTIONS,
    summary: "Connect the calling person to an application of the account (their access token; a person's first consent to an application also connects them). An open connection is answered as it is (200). 422 application_not_found, application_inactive",
    tag: connectionsTag, auth: ['access_token'], body: createConnectionRequest,
    response: { status: 201, description: 'The connection, active', schema: connectionEnvelope },
  },
  {
    method: 'get', path: CONNECTIONS, summary: "List connections, oldest first: a person's own, or the account's in this cell (filters: status, application_id)", tag: connectionsTag,
    auth: ['access_token', 'api_token'], permission: 'read', query: connectionListQuery,
    response: { status: 200, description: 'A page of connections', schema: connectionList }, errors: [400],
  },
  {
    method: 'get', path: `${CONNECTIONS}/{id}`, summary: 'Read a connection with the policies in force (consent, delegation grants) and its suspensions', tag: connectionsTag,
    auth: ['access_token', 'api_token'], permission: 'read',
    response: { status: 200, description: 'The connection', schema: connectionEnvelope }, errors: [404],
  },
  {
    method: 'post', path: `${CONNECTIONS}/{id}/suspend`, summary: 'Suspend an active connection with a reason (the person, or the organisation). 409 illegal_transition', tag: connectionsTag,
    auth: ['access_token', 'api_token'], permission: 'write', body: suspendConnectionRequest,
    response: { status: 200, description: 'The connection, suspended', schema: connectionEnvelope }, errors: [404, 409],
  },
  {
    method: 'post', path: `${CONNECTIONS}/{id}/resume`,
    summary: 'Resume a suspended connection; only the party that suspended it can. 409 illegal_transition, suspended_by_other_party', tag: connectionsTag,
    auth: ['access_token', 'api_token'], permission: 'write',
    response: { status: 200, description: 'The connection, active', schema: connectionEnvelope }, errors: [404, 409],
  },
  {
    method: 'post', path: `${CONNECTIONS}/{id}/disconnect`,
    summary: 'Disconnect (final): withdraws the consent in force (revoking the credentials that attest it) and revokes the delegation grants made through the application or to its agents; warnings name each, and the decisions still open. 409 illegal_transition',
    tag: connectionsTag, auth: ['access_token', 'api_token'], permission: 'write',
    response: { status: 200, description: 'The connection and what stopped working', schema: disconnectResult }, errors: [404, 409],
  },
  {
    method: 'post', path: DEVICE_LINKS,
    summary: `Make a device link on the first device (the person's access token): its code (8 characters, shown once as XXXX-XXXX) is valid ${DEVICE_LINK_TTL_SECONDS / 60} minutes, once. 409 too_many_device_links`,
    tag: devicesTag, auth: ['access_token'], body: createDeviceLinkRequest,
    response: { status: 201, description: 'The device link with its code', schema: deviceLinkEnvelope }, errors: [409],
  },
  {
    method: 'get', path: DEVICE_LINKS, summary: "List the person's device links (never their codes)", tag: devicesTag,
    auth: ['access_token'], query: deviceLinkListQuery,
    response: { status: 200, description: 'A page of device links', schema: deviceLinkList }, errors: [400],
  },
  {
    method: 'post', path: `${DEVICE_LINKS}/claim`,
    summary: `Claim a device link on the second device with the same person's access token (another sign-in than the one that made it): a trust pairing. A wrong code is 422 invalid_code and counts against every pending link (locked after ${DEVICE_LINK_MAX_ATTEMPTS}); 410 device_link_expired, device_link_cancelled; 409 device_link_used, device_link_locked, same_device`,
    tag: devicesTag, auth: ['access_token'], body: claimDeviceLinkRequest,
    response: { status: 201, description: 'The trust pairing of the two devices', schema: trustPairingEnvelope }, errors: [409, 410],
  },
  {
    method: 'get', path: `${DEVICE_LINKS}/{id}`, summary: 'Read a device link (the first device waits for it to be claimed)', tag: devicesTag,
    auth: ['access_token'],
    response: { status: 200, description: 'The device link', schema: deviceLinkEnvelope }, errors: [404],
  },
  {
    method: 'post', path: `${DEVICE_LINKS}/{id}/cancel`, summary: 'Cancel a pending device link. 409 illegal_transition', tag: devicesTag,
    auth: ['access_token'],
    response: { status: 200, description: 'The device link, cancelled', schema: deviceLinkEnvelope }, errors: [404, 409],
  },
  {
    method: 'get', path: PAIRINGS, summary: "List trust pairings: a person's own, or the account's in this cell", tag: devicesTag,
    auth: ['access_token', 'api_token'], permission: 'read', query: trustPairingListQuery,
    response: { status: 200, description: 'A page of trust pairings', schema: trustPairingList }, errors: [400],
  },
  {
    method: 'get', path: `${PAIRINGS}/{id}`, summary: 'Read a trust pairing', tag: devicesTag,
    auth: ['access_token', 'api_token'], permission: 'read',
    response: { status: 200, description: 'The trust pairing', schema: trustPairingEnvelope }, errors: [404],
  },
  {
    method: 'post', path: `${PAIRINGS}/{id}/revoke`, summary: 'Revoke a trust pairing (the person, or the organisation). 409 illegal_transition', tag: devicesTag,
    auth: ['access_token', 'api_token'], permission: 'write',
    response: { status: 200, description: 'The trust pairing, revoked', schema: trustPairingEnvelope }, errors: [404, 409],
  },
];
