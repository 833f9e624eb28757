import { SvcConfigurationError } from './errors.js';
import { MAX_RETRY_AFTER_MS } from './retry.js';

/** A `fetch` to call instead of the global one (a proxy agent, a test double, a logging wrapper). */
export type FetchImplementation = (url: string, init: RequestInit) => Promise<Response>;

/** A non-fatal notice from the client, such as a deprecated endpoint. */
export interface SvcWarning {
  /** Stable identifier of the warning kind. */
  code: 'SVC_DEPRECATED_ENDPOINT';
  /** One line for a log. */
  message: string;
  /** Path of the request that drew the warning (without its query). */
  path: string;
  /** The `Sunset` date the server announced, as sent. */
  sunset: string | undefined;
  /** URL of the endpoint to move to (`Link: <...>; rel="successor-version"`). */
  successor: string | undefined;
}

/** Options every client takes besides its credential. */
export interface BaseClientOptions {
  /** Origin (and optional path prefix) of the service, e.g. `http://127.0.0.1:4010`. */
  baseUrl: string | URL;
  /** `fetch` to use; default the global `fetch`. */
  fetch?: FetchImplementation;
  /** Milliseconds a call may take, retries included, before it fails with `SvcTimeoutError`; default 30 000. */
  timeoutMs?: number;
  /**
   * Retries of a retryable failure (network, 5xx, 429) on a retry-safe request (GET, HEAD, OPTIONS, PUT, DELETE,
   * or any method with an idempotency key); default 2. A `Retry-After` answer is waited for before the retry.
   */
  maxRetries?: number;
  /**
   * Longest `Retry-After` (of a 429 or a 5xx) the client waits for before a retry, in milliseconds; default 60 000.
   * A longer one, or one that would outlast `timeoutMs`, fails the call at once, and `SvcRateLimitError.retryAfter`
   * says when to try again.
   */
  maxRetryAfterMs?: number;
  /** Receives warnings such as a deprecated endpoint; default `console.warn` of the message. */
  onWarning?: (warning: SvcWarning) => void;
  /**
   * Base URL of each country cell of the service by ISO 3166-1 alpha-2 code, e.g.
   * `{ DE: 'https://de.api.example.com' }`. A cell answers `421 wrong_country` with the resource's `home_country`
   * for a resource homed elsewhere; the client then re-issues the call once at that country's base URL from here,
   * else from the service's own list (see `discoverCountries`), with the same credential, headers, body and
   * idempotency key, within the call's `timeoutMs`. Every call still goes first to `baseUrl`: the client does not
   * remember where a resource lives.
   */
  countries?: Readonly<Record<string, string | URL>>;
  /**
   * Whether a home country missing from `countries` is looked up in `GET /api/v1/countries` of `baseUrl` (once
   * per connection, on the first 421); default `true`. Only the original `baseUrl` is asked, never the cell that
   * answered 421, and an `https` base URL never leads to an `http` cell. `false` follows configured countries only.
   */
  discoverCountries?: boolean;
  /**
   * Called before a call is re-issued at the resource's home country; returning `false` refuses, and the call
   * fails with `SvcWrongCountryError` (`refusal: 'refused'`).
   */
  onMisdirected?: (info: MisdirectedInfo) => boolean | void;
}

/** What {@link BaseClientOptions.onMisdirected} is told about a call about to be re-issued. */
export interface MisdirectedInfo {
  /** Base URL of the cell that answered `421 wrong_country`. */
  from: string;
  /** Base URL of the home country's cell, where the call would go. */
  to: string;
  /** The resource's home country (ISO 3166-1 alpha-2, upper case). */
  homeCountry: string;
  /** HTTP method of the call. */
  method: string;
  /** Path and query of the call, e.g. `/api/v1/consent_records/cr_de_...`. */
  path: string;
}

/** Credential of a server: an API token (`Authorization: Bearer`). */
export interface ApiTokenCredential {
  /** API token, sent as `Authorization: Bearer <token>`. Server-side only: never ship it to a browser. */
  apiToken: string;
  accessToken?: never;
  getAccessToken?: never;
  agentToken?: never;
  publishableKey?: never;
  /** An API token acts for the account, never as a delegate: see {@link AccessTokenCredential.delegationGrantId}. */
  delegationGrantId?: never;
}

/** Credential of a user-facing app: an OAuth 2.0 access token (`Authorization: Bearer`). */
export interface AccessTokenCredential {
  /** OAuth 2.0 access token, sent as `Authorization: Bearer <token>`. */
  accessToken: string;
  apiToken?: never;
  getAccessToken?: never;
  agentToken?: never;
  publishableKey?: never;
  /**
   * A delegation grant (`dlg_...`) made to the person this token belongs to: every request then carries
   * `X-Delegation-Grant-Id` and acts in the grant's principal's context, within its `delegated_scopes`. Only a
   * person's own access token can be a human delegate, so the client refuses it beside an API token or an agent
   * token (the service would refuse each request).
   */
  delegationGrantId?: string;
}

