import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type DeadlineClockOptions, createDeadlineClock } from './deadline-clock.js';
import { ProtocolError } from './errors.js';
import type { DeadlinePayload } from './schemas.js';

const DEADLINE = '2030-01-01T00:10:00Z';
const DEADLINE_MS = Date.parse(DEADLINE);

/**
 * A controllable wall clock, monotonic clock and timer queue. `advance` runs timers at their due time; `sleep`
 * moves time without running them, like a throttled background tab, and `flush` then runs whatever is due.
 */
function fakeTime(secondsBeforeDeadline: number) {
  let mono = 5_000;
  let wall = DEADLINE_MS - secondsBeforeDeadline * 1000;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  const delays: number[] = [];
  const due = () => [...timers].filter(([, t]) => t.at <= mono).sort((a, b) => a[1].at - b[1].at)[0];
  const time = {
    wallReads: 0,
    delays,
    get pending() {
      return timers.size;
    },
    /** Seconds left until the deadline on the monotonic clock. */
    get left() {
      return (DEADLINE_MS - wall) / 1000;
    },
    options: {
      now: () => {
        time.wallReads += 1;
        return wall;
      },
      monotonic: () => mono,
      setTimeout: (callback: () => void, ms: number) => {
        const id = nextId++;
        timers.set(id, { at: mono + ms, callback });
        delays.push(ms);
        return id;
      },
      clearTimeout: (id: unknown) => void timers.delete(id as number),
    },
    flush() {
      for (let entry = due(); entry; entry = due()) {
        timers.delete(entry[0]);
        entry[1].callback();
      }
    },
    advance(ms: number) {
      const end = mono + ms;
      for (;;) {
        const next = [...timers.values()].filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        wall += next.at - mono;
        mono = next.at;
        time.flush();
      }
      wall += end - mono;
      mono = end;
    },
    sleep(ms: number) {
      wall += ms;
      mono += ms;
    },
    jumpWallClock(ms: number) {
      wall += ms;
    },
  };
  return time;
}

function start(secondsBeforeDeadline: number, options: Partial<DeadlineClockOptions> = {}) {
  const time = fakeTime(secondsBeforeDeadline);
  const emitted: { payload: DeadlinePayload; left: number }[] = [];
  const clock = createDeadlineClock({
    deadlineAt: DEADLINE,
    onDeadline: (payload) => emitted.push({ payload, left: time.left }),
    ...time.options,
    ...options,
  });
  return { time, clock, emitted };
}

const warning = (remaining_seconds: number): DeadlinePayload => ({ remaining_seconds, level: 'warning', deadline_at: DEADLINE });
const expired: DeadlinePayload = { remaining_seconds: 0, level: 'expired', deadline_at: DEADLINE };

