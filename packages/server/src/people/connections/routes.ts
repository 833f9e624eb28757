// A person's own connections, device links and trust pairings over the API, with the person's access token (scopes
// `connections:read`, `connections:write`): `GET /api/v1/me/connections`, one, `POST .../{id}/disconnect`;
// `GET /api/v1/me/device_links`, one, `POST .../{id}/claim` (the code another device shows: the two are paired),
// `POST .../{id}/cancel`; `GET /api/v1/me/trust_pairings`, one, `POST .../{id}/revoke`. Every action is Connect's own
// function (the same withdrawals, grant revocations, guessing limits and webhooks as the organisation's API), taken
// as the person row of the organisation that holds the thing. A replayed action changes nothing and answers 200.
// What the people's connections pages and `<svc-connections>` call.
import {
  CONNECTIONS_READ_SCOPE,
  CONNECTIONS_WRITE_SCOPE,
  claimPersonDeviceLinkRequest,
  DEVICE_LINK_MAX_ATTEMPTS,
  type DisconnectResult,
  disconnectResult,
  personConnectionEnvelope,
  personConnectionList,
  personConnectionListQuery,
  personDeviceLinkEnvelope,
  personDeviceLinkList,
  personDeviceLinkListQuery,
  personTrustPairingEnvelope,
  personTrustPairingList,
  personTrustPairingListQuery,
} from '@svc/schemas';
import type { Context, MiddlewareHandler } from 'hono';
import { requires } from '../../infra/auth.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import { route, routes } from '../../infra/http/route.js';
import { disconnectConnection, visibleConnection } from '../../surfaces/connect/connections.js';
import { bearerHash, cancelDeviceLink, claimDeviceLink, revokeTrustPairing, visiblePairing } from '../../surfaces/connect/devices.js';
import { holding, personOf, readerOf, type PersonReader } from '../reader.js';
import {
  asOwner,
  findPersonConnection,
  findPersonDeviceLink,
  findPersonTrustPairing,
  listPersonConnections,
  listPersonDeviceLinks,
  listPersonTrustPairings,
  type OwnedRow,
  toPersonConnection,
  toPersonDeviceLink,
  toPersonTrustPairing,
} from './store.js';

const ME = '/api/v1/me';
const tag = 'Person connections';
const WHAT = 'connections, device links and trust pairings';

/** Reading: the person, or a delegate whose grant delegates connections:read. */
const reading = [requires('read', { person: true, delegateScope: CONNECTIONS_READ_SCOPE }), holding(CONNECTIONS_READ_SCOPE, WHAT)];
/** Disconnecting: the person, or a delegate whose grant delegates connections:write. */
const writing = [requires('write', { person: true, delegateScope: CONNECTIONS_WRITE_SCOPE }), holding(CONNECTIONS_WRITE_SCOPE, WHAT)];
/** A device is the person's own: pairing or unpairing it is never delegated. */
const ownDevice = [requires('write', { person: true }), holding(CONNECTIONS_WRITE_SCOPE, WHAT)];

type Finder = (ctx: ServerContext, reader: PersonReader, id: string) => OwnedRow | undefined;

/** The caller's row named in the path, or the same 404 for every row that is not theirs (no oracle). */
const owned = (ctx: ServerContext, c: Context<Env>, find: Finder, what: string): OwnedRow => {
  const reader = readerOf(ctx, personOf(c));
  const row = reader && find(ctx, reader, c.req.param('id')!);
  if (!row) throw notFound(`No such ${what}.`);
  return row;
};

/** 404 before the body is read, for a row that is not the caller's. */
const ownedFirst =
  (ctx: ServerContext, find: Finder, what: string): MiddlewareHandler<Env> =>
  async (c, next) => {
    owned(ctx, c, find, what);
    await next();
  };

