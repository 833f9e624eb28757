import type { AnyOAuthError } from '../oauth/errors.js';
import type { Escalation, EscalationStatus } from '@svc/schemas';
import type { AnyReceiptVerificationError } from '../verify/receipt.js';
import type { AnyTransparencyVerificationError } from '../verify/transparency.js';
import type { AnyWebhookVerificationError } from '../verify/webhook.js';

/** One field-level problem: in a 400/422 error body, or in a response that failed validation. */
export interface SvcFieldError {
  /** Dotted path of the field, e.g. `api_token.permissions.0`, or `(body)` for the whole body. */
  readonly path: string;
  /** Machine-readable problem, e.g. `invalid_type` or `unknown_field`. */
  readonly code: string;
  /** Human-readable explanation. */
  readonly message: string;
}

/** Where a failed call was going; every error made for a request carries it. */
export interface SvcRequestInfo {
  /** HTTP method, e.g. `POST`. */
  readonly method: string;
  /** Path and query of the request, e.g. `/api/v1/api_tokens?limit=2`. */
  readonly path: string;
}

/** Details every {@link SvcError} may carry besides its message. */
export interface SvcErrorDetails {
  /** The request that failed. */
  request?: SvcRequestInfo | undefined;
  /** HTTP status of the response, when there was one. */
  status?: number | undefined;
  /** The server's machine-readable reason (the error body's `code`), e.g. `insufficient_permissions`. */
  reason?: string | undefined;
  /** Field-level problems. */
  errors?: readonly SvcFieldError[] | undefined;
  /** The country to re-issue the request against, when the resource lives in another one. */
  homeCountry?: string | undefined;
  /** Seconds the server asked to wait before retrying (`Retry-After`). */
  retryAfter?: number | undefined;
  /** The underlying error, passed through. */
  cause?: unknown;
}

/**
 * Base class of every error the client throws. `code` is stable and narrows the type in a `switch`; the
 * server's own reason code, when it sent one, is in `reason`.
 */
export abstract class SvcError extends Error {
  /** Stable identifier of the failure kind, e.g. `ERR_SVC_NOT_FOUND`. */
  abstract readonly code: string;
  /** HTTP method of the failed request. */
  readonly method: string | undefined;
  /** Path (and query) of the failed request. */
  readonly path: string | undefined;
  /** HTTP status of the response, when there was one. */
  readonly status: number | undefined;
  /** The server's machine-readable reason (the error body's `code`). */
  readonly reason: string | undefined;
  /** Field-level problems, empty when there are none. */
  readonly errors: readonly SvcFieldError[];
  /** The country to re-issue the request against (`home_country`), when the resource lives in another one. */
  readonly homeCountry: string | undefined;

  constructor(message: string, details: SvcErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SvcError';
    this.method = details.request?.method;
    this.path = details.request?.path;
    this.status = details.status;
    this.reason = details.reason;
    this.errors = details.errors ?? [];
    this.homeCountry = details.homeCountry;
  }
}

/** The client was constructed with invalid options (no credential, two credentials, a bad base URL). */
export class SvcConfigurationError extends SvcError {
  override readonly name = 'SvcConfigurationError';
  readonly code = 'ERR_SVC_CONFIGURATION';
}

/** 400: the server could not read the request (malformed JSON, a cursor it did not issue). */
export class SvcBadRequestError extends SvcError {
  override readonly name = 'SvcBadRequestError';
  readonly code = 'ERR_SVC_BAD_REQUEST';
}

/** 401: the credential is missing, unknown, revoked or expired. */
export class SvcAuthenticationError extends SvcError {
  override readonly name = 'SvcAuthenticationError';
  readonly code = 'ERR_SVC_AUTHENTICATION';
}

/** 403: the credential is valid but may not do this (a publishable key, a token without `write` or `admin`). */
export class SvcPermissionError extends SvcError {
  override readonly name = 'SvcPermissionError';
  readonly code = 'ERR_SVC_PERMISSION';
}

/** 404: the resource does not exist or is not visible to this credential. */
export class SvcNotFoundError extends SvcError {
  override readonly name = 'SvcNotFoundError';
  readonly code = 'ERR_SVC_NOT_FOUND';
}

/** 422: the request was read but its data is invalid; `errors` names each field. */
export class SvcValidationError extends SvcError {
  override readonly name = 'SvcValidationError';
  readonly code = 'ERR_SVC_VALIDATION';
}

