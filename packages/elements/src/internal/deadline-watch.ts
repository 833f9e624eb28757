// The element's deadline: the frame's `svc:deadline` messages, with the protocol's local deadline clock standing in
// when they stop coming (the frame is gone or stuck). Each threshold is surfaced once, whichever source is first.
import {
  type DeadlineClock,
  type DeadlineClockOptions,
  type DeadlinePayload,
  createDeadlineClock,
  DEADLINE_THRESHOLDS,
} from '@svc/protocol';

/**
 * How long the local clock waits behind a threshold before speaking for the frame. The frame reads the server's
 * clock, the local clock the browser's; the lag keeps a browser clock that runs a little fast from announcing
 * expiry before the service does.
 */
export const LOCAL_CLOCK_LAG_MS = 1000;

/** The index in `DEADLINE_THRESHOLDS` a payload stands for, or -1 for a warning before T-30 s. */
export function thresholdIndex(payload: DeadlinePayload): number {
  if (payload.level === 'expired') return DEADLINE_THRESHOLDS.length - 1;
  // The latest threshold passed: the smallest one at or above the seconds left (29 s left is the T-30 s warning).
  for (let i = DEADLINE_THRESHOLDS.length - 2; i >= 0; i -= 1) {
    if (DEADLINE_THRESHOLDS[i]! >= payload.remaining_seconds) return i;
  }
  return -1;
}

/** Options of {@link DeadlineWatch}; the clock functions are injectable for tests. */
export interface DeadlineWatchOptions {
  /** Receives each threshold once, in order; `expired` last. */
  onDeadline: (payload: DeadlinePayload) => void;
  /** Wall-clock time in epoch milliseconds; defaults to `Date.now`. */
  now?: () => number;
  /** How far the local clock lags behind; defaults to {@link LOCAL_CLOCK_LAG_MS}. */
  lagMs?: number;
  /** Timers and the monotonic clock of the local deadline clock; the platform's by default. */
  clock?: Pick<DeadlineClockOptions, 'monotonic' | 'setTimeout' | 'clearTimeout'>;
}

/** Merges the frame's deadline messages with a local fallback clock; see {@link DeadlineWatchOptions}. */
export class DeadlineWatch {
  readonly #options: DeadlineWatchOptions;
  readonly #now: () => number;
  #clock: DeadlineClock | undefined;
  #deadlineAt: string | undefined;
  /** Index of the last threshold surfaced; -1 before the first. */
  #last = -1;
  #stopped = false;
  // Frame time minus local time, learnt from the frame's messages (its clock follows the server's).
  #skew = 0;

  constructor(options: DeadlineWatchOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** True once the expired threshold was surfaced. */
  get expired(): boolean {
    return this.#last === DEADLINE_THRESHOLDS.length - 1;
  }

  /** Starts the local clock for `deadlineAt` (from `svc:ready`); null means the session has no deadline. */
  start(deadlineAt: string | null): void {
    if (this.#stopped || deadlineAt === null) return;
    this.#deadlineAt = deadlineAt;
    this.#restart();
  }

  /** Takes a frame `svc:deadline` payload: surfaces it unless its threshold was, and re-syncs the local clock. */
  fromFrame(payload: DeadlinePayload): void {
    if (this.#stopped) return;
    const frameNow = Date.parse(payload.deadline_at) - payload.remaining_seconds * 1000;
    if (Number.isFinite(frameNow)) this.#skew = frameNow - this.#now();
    this.#deadlineAt ??= payload.deadline_at;
    this.#offer(payload);
    this.#restart();
  }

  /** Surfaces the expired threshold now (the frame said so another way), unless it was already. */
  expire(): void {
    this.#offer({
      remaining_seconds: 0,
      level: 'expired',
      deadline_at: this.#deadlineAt ?? new Date(this.#now()).toISOString(),
    });
  }

  /** Stops everything; nothing more is surfaced. */
  stop(): void {
    this.#stopped = true;
    this.#clock?.cancel();
  }

  #offer(payload: DeadlinePayload): void {
    const index = thresholdIndex(payload);
    if (this.#stopped || index <= this.#last) return;
    this.#last = index;
    if (this.expired) this.stop();
    this.#options.onDeadline(payload);
  }

  #restart(): void {
    this.#clock?.cancel();
    if (this.#stopped) return;
    const lag = this.#options.lagMs ?? LOCAL_CLOCK_LAG_MS;
    try {
      this.#clock = createDeadlineClock({
        ...this.#options.clock,
        deadlineAt: this.#deadlineAt!,
        now: () => this.#now() + this.#skew - lag,
        onDeadline: (payload) => this.#offer(payload),
      });
    } catch {
      // A deadline the protocol rejects has no local clock; the frame's messages still count.
      this.#clock = undefined;
    }
  }
}
