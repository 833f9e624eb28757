import type { z } from 'zod/mini';
import { countriesResponse, errorBody } from '@svc/schemas';
import { deprecationWarning } from './deprecation.js';
import {
  errorForStatus,
  SvcAbortError,
  SvcNetworkError,
  SvcResponseValidationError,
  SvcError,
  SvcTimeoutError,
  SvcTokenProviderError,
  SvcWrongCountryError,
  type SvcRequestInfo,
  type WrongCountryRefusal,
} from './errors.js';
import {
  COUNTRY_CODE,
  httpBaseUrl,
  isHeaderSafe,
  resolveOptions,
  type ClientOptions,
  type CredentialKind,
  type CredentialOf,
  type ResolvedOptions,
} from './options.js';
import { backoffMs, isRetryableStatus, isRetrySafe, parseRetryAfter, sleep } from './retry.js';
import { fieldErrors } from './validation.js';

/** A zod/mini schema whose parsed value is `T`. */
export type Schema<T> = z.ZodMiniType<T>;

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One API request, as the resource functions (or a caller of {@link SvcConnection.request}) describe it. */
export interface SvcRequest {
  /** HTTP method. */
  method: HttpMethod;
  /** Path under the base URL with each parameter already encoded, e.g. `/api/v1/flows/flw_dev_1`. */
  path: string;
  /** Query parameters; `undefined` and `null` values are left out. */
  query?: Record<string, string | number | boolean | null | undefined> | undefined;
  /** JSON body. */
  body?: unknown;
  /** Extra request headers for this call (such as `X-Svc-Render-Proof`); they cannot replace the credential. */
  headers?: Record<string, string> | undefined;
  /**
   * Called with the status and headers of the successful answer, before its body is read: for endpoints whose
   * headers carry meaning (`Retry-After` while an escalation is pending, 202 against 200).
   */
  onResponse?: ((response: { status: number; headers: Headers }) => void) | undefined;
}

/** Options every call takes as its last argument. */
export interface CallOptions {
  /** Aborts the call, retries included; the call then fails with `SvcAbortError`. */
  signal?: AbortSignal | undefined;
  /** Milliseconds this call may take, retries included; default the client's `timeoutMs`. */
  timeoutMs?: number | undefined;
  /** Retries of a retryable failure for this call; default the client's `maxRetries`. */
  maxRetries?: number | undefined;
  /** Longest `Retry-After` this call waits for before a retry, in milliseconds; default the client's `maxRetryAfterMs`. */
  maxRetryAfterMs?: number | undefined;
}

/** Options of a call that creates or changes something. */
export interface WriteOptions extends CallOptions {
  /**
   * Sent as `Idempotency-Key`: the server performs a repeated request once, which also makes a POST safe to
   * retry. Use a fresh random value (`crypto.randomUUID()`) per logical operation.
   */
  idempotencyKey?: string | undefined;
}

/**
 * An authenticated connection to the service: what every resource function takes as its first argument.
 * `K` records the credential kind, so functions a publishable key may not call do not accept its connection.
 */
export interface SvcConnection<K extends CredentialKind = CredentialKind> {
  /** Base URL of the service, without a trailing slash. */
  readonly baseUrl: string;
  /** Kind of credential the connection sends. */
  readonly credential: K;
  /** Sends a request and returns its body validated by `schema` (the escape hatch for endpoints without a method). */
  request<T>(request: SvcRequest & { schema: Schema<T> }, options?: WriteOptions): Promise<T>;
  /** Sends a request and returns its JSON body unvalidated (`undefined` when empty). */
  request(request: SvcRequest, options?: WriteOptions): Promise<unknown>;
}

/**
 * Opens a connection without binding any resource: the smallest way in for a page that calls one or two
 * functions, because a bundler then keeps only those (and the schemas they validate with).
 *
 * @example
 * ```ts
 * import { connect, createDecision } from '@svc/client';
 *
 * const svc = connect({ baseUrl: 'https://api.example.com', publishableKey: 'pk_test_...' });
 * const decision = await createDecision(svc, { kind: 'consent', subject_ref: 'flw_...', delivery_mode: 'popup' });
 * ```
 */
export function connect<const O extends ClientOptions>(options: O): SvcConnection<CredentialOf<O>> {
  const config = resolveOptions(options);
  const state: ConnectionState = { warned: new Set() };
  return {
    baseUrl: config.baseUrl,
    credential: config.credential as CredentialOf<O>,
    request: ((request: SvcRequest & { schema?: Schema<unknown> }, callOptions?: WriteOptions) =>
      send(config, state, request, callOptions ?? {})) as SvcConnection['request'],
  };
}

/** What one connection keeps between its calls. */
interface ConnectionState {
  /** Paths whose deprecation was already reported. */
  warned: Set<string>;
  /** Base URL per country as `GET /api/v1/countries` of the base URL listed them, once read. */
  cells?: Map<string, string> | undefined;
}

