// Connect's `/api/v1/device_links` (pairing a person's second device by a short code; the person's access token on
// both devices) and `/api/v1/trust_pairings` (what a claimed link made: the person's own, or the account's with an
// API token).
import {
  claimDeviceLinkRequest,
  createDeviceLinkRequest,
  deviceLinkEnvelope,
  deviceLinkList,
  deviceLinkListQuery,
  trustPairingEnvelope,
  trustPairingList,
  trustPairingListQuery,
  DEVICE_LINK_MAX_ATTEMPTS,
  DEVICE_LINK_TTL_SECONDS,
} from '@svc/schemas';
import type { Context } from 'hono';
import type { Env } from '../../infra/context.js';
import { route, routes } from '../../infra/http/route.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { GUESS_LIMITS } from '../../platform/oauth/guessing.js';
import { personOnly } from './connections.js';
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
import { personsOwn } from './http.js';

const DEVICE_LINKS = '/api/v1/device_links';
const PAIRINGS = '/api/v1/trust_pairings';
const tag = 'Device links and trust pairings';

/** Device links are the person's alone: only their access token. */
const A_LINK = 'A device link';
const linkOwner = (c: Context<Env>, what = A_LINK) => personOnly(c.get('principal'), what);

export const deviceLinkRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'post',
      path: DEVICE_LINKS,
      summary: `Make a device link on the first device (the person's access token): its code (8 characters, shown once as XXXX-XXXX) is valid ${DEVICE_LINK_TTL_SECONDS / 60} minutes, once. 409 too_many_device_links`,
      tag,
      auth: ['access_token'],
      middleware: personsOwn('write', A_LINK),
      body: createDeviceLinkRequest,
      response: { status: 201, description: 'The device link with its code', schema: deviceLinkEnvelope },
      errors: [409],
    },
    (c, { body }) => {
      const link = createDeviceLink(ctx, linkOwner(c), body, bearerHash(c.req.header('authorization')));
      c.header('Location', `${DEVICE_LINKS}/${link.id}`);
      c.header('Cache-Control', 'no-store');
      return c.json({ device_link: link }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: DEVICE_LINKS,
      summary: "List the person's device links (never their codes)",
      tag,
      auth: ['access_token'],
      middleware: personsOwn('read', A_LINK),
      query: deviceLinkListQuery,
      response: { status: 200, description: 'A page of device links', schema: deviceLinkList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, status } }) => c.json(listDeviceLinks(ctx, linkOwner(c), { limit, cursor, status })),
  );

  route(
    app,
    {
      method: 'post',
      path: `${DEVICE_LINKS}/claim`,
      summary: `Claim a device link on the second device with the same person's access token (another sign-in than the one that made it): a trust pairing. A wrong code is 422 invalid_code and counts against every pending link (locked after ${DEVICE_LINK_MAX_ATTEMPTS}); 410 device_link_expired, device_link_cancelled; 409 device_link_used, device_link_locked, same_device; 429 with Retry-After past ${GUESS_LIMITS.device_link_code.points} wrong codes in ${GUESS_LIMITS.device_link_code.windowSeconds / 60} minutes, the right code too`,
      tag,
      auth: ['access_token'],
      middleware: personsOwn('write', 'Claiming a device link'),
      body: claimDeviceLinkRequest,
      response: { status: 201, description: 'The trust pairing of the two devices', schema: trustPairingEnvelope },
      errors: [409, 410, 429],
    },
    async (c, { body }) => {
      const pairing = await claimDeviceLink(ctx, linkOwner(c, 'Claiming a device link'), body, bearerHash(c.req.header('authorization')));
      c.header('Location', `${PAIRINGS}/${pairing.id}`);
      return c.json({ trust_pairing: pairing }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${DEVICE_LINKS}/{id}`,
      summary: 'Read a device link (the first device waits for it to be claimed)',
      tag,
      auth: ['access_token'],
      middleware: personsOwn('read', A_LINK),
      response: { status: 200, description: 'The device link', schema: deviceLinkEnvelope },
      errors: [404],
    },
    (c) => c.json({ device_link: getDeviceLink(ctx, linkOwner(c), c.req.param('id')!) }),
  );

  route(
    app,
    {
      method: 'post',
      path: `${DEVICE_LINKS}/{id}/cancel`,
      summary: 'Cancel a pending device link. 409 illegal_transition',
      tag,
      auth: ['access_token'],
      middleware: personsOwn('write', A_LINK),
      response: { status: 200, description: 'The device link, cancelled', schema: deviceLinkEnvelope },
      errors: [404, 409],
    },
    (c) => c.json({ device_link: cancelDeviceLink(ctx, linkOwner(c), c.req.param('id')!) }),
  );
});

export const trustPairingRoutes = routes((app, ctx) => {
  const visible = (c: Context<Env>) => visiblePairing(ctx, c.get('principal'), c.req.param('id')!);

  route(
    app,
    {
      method: 'get',
      path: PAIRINGS,
      summary: "List trust pairings: a person's own, or the account's in this cell",
      tag,
      permission: 'read',
      access: { person: true },
      query: trustPairingListQuery,
      response: { status: 200, description: 'A page of trust pairings', schema: trustPairingList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, status } }) =>
      c.json(listTrustPairings(ctx, c.get('principal'), { limit, cursor, status })),
  );

  route(
    app,
    {
      method: 'get',
      path: `${PAIRINGS}/{id}`,
      summary: 'Read a trust pairing',
      tag,
      permission: 'read',
      access: { person: true },
      response: { status: 200, description: 'The trust pairing', schema: trustPairingEnvelope },
      errors: [404],
    },
    (c) => c.json({ trust_pairing: toTrustPairing(visible(c)) }),
  );

  route(
    app,
    {
      method: 'post',
      path: `${PAIRINGS}/{id}/revoke`,
      summary: 'Revoke a trust pairing (the person, or the organisation). 409 illegal_transition',
      tag,
      permission: 'write',
      access: { person: true },
      response: { status: 200, description: 'The trust pairing, revoked', schema: trustPairingEnvelope },
      errors: [404, 409],
    },
    (c) => c.json({ trust_pairing: revokeTrustPairing(ctx, visible(c)) }),
  );
});
