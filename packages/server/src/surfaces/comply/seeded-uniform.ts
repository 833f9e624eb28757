// A seeded source of uniform integers for the noise tests, so that what they assert on noisy values is the same on
// every run. Never for production noise: its output is predictable from the seed.
import type { UniformInt } from './noise.js';

/** Mulberry32 (Tommy Ettinger's 32-bit generator): the next 32-bit unsigned integer of the stream from `seed`. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return (z ^ (z >>> 14)) >>> 0;
  };
}

const TWO_32 = 2 ** 32;

/** Uniform integers in [0, max), max <= 2^32, without modulo bias (draws at or above the last multiple of max are redrawn). */
export function seededUniform(seed: number): UniformInt {
  const next = mulberry32(seed);
  return (max) => {
    if (!Number.isSafeInteger(max) || max < 1 || max > TWO_32) throw new RangeError(`max must be an integer in [1, 2^32], got ${max}`);
    const limit = TWO_32 - (TWO_32 % max);
    for (;;) {
      const x = next();
      if (x < limit) return x % max;
    }
  };
}
