// Differential-privacy noise for clean-room counts: the two-sided geometric mechanism (the discrete Laplace), exact.
//
// Why ours (ARCHITECTURE.md, "Clean-room noise"): the general samplers on the registry (e.g. @stdlib's Laplace)
// draw from a seeded Mersenne Twister and invert the Laplace CDF in floating point, and floating-point Laplace noise
// leaks the true value through the set of doubles it can produce (Mironov, "On significance of the least significant
// bits for differential privacy", CCS 2012). Counts are integers, so the integer mechanism needs no floating point at
// all: Canonne, Kamath and Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020), Algorithms 1 and
// 2, sample Bernoulli(exp(-n/d)) and the discrete Laplace with rational parameters from uniform integers only. Every
// uniform integer here comes from node:crypto's randomInt (the operating system's CSPRNG).
import { randomInt } from 'node:crypto';

/** Epsilon is handled in thousandths: a query's epsilon has at most three decimals. */
export const EPSILON_SCALE = 1000;

/** A uniform integer in [0, max), from the CSPRNG. */
export type UniformInt = (max: number) => number;

const cryptoUniform: UniformInt = (max) => randomInt(max);

/** Bernoulli(num / den), exactly, for integers 0 <= num <= den. */
function bernoulli(num: number, den: number, uniform: UniformInt): boolean {
  return uniform(den) < num;
}

/**
 * Bernoulli(exp(-n / d)), exactly, for integers n >= 0, d >= 1 (CKS20 Algorithm 1). For gamma = n/d in [0, 1]:
 * draw A_k ~ Bernoulli(gamma / k) for k = 1, 2, ... until one is 0; answer whether that k is odd. Larger gamma is
 * split into floor(gamma) draws of Bernoulli(exp(-1)) and one of the remainder.
 */
export function bernoulliExpMinus(n: number, d: number, uniform: UniformInt = cryptoUniform): boolean {
  if (n <= d) {
    let k = 1;
    while (bernoulli(n, d * k, uniform)) k += 1;
    return k % 2 === 1;
  }
  for (let i = 0; i < Math.floor(n / d); i += 1) if (!bernoulliExpMinus(1, 1, uniform)) return false;
  return bernoulliExpMinus(n % d, d, uniform);
}

/**
 * One draw of the discrete Laplace with scale t/s: P(Z = z) proportional to exp(-|z| * s / t), for integers s, t >= 1
 * (CKS20 Algorithm 2, by rejection: U uniform in [0, t) kept with probability exp(-U/t) and V geometric with parameter
 * exp(-1) make X = U + tV geometric with parameter exp(-1/t); Y = floor(X / s), a fair sign, and (-, 0) rejected so
 * that 0 is not counted twice).
 */
export function discreteLaplace(s: number, t: number, uniform: UniformInt = cryptoUniform): number {
  for (;;) {
    const u = uniform(t);
    if (!bernoulliExpMinus(u, t, uniform)) continue;
    let v = 0;
    while (bernoulliExpMinus(1, 1, uniform)) v += 1;
    const y = Math.floor((u + t * v) / s);
    const negative = bernoulli(1, 2, uniform);
    if (negative && y === 0) continue;
    return negative ? -y : y;
  }
}

/**
 * Noise for a count under epsilon-differential privacy with L1 `sensitivity`: the two-sided geometric mechanism,
 * P(noise = z) proportional to exp(-|z| * epsilon / sensitivity), i.e. scale sensitivity / epsilon. `epsilonMilli`
 * is epsilon in thousandths, so the scale is a ratio of integers: t = sensitivity * 1000 over s = epsilonMilli.
 */
export function geometricNoise(epsilonMilli: number, sensitivity: number, uniform: UniformInt = cryptoUniform): number {
  if (!Number.isSafeInteger(epsilonMilli) || epsilonMilli < 1) throw new RangeError('epsilonMilli must be a positive integer');
  if (!Number.isSafeInteger(sensitivity) || sensitivity < 1) throw new RangeError('sensitivity must be a positive integer');
  return discreteLaplace(epsilonMilli, sensitivity * EPSILON_SCALE, uniform);
}

/** The probability the mechanism adds exactly `z` (for the statistical tests): (1 - a) / (1 + a) * a^|z|, a = exp(-eps/sens). */
export function geometricPmf(z: number, epsilon: number, sensitivity: number): number {
  const a = Math.exp(-epsilon / sensitivity);
  return ((1 - a) / (1 + a)) * a ** Math.abs(z);
}
