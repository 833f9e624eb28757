import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeadlinePayload } from '@svc/protocol';
import { DeadlineWatch, thresholdIndex } from './deadline-watch.js';

const DEADLINE = '2030-01-01T00:10:00.000Z';
const DEADLINE_MS = Date.parse(DEADLINE);

/** A wall clock, a monotonic clock and a timer queue that only move when told to. */
function fakeTime(secondsBeforeDeadline: number) {
  let mono = 1_000;
  let wall = DEADLINE_MS - secondsBeforeDeadline * 1000;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    get pending() {
      return timers.size;
    },
    now: () => wall,
    clock: {
      monotonic: () => mono,
      setTimeout: (callback: () => void, ms: number) => {
        const id = nextId++;
        timers.set(id, { at: mono + ms, callback });
        return id;
      },
      clearTimeout: (id: unknown) => void timers.delete(id as number),
    },
    advance(ms: number) {
      const end = mono + ms;
      for (;;) {
        const next = [...timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!next) break;
        timers.delete(next[0]);
        wall += next[1].at - mono;
        mono = next[1].at;
        next[1].callback();
      }
      wall += end - mono;
      mono = end;
    },
  };
}

function watch(secondsBeforeDeadline: number, lagMs = 1000) {
  const time = fakeTime(secondsBeforeDeadline);
  const seen: DeadlinePayload[] = [];
  const deadline = new DeadlineWatch({ onDeadline: (p) => seen.push(p), now: time.now, lagMs, clock: time.clock });
  const levels = () => seen.map((p) => (p.level === 'expired' ? 'expired' : p.remaining_seconds));
  return { time, seen, deadline, levels };
}

const warning = (remaining_seconds: number): DeadlinePayload => ({ remaining_seconds, level: 'warning', deadline_at: DEADLINE });
const expired: DeadlinePayload = { remaining_seconds: 0, level: 'expired', deadline_at: DEADLINE };

describe('thresholdIndex', () => {
  it('maps seconds left to the latest threshold passed', () => {
    assert.deepEqual(
      [30, 29, 16, 15, 14, 6, 5, 1].map((s) => thresholdIndex(warning(s))),
      [0, 0, 0, 1, 1, 1, 2, 2],
    );
    assert.equal(thresholdIndex(warning(31)), -1);
    assert.equal(thresholdIndex(expired), 3);
  });
});

describe('DeadlineWatch', () => {
  it('surfaces every threshold from the local clock, lagging behind it, when the frame says nothing', () => {
    const { time, deadline, levels } = watch(60);
    deadline.start(DEADLINE);
    time.advance(30_000);
    assert.deepEqual(levels(), []);
    time.advance(1_000);
    assert.deepEqual(levels(), [30]);
    time.advance(30_000);
    assert.deepEqual(levels(), [30, 15, 5, 'expired']);
    assert.equal(deadline.expired, true);
    assert.equal(time.pending, 0);
  });

  it('lets the frame speak first and never repeats a threshold the other source already surfaced', () => {
    const { time, deadline, levels } = watch(60);
    deadline.start(DEADLINE);
    time.advance(30_000);
    deadline.fromFrame(warning(30));
    time.advance(2_000);
    deadline.fromFrame(warning(29));
    assert.deepEqual(levels(), [30]);
    // The frame goes quiet after T-30 s: the local clock takes over from T-15 s on.
    time.advance(30_000);
    assert.deepEqual(levels(), [30, 15, 5, 'expired']);
    deadline.fromFrame(expired);
    assert.deepEqual(levels(), [30, 15, 5, 'expired']);
  });

  it('re-syncs to the frame, whose clock follows the server, when the browser clock is behind', () => {
    // The browser believes 100 s are left; the service (the frame) knows only 15 are.
    const { time, deadline, levels } = watch(100);
    deadline.start(DEADLINE);
    deadline.fromFrame(warning(15));
    assert.deepEqual(levels(), [15]);
    time.advance(10_000 + 1_000);
    assert.deepEqual(levels(), [15, 5]);
    time.advance(5_000);
    assert.deepEqual(levels(), [15, 5, 'expired']);
  });

  it('expires once when told to, then ignores the rest', () => {
    const { time, deadline, levels, seen } = watch(60);
    deadline.start(DEADLINE);
    deadline.expire();
    deadline.expire();
    deadline.fromFrame(expired);
    time.advance(120_000);
    assert.deepEqual(levels(), ['expired']);
    assert.equal(seen[0]!.deadline_at, DEADLINE);
    assert.equal(time.pending, 0);
  });

  it('surfaces nothing after stop, and nothing from a session without deadline', () => {
    const { time, deadline, levels } = watch(20);
    deadline.start(null);
    time.advance(60_000);
    deadline.stop();
    deadline.fromFrame(expired);
    deadline.expire();
    assert.deepEqual(levels(), []);
  });

  it('skips warnings already past at start but always expires', () => {
    const { time, deadline, levels } = watch(3);
    deadline.start(DEADLINE);
    time.advance(3_999);
    assert.deepEqual(levels(), []);
    time.advance(1);
    assert.deepEqual(levels(), ['expired']);
  });
});
