// The geometric (discrete Laplace) mechanism's distribution, tested statistically: its frequencies against the
// probability mass function (chi-square), its mean and variance, Bernoulli(exp(-x)) against exp(-x), and exactness
// with a scripted uniform source. The statistical tests draw from a seeded source, so each run sees the same samples:
// a pass is not luck that a later run may lose, and a wrong mechanism (no noise, another scale) fails every run.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { describe, it } from 'node:test';
import { bernoulliExpMinus, discreteLaplace, geometricNoise, geometricPmf } from './noise.js';
import { seededUniform } from './seeded-uniform.js';

/** Chi-square statistic of observed counts against expected probabilities over the bins |z| <= k plus a tail bin. */
function chiSquare(samples: number[], pmf: (z: number) => number, k: number): { statistic: number; bins: number } {
  const n = samples.length;
  const observed = new Map<number | 'tail', number>();
  for (const s of samples) {
    const bin = Math.abs(s) <= k ? s : 'tail';
    observed.set(bin, (observed.get(bin) ?? 0) + 1);
  }
  let statistic = 0;
  let inside = 0;
  for (let z = -k; z <= k; z += 1) {
    const p = pmf(z);
    inside += p;
    statistic += ((observed.get(z) ?? 0) - n * p) ** 2 / (n * p);
  }
  const tail = 1 - inside;
  statistic += ((observed.get('tail') ?? 0) - n * tail) ** 2 / (n * tail);
  return { statistic, bins: 2 * k + 2 };
}

describe('clean-room noise: the geometric mechanism', () => {
  it('Bernoulli(exp(-n/d)) comes out at exp(-n/d)', () => {
    for (const [n, d] of [
      [0, 1],
      [1, 2],
      [1, 1],
      [3, 2],
      [5, 2],
    ] as const) {
      const runs = 20_000;
      const uniform = seededUniform(1000 * n + d);
      let ones = 0;
      for (let i = 0; i < runs; i += 1) if (bernoulliExpMinus(n, d, uniform)) ones += 1;
      const p = Math.exp(-n / d);
      const sd = Math.sqrt((p * (1 - p)) / runs);
      assert.ok(Math.abs(ones / runs - p) <= 5 * sd + 1e-9, `exp(-${n}/${d}) = ${p.toFixed(4)}, got ${(ones / runs).toFixed(4)}`);
    }
  });

  for (const [epsilon, sensitivity] of [
    [1, 1],
    [0.5, 1],
    [2, 3],
  ] as const) {
    it(`epsilon ${epsilon}, sensitivity ${sensitivity}: frequencies fit exp(-|z| eps/sens) (chi-square), mean 0, variance 2a/(1-a)^2`, () => {
      const runs = 30_000;
      const uniform = seededUniform(Math.round(epsilon * 1000) * 10 + sensitivity);
      const samples = Array.from({ length: runs }, () => geometricNoise(Math.round(epsilon * 1000), sensitivity, uniform));
      const a = Math.exp(-epsilon / sensitivity);
      const variance = (2 * a) / (1 - a) ** 2;
      const mean = samples.reduce((x, y) => x + y, 0) / runs;
      assert.ok(Math.abs(mean) < 5 * Math.sqrt(variance / runs), `mean ${mean}`);
      const observedVariance = samples.reduce((x, y) => x + (y - mean) ** 2, 0) / (runs - 1);
      assert.ok(Math.abs(observedVariance - variance) / variance < 0.1, `variance ${observedVariance} vs ${variance}`);
      // Bins where each expects at least ~5 draws; the 0.999 quantile of chi-square with up to 40 degrees of freedom is below 74.
      let k = 0;
      while (runs * geometricPmf(k + 1, epsilon, sensitivity) >= 5 && k < 19) k += 1;
      const { statistic, bins } = chiSquare(samples, (z) => geometricPmf(z, epsilon, sensitivity), k);
      assert.ok(bins - 1 <= 40);
      assert.ok(statistic < 74, `chi-square ${statistic.toFixed(1)} over ${bins} bins`);
      assert.ok(samples.every(Number.isSafeInteger), 'integer noise');
    });
  }

  it('is exact given its uniform draws: a scripted source gives the value the algorithm defines', () => {
    // u = 0, kept (Bernoulli(0/1) is 0 at k = 1, odd); V = 0 (Bernoulli(exp(-1)): Bernoulli(1/1) is 1, Bernoulli(1/2)
    // is 0 at k = 2, even); y = 0; the sign draw 1 is not below 1, so positive: 0.
    const script = [0, 0, 0, 1, 1];
    let i = 0;
    const uniform = (max: number) => {
      const v = script[i++];
      assert.ok(v !== undefined && v < max, `draw ${i} within [0, ${max})`);
      return v!;
    };
    assert.equal(discreteLaplace(1, 1, uniform), 0);
    assert.equal(i, script.length);
  });

  it("draws every uniform integer from node:crypto's randomInt unless given a source", (t) => {
    const draws: number[] = [];
    const randomInt = crypto.randomInt;
    t.mock.method(crypto, 'randomInt', (max: number) => {
      draws.push(max);
      return randomInt(max);
    });
    syncBuiltinESMExports();
    t.after(syncBuiltinESMExports);
    const noise = geometricNoise(1000, 1);
    assert.ok(Number.isSafeInteger(noise));
    assert.ok(draws.length >= 3, `${draws.length} draws from the CSPRNG`);
    draws.length = 0;
    geometricNoise(1000, 1, seededUniform(1));
    assert.deepEqual(draws, [], 'a given source replaces the CSPRNG');
  });

  it('refuses parameters that are not positive integers', () => {
    assert.throws(() => geometricNoise(0, 1), RangeError);
    assert.throws(() => geometricNoise(1.5, 1), RangeError);
    assert.throws(() => geometricNoise(1000, 0), RangeError);
  });
});
