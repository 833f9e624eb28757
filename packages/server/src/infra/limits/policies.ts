// The request limits of the server, their defaults and how they are configured (server options, SVC_RATE_LIMITS),
// and the IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers) that describe them.
import { memoryStore, type Limiter, type LimiterStore, type Outcome, type Policy } from './limiter.js';

/** At most `limit` requests per `windowSeconds`. */
export interface Window {
  limit: number;
  windowSeconds: number;
}

/** The limits a server applies; each `false` turns that one off. `rateLimits: false` turns them all off. */
export interface RateLimitOptions {
  /** Publishable-key requests of one application from one client address (captures, renders, decisions…). */
  publishableAddress?: Window | false;
  /** Publishable-key requests of one application from every address together. */
  publishableApplication?: Window | false;
  /** Failed authentications (401) of the API from one client address; past it, its API requests are refused before auth. */
  failedAuth?: Window | false;
  /** Requests outside the API (hosted pages, the participant API, discovery, preflights) from one client address. */
  anonymous?: Window | false;
  /** Honour each API token's own `rate_limit` (set by the organisation; none by default). Default true. */
  apiTokens?: boolean;
  /**
   * Reverse proxies in front of the server whose `X-Forwarded-For` entries are trusted. Default 0: the client address
   * is the socket's peer and `X-Forwarded-For` is ignored (anyone can write it).
   */
  trustedProxies?: number;
  /** Makes each policy's limiter; default {@link memoryStore}. Pass one of a shared store when several processes serve. */
  store?: LimiterStore;
}

/** Defaults: far above what one person's browser or an honest integration sends, far below a flood. */
export const DEFAULT_RATE_LIMITS: Readonly<Record<WindowName, Window>> = {
  publishableAddress: { limit: 300, windowSeconds: 60 },
  publishableApplication: { limit: 6000, windowSeconds: 60 },
  failedAuth: { limit: 60, windowSeconds: 60 },
  anonymous: { limit: 1200, windowSeconds: 60 },
};

type WindowName = 'publishableAddress' | 'publishableApplication' | 'failedAuth' | 'anonymous';

/** The policy names the headers carry, and `SVC_RATE_LIMITS` accepts. */
export const POLICY_NAMES: Readonly<Record<WindowName, string>> = {
  publishableAddress: 'publishable_address',
  publishableApplication: 'publishable_application',
  failedAuth: 'failed_auth',
  anonymous: 'anonymous',
};

/** The name of an API token's own limit in the headers. */
export const API_TOKEN_POLICY = 'api_token';

/** The limiters of one server, shared by its cells (one process: one count per address and application). */
export interface RateLimits {
  publishableAddress: Limiter | undefined;
  publishableApplication: Limiter | undefined;
  failedAuth: Limiter | undefined;
  anonymous: Limiter | undefined;
  /** The limiter of an API token's own limit, or undefined when tokens' limits are not honoured. */
  apiToken: ((requests: number, windowSeconds: number) => Limiter) | undefined;
  trustedProxies: number;
}

function checkWindow(name: string, window: Window): Window {
  const whole = (n: number) => Number.isInteger(n) && n >= 1;
  if (!whole(window.limit) || !whole(window.windowSeconds)) {
    throw new RangeError(`rate limit ${name}: limit and windowSeconds must be whole numbers of at least 1`);
  }
  return window;
}

/**
 * Keeps at most this many distinct API-token limits' limiters; the oldest is dropped (its counts start again). Each
 * shares the policy name `api_token`: callers key by token and limit, so a shared store's keys never collide.
 */
const TOKEN_LIMITERS = 1000;

function tokenLimiters(store: LimiterStore): (requests: number, windowSeconds: number) => Limiter {
  const made = new Map<string, Limiter>();
  return (requests, windowSeconds) => {
    const id = `${requests}/${windowSeconds}`;
    let limiter = made.get(id);
    if (!limiter) {
      if (made.size >= TOKEN_LIMITERS) made.delete(made.keys().next().value!);
      limiter = store({ name: API_TOKEN_POLICY, limit: requests, windowSeconds });
      made.set(id, limiter);
    }
    return limiter;
  };
}

/** Builds a server's limiters from its options (defaults for what they leave out); undefined when `false`. */
export function createRateLimits(options: RateLimitOptions | false = {}): RateLimits | undefined {
  if (options === false) return undefined;
  const store = options.store ?? memoryStore;
  const make = (name: WindowName): Limiter | undefined => {
    const window = options[name] === undefined ? DEFAULT_RATE_LIMITS[name] : options[name];
    if (window === false) return undefined;
    const { limit, windowSeconds } = checkWindow(POLICY_NAMES[name], window);
    return store({ name: POLICY_NAMES[name], limit, windowSeconds });
  };
  const trustedProxies = options.trustedProxies ?? 0;
  if (!Number.isInteger(trustedProxies) || trustedProxies < 0) throw new RangeError('trustedProxies must be a whole number');
  return {
    publishableAddress: make('publishableAddress'),
    publishableApplication: make('publishableApplication'),
    failedAuth: make('failedAuth'),
    anonymous: make('anonymous'),
    apiToken: options.apiTokens === false ? undefined : tokenLimiters(store),
    trustedProxies,
  };
}

/**
 * Reads `SVC_RATE_LIMITS` and `SVC_TRUSTED_PROXIES`: `SVC_RATE_LIMITS=off` turns every limit off; otherwise a comma
 * list of `<policy>=<limit>/<seconds>` or `<policy>=off` (policies: failed_auth, anonymous, publishable_address,
 * publishable_application, api_token=off), e.g. `failed_auth=20/60,anonymous=off`.
 */
export function rateLimitsFromEnv(env: NodeJS.ProcessEnv): RateLimitOptions | false {
  const spec = (env.SVC_RATE_LIMITS ?? '').trim();
  if (spec === 'off') return false;
  const options: RateLimitOptions = {};
  const byName = new Map(Object.entries(POLICY_NAMES).map(([key, name]) => [name, key as WindowName]));
  for (const entry of spec.split(',').filter((e) => e.trim())) {
    const [name = '', value = ''] = entry.split('=').map((s) => s.trim());
    const key = byName.get(name);
    const window = /^(\d+)\/(\d+)$/.exec(value);
    if (name === API_TOKEN_POLICY && value === 'off') options.apiTokens = false;
    else if (key && value === 'off') options[key] = false;
    else if (key && window) options[key] = checkWindow(name, { limit: Number(window[1]), windowSeconds: Number(window[2]) });
    else throw new RangeError(`SVC_RATE_LIMITS: cannot read "${entry}" (expected off, or <policy>=<limit>/<seconds> or <policy>=off)`);
  }
  if (env.SVC_TRUSTED_PROXIES) options.trustedProxies = Number(env.SVC_TRUSTED_PROXIES);
  return options;
}

/** `RateLimit-Policy`: every policy that applied to the request. */
export const policyHeader = (policies: readonly Policy[]): string =>
  policies.map((p) => `"${p.name}";q=${p.limit};w=${p.windowSeconds}`).join(', ');

/** `RateLimit`: what is left of the policy closest to its limit, and the seconds until its window ends. */
export const remainingHeader = (policy: Policy, outcome: Outcome): string =>
  `"${policy.name}";r=${outcome.remaining};t=${Math.ceil(outcome.resetMs / 1000)}`;
