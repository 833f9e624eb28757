import {
  escalationEnvelope,
  escalationList,
  type CreateEscalationRequest,
  type Escalation,
  type EscalationStatus,
  type EscalationTrigger,
} from '@svc/schemas';
import type { CallOptions, SvcConnection, WriteOptions } from '../lib/connection.js';
import {
  SvcAbortError,
  SvcConfigurationError,
  SvcEscalationOutcomeError,
  SvcTimeoutError,
  type SvcError,
  type SvcRequestInfo,
} from '../lib/errors.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';
import { parseRetryAfter, sleep } from '../lib/retry.js';

/** Query of the escalation list. */
export type EscalationQuery = ListQuery & {
  /** Only escalations in this status. */
  status?: EscalationStatus | undefined;
  /** Only escalations of this trigger (the bound an action went beyond, or `escalation` when the agent asked). */
  trigger?: EscalationTrigger | undefined;
};

/** An escalation as read, with the `Retry-After` the service sent while it is pending. */
export interface EscalationRead {
  escalation: Escalation;
  /** Seconds the service asks a poller to wait before reading again (pending only). */
  retryAfter: number | undefined;
}

/** How long {@link waitForEscalation} waits between reads when the service sends no `Retry-After`. */
export const DEFAULT_ESCALATION_POLL_MS = 2_000;
/** The longest {@link waitForEscalation} waits between two reads, whatever `Retry-After` says. */
export const MAX_ESCALATION_POLL_MS = 30_000;
/** The shortest wait between two reads, so a `Retry-After: 0` cannot turn the wait into a busy loop. */
export const MIN_ESCALATION_POLL_MS = 100;

const BASE = '/api/v1/oap/escalations';
const path = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

/**
 * Lists escalations, oldest first (`GET /api/v1/oap/escalations`): an agent's own with its agent token, those
 * waiting on a person (as principal) with their access token, the account's with an API token.
 */
export function listEscalations(connection: SvcConnection<'bearer'>, query?: EscalationQuery, options?: CallOptions): SvcList<Escalation> {
  return listEndpoint(connection, BASE, escalationList, 'escalations', query, options);
}

