// The errors of the OAuth helpers, in the client's SvcError hierarchy, and the translation of what oauth4webapi
// throws into them. This module imports nothing from oauth4webapi, so the main entry can name these classes
// without bundling it: oauth4webapi's errors are recognised by their `code`.
import { SvcError, SvcNetworkError, type SvcErrorDetails } from '../lib/errors.js';

/**
 * The authorization server answered with an OAuth error: at an endpoint (`invalid_grant`, `invalid_client`, ...)
 * or at the redirect URI (`access_denied`). `reason` is the RFC's `error` code, `message` its description.
 */
export class SvcOAuthError extends SvcError {
  override readonly name = 'SvcOAuthError';
  readonly code = 'ERR_SVC_OAUTH';
}

/**
 * An answer or a callback failed a check the client owes: the state or the nonce does not match, no sign-in is
 * pending for this callback, the ID token's issuer, audience or times are wrong, a response does not conform.
 * `reason` is a short machine-readable name of the check (`state_mismatch`, `nonce_mismatch`, `no_pending_sign_in`, ...).
 */
export class SvcOAuthValidationError extends SvcError {
  override readonly name = 'SvcOAuthValidationError';
  readonly code = 'ERR_SVC_OAUTH_VALIDATION';
}

/** There is no session to use: nobody signed in, the person signed out, or the refresh token was refused. */
export class SvcOAuthSignedOutError extends SvcError {
  override readonly name = 'SvcOAuthSignedOutError';
  readonly code = 'ERR_SVC_OAUTH_SIGNED_OUT';
}

/** Every error the OAuth helpers throw besides the client's network and configuration errors. */
export type AnyOAuthError = SvcOAuthError | SvcOAuthValidationError | SvcOAuthSignedOutError;

/** The parts of oauth4webapi's errors this module reads (they are told apart by `code`). */
interface OAuthLibraryError {
  code?: unknown;
  error?: unknown;
  error_description?: unknown;
  status?: unknown;
  message: string;
  cause?: unknown;
}

// oauth4webapi's error codes (exported constants there; repeated so this module stays free of it).
const RESPONSE_BODY_ERROR = 'OAUTH_RESPONSE_BODY_ERROR';
const AUTHORIZATION_RESPONSE_ERROR = 'OAUTH_AUTHORIZATION_RESPONSE_ERROR';
const WWW_AUTHENTICATE_CHALLENGE = 'OAUTH_WWW_AUTHENTICATE_CHALLENGE';

/** Names of oauth4webapi's failed checks, as `reason`s a caller can switch on. */
const CHECKS: Record<string, string> = {
  OAUTH_JWT_CLAIM_COMPARISON_FAILED: 'claim_mismatch',
  OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED: 'attribute_mismatch',
  OAUTH_JWT_TIMESTAMP_CHECK_FAILED: 'timestamp_check',
  OAUTH_INVALID_RESPONSE: 'invalid_response',
  OAUTH_RESPONSE_IS_NOT_JSON: 'not_json',
  OAUTH_RESPONSE_IS_NOT_CONFORM: 'not_conform',
  OAUTH_INVALID_SERVER_METADATA: 'invalid_server_metadata',
  OAUTH_MISSING_SERVER_METADATA: 'missing_server_metadata',
  OAUTH_PARSE_ERROR: 'parse_error',
};

/**
 * Translates what an oauth4webapi call (or the fetch under it) threw into the client's errors; an `SvcError`
 * passes through. `what` names the operation for the message, e.g. `the token request`.
 */
export function toSvcError(err: unknown, what: string, details: SvcErrorDetails = {}): SvcError {
  if (err instanceof SvcError) return err;
  const e = (typeof err === 'object' && err !== null ? err : { message: String(err) }) as OAuthLibraryError;
  const description = typeof e.error_description === 'string' && e.error_description ? e.error_description : undefined;
  const status = typeof e.status === 'number' ? e.status : undefined;
  if ((e.code === RESPONSE_BODY_ERROR || e.code === AUTHORIZATION_RESPONSE_ERROR) && typeof e.error === 'string') {
    return new SvcOAuthError(`${what} failed: ${e.error}${description ? ` (${description})` : ''}`, {
      ...details,
      status,
      reason: e.error,
      cause: err,
    });
  }
  if (e.code === WWW_AUTHENTICATE_CHALLENGE) {
    // The first challenge's `error` parameter, e.g. invalid_token on an expired or revoked access token.
    const challenges = Array.isArray(e.cause) ? (e.cause as { parameters?: Record<string, string> }[]) : [];
    const reason = challenges[0]?.parameters?.error;
    const said = challenges[0]?.parameters?.error_description;
    return new SvcOAuthError(`${what} failed: ${reason ?? 'the server refused the token'}${said ? ` (${said})` : ''}`, {
      ...details,
      status,
      reason,
      cause: err,
    });
  }
  if (typeof e.code === 'string' && e.code in CHECKS) {
    // A comparison names what it compared (the ID token's nonce, the metadata's issuer): `nonce_mismatch`.
    const compared = (e.cause as { claim?: unknown; attribute?: unknown } | undefined) ?? {};
    const name =
      typeof compared.claim === 'string' ? compared.claim : typeof compared.attribute === 'string' ? compared.attribute : undefined;
    const reason = name && /_COMPARISON_FAILED$/.test(e.code) ? `${name}_mismatch` : CHECKS[e.code];
    return new SvcOAuthValidationError(`${what} failed a check: ${e.message}`, { ...details, status, reason, cause: err });
  }
  // fetch rejects with a bare TypeError when there is no response (connection refused, DNS, CORS in a browser);
  // oauth4webapi's own argument errors are TypeErrors too, but carry a code.
  if (err instanceof TypeError && e.code === undefined)
    return new SvcNetworkError(`${what} got no response: ${err.message}`, { ...details, cause: err });
  return new SvcOAuthValidationError(`${what} failed: ${e.message}`, {
    ...details,
    status,
    reason: typeof e.code === 'string' ? e.code : undefined,
    cause: err,
  });
}
