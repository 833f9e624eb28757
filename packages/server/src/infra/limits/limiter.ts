// The store behind every request limit, behind an interface of ours. The reference server counts in memory, per
// process (rate-limiter-flexible's RateLimiterMemory); a deployment running several processes passes a limiter of its
// shared store instead (RateLimiterRedis, RateLimiterPostgres, … of the same library) through `rateLimits.store`.
import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** One limit: at most `limit` requests per `windowSeconds` (a fixed window from the key's first request), per key. */
export interface Policy {
  /** The name the `RateLimit-Policy` / `RateLimit` headers give it. */
  name: string;
  limit: number;
  windowSeconds: number;
}

/** What a limiter answers for one key. */
export interface Outcome {
  /** The request is within the limit (after a `consume`: it was counted). */
  allowed: boolean;
  /** Requests left in the window. */
  remaining: number;
  /** Milliseconds until the window ends (0 when the key has no window open). */
  resetMs: number;
}

/** Counts requests per key under one policy. */
export interface Limiter {
  readonly policy: Policy;
  /** Counts one request of `key`; not allowed once the window holds more than the limit. */
  consume(key: string): Promise<Outcome>;
  /** Reads `key` without counting: not allowed once the window already holds `limit` requests. */
  peek(key: string): Promise<Outcome>;
}

/** Makes the limiter of one policy. Called once per policy (and per distinct API-token limit) and kept. */
export type LimiterStore = (policy: Policy) => Limiter;

interface LibraryAnswer {
  remainingPoints: number;
  msBeforeNext: number;
  consumedPoints: number;
}

/** rate-limiter-flexible rejects a consume over the limit with its answer, and a store failure with an Error. */
const isAnswer = (value: unknown): value is LibraryAnswer =>
  typeof value === 'object' && value !== null && !(value instanceof Error) && 'consumedPoints' in value && 'msBeforeNext' in value;

/**
 * Adapts any rate-limiter-flexible limiter made with `points: policy.limit` and `duration: policy.windowSeconds`.
 * A store failure is thrown (a 500): wrap the limiter with the library's `insuranceLimiter` to keep counting meanwhile.
 */
export function fromRateLimiterFlexible(policy: Policy, limiter: RateLimiterAbstract): Limiter {
  const outcome = (answer: LibraryAnswer, allowed: boolean): Outcome => ({
    allowed,
    remaining: Math.max(0, policy.limit - answer.consumedPoints),
    resetMs: Math.max(0, answer.msBeforeNext),
  });
  return {
    policy,
    async consume(key) {
      try {
        return outcome(await limiter.consume(key), true);
      } catch (rejection) {
        if (isAnswer(rejection)) return outcome(rejection, false);
        throw rejection;
      }
    },
    async peek(key) {
      const answer = await limiter.get(key);
      if (!answer || answer.msBeforeNext <= 0) return { allowed: true, remaining: policy.limit, resetMs: 0 };
      return outcome(answer, answer.consumedPoints < policy.limit);
    },
  };
}

/** The default store: memory of this process (one server process: its cells share it). */
export const memoryStore: LimiterStore = (policy) =>
  fromRateLimiterFlexible(policy, new RateLimiterMemory({ keyPrefix: policy.name, points: policy.limit, duration: policy.windowSeconds }));
