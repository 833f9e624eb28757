// Comply: the product modules an account has enabled, its governance settings and their change log, clean rooms
// (aggregate computations over the consent records of several applications, under an active agreement) and their
// queries, and meeting consents (consent to a meeting that AI note-takers may attend; decisions name the meeting).
import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';
import { countryCode } from './countries.js';

const unique = <T>(items: readonly T[]) => new Set(items).size === items.length;
const text = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));
/** An id of ours as a request names it: printable ASCII, no spaces, at most 64 characters. */
const idRef = z
  .string()
  .check(z.minLength(1), z.maxLength(64), z.regex(/^[\x21-\x7e]+$/, 'must be an id (printable ASCII without spaces)'));

// ---- modules ------------------------------------------------------------------------------------------------

/** The spec's product surfaces, each a module an account can enable or disable. */
export const MODULE_KEYS = ['connect', 'verify', 'protect', 'agree', 'delegate', 'comply'] as const;
export const moduleKey = z.enum(MODULE_KEYS);
export type ModuleKey = z.infer<typeof moduleKey>;

/**
 * A product module of the account. Every module is enabled from the account's creation until an admin disables it;
 * `enabled_at` is when it was last enabled (null while disabled), `disabled_at` when it was last disabled.
 * `surfaces` lists the path families it covers. While `comply` is disabled, creating clean rooms, clean-room
 * queries and meeting consents is refused (403 `module_disabled`); what exists stays readable.
 */
export const productModule = z.object({
  key: moduleKey,
  name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  enabled_at: z.nullable(dateTime()),
  disabled_at: z.nullable(dateTime()),
  surfaces: z.array(z.string()),
});
export type ProductModule = z.infer<typeof productModule>;

export const moduleEnvelope = z.object({ module: productModule });
export const moduleList = listOf('modules', productModule);

/** `PATCH /api/v1/modules/{key}` (admin): enable or disable a module. Setting what it already is changes nothing. */
export const updateModuleRequest = z.strictObject({ module: z.strictObject({ enabled: z.boolean() }) });
export type UpdateModuleRequest = z.input<typeof updateModuleRequest>;

// ---- governance ---------------------------------------------------------------------------------------------

/** Bounds of the settings. */
export const GOVERNANCE_LIMITS = {
  maxApprovals: 5,
  maxRetentionDays: 36_500,
  maxDsarDueDays: 90,
  minCohort: 2,
  maxCohort: 100_000,
  minEpsilonBudget: 0.1,
  maxEpsilonBudget: 1000,
} as const;

const approvals = z.int().check(z.gte(0), z.lte(GOVERNANCE_LIMITS.maxApprovals));
const retentionDays = z.nullable(z.int().check(z.gte(1), z.lte(GOVERNANCE_LIMITS.maxRetentionDays)));
const allowedCountries = z.nullable(
  z.array(countryCode).check(z.minLength(1), z.maxLength(50), z.refine(unique, 'a country appears once')),
);
const dsarDueDays = z.int().check(z.gte(1), z.lte(GOVERNANCE_LIMITS.maxDsarDueDays));
const minCohort = z.int().check(z.gte(GOVERNANCE_LIMITS.minCohort), z.lte(GOVERNANCE_LIMITS.maxCohort));
const epsilonBudget = z.number().check(
  z.gte(GOVERNANCE_LIMITS.minEpsilonBudget),
  z.lte(GOVERNANCE_LIMITS.maxEpsilonBudget),
  z.refine((n) => Math.abs(Math.round(n * 1000) - n * 1000) < 1e-6, 'must have at most three decimals'),
);
const templateRef = z.nullable(idRef);

/**
 * An account's governance settings, each with its default:
 * - `api_token_approvals_required` (0): approvals an API token's creation needs besides its creator's (a setting for
 *   the organisation's own process; the service records it);
 * - `default_retention_days` (null: the flow's own term): how long consent data is kept by default;
 * - `allowed_countries` (null: every country cell): the cells the account's data may be processed in; a clean room is
 *   refused in a cell not listed (403 `country_not_allowed`);
 * - `dsar_due_days` (30): days a data subject request is due in;
 * - `clean_room_min_cohort` (10): the smallest bucket a clean-room result shows (smaller ones are suppressed);
 * - `clean_room_epsilon_budget` (10): the differential-privacy budget (total epsilon) a new clean room gets;
 * - `clean_room_require_noise` (false): refuse clean-room queries without `privacy_parameters`;
 * - `default_meeting_template` (null: the account's oldest active flow): the flow a meeting consent uses by default.
 */
