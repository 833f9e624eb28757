import { ProtocolError, ProtocolErrorCode } from './errors.js';
import { type DeadlinePayload, utcDateTimeSchema } from './schemas.js';

/** Seconds before the deadline at which `svc:deadline` fires: three warnings, then `expired` at T-0. */
export const DEADLINE_THRESHOLDS = [30, 15, 5, 0] as const;

// setTimeout stores its delay in 32 bits; anything longer fires at once, so long waits are taken in steps.
const MAX_DELAY = 2 ** 31 - 1;

/** Options of {@link createDeadlineClock}; the clocks and timers are injectable so tests need not wait. */
export interface DeadlineClockOptions {
  /** The deadline as `svc:ready` gives it in `deadline_at`: an ISO 8601 UTC date-time. */
  deadlineAt: string;
  /** Receives each `svc:deadline` payload, each threshold at most once. */
  onDeadline: (payload: DeadlinePayload) => void;
  /** Wall-clock time in epoch milliseconds, read once at start to place the deadline; defaults to `Date.now`. */
  now?: () => number;
  /** Monotonic time in milliseconds, the only clock read after start; defaults to `performance.now`. */
  monotonic?: () => number;
  /** Schedules a callback; defaults to the global `setTimeout`. */
  setTimeout?: (callback: () => void, ms: number) => unknown;
  /** Cancels what `setTimeout` scheduled; defaults to the global `clearTimeout`. */
  clearTimeout?: (handle: unknown) => void;
}

/** A running deadline clock; see {@link createDeadlineClock}. */
export interface DeadlineClock {
  /** Stops the clock so nothing more fires; safe to call more than once. */
  cancel(): void;
}

/**
 * Starts a clock that emits the `svc:deadline` payloads for `deadlineAt`: `warning` at T-30 s, T-15 s and T-5 s
 * and `expired` at T-0, each once and never synchronously. Thresholds already past at start are skipped, but
 * `expired` always comes, at once if the deadline has passed. After start only the monotonic clock counts, so a
 * wall-clock jump cannot fire anything early or twice. Hosts use it when the frame's own `svc:deadline` messages
 * do not arrive. Throws a `ProtocolError` (`invalid_options`) for a malformed deadline.
 *
 * @example
 * ```ts
 * const clock = createDeadlineClock({
 *   deadlineAt: ready.payload.deadline_at,
 *   onDeadline: (payload) => showCountdown(payload.remaining_seconds),
 * });
 * // later
 * clock.cancel();
 * ```
 */
export function createDeadlineClock(options: DeadlineClockOptions): DeadlineClock {
  const {
    deadlineAt,
    onDeadline,
    now = () => Date.now(),
    monotonic = () => performance.now(),
    setTimeout: schedule = (callback, ms) => setTimeout(callback, ms),
    clearTimeout: unschedule = (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  } = options;
  if (!utcDateTimeSchema.safeParse(deadlineAt).success || typeof onDeadline !== 'function') {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidOptions,
      'createDeadlineClock needs deadlineAt as an ISO 8601 UTC date-time and an onDeadline function',
    );
  }
  const start = monotonic();
  // The deadline on the monotonic clock, fixed once so later wall-clock changes cannot move it.
  const end = start + (Date.parse(deadlineAt) - now());
  const dueAt = (index: number) => end - DEADLINE_THRESHOLDS[index]! * 1000;
  // Skip the warnings already past; the last threshold, `expired`, is never skipped.
  let next = 0;
  while (next < DEADLINE_THRESHOLDS.length - 1 && dueAt(next) < start) next += 1;
  let timer: { handle: unknown } | undefined;
  let cancelled = false;

  const arm = () => {
    if (cancelled || next >= DEADLINE_THRESHOLDS.length) return;
    timer = { handle: schedule(tick, Math.min(Math.max(0, dueAt(next) - monotonic()), MAX_DELAY)) };
  };

  function tick() {
    timer = undefined;
    if (cancelled) return;
    const at = monotonic();
    // A timer can wake late (a throttled background tab): of the thresholds passed, only the latest is news.
    let due: number | undefined;
    while (next < DEADLINE_THRESHOLDS.length && dueAt(next) <= at) due = next++;
    arm();
    if (due === undefined) return;
    const expired = DEADLINE_THRESHOLDS[due] === 0;
    onDeadline(
      expired
        ? { remaining_seconds: 0, level: 'expired', deadline_at: deadlineAt }
        : { remaining_seconds: Math.ceil((end - at) / 1000), level: 'warning', deadline_at: deadlineAt },
    );
  }

  arm();
  return {
    cancel() {
      cancelled = true;
      if (timer) unschedule(timer.handle);
      timer = undefined;
    },
  };
}