export const personConnectionRoutes = routes((app, ctx) => {
  const own = (c: Context<Env>) => owned(ctx, c, findPersonConnection, 'connection');
  const empty = { connections: [], next_cursor: null };

  route(
    app,
    {
      method: 'get',
      path: `${ME}/connections`,
      tag,
      summary:
        "The applications the signed-in person is connected to, most recently connected first: with the service's own clients, in every organisation (by their verified email); with an organisation's client, in that organisation only",
      auth: ['access_token'],
      query: personConnectionListQuery,
      middleware: reading,
      response: { status: 200, description: "A page of the person's connections (needs connections:read)", schema: personConnectionList },
      errors: [400],
    },
    (c, { query }) => {
      const reader = readerOf(ctx, personOf(c));
      return c.json(reader ? listPersonConnections(ctx, personOf(c), reader, query) : empty);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${ME}/connections/{id}`,
      tag,
      summary:
        "One of the signed-in person's connections, with what governs it (another person's, or another organisation's for its client, is 404)",
      auth: ['access_token'],
      middleware: reading,
      response: { status: 200, description: 'The connection as the person reads it', schema: personConnectionEnvelope },
      errors: [404],
    },
    (c) => c.json({ connection: toPersonConnection(ctx, personOf(c), own(c)) }),
  );

  route(
    app,
    {
      method: 'post',
      path: `${ME}/connections/{id}/disconnect`,
      tag,
      summary:
        'The person disconnects (final): the consent in force is withdrawn (event channel person_records, revoking the credentials that attest it) and the delegation grants made through the application or to its agents are revoked; warnings name each. Once disconnected, a replay changes nothing: the connection as it is, no warnings',
      auth: ['access_token'],
      middleware: [...writing, ownedFirst(ctx, findPersonConnection, 'connection')],
      response: { status: 200, description: 'The connection and what stopped working', schema: disconnectResult },
      errors: [404, 409],
    },
    (c) => c.json(disconnect(ctx, c, own(c))),
  );
});

/** Connect's own disconnection, as the person row that holds the connection; the answer as it stands when already done. */
function disconnect(ctx: ServerContext, c: Context<Env>, row: OwnedRow): DisconnectResult {
  const owner = asOwner(personOf(c), row);
  const current = visibleConnection(ctx, owner, row.id);
  if (current.status === 'disconnected') {
    return { connection: { id: current.id, status: current.status, disconnected_at: current.disconnected_at }, warnings: [] };
  }
  return disconnectConnection(ctx, owner, current);
}

export const personDeviceRoutes = routes((app, ctx) => {
  const link = (c: Context<Env>) => owned(ctx, c, findPersonDeviceLink, 'device link');
  const pairing = (c: Context<Env>) => owned(ctx, c, findPersonTrustPairing, 'trust pairing');

  route(
    app,
    {
      method: 'get',
      path: `${ME}/device_links`,
      tag,
      summary: "The signed-in person's device links, most recently made first (never their codes)",
      auth: ['access_token'],
      query: personDeviceLinkListQuery,
      middleware: reading,
      response: { status: 200, description: "A page of the person's device links", schema: personDeviceLinkList },
      errors: [400],
    },
    (c, { query }) => {
      const reader = readerOf(ctx, personOf(c));
      return c.json(reader ? listPersonDeviceLinks(ctx, personOf(c), reader, query) : { device_links: [], next_cursor: null });
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${ME}/device_links/{id}`,
      tag,
      summary: "One of the signed-in person's device links",
      auth: ['access_token'],
      middleware: reading,
      response: { status: 200, description: 'The device link', schema: personDeviceLinkEnvelope },
      errors: [404],
    },
    (c) => c.json({ device_link: toPersonDeviceLink(ctx, personOf(c), link(c)) }),
  );

  route(
    app,
    {
      method: 'post',
      path: `${ME}/device_links/{id}/claim`,
      tag,
      summary: `Link this device: the code the person's other device shows, compared with their device links in the named link's organisation (as POST /api/v1/device_links/claim): a trust pairing. Never a delegate. A wrong code is 422 invalid_code and counts against every pending link (locked after ${DEVICE_LINK_MAX_ATTEMPTS}); 410 device_link_expired, device_link_cancelled; 409 device_link_used, device_link_locked, same_device; 429 with Retry-After`,
      auth: ['access_token'],
      middleware: [...ownDevice, ownedFirst(ctx, findPersonDeviceLink, 'device link')],
      body: claimPersonDeviceLinkRequest,
      response: { status: 201, description: 'The trust pairing of the two devices', schema: personTrustPairingEnvelope },
      errors: [404, 409, 410, 422, 429],
    },
    async (c, { body }) => {
      const reader = readerOf(ctx, personOf(c))!;
      const made = await claimDeviceLink(ctx, asOwner(personOf(c), link(c)), body, bearerHash(c.req.header('authorization')));
      const row = findPersonTrustPairing(ctx, reader, made.id)!;
      return c.json({ trust_pairing: toPersonTrustPairing(ctx, personOf(c), row) }, 201);
    },
  );

  route(
    app,
    {
      method: 'post',
      path: `${ME}/device_links/{id}/cancel`,
      tag,
      summary: 'Cancel a pending device link (never a delegate); a cancelled one is answered as it is. 409 illegal_transition',
      auth: ['access_token'],
      middleware: ownDevice,
      response: { status: 200, description: 'The device link, cancelled', schema: personDeviceLinkEnvelope },
      errors: [404, 409],
    },
    (c) => {
      const row = link(c);
      const before = toPersonDeviceLink(ctx, personOf(c), row);
      if (before.status !== 'cancelled') cancelDeviceLink(ctx, asOwner(personOf(c), row), row.id);
      return c.json({ device_link: toPersonDeviceLink(ctx, personOf(c), row) });
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${ME}/trust_pairings`,
      tag,
      summary: "The signed-in person's trust pairings (devices paired by a device link), most recently paired first",
      auth: ['access_token'],
      query: personTrustPairingListQuery,
      middleware: reading,
      response: { status: 200, description: "A page of the person's trust pairings", schema: personTrustPairingList },
      errors: [400],
    },
    (c, { query }) => {
      const reader = readerOf(ctx, personOf(c));
      return c.json(reader ? listPersonTrustPairings(ctx, personOf(c), reader, query) : { trust_pairings: [], next_cursor: null });
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${ME}/trust_pairings/{id}`,
      tag,
      summary: "One of the signed-in person's trust pairings",
      auth: ['access_token'],
      middleware: reading,
      response: { status: 200, description: 'The trust pairing', schema: personTrustPairingEnvelope },
      errors: [404],
    },
    (c) => c.json({ trust_pairing: toPersonTrustPairing(ctx, personOf(c), pairing(c)) }),
  );

  route(
    app,
    {
      method: 'post',
      path: `${ME}/trust_pairings/{id}/revoke`,
      tag,
      summary: 'Unpair two devices (never a delegate); a revoked pairing is answered as it is',
      auth: ['access_token'],
      middleware: ownDevice,
      response: { status: 200, description: 'The trust pairing, revoked', schema: personTrustPairingEnvelope },
      errors: [404],
    },
    (c) => {
      const row = pairing(c);
      const current = visiblePairing(ctx, asOwner(personOf(c), row), row.id);
      if (current.status === 'active') revokeTrustPairing(ctx, current);
      return c.json({ trust_pairing: toPersonTrustPairing(ctx, personOf(c), row) });
    },
  );
});
