// The one assertion the client's suites share: a call fails with an error of a given class, answered for more checks.
import assert from 'node:assert/strict';

/** Awaits `promise`, asserts it rejects with an instance of `type`, and answers that error. */
export async function rejection<T extends Error>(promise: Promise<unknown>, type: abstract new (...args: never[]) => T): Promise<T> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof type, `expected ${type.name}, got ${String(err)}`);
    return err;
  }
  assert.fail(`expected ${type.name}, but the call succeeded`);
}