export const governanceSettings = z.object({
  api_token_approvals_required: z._default(approvals, 0),
  default_retention_days: z._default(retentionDays, null),
  allowed_countries: z._default(allowedCountries, null),
  dsar_due_days: z._default(dsarDueDays, 30),
  clean_room_min_cohort: z._default(minCohort, 10),
  clean_room_epsilon_budget: z._default(epsilonBudget, 10),
  clean_room_require_noise: z._default(z.boolean(), false),
  default_meeting_template: z._default(templateRef, null),
});
export type GovernanceSettings = z.infer<typeof governanceSettings>;

/** The account's governance: its settings, and when and by whom they were last changed (null: never, the defaults). */
export const governance = z.object({
  ...governanceSettings.shape,
  updated_at: z.nullable(dateTime()),
  updated_by: z.nullable(z.string()),
});
export type Governance = z.infer<typeof governance>;
export const governanceEnvelope = z.object({ governance });

/** `PATCH /api/v1/governance` (admin): the settings to change; the others keep their values. */
export const updateGovernanceRequest = z.strictObject({
  governance: z
    .strictObject({
      api_token_approvals_required: z.optional(approvals),
      default_retention_days: z.optional(retentionDays),
      allowed_countries: z.optional(allowedCountries),
      dsar_due_days: z.optional(dsarDueDays),
      clean_room_min_cohort: z.optional(minCohort),
      clean_room_epsilon_budget: z.optional(epsilonBudget),
      clean_room_require_noise: z.optional(z.boolean()),
      default_meeting_template: z.optional(templateRef),
    })
    .check(z.refine((g) => Object.keys(g).length > 0, 'name at least one setting to change')),
});
export type UpdateGovernanceRequest = z.input<typeof updateGovernanceRequest>;

/** What a governance change did: `governance.updated`, `module.enabled` or `module.disabled`. */
export const governanceChangeType = z.enum(['governance.updated', 'module.enabled', 'module.disabled']);

/** One entry of the governance change log: each changed setting (or the module's `enabled`) from and to. */
export const governanceChange = z.object({
  id: z.string(),
  type: governanceChangeType,
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
  actor: z.object({ kind: z.string(), id: z.string() }),
  created_at: dateTime(),
});
export type GovernanceChange = z.infer<typeof governanceChange>;
export const governanceChangeList = listOf('governance_changes', governanceChange);
/**
 * Query of `GET /api/v1/governance/changes`: `sort` `oldest` (oldest first, the default) or `newest` (newest first,
 * the latest changes on the first page); pass `next_cursor` with the sort it came from.
 */
export const governanceChangeListQuery = z.object({ ...listQuery.shape, sort: z.optional(z.enum(['oldest', 'newest'])) });

// ---- clean rooms --------------------------------------------------------------------------------------------

/** How far ahead a clean room's `expires_at` may lie: one year. */
export const CLEAN_ROOM_MAX_LIFETIME_SECONDS = 365 * 24 * 60 * 60;
/** The most participants a clean room has. */
export const CLEAN_ROOM_MAX_PARTICIPANTS = 20;

/** `active` until closed (`POST …/close`) or past `expires_at` (`expired`); both are final. */
export const cleanRoomStatus = z.enum(['active', 'closed', 'expired']);
export type CleanRoomStatus = z.infer<typeof cleanRoomStatus>;

const participants = z
  .array(idRef)
  .check(z.minLength(1), z.maxLength(CLEAN_ROOM_MAX_PARTICIPANTS), z.refine(unique, 'a participant appears once'));

/**
 * `POST /api/v1/clean_rooms`: a clean room under an active agreement of the account. `participants` are the
 * account's applications (`tp_…`) whose consent records the room computes over; `expires_at` (optional, at most a
 * year ahead) ends it.
 */
export const createCleanRoomRequest = z.strictObject({
  agreement_id: idRef,
  participants,
  expires_at: z.optional(dateTime()),
});
export type CreateCleanRoomRequest = z.input<typeof createCleanRoomRequest>;

/**
 * A clean room (CleanRoomEnvironment). It is homed in the cell of its agreement (`home_country`) and computes over
 * that cell's consent records only. `privacy_budget` is the total epsilon its noisy queries may spend;
 * `min_cohort` the smallest bucket its results show.
 */