/**
 * Supplies the OAuth 2.0 access token of the next request. The client calls it before every attempt (retries
 * included) and sends what it returns as `Authorization: Bearer <token>`, so it can refresh a token that is about
 * to expire; it should return a cached token while that one is still good. A rejection fails the call with the
 * provider's own error when it is an `SvcError` (such as `SvcOAuthSignedOutError`), else with
 * `SvcTokenProviderError`. `signal` aborts when the call is aborted or times out.
 */
export type AccessTokenProvider = (context: { signal: AbortSignal }) => string | Promise<string>;

/** Credential of a user-facing app whose access token changes: a provider called before each request. */
export interface AccessTokenProviderCredential {
  /**
   * Returns the access token to send, e.g. `() => oauth.accessToken()` from `@svc/client/oauth`, which refreshes
   * it shortly before it expires. See {@link AccessTokenProvider}.
   */
  getAccessToken: AccessTokenProvider;
  apiToken?: never;
  accessToken?: never;
  agentToken?: never;
  publishableKey?: never;
  /** A delegation grant made to this person; see {@link AccessTokenCredential.delegationGrantId}. */
  delegationGrantId?: string;
}

/**
 * Credential of an AI agent: the agent token (`ra_agent_...`) that `exchangeDelegationGrant` got for a delegation
 * grant. The agent acts for the grant's principal, within the grant's bounds: it checks authority, escalates and
 * reads its own escalations and grants; the service refuses it on the organisation's endpoints (403
 * `agent_token_not_allowed`). It expires (`expires_in`, at most an hour; exchange the grant again) and stops at once
 * when the grant is revoked (401 `invalid_token`) or suspended (403 `grant_suspended`).
 */
export interface AgentTokenCredential {
  /** Agent token, sent as `Authorization: Bearer <token>`; it must start with `ra_agent_`. */
  agentToken: string;
  apiToken?: never;
  accessToken?: never;
  getAccessToken?: never;
  publishableKey?: never;
  /** The agent token already names its grant. */
  delegationGrantId?: never;
}

/** Credential of a browser page: a publishable key (`X-Publishable-Key`). */
export interface PublishableKeyCredential {
  /** Publishable key (`pk_test_...` or `pk_live_...`), sent as `X-Publishable-Key`. Safe to ship to browsers. */
  publishableKey: string;
  apiToken?: never;
  accessToken?: never;
  getAccessToken?: never;
  agentToken?: never;
  delegationGrantId?: never;
}

/** Options of a client holding a bearer credential (API token, access token or its provider, agent token). */
export type BearerClientOptions = BaseClientOptions &
  (ApiTokenCredential | AccessTokenCredential | AccessTokenProviderCredential | AgentTokenCredential);
/** Options of a client holding a publishable key. */
export type PublishableClientOptions = BaseClientOptions & PublishableKeyCredential;
/** Options of any client. */
export type ClientOptions = BearerClientOptions | PublishableClientOptions;

/** What a credential may do: everything its permissions allow (`bearer`) or browser-safe calls only. */
export type CredentialKind = 'bearer' | 'publishable_key';

/** The credential kind of a client built from options `O`. */
export type CredentialOf<O extends ClientOptions> = O extends PublishableClientOptions ? 'publishable_key' : 'bearer';

/** Options checked and resolved once, at construction. */
export interface ResolvedOptions {
  baseUrl: string;
  credential: CredentialKind;
  headers: Record<string, string>;
  /** Supplies the `Authorization` header's token per attempt, when the credential is a provider. */
  getAccessToken: AccessTokenProvider | undefined;
  fetch: FetchImplementation;
  timeoutMs: number;
  maxRetries: number;
  maxRetryAfterMs: number;
  onWarning: (warning: SvcWarning) => void;
  /** Configured base URL per upper-case country code. */
  countries: ReadonlyMap<string, string>;
  discoverCountries: boolean;
  onMisdirected: ((info: MisdirectedInfo) => boolean | void) | undefined;
}

const fail = (message: string): never => {
  throw new SvcConfigurationError(message);
};

/** An agent token as the token exchange issues it. */
const AGENT_TOKEN = /^ra_agent_./;
/** A delegation grant id, `dlg_<region>_<id>` (the shape `createDelegationRequest` checks for `parent_grant_id`). */
const DELEGATION_GRANT_ID = /^dlg_[a-z]+_[A-Za-z0-9]{1,40}$/;

/** Whether `value` may travel in a header: visible ASCII, at most 4096 characters. */
export const isHeaderSafe = (value: unknown): value is string => typeof value === 'string' && /^[\x21-\x7e]{1,4096}$/.test(value);

// Header values must be visible ASCII; a stray newline from an env file would otherwise fail deep inside fetch.
const headerSafe = (name: string, value: unknown): string => {
  if (!isHeaderSafe(value)) fail(`${name} must be a non-empty string of visible ASCII characters.`);
  return value as string;
};

/** A country code as cells name themselves: ISO 3166-1 alpha-2. */
export const COUNTRY_CODE = /^[A-Za-z]{2}$/;