/** 429: too many requests; `retryAfter` says how long the server asked to wait. */
export class SvcRateLimitError extends SvcError {
  override readonly name = 'SvcRateLimitError';
  readonly code = 'ERR_SVC_RATE_LIMIT';
  /** Seconds the server asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | undefined;

  constructor(message: string, details: SvcErrorDetails = {}) {
    super(message, details);
    this.retryAfter = details.retryAfter;
  }
}

/** 5xx: the server failed. */
export class SvcServerError extends SvcError {
  override readonly name = 'SvcServerError';
  readonly code = 'ERR_SVC_SERVER';
}

/** Any other non-2xx status (409, 413, 415, ...). */
export class SvcHttpError extends SvcError {
  override readonly name = 'SvcHttpError';
  readonly code = 'ERR_SVC_HTTP';
}

/** The request never got an HTTP response (connection refused or reset, DNS, CORS in a browser). */
export class SvcNetworkError extends SvcError {
  override readonly name = 'SvcNetworkError';
  readonly code = 'ERR_SVC_NETWORK';
}

/** The call took longer than its `timeoutMs`, retries included. */
export class SvcTimeoutError extends SvcError {
  override readonly name = 'SvcTimeoutError';
  readonly code = 'ERR_SVC_TIMEOUT';
}

/** The caller's `AbortSignal` aborted the call; `cause` is the signal's reason. */
export class SvcAbortError extends SvcError {
  override readonly name = 'SvcAbortError';
  readonly code = 'ERR_SVC_ABORT';
}

/** A 2xx response did not match the schema of the endpoint; `errors` names each field that did not. */
export class SvcResponseValidationError extends SvcError {
  override readonly name = 'SvcResponseValidationError';
  readonly code = 'ERR_SVC_RESPONSE_VALIDATION';
}

/**
 * The `getAccessToken` credential failed: it threw something that is not an `SvcError`, or returned a value that
 * cannot be a bearer token. `cause` is what it threw.
 */
export class SvcTokenProviderError extends SvcError {
  override readonly name = 'SvcTokenProviderError';
  readonly code = 'ERR_SVC_TOKEN_PROVIDER';
}

/** Why a `421 wrong_country` answer was not re-issued at the resource's home country. */
export type WrongCountryRefusal =
  /** The home country's cell answered 421 as well: the client re-issues a request once, never twice. */
  | 'second_hop'
  /** The home country's base URL is neither in `countries` nor (with `discoverCountries`) in the service's list. */
  | 'unknown_country'
  /** `GET /api/v1/countries` of the base URL failed; `cause` is its error. */
  | 'discovery_failed'
  /** `onMisdirected` returned `false`. */
  | 'refused';

/** Details of {@link SvcWrongCountryError} besides those of every error. */
export interface SvcWrongCountryErrorDetails extends SvcErrorDetails {
  refusal: WrongCountryRefusal;
  from: string;
  to?: string | undefined;
}

/**
 * 421 `wrong_country`: the resource lives in another country's cell (`homeCountry`) and the call was not re-issued
 * there, or was and the home cell answered 421 too; `refusal` says which. The resource was not read or changed.
 */
export class SvcWrongCountryError extends SvcError {
  override readonly name = 'SvcWrongCountryError';
  readonly code = 'ERR_SVC_WRONG_COUNTRY';
  /** The country the service named as the resource's home (ISO 3166-1 alpha-2, upper case). */
  declare readonly homeCountry: string;
  /** Why the call was not (or no longer) re-issued. */
  readonly refusal: WrongCountryRefusal;
  /** Base URL of the cell that answered 421 last. */
  readonly from: string;
  /** Base URL of the home cell, when it was known. */
  readonly to: string | undefined;

  constructor(message: string, details: SvcWrongCountryErrorDetails) {
    super(message, details);
    this.refusal = details.refusal;
    this.from = details.from;
    this.to = details.to;
  }
}

/**
 * An escalation the caller waited for (`escalations.waitFor(id, { outcome })`) was decided otherwise: denied,
 * countered or expired instead of the outcome asked for. `escalation` is the escalation as last read (its
 * `status`, and the principal's `counter_proposal` when countered).
 */
export class SvcEscalationOutcomeError extends SvcError {
  override readonly name = 'SvcEscalationOutcomeError';
  readonly code = 'ERR_SVC_ESCALATION_OUTCOME';
  /** The escalation as it ended. */
  readonly escalation: Escalation;
  /** The outcome the caller waited for. */
  readonly expected: Exclude<EscalationStatus, 'pending'>;

  constructor(message: string, escalation: Escalation, expected: Exclude<EscalationStatus, 'pending'>, details: SvcErrorDetails = {}) {
    super(message, details);
    this.escalation = escalation;
    this.expected = expected;
  }
}

/** Every error the client throws; `switch (err.code)` narrows to the class. */
export type AnySvcError =
  | SvcConfigurationError
  | SvcBadRequestError
  | SvcAuthenticationError
  | SvcPermissionError
  | SvcNotFoundError
  | SvcValidationError
  | SvcRateLimitError
  | SvcServerError
  | SvcHttpError
  | SvcNetworkError
  | SvcTimeoutError
  | SvcAbortError
  | SvcResponseValidationError
  | SvcTokenProviderError
  | SvcWrongCountryError
  | SvcEscalationOutcomeError
  | AnyOAuthError
  | AnyReceiptVerificationError
  | AnyTransparencyVerificationError
  | AnyWebhookVerificationError;

/** The stable codes of {@link AnySvcError}. */
export type SvcErrorCode = AnySvcError['code'];

/** Whether `value` is an error thrown by this client, narrowed to the union so `switch (err.code)` works. */
export function isSvcError(value: unknown): value is AnySvcError {
  return value instanceof SvcError;
}

/** The error class for a non-2xx status. */
export function errorForStatus(status: number, message: string, details: SvcErrorDetails): SvcError {
  switch (status) {
    case 400:
      return new SvcBadRequestError(message, details);
    case 401:
      return new SvcAuthenticationError(message, details);
    case 403:
      return new SvcPermissionError(message, details);
    case 404:
      return new SvcNotFoundError(message, details);
    case 422:
      return new SvcValidationError(message, details);
    case 429:
      return new SvcRateLimitError(message, details);
    default:
      return status >= 500 ? new SvcServerError(message, details) : new SvcHttpError(message, details);
  }
}
