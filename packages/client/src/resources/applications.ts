import {
  activityEventList,
  applicationEnvelope,
  applicationList,
  createdApplication,
  type ActivityEvent,
  type Application,
  type CreateApplicationRequest,
  type UpdateApplicationRequest,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';
import { allowedOriginsResource, type AllowedOriginsResource } from './allowed-origins.js';
import { formConnectionsResource, type FormConnectionsResource } from './form-connections.js';

/** A new application with its publishable key, which the API shows only this once. */
export interface CreatedApplication {
  /** The application. */
  application: Application;
  /** Its publishable key (`pk_test_...` for development, `pk_live_...` for production). */
  publishable_key: string;
}

/** Query of an application's activity log. */
export type ActivityQuery = ListQuery & {
  /** Only events of this type, e.g. `cors.preflight_denied`. */
  type?: string | undefined;
};

const path = (id: string, action = '') => `/api/v1/applications/${encodeURIComponent(id)}${action}`;

/** Lists the account's applications (`GET /api/v1/applications`). */
export function listApplications(connection: SvcConnection<'bearer'>, query?: ListQuery, options?: CallOptions): SvcList<Application> {
  return listEndpoint(connection, '/api/v1/applications', applicationList, 'applications', query, options);
}

/** Creates an application and its publishable key (`POST /api/v1/applications`). */
export function createApplication(
  connection: SvcConnection<'bearer'>,
  request: CreateApplicationRequest['application'],
  options?: WriteOptions,
): Promise<CreatedApplication> {
  return connection.request(
    {
      method: 'POST',
      path: '/api/v1/applications',
      body: { application: request } satisfies CreateApplicationRequest,
      schema: createdApplication,
    },
    options,
  );
}

/** Reads an application (`GET /api/v1/applications/{id}`). */
export function getApplication(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<Application> {
  return connection.request({ method: 'GET', path: path(id), schema: applicationEnvelope }, options).then((body) => body.application);
}

/** Changes an application's name, type, visibility, `active` or browser commit (`PATCH /api/v1/applications/{id}`). */
export function updateApplication(
  connection: SvcConnection<'bearer'>,
  id: string,
  changes: UpdateApplicationRequest['application'],
  options?: WriteOptions,
): Promise<Application> {
  return connection
    .request(
      { method: 'PATCH', path: path(id), body: { application: changes } satisfies UpdateApplicationRequest, schema: applicationEnvelope },
      options,
    )
    .then((body) => body.application);
}

/** Lists an application's activity events, oldest first (`GET /api/v1/applications/{id}/activity`). */
export function listApplicationActivity(
  connection: SvcConnection<'bearer'>,
  id: string,
  query?: ActivityQuery,
  options?: CallOptions,
): SvcList<ActivityEvent> {
  return listEndpoint(connection, path(id, '/activity'), activityEventList, 'activity_events', query, options);
}

/** The account's applications, with their allowed origins and activity. */
export interface ApplicationsResource {
  /** Lists the applications; see {@link listApplications}. */
  list(query?: ListQuery, options?: CallOptions): SvcList<Application>;
  /** Creates an application and its publishable key; see {@link createApplication}. */
  create(request: CreateApplicationRequest['application'], options?: WriteOptions): Promise<CreatedApplication>;
  /** Reads an application; see {@link getApplication}. */
  get(id: string, options?: CallOptions): Promise<Application>;
  /** Changes an application; see {@link updateApplication}. */
  update(id: string, changes: UpdateApplicationRequest['application'], options?: WriteOptions): Promise<Application>;
  /** Lists an application's activity events; see {@link listApplicationActivity}. */
  activity(id: string, query?: ActivityQuery, options?: CallOptions): SvcList<ActivityEvent>;
  /** The browser origins registered for an application. */
  readonly allowedOrigins: AllowedOriginsResource;
  /** The form platform (Typeform-compatible) connections of an application. */
  readonly formConnections: FormConnectionsResource;
}

/** Binds the application functions to a connection. */
export function applicationsResource(connection: SvcConnection<'bearer'>): ApplicationsResource {
  return {
    list: (query, options) => listApplications(connection, query, options),
    create: (request, options) => createApplication(connection, request, options),
    get: (id, options) => getApplication(connection, id, options),
    update: (id, changes, options) => updateApplication(connection, id, changes, options),
    activity: (id, query, options) => listApplicationActivity(connection, id, query, options),
    allowedOrigins: allowedOriginsResource(connection),
    formConnections: formConnectionsResource(connection),
  };
}
