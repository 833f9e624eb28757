import {
  activityEventList,
  applicationEnvelope,
  applicationList,
  createApplicationRequest,
  createdApplication,
  listQuery,
  updateApplicationRequest,
} from '@svc/client/schemas';
import { z } from 'zod/mini';
import { routes } from '../../infra/http/route.js';
import { listActivity } from '../../infra/activity.js';
import { assertCountryCell } from '../../infra/cells/routing.js';
import { createApplication, getApplication, listApplications, toApplication, updateApplication } from '../application-store.js';
import { requires } from '../../infra/auth.js';
import { notFound } from '../../infra/errors.js';
import type { Operation } from '../../infra/operations.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { readJson, readQuery } from '../../infra/validate.js';

const activityQuery = z.object({
  ...listQuery.shape,
  type: z.optional(z.string().check(z.regex(/^[a-z_]+(\.[a-z_]+)*$/, 'type must be an event type such as cors.preflight_denied'), z.maxLength(100))),
});

/** `GET|POST /api/v1/applications`, `GET|PATCH /api/v1/applications/{id}`, `GET /api/v1/applications/{id}/activity`. */
export const applicationRoutes = routes((app, ctx) => {
  app.get('/api/v1/applications', requires('read'), (c) => {
    const { limit = DEFAULT_LIMIT, cursor } = readQuery(c, listQuery);
    return c.json(listApplications(ctx, c.get('principal').accountId, { limit, cursor }));
  });

  app.post('/api/v1/applications', requires('write'), async (c) => {
    const { application } = await readJson(c, createApplicationRequest);
    assertCountryCell(ctx, application.home_country);
    const created = createApplication(ctx, c.get('principal').accountId, application);
    return c.json({ application: toApplication(created.application), publishable_key: created.publishable_key }, 201);
  });

  app.get('/api/v1/applications/:id', requires('read'), (c) => {
    const found = getApplication(ctx, c.get('principal').accountId, c.req.param('id'));
    if (!found) throw notFound('No such application.');
    return c.json({ application: toApplication(found) });
  });

  app.patch('/api/v1/applications/:id', requires('write'), async (c) => {
    const { application } = await readJson(c, updateApplicationRequest);
    assertCountryCell(ctx, application.home_country);
    const updated = updateApplication(ctx, c.get('principal').accountId, c.req.param('id'), application);
    if (!updated) throw notFound('No such application.');
    return c.json({ application: toApplication(updated) });
  });

  app.get('/api/v1/applications/:id/activity', requires('read'), (c) => {
    const found = getApplication(ctx, c.get('principal').accountId, c.req.param('id'));
    if (!found) throw notFound('No such application.');
    const { limit = DEFAULT_LIMIT, cursor, type } = readQuery(c, activityQuery);
    return c.json(listActivity(ctx, found.id, { limit, cursor, type }));
  });
});

const tag = 'Applications';

/** OpenAPI descriptors of the application routes. */
export const applicationOperations: Operation[] = [
  {
    method: 'get', path: '/api/v1/applications', summary: "List the account's applications", tag,
    auth: ['api_token'], permission: 'read', query: listQuery,
    response: { status: 200, description: 'A page of applications', schema: applicationList }, errors: [400],
  },
  {
    method: 'post', path: '/api/v1/applications', summary: 'Create an application and its publishable key', tag,
    auth: ['api_token'], permission: 'write', body: createApplicationRequest,
    response: { status: 201, description: 'The application and its publishable key (shown once)', schema: createdApplication },
    errors: [400, 422],
  },
  {
    method: 'get', path: '/api/v1/applications/{id}', summary: 'Read an application', tag,
    auth: ['api_token'], permission: 'read',
    response: { status: 200, description: 'The application', schema: applicationEnvelope }, errors: [404],
  },
  {
    method: 'patch', path: '/api/v1/applications/{id}', summary: 'Change an application (name, active, type, visibility, browser commit)', tag,
    auth: ['api_token'], permission: 'write', body: updateApplicationRequest,
    response: { status: 200, description: 'The application', schema: applicationEnvelope }, errors: [400, 404, 422],
  },
  {
    method: 'get', path: '/api/v1/applications/{id}/activity', summary: "List an application's activity events, such as cors.preflight_denied", tag,
    auth: ['api_token'], permission: 'read', query: activityQuery,
    response: { status: 200, description: 'A page of activity events, oldest first', schema: activityEventList }, errors: [400, 404],
  },
];
