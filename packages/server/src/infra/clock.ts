/** The server's clock: every expiry, retry schedule, anchoring interval and term reads it. */
export interface Clock {
  /** Milliseconds since the epoch, as the server sees it. */
  now(): number;
}

/** A clock that can be moved forward, for `SVC_TEST_CLOCK=1` and tests. */
export interface TestClock extends Clock {
  /** Moves the clock forward by `seconds` (never backward). */
  advance(seconds: number): void;
  /** Total seconds the clock has been advanced. */
  readonly offsetSeconds: number;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that follows the wall clock plus an offset that only grows. */
export function createTestClock(base: Clock = systemClock): TestClock {
  let offset = 0;
  return {
    now: () => base.now() + offset * 1000,
    advance(seconds: number) {
      if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('seconds must be a non-negative number');
      offset += seconds;
    },
    get offsetSeconds() {
      return offset;
    },
  };
}

/** ISO 8601 UTC string of a clock's instant. */
export function isoNow(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}
