// Comply, organisation side (API tokens only: `read` to look, `write` to create and close, `admin` for modules and
// governance; a person's access token, an agent token and a publishable key are refused):
// `GET /api/v1/modules`, `PATCH /api/v1/modules/{key}`; `GET|PATCH /api/v1/governance`,
// `GET /api/v1/governance/changes`; `POST|GET /api/v1/clean_rooms`, `GET …/{id}`, `POST …/{id}/close`,
// `POST|GET …/{id}/queries`, `GET …/{id}/queries/{query_id}`; `POST|GET /api/v1/meeting_consents`, `GET …/{id}`,
// `POST …/{id}/cancel`. Another account's resource is a 404, as if it did not exist.
import {
  cleanRoomEnvelope,
  cleanRoomList,
  cleanRoomListQuery,
  cleanRoomQueryEnvelope,
  cleanRoomQueryList,
  createCleanRoomQueryRequest,
  createCleanRoomRequest,
  createMeetingConsentRequest,
  governanceChangeList,
  governanceChangeListQuery,
  governanceEnvelope,
  listQuery,
  meetingConsentEnvelope,
  meetingConsentList,
  meetingConsentListQuery,
  moduleEnvelope,
  moduleList,
  updateGovernanceRequest,
  updateModuleRequest,
} from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { route, routes } from '../../infra/http/route.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { closeRoom, createRoom, findQuery, findRoom, listQueries, listRooms, runQuery, toRoom } from './clean-rooms.js';
import {
  getGovernance,
  getModule,
  isModuleKey,
  listGovernanceChanges,
  pageModules,
  requireModule,
  setModule,
  updateGovernance,
} from './governance.js';
import { cancelMeeting, createMeeting, findMeeting, listMeetings, toMeeting } from './meetings.js';

const MODULES = '/api/v1/modules';
const GOVERNANCE = '/api/v1/governance';
const ROOMS = '/api/v1/clean_rooms';
const MEETINGS = '/api/v1/meeting_consents';

function room(ctx: ServerContext, c: Context<Env>) {
  const row = findRoom(ctx, c.get('principal').accountId, c.req.param('id') ?? '');
  if (!row) throw notFound('No such clean room.');
  return row;
}

function meeting(ctx: ServerContext, c: Context<Env>) {
  const row = findMeeting(ctx, c.get('principal').accountId, c.req.param('id') ?? '');
  if (!row) throw notFound('No such meeting consent.');
  return row;
}

const tag = 'Comply: modules, governance, clean rooms, meeting consents';

/** The Comply surface's modules, governance, clean rooms and meeting consents. */
export const complySurfaceRoutes = routes((app, ctx) => {
  moduleRoutes(app, ctx);
  governanceRoutes(app, ctx);
  cleanRoomRoutes(app, ctx);
  cleanRoomQueryRoutes(app, ctx);
  meetingRoutes(app, ctx);
});

function moduleKey(c: Context<Env>) {
  const key = c.req.param('key')!;
  if (!isModuleKey(key)) throw notFound(`No module ${key.slice(0, 40)}.`);
  return key;
}

function moduleRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  route(
    app,
    {
      method: 'get',
      path: MODULES,
      summary:
        "The account's product modules (connect, verify, protect, agree, delegate, comply): enabled, since when, the path families each covers",
      tag,
      permission: 'read',
      query: listQuery,
      response: { status: 200, description: 'The modules', schema: moduleList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor } }) => c.json(pageModules(ctx, c.get('principal').accountId, limit, cursor)),
  );

  route(
    app,
    {
      method: 'get',
      path: `${MODULES}/{key}`,
      summary: 'Read one module',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The module', schema: moduleEnvelope },
      errors: [404],
    },
    (c) => c.json({ module: getModule(ctx, c.get('principal').accountId, moduleKey(c)) }),
  );

  route(
    app,
    {
      method: 'patch',
      path: `${MODULES}/{key}`,
      summary:
        'Enable or disable a module (admin; logged in the governance change log). While comply is disabled, creating clean rooms, queries and meeting consents answers 403 module_disabled',
      tag,
      permission: 'admin',
      body: updateModuleRequest,
      response: { status: 200, description: 'The module as it is now', schema: moduleEnvelope },
      errors: [404, 422],
    },
    (c, { body: { module } }) => {
      const principal = c.get('principal');
      return c.json({ module: setModule(ctx, principal.accountId, principal, moduleKey(c), module.enabled) });
    },
  );
}

function governanceRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  route(
    app,
    {
      method: 'get',
      path: GOVERNANCE,
      summary: "The account's governance settings, each with its default when never set",
      tag,
      permission: 'read',
      response: { status: 200, description: 'The governance settings', schema: governanceEnvelope },
    },
    (c) => c.json({ governance: getGovernance(ctx, c.get('principal').accountId) }),
  );

  route(
    app,
    {
      method: 'patch',
      path: GOVERNANCE,
      summary:
        'Change governance settings (admin): the named ones change, the others keep their values; each change is logged with its actor, from and to. 422 unknown_country (allowed_countries), template_not_found, template_not_active (default_meeting_template)',
      tag,
      permission: 'admin',
      body: updateGovernanceRequest,
      response: { status: 200, description: 'The governance settings as they are now', schema: governanceEnvelope },
      errors: [422],
    },
    (c, { body: { governance } }) => {
      const principal = c.get('principal');
      return c.json({ governance: updateGovernance(ctx, principal.accountId, principal, governance) });
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${GOVERNANCE}/changes`,
      summary: 'The governance change log (settings and modules), oldest first, or newest first with sort=newest',
      tag,
      permission: 'read',
      query: governanceChangeListQuery,
      response: { status: 200, description: 'A page of changes', schema: governanceChangeList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, sort } }) =>
      c.json(listGovernanceChanges(ctx, c.get('principal').accountId, limit, cursor, sort === 'newest')),
  );
}

function cleanRoomRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  route(
    app,
    {
      method: 'post',
      path: ROOMS,
      summary:
        "Open a clean room under an active agreement of this cell over the consent records of the account's applications named as participants. 409 agreement_not_active; 422 agreement_not_found, participant_not_found, expires_at_invalid; 403 country_not_allowed, module_disabled; 421 when the agreement is homed in another cell",
      tag,
      permission: 'write',
      body: createCleanRoomRequest,
      response: { status: 201, description: 'The clean room, active', schema: cleanRoomEnvelope },
      errors: [404, 409, 421, 422],
    },
    (c, { body }) => {
      const accountId = c.get('principal').accountId;
      requireModule(ctx, accountId, 'comply');
      const created = createRoom(ctx, accountId, body);
      c.header('Location', `${ROOMS}/${created.id}`);
      return c.json({ clean_room: created }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: ROOMS,
      summary: "The account's clean rooms of this cell, oldest first (filter: status)",
      tag,
      permission: 'read',
      query: cleanRoomListQuery,
      response: { status: 200, description: 'A page of clean rooms', schema: cleanRoomList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, status } }) =>
      c.json(listRooms(ctx, c.get('principal').accountId, { limit, cursor, status })),
  );

  route(
    app,
    {
      method: 'get',
      path: `${ROOMS}/{id}`,
      summary: 'Read a clean room (a room past expires_at is expired)',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The clean room', schema: cleanRoomEnvelope },
      errors: [404, 421],
    },
    (c) => c.json({ clean_room: toRoom(ctx, room(ctx, c)) }),
  );

  route(
    app,
    {
      method: 'post',
      path: `${ROOMS}/{id}/close`,
      summary: 'Close an active clean room (409 illegal_transition from closed or expired)',
      tag,
      permission: 'write',
      response: { status: 200, description: 'The clean room, closed', schema: cleanRoomEnvelope },
      errors: [404, 409, 421],
    },
    (c) => c.json({ clean_room: closeRoom(ctx, room(ctx, c)) }),
  );
}

function cleanRoomQueryRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  route(
    app,
    {
      method: 'post',
      path: `${ROOMS}/{id}/queries`,
      summary:
        "Run an aggregate computation (count, count_by_purpose, overlap by hashed email, histogram by month) over the consents in force of the participants in this cell: buckets below the minimum cohort are suppressed; with privacy_parameters each count gets geometric (discrete Laplace) noise and epsilon is spent from the room's budget. 409 clean_room_closed, clean_room_expired, privacy_budget_exhausted; 422 participant_not_in_room, overlap_needs_two, min_cohort_too_small, sensitivity_too_small, privacy_parameters_required, window_too_long",
      tag,
      permission: 'write',
      body: createCleanRoomQueryRequest,
      response: { status: 201, description: 'The query, completed, with its result', schema: cleanRoomQueryEnvelope },
      errors: [404, 409, 421, 422],
    },
    (c, { body }) => {
      const accountId = c.get('principal').accountId;
      const row = room(ctx, c);
      requireModule(ctx, accountId, 'comply');
      const query = runQuery(ctx, accountId, row, body);
      c.header('Location', `${ROOMS}/${row.id}/queries/${query.id}`);
      return c.json({ query }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${ROOMS}/{id}/queries`,
      summary: "The room's queries, oldest first",
      tag,
      permission: 'read',
      query: listQuery,
      response: { status: 200, description: 'A page of queries', schema: cleanRoomQueryList },
      errors: [400, 404, 421],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor } }) => c.json(listQueries(ctx, room(ctx, c), limit, cursor)),
  );

  route(
    app,
    {
      method: 'get',
      path: `${ROOMS}/{id}/queries/{query_id}`,
      summary: 'Read a query with its definition, privacy parameters and result',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The query', schema: cleanRoomQueryEnvelope },
      errors: [404, 421],
    },
    (c) => {
      const query = findQuery(ctx, room(ctx, c), c.req.param('query_id')!);
      if (!query) throw notFound('No such clean-room query.');
      return c.json({ query });
    },
  );
}

function meetingRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  route(
    app,
    {
      method: 'post',
      path: MEETINGS,
      summary:
        'Create a meeting consent (CreateMeetingConsentRequest): starts at scheduled_at (default now), ends duration_minutes (default 60) later; template an active flow (default the governance default_meeting_template, else the oldest active flow); agent_ids active agent identities of the account. Decisions name it in meeting_id. 422 scheduled_at_invalid, template_missing, template_not_found, template_not_active, agent_not_found, agent_not_active; 403 module_disabled',
      tag,
      permission: 'write',
      body: createMeetingConsentRequest,
      response: { status: 201, description: 'The meeting consent', schema: meetingConsentEnvelope },
      errors: [422],
    },
    (c, { body }) => {
      const accountId = c.get('principal').accountId;
      requireModule(ctx, accountId, 'comply');
      const created = createMeeting(ctx, accountId, body);
      c.header('Location', `${MEETINGS}/${created.id}`);
      return c.json({ meeting_consent: created }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: MEETINGS,
      summary: "The account's meeting consents, oldest first (filter: status)",
      tag,
      permission: 'read',
      query: meetingConsentListQuery,
      response: { status: 200, description: 'A page of meeting consents', schema: meetingConsentList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, status } }) =>
      c.json(listMeetings(ctx, c.get('principal').accountId, { limit, cursor, status })),
  );

  route(
    app,
    {
      method: 'get',
      path: `${MEETINGS}/{id}`,
      summary: 'Read a meeting consent (status scheduled, in_progress, ended or cancelled, by the clock)',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The meeting consent', schema: meetingConsentEnvelope },
      errors: [404],
    },
    (c) => c.json({ meeting_consent: toMeeting(ctx, meeting(ctx, c)) }),
  );

  route(
    app,
    {
      method: 'post',
      path: `${MEETINGS}/{id}/cancel`,
      summary:
        'Cancel a scheduled or running meeting (409 illegal_transition once ended or cancelled); no decision can be opened for it afterwards',
      tag,
      permission: 'write',
      response: { status: 200, description: 'The meeting consent, cancelled', schema: meetingConsentEnvelope },
      errors: [404, 409],
    },
    (c) => c.json({ meeting_consent: cancelMeeting(ctx, meeting(ctx, c)) }),
  );
}
