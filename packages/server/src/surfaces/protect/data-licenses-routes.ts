// Protect's data licenses: the organisation's (API tokens only), issued under an active agreement, each access
// counted atomically up to its max_access_count.
import {
  createDataLicenseRequest,
  dataLicenseAccessEnvelope,
  dataLicenseAccessList,
  dataLicenseEnvelope,
  dataLicenseList,
  dataLicenseListQuery,
  listQuery,
  recordDataLicenseAccessRequest,
} from '@svc/schemas';
import type { z } from 'zod/mini';
import { route, routes } from '../../infra/http/route.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import {
  createDataLicense,
  findDataLicense,
  listAccesses,
  listDataLicenses,
  recordAccess,
  revokeDataLicense,
  toDataLicense,
} from './data-licenses.js';
import { type C, found, idOf, tag } from './http.js';

const LICENSES = '/api/v1/data_licenses';

export const dataLicenseRoutes = routes((app, ctx) => {
  const licenseOf = (c: C) => found(findDataLicense(ctx, c.get('principal').accountId, idOf(c)), 'data license');

  route(
    app,
    {
      method: 'post',
      path: LICENSES,
      summary:
        'Issue a data license (CreateDataLicenseRequest) under an active agreement of the account (422 agreement_not_found, agreement_not_active; 421 when the agreement is homed in another cell)',
      tag,
      permission: 'write',
      body: createDataLicenseRequest,
      response: { status: 201, description: 'The data license, active', schema: dataLicenseEnvelope },
      errors: [422],
    },
    (c, { body }) => {
      const row = createDataLicense(ctx, c.get('principal').accountId, body);
      c.header('Location', `${LICENSES}/${row.id}`);
      return c.json({ data_license: toDataLicense(ctx, row) }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: LICENSES,
      summary: "List the account's data licenses, oldest first; filters status, agreement_id",
      tag,
      permission: 'read',
      query: dataLicenseListQuery,
      response: { status: 200, description: 'A page of data licenses', schema: dataLicenseList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, ...query } }) => c.json(listDataLicenses(ctx, c.get('principal').accountId, { limit, ...query })),
  );

  route(
    app,
    {
      method: 'get',
      path: `${LICENSES}/{id}`,
      summary: 'Read a data license with its access count and remaining accesses',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The data license', schema: dataLicenseEnvelope },
      errors: [404],
    },
    (c) => c.json({ data_license: toDataLicense(ctx, licenseOf(c)) }),
  );

  // The body is optional: no body at all counts an access without purpose or accessor.
  const count = (c: C, input: z.output<typeof recordDataLicenseAccessRequest>) =>
    c.json({ data_license_access: recordAccess(ctx, licenseOf(c), input).access }, 201);
  route(
    app,
    {
      method: 'post',
      path: `${LICENSES}/{id}/accesses`,
      summary:
        'Count one access, atomically: never past max_access_count however requests race (409 max_access_count_reached once every access is used; 409 data_license_revoked). The body ({purpose, accessor}) is optional',
      tag,
      permission: 'write',
      body: recordDataLicenseAccessRequest,
      optionalBody: true,
      response: {
        status: 201,
        description: 'The access, with its sequence number and the accesses remaining',
        schema: dataLicenseAccessEnvelope,
      },
      errors: [404, 409],
    },
    (c, { body }) => count(c, body),
  );

  route(
    app,
    {
      method: 'get',
      path: `${LICENSES}/{id}/accesses`,
      summary: "A license's accesses in the order they were counted",
      tag,
      permission: 'read',
      query: listQuery,
      response: { status: 200, description: 'A page of accesses', schema: dataLicenseAccessList },
      errors: [400, 404],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor } }) => c.json(listAccesses(ctx, licenseOf(c), { limit, cursor })),
  );

  route(
    app,
    {
      method: 'post',
      path: `${LICENSES}/{id}/revoke`,
      summary: 'Revoke a data license (active | exhausted -> revoked, final; again 409 illegal_transition)',
      tag,
      permission: 'write',
      response: { status: 200, description: 'The data license, revoked', schema: dataLicenseEnvelope },
      errors: [404, 409],
    },
    (c) => c.json({ data_license: toDataLicense(ctx, revokeDataLicense(ctx, licenseOf(c))) }),
  );
});
