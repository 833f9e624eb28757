import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** One field-level problem in a 422 (or 400) body. */
export interface FieldError {
  path: string;
  code: string;
  message: string;
}

/** The code an error carries when its thrower names none, by status. */
const DEFAULT_CODES: Readonly<Partial<Record<number, string>>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  421: 'wrong_country',
  422: 'validation_failed',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'unavailable',
};

/** The stable code of a status: the table above, else `internal_error` for a 5xx and `http_error` for the rest. */
export function defaultCode(status: number): string {
  return DEFAULT_CODES[status] ?? (status >= 500 ? 'internal_error' : 'http_error');
}

/** What an {@link ApiError} may carry besides its status and message. `cause` stays on the server (logs), never in the body. */
export interface ApiErrorOptions extends ErrorOptions {
  /** Stable, machine-readable reason; default: {@link defaultCode} of the status. */
  code?: string | undefined;
  errors?: FieldError[] | undefined;
  /** The country to re-issue the request against (`home_country`). */
  homeCountry?: string | undefined;
  /** Response headers the answer needs (`Retry-After` on a 429, `WWW-Authenticate` on a 401). */
  headers?: Record<string, string> | undefined;
}

/**
 * The one error class the server answers with: body `{message, code, errors?, home_country?}`. Either
 * `new ApiError(status, message, {code, errors, homeCountry, cause})` or the older positional form
 * `new ApiError(status, message, code?, errors?, homeCountry?)`.
 */
export class ApiError extends Error {
  readonly code: string;
  readonly errors: FieldError[] | undefined;
  readonly homeCountry: string | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(status: ContentfulStatusCode, message: string, options?: ApiErrorOptions);
  constructor(status: ContentfulStatusCode, message: string, code?: string, errors?: FieldError[], homeCountry?: string);
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    codeOrOptions?: string | ApiErrorOptions,
    errors?: FieldError[],
    homeCountry?: string,
  ) {
    const options: ApiErrorOptions = typeof codeOrOptions === 'object' ? codeOrOptions : { code: codeOrOptions, errors, homeCountry };
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.code = options.code ?? defaultCode(status);
    this.errors = options.errors;
    this.homeCountry = options.homeCountry;
    this.headers = options.headers;
  }

  /** The JSON body sent to the client (never the cause). */
  toBody(): { message: string; code: string; errors?: FieldError[]; home_country?: string } {
    return {
      message: this.message,
      code: this.code,
      ...(this.errors ? { errors: this.errors } : {}),
      ...(this.homeCountry ? { home_country: this.homeCountry } : {}),
    };
  }
}

export const badRequest = (message: string, code = 'bad_request', errors?: FieldError[], options?: ErrorOptions) =>
  new ApiError(400, message, { code, errors, ...options });
/** The API's challenge when nothing more precise applies: the bearer scheme of its protection space. */
export const API_CHALLENGE = 'Bearer realm="svc"';
/** 401 with the WWW-Authenticate challenge every 401 must carry (RFC 9110 §15.5.2); default {@link API_CHALLENGE}. */
export const unauthorized = (message = 'Missing or invalid authentication.', challenge = API_CHALLENGE, code = 'unauthorized') =>
  new ApiError(401, message, { code, headers: { 'WWW-Authenticate': challenge } });
/**
 * 429 for a caller over a limit: `Retry-After` in whole seconds (at least 1) and the IETF `RateLimit-Policy` /
 * `RateLimit` headers (draft-ietf-httpapi-ratelimit-headers) naming the policy that was exceeded.
 */
export function tooManyRequests(message: string, retryAfterMs: number, policy?: { name: string; limit: number; windowSeconds: number }) {
  const retryAfter = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const headers: Record<string, string> = { 'retry-after': String(retryAfter) };
  if (policy) {
    headers['ratelimit-policy'] = `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`;
    headers.ratelimit = `"${policy.name}";r=0;t=${retryAfter}`;
  }
  return new ApiError(429, message, { code: 'rate_limited', headers });
}
export const forbidden = (message: string, code = 'forbidden') => new ApiError(403, message, code);
export const notFound = (message = 'Not found.') => new ApiError(404, message, 'not_found');
export const unprocessable = (message: string, code = 'validation_failed', errors?: FieldError[], options?: ErrorOptions) =>
  new ApiError(422, message, { code, errors, ...options });

/** Answers with an error's body and status, plus any headers the answer needs (`Allow`, `Cache-Control`). */
export function errorResponse(c: Context, error: ApiError, headers?: Record<string, string>): Response {
  return c.json(error.toBody(), error.status, { ...error.headers, ...headers });
}

/** Hono error handler: known errors keep their status; anything else is a 500 that leaks nothing. */
export function onError(err: Error, c: Context) {
  if (err instanceof ApiError) return errorResponse(c, err);
  if (err instanceof HTTPException) {
    const status = err.status;
    const message = status === 413 ? 'Request body is too large.' : err.message || 'Request failed.';
    return errorResponse(c, new ApiError(status, message, { cause: err }));
  }
  console.error('[svc-server] unexpected error', c.req.method, c.req.path, err);
  return errorResponse(c, new ApiError(500, 'Internal server error.', { code: 'internal_error', cause: err }));
}

/** Hono not-found handler with the error body. */
export function onNotFound(c: Context) {
  return errorResponse(c, new ApiError(404, `No route for ${c.req.method} ${c.req.path}.`, 'not_found'));
}