/** Reads an escalation and the `Retry-After` sent with it (`GET /api/v1/oap/escalations/{id}`). */
export async function readEscalation(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<EscalationRead> {
  let retryAfter: number | undefined;
  const body = await connection.request(
    {
      method: 'GET',
      path: path(id),
      schema: escalationEnvelope,
      onResponse: ({ headers }) => {
        retryAfter = parseRetryAfter(headers.get('retry-after'));
      },
    },
    options,
  );
  return { escalation: body.escalation, retryAfter };
}

/**
 * Reads an escalation (`GET /api/v1/oap/escalations/{id}`). Its `decision` (the hosted approval the principal
 * answers) is shown to the principal and the organisation, never to the agent.
 */
export function getEscalation(connection: SvcConnection<'bearer'>, id: string, options?: CallOptions): Promise<Escalation> {
  return readEscalation(connection, id, options).then((read) => read.escalation);
}

/**
 * Asks the principal for more before acting (`POST /api/v1/oap/escalations`, agent token; trigger `escalation`).
 * Needs the grant's escalation bound allowed. Wait for the answer with {@link waitForEscalation}, then repeat the
 * authority check with `escalation_id` to use an approval (once).
 */
export function createEscalation(
  connection: SvcConnection<'bearer'>,
  request: CreateEscalationRequest,
  options?: WriteOptions,
): Promise<Escalation> {
  return connection
    .request({ method: 'POST', path: BASE, body: request, schema: escalationEnvelope }, options)
    .then((body) => body.escalation);
}

/** Options of {@link waitForEscalation}. */
export interface WaitForEscalationOptions {
  /**
   * The outcome the caller needs, e.g. `approved`: an escalation that ends otherwise (denied, countered, expired)
   * fails the wait with `SvcEscalationOutcomeError`, which carries it. Without it, any end resolves.
   */
  outcome?: Exclude<EscalationStatus, 'pending'> | undefined;
  /** Stops waiting; the wait then fails with `SvcAbortError` (the escalation itself stays open). */
  signal?: AbortSignal | undefined;
  /**
   * Milliseconds to wait in all before failing with `SvcTimeoutError`. Default: until the escalation is decided or
   * expires (its `expires_at`), as long as that takes.
   */
  timeoutMs?: number | undefined;
  /** Milliseconds between reads when the service sends no `Retry-After`; default 2 000. */
  pollIntervalMs?: number | undefined;
}

/**
 * Waits until an escalation is no longer `pending` and resolves to it as it ended: reads it, then waits as long as
 * its `Retry-After` says (else `pollIntervalMs`; never more than 30 s, never less than 100 ms) and reads again.
 * Each read is an ordinary call with the client's timeout and retries; the wait as a whole is bounded by
 * `timeoutMs` and `signal` only.
 *
 * @example An agent that was escalated
 * ```ts
 * const result = await agent.authority.check(action);
 * if (result.outcome === 'escalated') {
 *   const approved = await agent.escalations.waitFor(result.escalation.id, { outcome: 'approved', timeoutMs: 600_000 });
 *   await agent.authority.check({ ...action, escalation_id: approved.id });
 * }
 * ```
 */
export async function waitForEscalation(
  connection: SvcConnection<'bearer'>,
  id: string,
  options: WaitForEscalationOptions = {},
): Promise<Escalation> {
  const { outcome, signal, timeoutMs } = options;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_ESCALATION_POLL_MS;
  if (!(Number.isFinite(pollIntervalMs) && pollIntervalMs > 0))
    throw new SvcConfigurationError('pollIntervalMs must be a positive number of milliseconds.');
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0))
    throw new SvcConfigurationError('timeoutMs must be a positive number of milliseconds.');
  const request: SvcRequestInfo = { method: 'GET', path: path(id) };
  if (signal?.aborted) throw new SvcAbortError(`Waiting for escalation ${id} was aborted.`, { request, cause: signal.reason });

  // One controller carries the caller's signal and the overall deadline into every read and every pause.
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const interrupted = (cause: unknown): SvcError =>
    timedOut
      ? new SvcTimeoutError(`Escalation ${id} was still pending after ${timeoutMs} ms.`, { request, cause })
      : new SvcAbortError(`Waiting for escalation ${id} was aborted.`, { request, cause: signal?.reason ?? cause });

  try {
    for (;;) {
      let read: EscalationRead;
      try {
        read = await readEscalation(connection, id, { signal: controller.signal });
      } catch (err) {
        if (controller.signal.aborted) throw interrupted(err);
        throw err;
      }
      const { escalation } = read;
      if (escalation.status !== 'pending') {
        if (outcome !== undefined && escalation.status !== outcome) {
          const counter =
            escalation.status === 'countered' && escalation.counter_proposal ? ` (counter-proposal: ${escalation.counter_proposal})` : '';
          throw new SvcEscalationOutcomeError(
            `Escalation ${id} ended ${escalation.status}, not ${outcome}${counter}.`,
            escalation,
            outcome,
            { request },
          );
        }
        return escalation;
      }
      const asked = read.retryAfter === undefined ? pollIntervalMs : read.retryAfter * 1000;
      try {
        await sleep(Math.min(MAX_ESCALATION_POLL_MS, Math.max(MIN_ESCALATION_POLL_MS, asked)), controller.signal);
      } catch (cause) {
        throw interrupted(cause);
      }
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Escalations: an agent's actions beyond its grant, waiting for the principal. */
export interface EscalationsResource {
  /** Lists escalations; see {@link listEscalations}. */
  list(query?: EscalationQuery, options?: CallOptions): SvcList<Escalation>;
  /** Reads an escalation; see {@link getEscalation}. */
  get(id: string, options?: CallOptions): Promise<Escalation>;
  /** Asks the principal for more (agent token); see {@link createEscalation}. */
  create(request: CreateEscalationRequest, options?: WriteOptions): Promise<Escalation>;
  /** Polls an escalation until it is decided or expires; see {@link waitForEscalation}. */
  waitFor(id: string, options?: WaitForEscalationOptions): Promise<Escalation>;
}

/** Binds the escalation functions to a connection. */
export function escalationsResource(connection: SvcConnection<'bearer'>): EscalationsResource {
  return {
    list: (query, options) => listEscalations(connection, query, options),
    get: (id, options) => getEscalation(connection, id, options),
    create: (request, options) => createEscalation(connection, request, options),
    waitFor: (id, options) => waitForEscalation(connection, id, options),
  };
}
