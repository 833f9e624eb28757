import { z } from 'zod/mini';
import { dateTime } from '@svc/schemas';
import type { SvcConnection, WriteOptions } from '../lib/connection.js';

// The server keeps this shape beside its route; it lives here until it moves into the shared schemas.
const testClockEnvelope = z.object({
  test_clock: z.object({ now: dateTime(), offset_seconds: z.number() }),
});

/** The server's test clock after a move. */
export type TestClock = z.infer<typeof testClockEnvelope>['test_clock'];

/**
 * Moves the server's test clock forward by `seconds` (admin token; the server must run with `SVC_TEST_CLOCK=1`),
 * so expiries and schedules can be tested without waiting.
 */
export function advanceTestClock(connection: SvcConnection<'bearer'>, seconds: number, options?: WriteOptions): Promise<TestClock> {
  return connection
    .request({ method: 'POST', path: '/api/v1/test_clock/advance', body: { seconds }, schema: testClockEnvelope }, options)
    .then((body) => body.test_clock);
}

/** The test clock of a development server. */
export interface TestClockResource {
  /** Moves the server's clock forward by `seconds`; see {@link advanceTestClock}. */
  advance(seconds: number, options?: WriteOptions): Promise<TestClock>;
}

/** Binds the test clock functions to a connection. */
export function testClockResource(connection: SvcConnection<'bearer'>): TestClockResource {
  return { advance: (seconds, options) => advanceTestClock(connection, seconds, options) };
}
