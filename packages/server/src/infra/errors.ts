import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** One field-level problem in a 422 (or 400) body. */
export interface FieldError {
  path: string;
  code: string;
  message: string;
}

/** An error with the service's error body: `{message, code?, errors?, home_country?}`. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly code?: string,
    readonly errors?: FieldError[],
    readonly homeCountry?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The JSON body sent to the client. */
  toBody() {
    return {
      message: this.message,
      ...(this.code ? { code: this.code } : {}),
      ...(this.errors ? { errors: this.errors } : {}),
      ...(this.homeCountry ? { home_country: this.homeCountry } : {}),
    };
  }
}

export const badRequest = (message: string, code = 'bad_request', errors?: FieldError[]) =>
  new ApiError(400, message, code, errors);
export const unauthorized = (message = 'Missing or invalid authentication.') =>
  new ApiError(401, message, 'unauthorized');
export const forbidden = (message: string, code = 'forbidden') => new ApiError(403, message, code);
export const notFound = (message = 'Not found.') => new ApiError(404, message, 'not_found');
export const unprocessable = (message: string, code = 'validation_failed', errors?: FieldError[]) =>
  new ApiError(422, message, code, errors);

/** Hono error handler: known errors keep their status; anything else is a 500 that leaks nothing. */
export function onError(err: Error, c: Context) {
  if (err instanceof ApiError) return c.json(err.toBody(), err.status);
  if (err instanceof HTTPException) {
    const status = err.status;
    const message = status === 413 ? 'Request body is too large.' : err.message || 'Request failed.';
    return c.json({ message, code: status === 413 ? 'payload_too_large' : 'http_error' }, status);
  }
  console.error('[svc-server] unexpected error', c.req.method, c.req.path, err);
  return c.json({ message: 'Internal server error.', code: 'internal_error' }, 500);
}

/** Hono not-found handler with the error body. */
export function onNotFound(c: Context) {
  return c.json({ message: `No route for ${c.req.method} ${c.req.path}.`, code: 'not_found' }, 404);
}
