// Guessing limits: how many wrong guesses at one target's secret a window allows (the sign-in codes sent to an
// email, the device user codes, a client's secret, a person's device-link codes). Past the limit every attempt at
// that target, the right secret included, is answered 429 until the window ends: a fresh code or another endpoint
// does not start the count again. The counts live behind the request limits' store interface (infra/limits: in
// memory per process by default; a deployment passes the same store of its Redis or PostgreSQL limiters through
// `configureGuessLimits`), and stay on when the request limits are off. Windows are fixed and follow the server's
// clock, so the test clock ends them as it ends codes.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { Env, ServerContext } from '../../infra/context.js';
import { tooManyRequests } from '../../infra/errors.js';
import { addressKey, clientAddress } from '../../infra/limits/address.js';
import { memoryStore, type Limiter, type LimiterStore } from '../../infra/limits/limiter.js';

/** At most `points` wrong guesses per target in each window of `windowSeconds`. */
export interface GuessLimit {
  points: number;
  windowSeconds: number;
}

const QUARTER_HOUR = 15 * 60;

/** The defaults. None touches honest use: a person mistypes a code a few times, a client's secret never fails. */
export const GUESS_LIMITS = {
  /** Wrong sign-in codes per email, whatever code is current (each code also ends after five wrong tries). */
  sign_in_code: { points: 10, windowSeconds: QUARTER_HOUR },
  /** Wrong device user codes per client address. */
  device_user_code: { points: 10, windowSeconds: QUARTER_HOUR },
  /** Wrong device user codes from every address together (guessing spread over many addresses). */
  device_user_code_all: { points: 500, windowSeconds: QUARTER_HOUR },
  /** Failed client authentications per client and address (another address is not locked out by an attacker). */
  client_secret: { points: 10, windowSeconds: QUARTER_HOUR },
  /** Failed client authentications per client from every address together. */
  client_secret_all: { points: 100, windowSeconds: QUARTER_HOUR },
  /** Wrong device-link codes per person, across their links (each link also locks after five). */
  device_link_code: { points: 10, windowSeconds: QUARTER_HOUR },
} as const satisfies Record<string, GuessLimit>;

export type GuessKind = keyof typeof GUESS_LIMITS;

/** What a deployment may change: the limits, and the store each limit counts in. */
export interface GuessOptions {
  limits?: Partial<Record<GuessKind, GuessLimit>>;
  /** Makes each limit's limiter (the request limits' interface); default {@link memoryStore}. */
  store?: LimiterStore;
}

/** A target over its limit: which limit, and how long until its window ends. */
export interface Limited {
  kind: GuessKind;
  limit: GuessLimit;
  retryAfterMs: number;
}

/** One target of one limit: e.g. `['sign_in_code', 'ada@example.com']`. */
export type Target = readonly [GuessKind, string];

/** The limits of one server. */
export class Guesses {
  readonly #limiters = new Map<GuessKind, Limiter>();

  constructor(
    private readonly ctx: Pick<ServerContext, 'clock'>,
    private readonly options: GuessOptions = {},
  ) {}

  limit(kind: GuessKind): GuessLimit {
    return this.options.limits?.[kind] ?? GUESS_LIMITS[kind];
  }

  #limiter(kind: GuessKind): Limiter {
    let limiter = this.#limiters.get(kind);
    if (!limiter) {
      const { points, windowSeconds } = this.limit(kind);
      limiter = (this.options.store ?? memoryStore)({ name: kind, limit: points, windowSeconds });
      this.#limiters.set(kind, limiter);
    }
    return limiter;
  }

  /** The current window of `kind`: its key for `target` and when it ends (server clock). */
  #window(kind: GuessKind, target: string) {
    const ms = this.limit(kind).windowSeconds * 1000;
    const index = Math.floor(this.ctx.clock.now() / ms);
    return { key: `${index}:${target}`, endsAt: (index + 1) * ms };
  }

  /** The first of `targets` that has no guess left in its window, or undefined when every one may guess. */
  async limited(targets: readonly Target[]): Promise<Limited | undefined> {
    for (const [kind, target] of targets) {
      const { key, endsAt } = this.#window(kind, target);
      if (!(await this.#limiter(kind).peek(key)).allowed) {
        return { kind, limit: this.limit(kind), retryAfterMs: endsAt - this.ctx.clock.now() };
      }
    }
    return undefined;
  }

  /** Counts one wrong guess against each of `targets`. */
  async missed(targets: readonly Target[]): Promise<void> {
    await Promise.all(targets.map(([kind, target]) => this.#limiter(kind).consume(this.#window(kind, target).key)));
  }
}

const servers = new WeakMap<object, Guesses>();

/** Sets a server's limits or store; call before its first request (tests lower a limit, deployments pick a store). */
export function configureGuessLimits(ctx: ServerContext, options: GuessOptions): void {
  servers.set(ctx, new Guesses(ctx, options));
}

/** The guessing limits of `ctx`, made on first use with the defaults. */
export function guessLimits(ctx: ServerContext): Guesses {
  let guesses = servers.get(ctx);
  if (!guesses) servers.set(ctx, (guesses = new Guesses(ctx)));
  return guesses;
}

/** The 429 for a limited target: `Retry-After` and the `RateLimit-Policy` / `RateLimit` headers of its limit. */
export function tooManyGuesses(message: string, { kind, limit, retryAfterMs }: Limited) {
  return tooManyRequests(message, retryAfterMs, { name: kind, limit: limit.points, windowSeconds: limit.windowSeconds });
}

/** How long a limited target waits, in words: "in 14 minutes", "in 30 seconds". */
export function waitText({ retryAfterMs }: Limited): string {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  if (seconds < 90) return `in ${seconds} second${seconds === 1 ? '' : 's'}`;
  return `in ${Math.ceil(seconds / 60)} minutes`;
}

const addresses = new WeakMap<IncomingMessage, string>();

/**
 * Notes the client address of a request handed to the provider, read as the request limits read it (the socket's
 * peer, or the address the trusted proxies saw), so that a per-address limit counts the client, not a proxy.
 */
export function noteClientAddress(ctx: ServerContext, c: Context<Env>, incoming: IncomingMessage): void {
  addresses.set(incoming, clientAddress(c, ctx.rateLimits?.trustedProxies ?? 0));
}

/** The client address key of a request the provider answers (its socket's peer when none was noted). */
export function addressOf(incoming: IncomingMessage): string {
  return addresses.get(incoming) ?? addressKey(incoming.socket.remoteAddress ?? 'unknown');
}