function queryString(query: SvcRequest['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Describes a transport failure, digging out Node's `cause.code` (ECONNREFUSED, ECONNRESET, ...). */
function explain(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const inner = error.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = typeof inner?.code === 'string' ? inner.code : typeof inner?.message === 'string' ? inner.message : '';
  return detail ? `${error.message} (${detail})` : error.message;
}

type Outcome<T> = { value: T } | { error: SvcError; retryable: boolean; retryAfter?: number | undefined };

async function send<T>(
  config: ResolvedOptions,
  state: ConnectionState,
  request: SvcRequest & { schema?: Schema<T> },
  options: WriteOptions,
): Promise<T> {
  const { method, schema } = request;
  const path = request.path + queryString(request.query);
  const info: SvcRequestInfo = { method, path };
  const timeoutMs = options.timeoutMs ?? config.timeoutMs;
  const maxRetries = options.maxRetries ?? config.maxRetries;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? config.maxRetryAfterMs;
  const { idempotencyKey, signal } = options;

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  Object.assign(headers, config.headers);
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);

  if (signal?.aborted) throw new SvcAbortError(`${method} ${path} was aborted.`, { request: info, cause: signal.reason });
  // One controller carries both the caller's signal and the deadline into fetch, body reads and backoff sleeps.
  const controller = new AbortController();
  const deadline = Date.now() + timeoutMs;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const interrupted = (cause: unknown): SvcError =>
    timedOut
      ? new SvcTimeoutError(`${method} ${path} did not finish within ${timeoutMs} ms.`, { request: info, cause })
      : new SvcAbortError(`${method} ${path} was aborted.`, { request: info, cause: signal?.reason ?? cause });

  // The cell the next attempt goes to: the base URL until a `421 wrong_country` names the resource's home.
  let base = config.baseUrl;
  let followed = false;

  /**
   * The base URL to re-issue the call at after `misdirected` (a 421 `wrong_country`), from `countries`, else from
   * the service's list; or the `SvcWrongCountryError` that says why there is none, or why not again.
   */
  const homeCell = async (misdirected: SvcError): Promise<string> => {
    const home = misdirected.homeCountry!.toUpperCase();
    const refuse = (refusal: WrongCountryRefusal, why: string, to?: string, cause: unknown = misdirected): never => {
      throw new SvcWrongCountryError(`${method} ${path} addresses a resource homed in ${home}${why}`, {
        request: info,
        status: 421,
        reason: 'wrong_country',
        homeCountry: home,
        refusal,
        from: base,
        to,
        cause,
      });
    };
    if (followed)
      return refuse('second_hop', `, and ${home}'s cell (${base}) answered 421 too; a call is re-issued once, never twice.`, base);
    let to = COUNTRY_CODE.test(home) ? config.countries.get(home) : undefined;
    if (!to && config.discoverCountries && COUNTRY_CODE.test(home)) {
      // Read again when the country is missing: a cell may have been added since.
      if (!state.cells?.has(home)) {
        try {
          state.cells = await listCells(
            config,
            { ...config.headers, ...(headers.authorization && { authorization: headers.authorization }) },
            controller.signal,
          );
        } catch (cause) {
          if (controller.signal.aborted) throw interrupted(cause);
          return refuse(
            'discovery_failed',
            `, whose base URL is not in countries, and GET ${config.baseUrl}/api/v1/countries failed: ${explain(cause)}`,
            undefined,
            cause,
          );
        }
      }
      to = state.cells.get(home);
    }
    if (!to) {
      return refuse(
        'unknown_country',
        `, whose base URL is neither in countries${config.discoverCountries ? ` nor in GET ${config.baseUrl}/api/v1/countries` : ' (discoverCountries is false)'}; the call was not re-issued.`,
      );
    }
    if (to === base) return refuse('second_hop', `, and ${home}'s own cell (${base}) answered 421; the call was not re-issued.`, to);
    if (config.onMisdirected?.({ from: base, to, homeCountry: home, method, path }) === false) {
      return refuse('refused', `; onMisdirected refused to re-issue it at ${to}.`, to);
    }
    followed = true;
    return to;
  };

  const attempt = async (): Promise<Outcome<T>> => {
    if (config.getAccessToken)
      headers.authorization = `Bearer ${await tokenFrom(config.getAccessToken, controller.signal, info, interrupted)}`;
    let response: Response;
    let text: string;
    try {
      response = await config.fetch(base + path, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        signal: controller.signal,
        credentials: 'omit',
      });
      text = await response.text();
    } catch (cause) {
      if (controller.signal.aborted) throw interrupted(cause);
      return {
        error: new SvcNetworkError(`${method} ${path} got no response: ${explain(cause)}`, { request: info, cause }),
        retryable: true,
      };
    }

    const warning = deprecationWarning(method, request.path, response.headers);
    if (warning && !state.warned.has(request.path)) {
      state.warned.add(request.path);
      config.onWarning(warning);
    }

    if (response.ok) {
      request.onResponse?.({ status: response.status, headers: response.headers });
      return { value: parseBody(text, response.status, schema, info) };
    }
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    return { error: httpError(response, text, info, retryAfter), retryable: isRetryableStatus(response.status), retryAfter };
  };

  try {
    for (let retry = 0; ; ) {
      const outcome = await attempt();
      if ('value' in outcome) return outcome.value;
      const { error } = outcome;
      // A 421 means the cell did nothing with the request, so any method may be re-issued (RFC 9110, 15.5.20); it
      // is not a retry and waits for nothing.
      if (error.status === 421 && error.reason === 'wrong_country' && error.homeCountry) {
        base = await homeCell(error);
        continue;
      }
      if (!outcome.retryable || retry >= maxRetries || !isRetrySafe(method, idempotencyKey)) throw error;
      const asked = outcome.retryAfter !== undefined;
      const wait = asked ? outcome.retryAfter! * 1000 : backoffMs(retry);
      // Waiting past the deadline would only turn a clear error (with its `retryAfter`) into a timeout.
      if ((asked && wait > maxRetryAfterMs) || Date.now() + wait >= deadline) throw error;
      try {
        await sleep(wait, controller.signal);
      } catch (cause) {
        throw interrupted(cause);
      }
      retry++;
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The cells `GET /api/v1/countries` of the base URL lists, by country: only well-formed http(s) base URLs, and
 * under an `https` base URL only `https` ones (the credential never travels on in clear text). Throws what failed.
 */
async function listCells(config: ResolvedOptions, headers: Record<string, string>, signal: AbortSignal): Promise<Map<string, string>> {
  const info: SvcRequestInfo = { method: 'GET', path: '/api/v1/countries' };
  const response = await config.fetch(`${config.baseUrl}${info.path}`, { method: 'GET', headers, signal, credentials: 'omit' });
  const text = await response.text();
  if (!response.ok) throw httpError(response, text, info, undefined);
  const secure = config.baseUrl.startsWith('https:');
  const cells = new Map<string, string>();
  for (const cell of parseBody(text, response.status, countriesResponse, info).countries) {
    const url = httpBaseUrl(cell.base_url);
    if (url && (!secure || url.startsWith('https:'))) cells.set(cell.country, url);
  }
  return cells;
}

/**
 * Asks the credential's provider for this attempt's token. Its own `SvcError` passes through (a signed-out
 * session says so itself); anything else, or a value that cannot be a header, becomes `SvcTokenProviderError`.
 * A provider that hangs still ends with the call's deadline or its caller's signal.
 */
async function tokenFrom(
  provider: NonNullable<ResolvedOptions['getAccessToken']>,
  signal: AbortSignal,
  request: SvcRequestInfo,
  interrupted: (cause: unknown) => SvcError,
): Promise<string> {
  let token: unknown;
  try {
    token = await new Promise<unknown>((resolve, reject) => {
      const onAbort = () => reject(interrupted(signal.reason));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      Promise.resolve()
        .then(() => provider({ signal }))
        .then(resolve, reject)
        .finally(() => signal.removeEventListener('abort', onAbort));
    });
  } catch (cause) {
    if (cause instanceof SvcError) throw cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new SvcTokenProviderError(`getAccessToken failed before ${request.method} ${request.path}: ${reason}`, { request, cause });
  }
  if (!isHeaderSafe(token)) {
    throw new SvcTokenProviderError(
      `getAccessToken returned ${typeof token === 'string' ? 'a string that cannot be a bearer token' : typeof token} before ${request.method} ${request.path}.`,
      { request },
    );
  }
  return token;
}

function parseBody<T>(text: string, status: number, schema: Schema<T> | undefined, request: SvcRequestInfo): T {
  if (!schema && text === '') return undefined as T;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new SvcResponseValidationError(`${request.method} ${request.path} answered ${status} with a body that is not JSON.`, {
      request,
      status,
      errors: [{ path: '(body)', code: 'invalid_json', message: 'not JSON' }],
      cause,
    });
  }
  if (!schema) return json as T;
  const result = schema.safeParse(json, { reportInput: true });
  if (result.success) return result.data;
  const errors = fieldErrors(result.error.issues);
  const listed = errors
    .slice(0, 3)
    .map((e) => `${e.path}: ${e.message}`)
    .join('; ');
  throw new SvcResponseValidationError(
    `${request.method} ${request.path} answered with a body that does not match its schema: ${listed}${errors.length > 3 ? '; ...' : ''}`,
    { request, status, errors, cause: result.error },
  );
}

function httpError(response: Response, text: string, request: SvcRequestInfo, retryAfter: number | undefined): SvcError {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // A proxy's HTML error page: the status line is all there is to say.
  }
  const parsed = errorBody.safeParse(json);
  const body = parsed.success ? parsed.data : undefined;
  const message =
    body?.message ??
    `${request.method} ${request.path} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`;
  return errorForStatus(response.status, message, {
    request,
    status: response.status,
    reason: body?.code,
    errors: body?.errors,
    homeCountry: body?.home_country,
    retryAfter,
  });
}
