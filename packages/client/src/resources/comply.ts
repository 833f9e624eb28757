import {
  cleanRoomEnvelope,
  cleanRoomList,
  cleanRoomQueryEnvelope,
  cleanRoomQueryList,
  governanceChangeList,
  governanceEnvelope,
  meetingConsentEnvelope,
  meetingConsentList,
  moduleEnvelope,
  moduleList,
  type CleanRoom,
  type CleanRoomQuery,
  type CleanRoomQuerySummary,
  type CleanRoomStatus,
  type CreateCleanRoomQueryRequest,
  type CreateCleanRoomRequest,
  type CreateMeetingConsentRequest,
  type Governance,
  type GovernanceChange,
  type MeetingConsent,
  type MeetingConsentStatus,
  type ModuleKey,
  type ProductModule,
  type UpdateGovernanceRequest,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

const MODULES = '/api/v1/modules';
const GOVERNANCE = '/api/v1/governance';
const ROOMS = '/api/v1/clean_rooms';
const MEETINGS = '/api/v1/meeting_consents';
const at = (base: string, id: string, sub = '') => `${base}/${encodeURIComponent(id)}${sub}`;

/** Query of the clean-room list. */
export type CleanRoomQueryFilter = ListQuery & {
  /** Only rooms in this status (`active`, `closed`, `expired`). */
  status?: CleanRoomStatus | undefined;
};

/** Query of the meeting-consent list. */
export type MeetingConsentQuery = ListQuery & {
  /** Only meetings in this status (`scheduled`, `in_progress`, `ended`, `cancelled`). */
  status?: MeetingConsentStatus | undefined;
};

// ---- modules ------------------------------------------------------------------------------------------------

/** Lists the account's product modules (`GET /api/v1/modules`): enabled or not, since when, what each covers. */
export function listModules(connection: SvcConnection<'bearer'>, query?: ListQuery, options?: CallOptions): SvcList<ProductModule> {
  return listEndpoint(connection, MODULES, moduleList, 'modules', query, options);
}

/** Reads one module (`GET /api/v1/modules/{key}`). */
export function getModule(connection: SvcConnection<'bearer'>, key: ModuleKey, options?: CallOptions): Promise<ProductModule> {
  return connection.request({ method: 'GET', path: at(MODULES, key), schema: moduleEnvelope }, options).then((body) => body.module);
}

/**
 * Enables or disables a module (`PATCH /api/v1/modules/{key}`, an API token holding `admin`); the change is logged in
 * the governance change log. While `comply` is disabled, new clean rooms, queries and meeting consents are refused.
 */
export function updateModule(
  connection: SvcConnection<'bearer'>,
  key: ModuleKey,
  enabled: boolean,
  options?: WriteOptions,
): Promise<ProductModule> {
  return connection
    .request({ method: 'PATCH', path: at(MODULES, key), body: { module: { enabled } }, schema: moduleEnvelope }, options)
    .then((body) => body.module);
}

// ---- governance ---------------------------------------------------------------------------------------------

/** Reads the account's governance settings (`GET /api/v1/governance`), defaults filling what was never set. */
export function getGovernance(connection: SvcConnection<'bearer'>, options?: CallOptions): Promise<Governance> {
  return connection.request({ method: 'GET', path: GOVERNANCE, schema: governanceEnvelope }, options).then((body) => body.governance);
}

/** Changes governance settings (`PATCH /api/v1/governance`, `admin`): the named ones change, the rest keep their values. */
export function updateGovernance(
  connection: SvcConnection<'bearer'>,
  changes: UpdateGovernanceRequest['governance'],
  options?: WriteOptions,
): Promise<Governance> {
  return connection
    .request({ method: 'PATCH', path: GOVERNANCE, body: { governance: changes }, schema: governanceEnvelope }, options)
    .then((body) => body.governance);
}

/** The governance change log, oldest first (`GET /api/v1/governance/changes`): each setting or module changed, from and to. */
export function listGovernanceChanges(
  connection: SvcConnection<'bearer'>,
  query?: ListQuery,
  options?: CallOptions,
): SvcList<GovernanceChange> {
  return listEndpoint(connection, `${GOVERNANCE}/changes`, governanceChangeList, 'governance_changes', query, options);
}

// ---- clean rooms --------------------------------------------------------------------------------------------

/**
 * Opens a clean room (`POST /api/v1/clean_rooms`, `write`) under an active agreement, over the consent records of
 * the account's applications named as `participants`. The room lives in the agreement's cell (a client following
 * 421 answers reaches it) and computes over that cell's records.
 */
export function createCleanRoom(
  connection: SvcConnection<'bearer'>,
  request: CreateCleanRoomRequest,
  options?: WriteOptions,
): Promise<CleanRoom> {
  return connection
    .request({ method: 'POST', path: ROOMS, body: request, schema: cleanRoomEnvelope }, options)
    .then((body) => body.clean_room);
}

/** Reads a clean room (`GET /api/v1/clean_rooms/{id}`). */
export function getCleanRoom(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<CleanRoom> {
  return connection.request({ method: 'GET', path: at(ROOMS, id), schema: cleanRoomEnvelope }, options).then((body) => body.clean_room);
}

/** Lists the account's clean rooms of the cell, oldest first (`GET /api/v1/clean_rooms`). */
export function listCleanRooms(
  connection: SvcConnection<'bearer'>,
  query?: CleanRoomQueryFilter,
  options?: CallOptions,
): SvcList<CleanRoom> {
  return listEndpoint(connection, ROOMS, cleanRoomList, 'clean_rooms', query, options);
}

/** Closes an active clean room (`POST /api/v1/clean_rooms/{id}/close`); a closed or expired room is a 409. */
export function closeCleanRoom(connection: SvcConnection<'bearer'>, id: string, options?: WriteOptions): Promise<CleanRoom> {
  return connection
    .request({ method: 'POST', path: at(ROOMS, id, '/close'), schema: cleanRoomEnvelope }, options)
    .then((body) => body.clean_room);
}

/**
 * Runs a query in a clean room (`POST /api/v1/clean_rooms/{id}/queries`, `write`): an aggregate computation whose
 * result holds counts per bucket, small buckets suppressed, noisy when `privacy_parameters` asks.
 */
export function createCleanRoomQuery(
  connection: SvcConnection<'bearer'>,
  roomId: string,
  request: CreateCleanRoomQueryRequest,
  options?: WriteOptions,
): Promise<CleanRoomQuery> {
  return connection
    .request({ method: 'POST', path: at(ROOMS, roomId, '/queries'), body: request, schema: cleanRoomQueryEnvelope }, options)
    .then((body) => body.query);
}

/** Reads a query with its result (`GET /api/v1/clean_rooms/{id}/queries/{query_id}`). */
export function getCleanRoomQuery(
  connection: SvcConnection<'bearer'>,
  roomId: string,
  queryId: string,
  options?: CallOptions,
): Promise<CleanRoomQuery> {
  return connection
    .request({ method: 'GET', path: at(ROOMS, roomId, `/queries/${encodeURIComponent(queryId)}`), schema: cleanRoomQueryEnvelope }, options)
    .then((body) => body.query);
}

/** Lists a room's queries, oldest first (`GET /api/v1/clean_rooms/{id}/queries`). */
export function listCleanRoomQueries(
  connection: SvcConnection<'bearer'>,
  roomId: string,
  query?: ListQuery,
  options?: CallOptions,
): SvcList<CleanRoomQuerySummary> {
  return listEndpoint(connection, at(ROOMS, roomId, '/queries'), cleanRoomQueryList, 'queries', query, options);
}

// ---- meeting consents ---------------------------------------------------------------------------------------

/**
 * Creates a meeting consent (`POST /api/v1/meeting_consents`, `write`; every field optional): decisions for the
 * meeting name it in `meeting_id` and use its `template`.
 */
export function createMeetingConsent(
  connection: SvcConnection<'bearer'>,
  request: CreateMeetingConsentRequest = {},
  options?: WriteOptions,
): Promise<MeetingConsent> {
  return connection
    .request({ method: 'POST', path: MEETINGS, body: request, schema: meetingConsentEnvelope }, options)
    .then((body) => body.meeting_consent);
}

/** Reads a meeting consent (`GET /api/v1/meeting_consents/{id}`). */
export function getMeetingConsent(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<MeetingConsent> {
  return connection
    .request({ method: 'GET', path: at(MEETINGS, id), schema: meetingConsentEnvelope }, options)
    .then((body) => body.meeting_consent);
}

/** Lists the account's meeting consents, oldest first (`GET /api/v1/meeting_consents`). */
export function listMeetingConsents(
  connection: SvcConnection<'bearer'>,
  query?: MeetingConsentQuery,
  options?: CallOptions,
): SvcList<MeetingConsent> {
  return listEndpoint(connection, MEETINGS, meetingConsentList, 'meeting_consents', query, options);
}

/** Cancels a scheduled or running meeting (`POST /api/v1/meeting_consents/{id}/cancel`); an ended or cancelled one is a 409. */
export function cancelMeetingConsent(connection: SvcConnection<'bearer'>, id: string, options?: WriteOptions): Promise<MeetingConsent> {
  return connection
    .request({ method: 'POST', path: at(MEETINGS, id, '/cancel'), schema: meetingConsentEnvelope }, options)
    .then((body) => body.meeting_consent);
}

// ---- resources ----------------------------------------------------------------------------------------------

/** `svc.modules`. */
export interface ModulesResource {
  /** Lists the modules; see {@link listModules}. */
  list(query?: ListQuery, options?: CallOptions): SvcList<ProductModule>;
  /** Reads a module; see {@link getModule}. */
  get(key: ModuleKey, options?: CallOptions): Promise<ProductModule>;
  /** Enables a module; see {@link updateModule}. */
  enable(key: ModuleKey, options?: WriteOptions): Promise<ProductModule>;
  /** Disables a module; see {@link updateModule}. */
  disable(key: ModuleKey, options?: WriteOptions): Promise<ProductModule>;
}

/** `svc.governance`. */
export interface GovernanceResource {
  /** Reads the settings; see {@link getGovernance}. */
  get(options?: CallOptions): Promise<Governance>;
  /** Changes settings; see {@link updateGovernance}. */
  update(changes: UpdateGovernanceRequest['governance'], options?: WriteOptions): Promise<Governance>;
  /** The change log; see {@link listGovernanceChanges}. */
  changes(query?: ListQuery, options?: CallOptions): SvcList<GovernanceChange>;
}

/** `svc.cleanRooms`. */
export interface CleanRoomsResource {
  /** Opens a room; see {@link createCleanRoom}. */
  create(request: CreateCleanRoomRequest, options?: WriteOptions): Promise<CleanRoom>;
  /** Reads a room; see {@link getCleanRoom}. */
  get(id: string, options?: CallOptions): Promise<CleanRoom>;
  /** Lists rooms; see {@link listCleanRooms}. */
  list(query?: CleanRoomQueryFilter, options?: CallOptions): SvcList<CleanRoom>;
  /** Closes a room; see {@link closeCleanRoom}. */
  close(id: string, options?: WriteOptions): Promise<CleanRoom>;
  /** Runs a query; see {@link createCleanRoomQuery}. */
  query(roomId: string, request: CreateCleanRoomQueryRequest, options?: WriteOptions): Promise<CleanRoomQuery>;
  /** Reads a query; see {@link getCleanRoomQuery}. */
  getQuery(roomId: string, queryId: string, options?: CallOptions): Promise<CleanRoomQuery>;
  /** Lists a room's queries; see {@link listCleanRoomQueries}. */
  queries(roomId: string, query?: ListQuery, options?: CallOptions): SvcList<CleanRoomQuerySummary>;
}

/** `svc.meetingConsents`. */
export interface MeetingConsentsResource {
  /** Creates a meeting consent; see {@link createMeetingConsent}. */
  create(request?: CreateMeetingConsentRequest, options?: WriteOptions): Promise<MeetingConsent>;
  /** Reads one; see {@link getMeetingConsent}. */
  get(id: string, options?: CallOptions): Promise<MeetingConsent>;
  /** Lists them; see {@link listMeetingConsents}. */
  list(query?: MeetingConsentQuery, options?: CallOptions): SvcList<MeetingConsent>;
  /** Cancels one; see {@link cancelMeetingConsent}. */
  cancel(id: string, options?: WriteOptions): Promise<MeetingConsent>;
}

/** Binds the module functions to a connection. */
export function modulesResource(connection: SvcConnection<'bearer'>): ModulesResource {
  return {
    list: (query, options) => listModules(connection, query, options),
    get: (key, options) => getModule(connection, key, options),
    enable: (key, options) => updateModule(connection, key, true, options),
    disable: (key, options) => updateModule(connection, key, false, options),
  };
}

/** Binds the governance functions to a connection. */
export function governanceResource(connection: SvcConnection<'bearer'>): GovernanceResource {
  return {
    get: (options) => getGovernance(connection, options),
    update: (changes, options) => updateGovernance(connection, changes, options),
    changes: (query, options) => listGovernanceChanges(connection, query, options),
  };
}

/** Binds the clean-room functions to a connection. */
export function cleanRoomsResource(connection: SvcConnection<'bearer'>): CleanRoomsResource {
  return {
    create: (request, options) => createCleanRoom(connection, request, options),
    get: (id, options) => getCleanRoom(connection, id, options),
    list: (query, options) => listCleanRooms(connection, query, options),
    close: (id, options) => closeCleanRoom(connection, id, options),
    query: (roomId, request, options) => createCleanRoomQuery(connection, roomId, request, options),
    getQuery: (roomId, queryId, options) => getCleanRoomQuery(connection, roomId, queryId, options),
    queries: (roomId, query, options) => listCleanRoomQueries(connection, roomId, query, options),
  };
}

/** Binds the meeting-consent functions to a connection. */
export function meetingConsentsResource(connection: SvcConnection<'bearer'>): MeetingConsentsResource {
  return {
    create: (request, options) => createMeetingConsent(connection, request, options),
    get: (id, options) => getMeetingConsent(connection, id, options),
    list: (query, options) => listMeetingConsents(connection, query, options),
    cancel: (id, options) => cancelMeetingConsent(connection, id, options),
  };
}
