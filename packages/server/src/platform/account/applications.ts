import {
  activityEventList,
  applicationEnvelope,
  applicationList,
  createApplicationRequest,
  createdApplication,
  listQuery,
  updateApplicationRequest,
} from '@svc/schemas';
import { z } from 'zod/mini';
import { route, routes } from '../../infra/http/route.js';
import { listActivity } from '../../infra/activity.js';
import { assertCountryCell } from '../../infra/cells/routing.js';
import { createApplication, getApplication, listApplications, toApplication, updateApplication } from '../application-store.js';
import { notFound } from '../../infra/errors.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';

const activityQuery = z.object({
  ...listQuery.shape,
  type: z.optional(
    z.string().check(z.regex(/^[a-z_]+(\.[a-z_]+)*$/, 'type must be an event type such as cors.preflight_denied'), z.maxLength(100)),
  ),
});

const tag = 'Applications';
const noSuchApplication = () => notFound('No such application.');

/** `GET|POST /api/v1/applications`, `GET|PATCH /api/v1/applications/{id}`, `GET /api/v1/applications/{id}/activity`. */
export const applicationRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'get',
      path: '/api/v1/applications',
      summary: "List the account's applications",
      tag,
      permission: 'read',
      query: listQuery,
      response: { status: 200, description: 'A page of applications', schema: applicationList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor } }) => c.json(listApplications(ctx, c.get('principal').accountId, { limit, cursor })),
  );

  route(
    app,
    {
      method: 'post',
      path: '/api/v1/applications',
      summary: 'Create an application and its publishable key',
      tag,
      permission: 'write',
      body: createApplicationRequest,
      response: { status: 201, description: 'The application and its publishable key (shown once)', schema: createdApplication },
      errors: [400, 422],
    },
    (c, { body: { application } }) => {
      assertCountryCell(ctx, application.home_country);
      const created = createApplication(ctx, c.get('principal').accountId, application);
      return c.json({ application: toApplication(ctx, created.application), publishable_key: created.publishable_key }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: '/api/v1/applications/{id}',
      summary: 'Read an application',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The application', schema: applicationEnvelope },
      errors: [404],
    },
    (c) => {
      const found = getApplication(ctx, c.get('principal').accountId, c.req.param('id')!);
      if (!found) throw noSuchApplication();
      return c.json({ application: toApplication(ctx, found) });
    },
  );

  route(
    app,
    {
      method: 'patch',
      path: '/api/v1/applications/{id}',
      summary: 'Change an application (name, active, type, visibility, browser commit)',
      tag,
      permission: 'write',
      body: updateApplicationRequest,
      response: { status: 200, description: 'The application', schema: applicationEnvelope },
      errors: [400, 404, 422],
    },
    (c, { body: { application } }) => {
      assertCountryCell(ctx, application.home_country);
      const updated = updateApplication(ctx, c.get('principal').accountId, c.req.param('id')!, application);
      if (!updated) throw noSuchApplication();
      return c.json({ application: toApplication(ctx, updated) });
    },
  );

  route(
    app,
    {
      method: 'get',
      path: '/api/v1/applications/{id}/activity',
      summary: "List an application's activity events, such as cors.preflight_denied",
      tag,
      permission: 'read',
      query: activityQuery,
      response: { status: 200, description: 'A page of activity events, oldest first', schema: activityEventList },
      errors: [400, 404],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, type } }) => {
      const found = getApplication(ctx, c.get('principal').accountId, c.req.param('id')!);
      if (!found) throw noSuchApplication();
      return c.json(listActivity(ctx, found.id, { limit, cursor, type }));
    },
  );
});
