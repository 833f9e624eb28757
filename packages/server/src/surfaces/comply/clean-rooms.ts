// Clean rooms: aggregate computations over the consent records several of an account's applications (the
// participants) hold, under an active agreement. A room is homed in its agreement's cell and computes over that
// cell's records only. Results hold counts per bucket (purpose keys, months, fixed names), never a row-level value;
// a bucket below the minimum cohort is suppressed; with `privacy_parameters` each count gets geometric noise and the
// epsilon is spent from the room's budget, which refuses queries once spent.
import {
  CLEAN_ROOM_MAX_LIFETIME_SECONDS,
  HISTOGRAM_MAX_MONTHS,
  cleanRoomResult,
  createCleanRoomQueryRequest,
  privacyParameters as privacyParametersSchema,
  type CleanRoom,
  type CleanRoomListQuery,
  type CleanRoomQuery,
  type CleanRoomQuerySummary,
  type CleanRoomResult,
  type CleanRoomStatus,
  type ComputationType,
  type CreateCleanRoomRequest,
  type FlowConfig,
} from '@svc/schemas';
import { createHash } from 'node:crypto';
import type { z } from 'zod/mini';
import { findAgreementRow } from '../agree/agreements/store.js';
import { appendAuditEvent } from '../../consent/audit/chain.js';
import { assertHomedHere } from '../../infra/cells/routing.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError, unprocessable } from '../../infra/errors.js';
import { homedId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import type { IssuedOutcome } from '../../consent/records/attestation.js';
import { recordState } from '../../consent/records/rows.js';
import { governanceOf } from './governance.js';
import { EPSILON_SCALE, geometricNoise } from './noise.js';

export interface RoomRow {
  seq: number;
  id: string;
  account_id: string;
  agreement_id: string;
  participants: string;
  status: CleanRoomStatus;
  min_cohort: number;
  epsilon_budget_milli: number;
  epsilon_spent_milli: number;
  created_at: string;
  expires_at: string | null;
  ended_at: string | null;
}

interface QueryRow {
  seq: number;
  id: string;
  clean_room_id: string;
  computation_type: ComputationType;
  query_definition: string;
  privacy_parameters: string | null;
  status: CleanRoomQuerySummary['status'];
  result: string | null;
  submitted_at: string;
  completed_at: string | null;
}

const ROOM_ID = /^clr_(?:[a-z]{2}_)?[A-Za-z0-9]{16,24}$/;
const QUERY_ID = /^crq_(?:[a-z]{2}_)?[A-Za-z0-9]{16,24}$/;

const refuse = (path: string, code: string, message: string): ApiError => unprocessable(message, code, [{ path, code, message }]);
/** The 409 of a status change the room's status does not allow, naming it (`illegal_transition`). */
const illegal = (from: CleanRoomStatus, to: CleanRoomStatus) =>
  new ApiError(409, `The clean room cannot go from ${from} to ${to}: ${from} is final.`, 'illegal_transition');

const milli = (epsilon: number) => Math.round(epsilon * EPSILON_SCALE);
const fromMilli = (value: number) => value / EPSILON_SCALE;

export function toRoom(ctx: ServerContext, row: RoomRow): CleanRoom {
  return {
    id: row.id,
    agreement_id: row.agreement_id,
    participants: JSON.parse(row.participants) as string[],
    status: row.status,
    created_at: row.created_at,
    expires_at: row.expires_at,
    ended_at: row.ended_at,
    home_country: ctx.country,
    min_cohort: row.min_cohort,
    privacy_budget: {
      epsilon_total: fromMilli(row.epsilon_budget_milli),
      epsilon_spent: fromMilli(row.epsilon_spent_milli),
      epsilon_remaining: fromMilli(row.epsilon_budget_milli - row.epsilon_spent_milli),
    },
  };
}

/** Moves an active room past its `expires_at` to `expired` (the test clock decides), and answers it as it is now. */
function settle(ctx: ServerContext, row: RoomRow): RoomRow {
  if (row.status !== 'active' || row.expires_at === null || row.expires_at > isoNow(ctx.clock)) return row;
  transaction(ctx.db, () => {
    stmt(ctx.db, "UPDATE clean_rooms SET status = 'expired', ended_at = ? WHERE id = ? AND status = 'active'").run(row.expires_at, row.id);
    applicationOfRoom(ctx, row, (applicationId) =>
      appendAuditEvent(ctx, {
        applicationId,
        type: 'clean_room.expired',
        occurredAt: row.expires_at!,
        data: { clean_room_id: row.id, agreement_id: row.agreement_id },
      }),
    );
  });
  return { ...row, status: 'expired', ended_at: row.expires_at };
}

/** Runs `write` with the application of the room's agreement (whose audit trail records the room's events). */
function applicationOfRoom(ctx: ServerContext, row: Pick<RoomRow, 'agreement_id'>, write: (applicationId: string) => void): void {
  const applicationId = stmt<[string], string>(ctx.db, 'SELECT application_id FROM agreements WHERE id = ?')
    .pluck()
    .get(row.agreement_id) as string | undefined;
  if (applicationId) write(applicationId);
}

/** The caller's room `id`, settled; undefined for anything else (an id homed in another cell is the 421). */
export function findRoom(ctx: ServerContext, accountId: string, id: string): RoomRow | undefined {
  if (!ROOM_ID.test(id)) return undefined;
  assertHomedHere(ctx, id);
  const row = stmt<[string], RoomRow>(ctx.db, 'SELECT * FROM clean_rooms WHERE id = ?').get(id);
  return row && row.account_id === accountId ? settle(ctx, row) : undefined;
}

/**
 * Creates a clean room (`POST /api/v1/clean_rooms`): the agreement must be the account's (homed in another cell: the
 * 421; unknown: 422 `agreement_not_found`) and active (409 `agreement_not_active`); the participants the account's
 * applications (422 `participant_not_found`); `expires_at` ahead of now by at most a year (422 `expires_at_invalid`);
 * this cell's country among the governance's `allowed_countries` (403 `country_not_allowed`). The room takes the
 * governance's minimum cohort and epsilon budget as they are now.
 */
export function createRoom(ctx: ServerContext, accountId: string, input: CreateCleanRoomRequest): CleanRoom {
  assertHomedHere(ctx, input.agreement_id);
  const agreement = findAgreementRow(ctx, accountId, input.agreement_id);
  if (!agreement) throw refuse('agreement_id', 'agreement_not_found', `${input.agreement_id} is not an agreement of this account.`);
  if (agreement.status !== 'active') {
    throw new ApiError(
      409,
      `Agreement ${agreement.id} is ${agreement.status}: a clean room runs under an active agreement (its quorum signed).`,
      'agreement_not_active',
      [{ path: 'agreement_id', code: 'agreement_not_active', message: `the agreement is ${agreement.status}` }],
    );
  }
  input.participants.forEach((id, i) => {
    const owner = stmt<[string], string>(ctx.db, 'SELECT account_id FROM applications WHERE id = ?').pluck().get(id) as string | undefined;
    if (owner !== accountId) throw refuse(`participants.${i}`, 'participant_not_found', `${id} is not an application of this account.`);
  });
  const now = isoNow(ctx.clock);
  let expiresAt: string | null = null;
  if (input.expires_at !== undefined) {
    const at = Date.parse(input.expires_at);
    if (at <= ctx.clock.now() || at > ctx.clock.now() + CLEAN_ROOM_MAX_LIFETIME_SECONDS * 1000) {
      throw refuse('expires_at', 'expires_at_invalid', 'expires_at must lie in the future, at most a year ahead.');
    }
    expiresAt = new Date(at).toISOString();
  }
  const governance = governanceOf(ctx, accountId);
  if (governance.allowed_countries && !governance.allowed_countries.includes(ctx.country)) {
    throw new ApiError(
      403,
      `The account's governance allows processing in ${governance.allowed_countries.join(', ')}, not in ${ctx.country}, where this clean room's agreement is homed.`,
      'country_not_allowed',
    );
  }
  const id = homedId(ctx.country, 'clr_', 20);
  transaction(ctx.db, () => {
    stmt(
      ctx.db,
      `INSERT INTO clean_rooms (id, account_id, agreement_id, participants, status, min_cohort, epsilon_budget_milli, created_at, expires_at)
      VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?)`,
    ).run(
      id,
      accountId,
      agreement.id,
      JSON.stringify(input.participants),
      governance.clean_room_min_cohort,
      milli(governance.clean_room_epsilon_budget),
      now,
      expiresAt,
    );
    appendAuditEvent(ctx, {
      applicationId: agreement.application_id,
      type: 'clean_room.created',
      occurredAt: now,
      data: { clean_room_id: id, agreement_id: agreement.id, participants: input.participants, expires_at: expiresAt },
    });
  });
  return toRoom(ctx, stmt<[string], RoomRow>(ctx.db, 'SELECT * FROM clean_rooms WHERE id = ?').get(id)!);
}

/** Closes an active room (`POST …/close`); a closed or expired room is final (409 `illegal_transition`). */
export function closeRoom(ctx: ServerContext, row: RoomRow): CleanRoom {
  if (row.status !== 'active') throw illegal(row.status, 'closed');
  const now = isoNow(ctx.clock);
  transaction(ctx.db, () => {
    stmt(ctx.db, "UPDATE clean_rooms SET status = 'closed', ended_at = ? WHERE id = ?").run(now, row.id);
    applicationOfRoom(ctx, row, (applicationId) =>
      appendAuditEvent(ctx, {
        applicationId,
        type: 'clean_room.closed',
        occurredAt: now,
        data: { clean_room_id: row.id, agreement_id: row.agreement_id },
      }),
    );
  });
  return toRoom(ctx, { ...row, status: 'closed', ended_at: now });
}

/** A page of the account's rooms of this cell, oldest first, optionally of one status (as they are now). */
export function listRooms(ctx: ServerContext, accountId: string, query: Pick<CleanRoomListQuery, 'cursor' | 'status'> & { limit: number }) {
  const now = isoNow(ctx.clock);
  // Settle what is due first, so the status filter sees the rooms as they are.
  for (const row of stmt<[string, string], RoomRow>(
    ctx.db,
    "SELECT * FROM clean_rooms WHERE account_id = ? AND status = 'active' AND expires_at IS NOT NULL AND expires_at <= ?",
  ).all(accountId, now)) {
    settle(ctx, row);
  }
  const status = query.status ?? null;
  const rows = stmt<[string, number, string | null, string | null, number], RoomRow>(
    ctx.db,
    'SELECT * FROM clean_rooms WHERE account_id = ? AND seq > ? AND (? IS NULL OR status = ?) ORDER BY seq LIMIT ?',
  ).all(accountId, decodeCursor(query.cursor), status, status, query.limit + 1);
  const { items, next_cursor } = toPage(rows, query.limit, (r) => r.seq);
  return { clean_rooms: items.map((r) => toRoom(ctx, r)), next_cursor };
}

// ---- computations -------------------------------------------------------------------------------------------

/** One subject's consent in force in one participant: the purposes granted now, and when it was first captured. */
interface SubjectConsent {
  purposes: Set<string>;
  firstCaptured: string;
}

interface RecordFact {
  id: string;
  application_id: string;
  flow_id: string;
  person_id: string;
  email: string;
  captured_at: string;
  expires_at: string | null;
  purposes: string;
}

/**
 * Who consents now in each participant, keyed by subject: the SHA-256 of the email (lower case), or the record for an
 * anonymous one (which then never overlaps). Each subject's latest record per flow counts when it is neither
 * withdrawn nor expired, with the purposes granted now, and only when it was captured in `[from, to)`.
 */
function consentsInForce(
  ctx: ServerContext,
  accountId: string,
  participants: readonly string[],
  window: { from: string | null; to: string | null },
): Map<string, Map<string, SubjectConsent>> {
  const now = isoNow(ctx.clock);
  const rows = stmt<[string, string], RecordFact>(
    ctx.db,
    `
    SELECT r.id, r.application_id, r.flow_id, r.person_id, p.email, r.captured_at, r.expires_at, r.purposes
      FROM consent_records r JOIN persons p ON p.id = r.person_id
     WHERE r.account_id = ? AND r.application_id IN (SELECT value FROM json_each(?))
     ORDER BY r.captured_at DESC, r.seq DESC`,
  ).all(accountId, JSON.stringify(participants));
  const withdrawals = new Map<string, { purpose_key: string; outcome: 'revoked' | 'objected' }[]>();
  for (const w of stmt<[string, string], { record_id: string; purpose_key: string; outcome: 'revoked' | 'objected' }>(
    ctx.db,
    `
    SELECT w.record_id, w.purpose_key, w.outcome FROM consent_withdrawals w JOIN consent_records r ON r.id = w.record_id
     WHERE r.account_id = ? AND r.application_id IN (SELECT value FROM json_each(?))`,
  ).all(accountId, JSON.stringify(participants))) {
    const list = withdrawals.get(w.record_id) ?? [];
    list.push({ purpose_key: w.purpose_key, outcome: w.outcome });
    withdrawals.set(w.record_id, list);
  }
  const result = new Map<string, Map<string, SubjectConsent>>(participants.map((p) => [p, new Map()]));
  const seen = new Set<string>();
  for (const row of rows) {
    const latestKey = `${row.application_id}\u0000${row.person_id}\u0000${row.flow_id}`;
    if (seen.has(latestKey)) continue; // an earlier record of the same person and flow: superseded by the later one
    seen.add(latestKey);
    if ((window.from && row.captured_at < window.from) || (window.to && row.captured_at >= window.to)) continue;
    // recordState reads a withdrawal's purpose and outcome only.
    const facts = (withdrawals.get(row.id) ?? []) as unknown as Parameters<typeof recordState>[1];
    const state = recordState(JSON.parse(row.purposes) as IssuedOutcome[], facts, row.expires_at, now);
    if (state.status !== 'fulfilled') continue;
    const granted = state.purposes.filter((p) => p.outcome === 'granted').map((p) => p.key);
    if (granted.length === 0) continue;
    const subject = row.email.includes('@')
      ? `email:${createHash('sha256').update(row.email.toLowerCase(), 'utf8').digest('hex')}`
      : `record:${row.id}`;
    const bySubject = result.get(row.application_id)!;
    const known = bySubject.get(subject);
    if (known) {
      for (const key of granted) known.purposes.add(key);
      if (row.captured_at < known.firstCaptured) known.firstCaptured = row.captured_at;
    } else {
      bySubject.set(subject, { purposes: new Set(granted), firstCaptured: row.captured_at });
    }
  }
  return result;
}

/** The consent purposes (basis `consent`) of the participants' active flows: configuration, not data. */
function consentPurposesOf(ctx: ServerContext, accountId: string, participants: readonly string[]): string[] {
  const configs = stmt<[string, string], string>(
    ctx.db,
    `
    SELECT v.config FROM flows f JOIN flow_versions v ON v.flow_id = f.id AND v.version = f.active_version
     WHERE f.account_id = ? AND f.status = 'active' AND f.application_id IN (SELECT value FROM json_each(?))`,
  )
    .pluck()
    .all(accountId, JSON.stringify(participants)) as unknown as string[];
  const keys = new Set<string>();
  for (const config of configs) {
    for (const purpose of (JSON.parse(config) as Partial<FlowConfig>).purposes ?? [])
      if (purpose.basis === 'consent') keys.add(purpose.key);
  }
  return [...keys].sort();
}

const monthOf = (iso: string) => iso.slice(0, 7);

/** The months `[from, to)` spans, as `YYYY-MM` (UTC). */
function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  const start = new Date(from);
  let y = start.getUTCFullYear();
  let m = start.getUTCMonth();
  const end = monthOf(new Date(Date.parse(to) - 1).toISOString());
  for (;;) {
    const key = `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}`;
    months.push(key);
    if (key >= end || months.length > HISTOGRAM_MAX_MONTHS) break;
    m += 1;
    if (m === 12) {
      m = 0;
      y += 1;
    }
  }
  return months;
}