/** A base URL (http(s), no query, fragment or credentials) without its trailing slash, or undefined. */
export function httpBaseUrl(value: unknown): string | undefined {
  let url: URL;
  try {
    url = new URL(value as string | URL);
  } catch {
    return undefined;
  }
  if (!/^https?:$/.test(url.protocol) || url.search || url.hash || url.username || url.password) return undefined;
  return url.href.replace(/\/+$/, '');
}

/** Checks a base URL (http(s), no query, fragment or credentials) and answers it without a trailing slash. */
export function resolveBaseUrl(value: string | URL, name = 'baseUrl'): string {
  return (
    httpBaseUrl(value) ??
    fail(
      `${name} must be an http(s) URL without query, fragment or credentials, e.g. https://api.example.com; got ${JSON.stringify(String(value))}`,
    )
  );
}

function resolveCountries(countries: BaseClientOptions['countries']): Map<string, string> {
  const resolved = new Map<string, string>();
  if (countries === undefined) return resolved;
  if (typeof countries !== 'object' || countries === null)
    fail('countries must map ISO country codes to base URLs, e.g. { DE: "https://de.api.example.com" }.');
  for (const [code, url] of Object.entries(countries)) {
    if (!COUNTRY_CODE.test(code)) fail(`countries: ${JSON.stringify(code)} is not an ISO 3166-1 alpha-2 country code (such as DE).`);
    resolved.set(code.toUpperCase(), resolveBaseUrl(url, `countries.${code}`));
  }
  return resolved;
}

/** Checks client options (exactly one credential, a usable base URL, sane numbers) and resolves defaults. */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) fail('createClient needs an options object.');
  const given = (['apiToken', 'accessToken', 'getAccessToken', 'agentToken', 'publishableKey'] as const).filter(
    (k) => options[k] !== undefined,
  );
  if (given.length !== 1) {
    fail(
      given.length === 0
        ? 'Pass one credential: apiToken, accessToken, getAccessToken, agentToken or publishableKey.'
        : `Pass one credential, not ${given.join(' and ')}.`,
    );
  }
  if (options.getAccessToken !== undefined && typeof options.getAccessToken !== 'function') {
    fail('getAccessToken must be a function that returns the access token.');
  }

  const baseUrl = resolveBaseUrl(options.baseUrl);
  if (options.onMisdirected !== undefined && typeof options.onMisdirected !== 'function') fail('onMisdirected must be a function.');

  const headers: Record<string, string> = { accept: 'application/json' };
  let credential: CredentialKind = 'bearer';
  if (options.publishableKey !== undefined) {
    credential = 'publishable_key';
    headers['x-publishable-key'] = headerSafe('publishableKey', options.publishableKey);
    if (options.delegationGrantId !== undefined) {
      fail("delegationGrantId needs a person's access token (accessToken or getAccessToken), not a publishable key.");
    }
  } else {
    // A provider's token is read per attempt (connection.ts); a fixed one is checked and set once, here.
    const [name] = given as ['apiToken' | 'accessToken' | 'getAccessToken' | 'agentToken'];
    if (name !== 'getAccessToken') headers.authorization = `Bearer ${headerSafe(name, options[name])}`;
    if (name === 'agentToken' && !AGENT_TOKEN.test(options.agentToken!)) {
      fail('agentToken must be an agent token (ra_agent_...), as exchangeDelegationGrant returns it.');
    }
    if (options.delegationGrantId !== undefined) {
      // The service refuses the header with an API token or an agent token; failing here names the mistake.
      if (name === 'apiToken' || name === 'agentToken') {
        fail(
          `delegationGrantId is for a person acting as a delegate with their own access token (accessToken or getAccessToken), not with ${name === 'apiToken' ? 'an API token' : 'an agent token, which names its grant itself'}.`,
        );
      }
      const grant = headerSafe('delegationGrantId', options.delegationGrantId);
      if (!DELEGATION_GRANT_ID.test(grant))
        fail(`delegationGrantId must be a delegation grant id (dlg_<region>_...), not ${JSON.stringify(grant.slice(0, 40))}.`);
      headers['x-delegation-grant-id'] = grant;
    }
  }

  const count = (name: string, value: number | undefined, fallback: number, min: number): number => {
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value < min) fail(`${name} must be an integer of at least ${min}.`);
    return value;
  };

  return {
    baseUrl,
    credential,
    headers,
    getAccessToken: options.getAccessToken,
    // Resolved per call, so a fetch patched after construction (tests, polyfills) is still used.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs: count('timeoutMs', options.timeoutMs, 30_000, 1),
    maxRetries: count('maxRetries', options.maxRetries, 2, 0),
    maxRetryAfterMs: count('maxRetryAfterMs', options.maxRetryAfterMs, MAX_RETRY_AFTER_MS, 0),
    onWarning: options.onWarning ?? ((warning) => console.warn(warning.message)),
    countries: resolveCountries(options.countries),
    discoverCountries: options.discoverCountries ?? true,
    onMisdirected: options.onMisdirected,
  };
}