export const cleanRoom = z.object({
  id: z.string(),
  agreement_id: z.string(),
  participants: z.array(z.string()),
  status: cleanRoomStatus,
  created_at: dateTime(),
  expires_at: z.nullable(dateTime()),
  /** When it was closed or expired. */
  ended_at: z.nullable(dateTime()),
  home_country: countryCode,
  min_cohort: z.int(),
  privacy_budget: z.object({ epsilon_total: z.number(), epsilon_spent: z.number(), epsilon_remaining: z.number() }),
});
export type CleanRoom = z.infer<typeof cleanRoom>;
export const cleanRoomEnvelope = z.object({ clean_room: cleanRoom });
export const cleanRoomList = listOf('clean_rooms', cleanRoom);
export const cleanRoomListQuery = z.object({ ...listQuery.shape, status: z.optional(cleanRoomStatus) });
export type CleanRoomListQuery = z.input<typeof cleanRoomListQuery>;

/**
 * What a query computes, over the subjects whose consent is in force now (their latest record per flow, neither
 * withdrawn nor expired) in the participants' applications:
 * - `count`: distinct subjects (one bucket, `subjects`);
 * - `count_by_purpose`: distinct subjects per granted purpose (a bucket per purpose key);
 * - `overlap`: subjects present in both of two participants, matched by the SHA-256 of their email (bucket `overlap`);
 * - `histogram`: subjects by the month (`YYYY-MM`, UTC) their consent in force was first captured.
 */
export const computationType = z.enum(['count', 'count_by_purpose', 'overlap', 'histogram']);
export type ComputationType = z.infer<typeof computationType>;