type Privacy = z.output<typeof privacyParametersSchema>;

/** The counts of a computation per bucket (exact), and its L1 sensitivity (how much one subject can move them in total). */
interface Counts {
  buckets: { key: string; count: number }[];
  sensitivity: number;
}

/**
 * Runs a query in a room: checks the definition against the room (422), the room's status (409
 * `clean_room_closed`, `clean_room_expired`), the governance's noise requirement and the budget (409
 * `privacy_budget_exhausted`), computes, suppresses small buckets, adds noise when asked, spends the epsilon and stores
 * the query with its result, in one transaction.
 */
export function runQuery(
  ctx: ServerContext,
  accountId: string,
  room: RoomRow,
  input: z.output<typeof createCleanRoomQueryRequest>,
): CleanRoomQuery {
  if (room.status !== 'active') {
    throw new ApiError(
      409,
      `The clean room is ${room.status}: it takes no more queries.`,
      room.status === 'closed' ? 'clean_room_closed' : 'clean_room_expired',
    );
  }
  const definition = input.query_definition;
  const roomParticipants = JSON.parse(room.participants) as string[];
  (definition.participants ?? []).forEach((p, i) => {
    if (!roomParticipants.includes(p))
      throw refuse(`query_definition.participants.${i}`, 'participant_not_in_room', `${p} is not a participant of this clean room.`);
  });
  const participants = definition.participants ?? roomParticipants;
  if (input.computation_type === 'overlap') {
    if (participants.length !== 2) {
      throw refuse(
        'query_definition.participants',
        'overlap_needs_two',
        `An overlap compares exactly two participants; name them in query_definition.participants (the room has ${roomParticipants.length}).`,
      );
    }
  }
  if (definition.purposes && input.computation_type !== 'count_by_purpose') {
    throw refuse('query_definition.purposes', 'not_applicable', 'purposes names the buckets of count_by_purpose only.');
  }
  if (definition.min_cohort !== undefined && definition.min_cohort < room.min_cohort) {
    throw refuse(
      'query_definition.min_cohort',
      'min_cohort_too_small',
      `The room's minimum cohort is ${room.min_cohort}; a query may raise it, never lower it.`,
    );
  }
  const minCohort = definition.min_cohort ?? room.min_cohort;
  const governance = governanceOf(ctx, accountId);
  if (!input.privacy_parameters && governance.clean_room_require_noise) {
    throw refuse(
      'privacy_parameters',
      'privacy_parameters_required',
      "The account's governance requires differential-privacy noise on every clean-room query: send privacy_parameters {epsilon}.",
    );
  }

  const nowMs = ctx.clock.now();
  let window: { from: string | null; to: string | null } = {
    from: definition.from === undefined ? null : new Date(definition.from).toISOString(),
    to: definition.to === undefined ? null : new Date(definition.to).toISOString(),
  };
  let months: string[] = [];
  if (input.computation_type === 'histogram') {
    const to = window.to ?? new Date(nowMs).toISOString();
    const defaultFrom = new Date(Date.UTC(new Date(to).getUTCFullYear(), new Date(to).getUTCMonth() - 11, 1)).toISOString();
    window = { from: window.from ?? defaultFrom, to };
    if (window.from! >= window.to!) throw refuse('query_definition.from', 'window_invalid', 'from must be before to.');
    months = monthsBetween(window.from!, window.to!);
    if (months.length > HISTOGRAM_MAX_MONTHS)
      throw refuse('query_definition.from', 'window_too_long', `A histogram spans at most ${HISTOGRAM_MAX_MONTHS} months.`);
  }

  const privacy: Privacy | undefined = input.privacy_parameters;
  const consents = consentsInForce(ctx, accountId, participants, window);
  const has = (c: SubjectConsent) => definition.purpose === undefined || c.purposes.has(definition.purpose);
  const union = new Map<string, SubjectConsent>();
  for (const bySubject of consents.values()) {
    for (const [subject, consent] of bySubject) {
      if (!has(consent)) continue;
      const known = union.get(subject);
      if (!known) union.set(subject, { purposes: new Set(consent.purposes), firstCaptured: consent.firstCaptured });
      else {
        for (const key of consent.purposes) known.purposes.add(key);
        if (consent.firstCaptured < known.firstCaptured) known.firstCaptured = consent.firstCaptured;
      }
    }
  }

  let counts: Counts;
  switch (input.computation_type) {
    case 'count':
      counts = { buckets: [{ key: 'subjects', count: union.size }], sensitivity: 1 };
      break;
    case 'count_by_purpose': {
      const keys = definition.purposes ?? consentPurposesOf(ctx, accountId, participants);
      counts = {
        buckets: keys.map((key) => ({ key, count: [...union.values()].filter((c) => c.purposes.has(key)).length })),
        sensitivity: Math.max(1, keys.length),
      };
      break;
    }
    case 'overlap': {
      const [a, b] = participants.map((p) => consents.get(p)!);
      let both = 0;
      for (const [subject, consent] of a!)
        if (subject.startsWith('email:') && has(consent) && b!.has(subject) && has(b!.get(subject)!)) both += 1;
      counts = { buckets: [{ key: 'overlap', count: both }], sensitivity: 1 };
      break;
    }
    case 'histogram': {
      const byMonth = new Map(months.map((m) => [m, 0]));
      for (const consent of union.values()) {
        const month = monthOf(consent.firstCaptured);
        if (byMonth.has(month)) byMonth.set(month, byMonth.get(month)! + 1);
      }
      counts = { buckets: months.map((key) => ({ key, count: byMonth.get(key)! })), sensitivity: 1 };
      break;
    }
  }

  let noise: CleanRoomResult['noise'] = null;
  let spend = 0;
  if (privacy) {
    const sensitivity = privacy.sensitivity ?? counts.sensitivity;
    if (sensitivity < counts.sensitivity) {
      throw refuse(
        'privacy_parameters.sensitivity',
        'sensitivity_too_small',
        `This computation's sensitivity is ${counts.sensitivity} (one subject can move its counts by that much in total); a smaller one would under-protect.`,
      );
    }
    spend = milli(privacy.epsilon);
    if (room.epsilon_spent_milli + spend > room.epsilon_budget_milli) {
      throw new ApiError(
        409,
        `The clean room's privacy budget has ${fromMilli(room.epsilon_budget_milli - room.epsilon_spent_milli)} epsilon left; this query needs ${privacy.epsilon}.`,
        'privacy_budget_exhausted',
      );
    }
    noise = { mechanism: 'geometric', epsilon: privacy.epsilon, sensitivity, scale: sensitivity / privacy.epsilon };
    counts = {
      ...counts,
      buckets: counts.buckets.map((b) => ({
        key: b.key,
        count: Math.max(0, b.count + geometricNoise(spend, sensitivity, ctx.noiseSource)),
      })),
    };
  }
  const buckets = counts.buckets.map((b) =>
    b.count < minCohort ? { key: b.key, count: null, suppressed: true } : { key: b.key, count: b.count, suppressed: false },
  );
  const result: CleanRoomResult = cleanRoomResult.parse({
    computation_type: input.computation_type,
    buckets,
    min_cohort: minCohort,
    suppressed_buckets: buckets.filter((b) => b.suppressed).length,
    noise,
    participants,
    window,
    home_country: ctx.country,
  });

  const id = homedId(ctx.country, 'crq_', 20);
  const now = new Date(nowMs).toISOString();
  transaction(ctx.db, () => {
    if (spend > 0) {
      const spent = stmt(
        ctx.db,
        'UPDATE clean_rooms SET epsilon_spent_milli = epsilon_spent_milli + ? WHERE id = ? AND epsilon_spent_milli + ? <= epsilon_budget_milli',
      ).run(spend, room.id, spend);
      if (spent.changes !== 1) throw new ApiError(409, "The clean room's privacy budget is spent.", 'privacy_budget_exhausted');
    }
    stmt(
      ctx.db,
      `INSERT INTO clean_room_queries (id, clean_room_id, computation_type, query_definition, privacy_parameters, status, result, submitted_at, completed_at)
      VALUES (?, ?, ?, ?, ?, 'completed', ?, ?, ?)`,
    ).run(
      id,
      room.id,
      input.computation_type,
      JSON.stringify(definition),
      privacy ? JSON.stringify(privacy) : null,
      JSON.stringify(result),
      now,
      now,
    );
    applicationOfRoom(ctx, room, (applicationId) =>
      appendAuditEvent(ctx, {
        applicationId,
        type: 'clean_room.query_completed',
        occurredAt: now,
        data: {
          clean_room_id: room.id,
          query_id: id,
          computation_type: input.computation_type,
          epsilon: privacy?.epsilon ?? null,
          suppressed_buckets: result.suppressed_buckets,
        },
      }),
    );
  });
  return toQuery(stmt<[string], QueryRow>(ctx.db, 'SELECT * FROM clean_room_queries WHERE id = ?').get(id)!);
}