describe('createDeadlineClock', () => {
  it('emits warnings at T-30 s, T-15 s and T-5 s and expired at T-0, each once', () => {
    const { time, emitted } = start(60);
    time.advance(29_999);
    assert.equal(emitted.length, 0);
    time.advance(120_000);
    assert.deepEqual(emitted, [
      { payload: warning(30), left: 30 },
      { payload: warning(15), left: 15 },
      { payload: warning(5), left: 5 },
      { payload: expired, left: 0 },
    ]);
    assert.equal(time.pending, 0);
  });

  it('skips the warnings already past when started late', () => {
    const { time, emitted } = start(20);
    time.advance(60_000);
    assert.deepEqual(
      emitted.map((e) => e.payload),
      [warning(15), warning(5), expired],
    );
    assert.deepEqual(
      emitted.map((e) => e.left),
      [15, 5, 0],
    );
  });

  it('emits a threshold reached exactly at start, but not synchronously', () => {
    const { time, emitted } = start(15);
    assert.equal(emitted.length, 0);
    assert.equal(time.delays[0], 0);
    time.advance(0);
    assert.deepEqual(
      emitted.map((e) => e.payload),
      [warning(15)],
    );
  });

  it('emits only expired when started after the last warning', () => {
    const { time, emitted } = start(3);
    time.advance(60_000);
    assert.deepEqual(emitted, [{ payload: expired, left: 0 }]);
  });

  for (const late of [0, 0.001, 1, 3600]) {
    it(`emits expired at once, and only that, when the deadline passed ${late} s before start`, () => {
      const { time, emitted } = start(-late);
      assert.equal(emitted.length, 0);
      assert.deepEqual(time.delays, [0]);
      time.advance(0);
      assert.deepEqual(
        emitted.map((e) => e.payload),
        [expired],
      );
      time.advance(3_600_000);
      assert.equal(emitted.length, 1);
    });
  }

  it('reads the wall clock once at start and is unmoved by wall-clock jumps after it', () => {
    const { time, emitted } = start(60);
    time.jumpWallClock(3_600_000);
    time.advance(29_999);
    time.jumpWallClock(-7_200_000);
    time.advance(60_000);
    assert.equal(time.wallReads, 1);
    assert.deepEqual(
      emitted.map((e) => e.payload),
      [warning(30), warning(15), warning(5), expired],
    );
  });

  it('emits only the latest passed threshold when its timer wakes late, never stale warnings', () => {
    const { time, emitted } = start(60);
    time.sleep(50_000);
    time.flush();
    assert.deepEqual(
      emitted.map((e) => e.payload),
      [warning(10)],
    );
    time.sleep(30_000);
    time.flush();
    assert.deepEqual(
      emitted.map((e) => e.payload),
      [warning(10), expired],
    );
  });

  it("takes a deadline beyond setTimeout's 32-bit range in steps", () => {
    const days = 40;
    const { time, emitted } = start(days * 86_400);
    assert.ok(time.delays.every((ms) => ms <= 2 ** 31 - 1));
    time.advance(days * 86_400_000 - 30_001);
    assert.equal(emitted.length, 0);
    assert.ok(time.delays.length > 1, 'took more than one step');
    time.advance(1);
    assert.deepEqual(emitted, [{ payload: warning(30), left: 30 }]);
  });

  it('re-arms without emitting when a timer fires early', () => {
    const time = fakeTime(60);
    const emitted: DeadlinePayload[] = [];
    const scheduled: { callback: () => void; ms: number }[] = [];
    createDeadlineClock({
      deadlineAt: DEADLINE,
      onDeadline: (payload) => emitted.push(payload),
      now: time.options.now,
      monotonic: time.options.monotonic,
      setTimeout: (callback, ms) => scheduled.push({ callback, ms }),
      clearTimeout: () => {},
    });
    scheduled[0]?.callback();
    assert.equal(emitted.length, 0);
    assert.deepEqual(
      scheduled.map((s) => s.ms),
      [30_000, 30_000],
    );
  });

  it('keeps going when onDeadline throws', () => {
    let calls = 0;
    const { time, emitted } = start(60, {
      onDeadline: (payload) => {
        calls += 1;
        if (calls === 1) throw new Error('handler bug');
        emitted.push({ payload, left: 0 });
      },
    });
    assert.throws(() => time.advance(30_000), /handler bug/);
    time.advance(60_000);
    assert.deepEqual(
      emitted.map((e) => e.payload),
      [warning(15), warning(5), expired],
    );
  });

  describe('cancel', () => {
    it('stops the clock and clears its timer, and is idempotent', () => {
      const { time, clock, emitted } = start(60);
      time.advance(30_000);
      clock.cancel();
      clock.cancel();
      assert.equal(time.pending, 0);
      time.advance(60_000);
      assert.deepEqual(
        emitted.map((e) => e.payload),
        [warning(30)],
      );
    });

    it('stops the clock from inside onDeadline', () => {
      const time = fakeTime(60);
      const emitted: DeadlinePayload[] = [];
      const clock = createDeadlineClock({
        deadlineAt: DEADLINE,
        onDeadline: (payload) => {
          emitted.push(payload);
          clock.cancel();
        },
        ...time.options,
      });
      time.advance(60_000);
      assert.deepEqual(emitted, [warning(30)]);
      assert.equal(time.pending, 0);
    });

    it('prevents an expired already scheduled at start', () => {
      const { time, clock, emitted } = start(-5);
      clock.cancel();
      time.advance(1_000);
      assert.equal(emitted.length, 0);
    });
  });

  describe('defaults', () => {
    it('uses the global timers and clocks', async () => {
      const payload = await new Promise<DeadlinePayload>((resolve) => {
        createDeadlineClock({ deadlineAt: new Date(Date.now() - 1000).toISOString(), onDeadline: resolve });
      });
      assert.deepEqual(payload.level, 'expired');
    });

    it('cancels a global timer', async () => {
      const emitted: DeadlinePayload[] = [];
      const clock = createDeadlineClock({ deadlineAt: new Date(Date.now() - 1000).toISOString(), onDeadline: (p) => emitted.push(p) });
      clock.cancel();
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(emitted.length, 0);
    });
  });

  describe('options', () => {
    const invalid: [string, unknown][] = [
      ['a date without time', '2030-01-01'],
      ['a date-time with an offset', '2030-01-01T00:10:00+01:00'],
      ['free text', 'in five minutes'],
      ['an empty string', ''],
      ['null', null],
      ['epoch milliseconds', DEADLINE_MS],
    ];
    for (const [name, deadlineAt] of invalid) {
      it(`throws invalid_options for deadlineAt as ${name}`, () => {
        assert.throws(
          () => start(60, { deadlineAt: deadlineAt as string }),
          (error: unknown) => {
            assert.ok(error instanceof ProtocolError);
            assert.equal(error.code, 'invalid_options');
            return true;
          },
        );
      });
    }

    it('throws invalid_options without onDeadline', () => {
      assert.throws(() => start(60, { onDeadline: undefined as never }), { code: 'invalid_options' });
    });
  });
});