const purposeKey = z.string().check(z.regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be a purpose key'));

/** The most buckets a histogram has (months). */
export const HISTOGRAM_MAX_MONTHS = 60;

/**
 * What the computation is over. `participants`: a subset of the room's (default all; `overlap` needs exactly two,
 * default the room's when it has two); `purpose`: only subjects who granted it; `purposes`: the buckets of
 * `count_by_purpose` (default every consent purpose of the participants' active flows); `from`/`to`: only consents
 * captured in `[from, to)` (a histogram's months; default the twelve months up to now); `min_cohort`: a larger minimum
 * bucket than the room's (never a smaller one).
 */
export const queryDefinition = z
  .strictObject({
    participants: z.optional(participants),
    purpose: z.optional(purposeKey),
    purposes: z.optional(z.array(purposeKey).check(z.minLength(1), z.maxLength(50), z.refine(unique, 'a purpose appears once'))),
    from: z.optional(dateTime()),
    to: z.optional(dateTime()),
    min_cohort: z.optional(minCohort),
  })
  .check(
    z.refine((d) => d.from === undefined || d.to === undefined || Date.parse(d.from) < Date.parse(d.to), {
      message: 'from must be before to',
      path: ['from'],
    }),
  );
export type QueryDefinition = z.input<typeof queryDefinition>;

/** Epsilon bounds of one query. */
export const EPSILON_MIN = 0.01;
export const EPSILON_MAX = 10;

/**
 * Differential privacy for one query: noise from the two-sided geometric mechanism (the discrete Laplace, over the
 * integer counts; `laplace` names the same), scale `sensitivity / epsilon`. `epsilon` (0.01 to 10, at most three
 * decimals) is spent from the room's budget; `sensitivity` defaults to the computation's own (1, or the number of
 * purpose buckets for `count_by_purpose`) and may only be raised.
 */
export const privacyParameters = z.strictObject({
  epsilon: z.number().check(
    z.gte(EPSILON_MIN),
    z.lte(EPSILON_MAX),
    z.refine((n) => Math.abs(Math.round(n * 1000) - n * 1000) < 1e-6, 'must have at most three decimals'),
  ),
  mechanism: z._default(z.enum(['laplace', 'geometric']), 'laplace'),
  sensitivity: z.optional(z.int().check(z.gte(1), z.lte(1000))),
});
export type PrivacyParameters = z.input<typeof privacyParameters>;

/** `POST /api/v1/clean_rooms/{id}/queries`. */
export const createCleanRoomQueryRequest = z.strictObject({
  computation_type: computationType,
  query_definition: queryDefinition,
  privacy_parameters: z.optional(privacyParameters),
});
export type CreateCleanRoomQueryRequest = z.input<typeof createCleanRoomQueryRequest>;

/** A query runs at once: `completed` with its result (`pending`, `running` and `failed` are kept for longer runs). */
export const cleanRoomQueryStatus = z.enum(['pending', 'running', 'completed', 'failed']);

/**
 * One bucket of a result: a count, or null with `suppressed` when it is below the minimum cohort (with noise, the
 * noisy count is what is compared). Never a row-level value: keys are purpose keys, months or fixed names.
 */
export const resultBucket = z.object({ key: z.string(), count: z.nullable(z.int()), suppressed: z.boolean() });

/**
 * A query's result. `noise` states the mechanism and its parameters (null: exact counts); `participants` and
 * `window` what was computed over; `home_country` the cell whose records counted.
 */
export const cleanRoomResult = z.object({
  computation_type: computationType,
  buckets: z.array(resultBucket),
  min_cohort: z.int(),
  suppressed_buckets: z.int(),
  noise: z.nullable(
    z.object({
      mechanism: z.literal('geometric'),
      epsilon: z.number(),
      sensitivity: z.int(),
      scale: z.number(),
    }),
  ),
  participants: z.array(z.string()),
  window: z.object({ from: z.nullable(dateTime()), to: z.nullable(dateTime()) }),
  home_country: countryCode,
});
export type CleanRoomResult = z.infer<typeof cleanRoomResult>;

/** A clean-room query as lists show it. */
export const cleanRoomQuerySummary = z.object({
  id: z.string(),
  status: cleanRoomQueryStatus,
  computation_type: computationType,
  clean_room_id: z.string(),
  submitted_at: z.nullable(dateTime()),
  completed_at: z.nullable(dateTime()),
});
export type CleanRoomQuerySummary = z.infer<typeof cleanRoomQuerySummary>;

/** A clean-room query with its definition, privacy parameters and result. */
export const cleanRoomQuery = z.object({
  ...cleanRoomQuerySummary.shape,
  query_definition: z.record(z.string(), z.unknown()),
  privacy_parameters: z.nullable(z.record(z.string(), z.unknown())),
  result: z.nullable(cleanRoomResult),
});
export type CleanRoomQuery = z.infer<typeof cleanRoomQuery>;
export const cleanRoomQueryEnvelope = z.object({ query: cleanRoomQuery });
export const cleanRoomQueryList = listOf('queries', cleanRoomQuerySummary);

// ---- meeting consents ---------------------------------------------------------------------------------------

/** `duration_minutes`: at least 1 (the spec), at most a day (ours), 60 when not given. */
export const MEETING_DEFAULT_DURATION_MINUTES = 60;
export const MEETING_MAX_DURATION_MINUTES = 24 * 60;

/**
 * `POST /api/v1/meeting_consents` (CreateMeetingConsentRequest, every field optional). The meeting starts at
 * `scheduled_at` (default now) and ends `duration_minutes` later; `template` is the flow its consent decisions use
 * (default the governance `default_meeting_template`, else the account's oldest active flow); `agent_ids` are the
 * account's active agent identities that attend (the AI note-takers it discloses).
 */
export const createMeetingConsentRequest = z.strictObject({
  title: z.optional(text(200)),
  description: z.optional(text(2000)),
  platform: z.optional(text(100)),
  external_meeting_id: z.optional(text(200)),
  scheduled_at: z.optional(dateTime()),
  duration_minutes: z._default(z.int().check(z.gte(1), z.lte(MEETING_MAX_DURATION_MINUTES)), MEETING_DEFAULT_DURATION_MINUTES),
  template: z.optional(idRef),
  agent_ids: z.optional(z.array(idRef).check(z.maxLength(20), z.refine(unique, 'an agent appears once'))),
});
export type CreateMeetingConsentRequest = z.input<typeof createMeetingConsentRequest>;

/**
 * `scheduled` before `starts_at`, `in_progress` until `ends_at`, then `ended`; `cancelled` once cancelled (from
 * scheduled or in progress). Decisions can be opened for a meeting until it ends or is cancelled.
 */
export const meetingConsentStatus = z.enum(['scheduled', 'in_progress', 'ended', 'cancelled']);
export type MeetingConsentStatus = z.infer<typeof meetingConsentStatus>;

/** A meeting consent: the meeting, its time, its consent template and the agents it discloses. */
export const meetingConsent = z.object({
  id: z.string(),
  title: z.nullable(z.string()),
  description: z.nullable(z.string()),
  platform: z.nullable(z.string()),
  external_meeting_id: z.nullable(z.string()),
  scheduled_at: z.nullable(dateTime()),
  starts_at: dateTime(),
  ends_at: dateTime(),
  duration_minutes: z.int(),
  template: z.string(),
  agent_ids: z.array(z.string()),
  status: meetingConsentStatus,
  created_at: dateTime(),
  updated_at: dateTime(),
  cancelled_at: z.nullable(dateTime()),
});
export type MeetingConsent = z.infer<typeof meetingConsent>;
export const meetingConsentEnvelope = z.object({ meeting_consent: meetingConsent });
export const meetingConsentList = listOf('meeting_consents', meetingConsent);
export const meetingConsentListQuery = z.object({ ...listQuery.shape, status: z.optional(meetingConsentStatus) });
export type MeetingConsentListQuery = z.input<typeof meetingConsentListQuery>;