function toSummary(row: QueryRow): CleanRoomQuerySummary {
  return {
    id: row.id,
    status: row.status,
    computation_type: row.computation_type,
    clean_room_id: row.clean_room_id,
    submitted_at: row.submitted_at,
    completed_at: row.completed_at,
  };
}

function toQuery(row: QueryRow): CleanRoomQuery {
  return {
    ...toSummary(row),
    query_definition: JSON.parse(row.query_definition) as Record<string, unknown>,
    privacy_parameters: row.privacy_parameters === null ? null : (JSON.parse(row.privacy_parameters) as Record<string, unknown>),
    result: row.result === null ? null : (JSON.parse(row.result) as CleanRoomResult),
  };
}

/** The room's query `id`, or undefined. */
export function findQuery(ctx: ServerContext, room: RoomRow, id: string): CleanRoomQuery | undefined {
  if (!QUERY_ID.test(id)) return undefined;
  assertHomedHere(ctx, id);
  const row = stmt<[string], QueryRow>(ctx.db, 'SELECT * FROM clean_room_queries WHERE id = ?').get(id);
  return row && row.clean_room_id === room.id ? toQuery(row) : undefined;
}

/** A page of the room's queries, oldest first. */
export function listQueries(ctx: ServerContext, room: RoomRow, limit: number, cursor: string | undefined) {
  const rows = stmt<[string, number, number], QueryRow>(
    ctx.db,
    'SELECT * FROM clean_room_queries WHERE clean_room_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  ).all(room.id, decodeCursor(cursor), limit + 1);
  const { items, next_cursor } = toPage(rows, limit, (r) => r.seq);
  return { queries: items.map(toSummary), next_cursor };
}
