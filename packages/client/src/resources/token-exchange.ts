import { z } from 'zod/mini';
import { DELEGATION_GRANT_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT_TYPE, tokenExchangeResponse, type TokenExchangeResponse } from '@svc/schemas';
import {
  errorForStatus,
  SvcAbortError,
  SvcConfigurationError,
  SvcNetworkError,
  SvcResponseValidationError,
  SvcTimeoutError,
  type SvcError,
  type SvcRequestInfo,
} from '../lib/errors.js';
import { isHeaderSafe, resolveBaseUrl, type FetchImplementation } from '../lib/options.js';
import { parseRetryAfter } from '../lib/retry.js';
import { fieldErrors } from '../lib/validation.js';
import { SvcOAuthError } from '../oauth/errors.js';

/** The path of the token exchange endpoint, under the service's base URL (not the discovered token endpoint). */
export const TOKEN_EXCHANGE_PATH = '/oauth/token/exchange';

/** How the agent's OAuth client authenticates at the token exchange: HTTP Basic (the default) or in the form body. */
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post';

/** The agent's OAuth client, as the token exchange authenticates it. */
export interface AgentClientCredentials {
  /** The OAuth client id (`oc_...`) the agent identity is linked to (its `oauth_application_id`). */
  clientId: string;
  /** That client's secret: the exchange is for confidential clients only. */
  clientSecret: string;
  /** Default `client_secret_basic`. */
  authMethod?: ClientAuthMethod | undefined;
  /** The scopes to ask for, a subset of the grant's `delegated_scopes` (space-separated, or a list); default all of them. */
  scope?: string | readonly string[] | undefined;
}

/** Options of {@link exchangeDelegationGrant}. */
export interface ExchangeDelegationGrantOptions extends AgentClientCredentials {
  /** Origin (and optional path prefix) of the service, as `createClient` takes it. */
  baseUrl: string | URL;
  /** The delegation grant (`dlg_...`) made to the agent: the RFC 8693 subject token. */
  delegationGrantId: string;
  /** `fetch` to use; default the global `fetch`. */
  fetch?: FetchImplementation | undefined;
  /** Aborts the exchange; it then fails with `SvcAbortError`. */
  signal?: AbortSignal | undefined;
  /** Milliseconds the exchange may take before it fails with `SvcTimeoutError`; default 30 000. */
  timeoutMs?: number | undefined;
}

/** The OAuth error body (RFC 6749 section 5.2). */
const oauthErrorBody = z.object({ error: z.string(), error_description: z.optional(z.string()) });

/**
 * `application/x-www-form-urlencoded` encoding of a client id or secret before HTTP Basic (RFC 6749 section
 * 2.3.1): a secret holding `:` or `%` would otherwise be read back differently by the server.
 */
const formEncode = (value: string): string => new URLSearchParams({ v: value }).toString().slice(2);

/**
 * Exchanges a delegation grant for an agent token (`ra_agent_...`) at `POST /oauth/token/exchange` (RFC 8693: the
 * grant's id is the subject token, of type `urn:svc:params:oauth:token-type:delegation_grant`). The agent's OAuth
 * client authenticates the request, not an API token or a person's token, which is why this takes the client's
 * credentials instead of a connection: an agent runtime holds those and nothing else. Hand the answer's
 * `access_token` to `createClient({ baseUrl, agentToken })`, and exchange again before `expires_in` runs out.
 *
 * Never retried: each exchange issues a token. An OAuth refusal fails with `SvcOAuthError` whose `reason` is the
 * OAuth `error` and whose message is its `error_description`: `invalid_request` when the subject token is no grant
 * made to this client's agent or cannot be exchanged now (suspended, revoked, expired: RFC 8693 section 2.2.2),
 * `invalid_scope` for a scope beyond the grant's, `invalid_client` (401) when the client's credentials are wrong.
 *
 * @example
 * ```ts
 * const { access_token } = await exchangeDelegationGrant({
 *   baseUrl, clientId: 'oc_...', clientSecret: process.env.AGENT_CLIENT_SECRET!, delegationGrantId: 'dlg_dev_...',
 * });
 * const agent = createClient({ baseUrl, agentToken: access_token });
 * ```
 */
export async function exchangeDelegationGrant(options: ExchangeDelegationGrantOptions): Promise<TokenExchangeResponse> {
  const baseUrl = resolveBaseUrl(options.baseUrl);
  const { clientId, clientSecret, delegationGrantId, signal } = options;
  const authMethod = options.authMethod ?? 'client_secret_basic';
  if (authMethod !== 'client_secret_basic' && authMethod !== 'client_secret_post') {
    throw new SvcConfigurationError('authMethod is client_secret_basic or client_secret_post.');
  }
  // The client's id and secret are form-encoded wherever they go; the grant id is sent as it is.
  for (const [name, value] of [
    ['clientId', clientId],
    ['clientSecret', clientSecret],
  ] as const) {
    if (typeof value !== 'string' || value === '') throw new SvcConfigurationError(`${name} must be a non-empty string.`);
  }
  if (!isHeaderSafe(delegationGrantId)) throw new SvcConfigurationError('delegationGrantId must be a delegation grant id (dlg_...).');
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new SvcConfigurationError('timeoutMs must be an integer of at least 1.');
  const scope = typeof options.scope === 'string' ? options.scope.trim() : options.scope?.join(' ');

  const form = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE_GRANT_TYPE,
    subject_token: delegationGrantId,
    subject_token_type: DELEGATION_GRANT_TOKEN_TYPE,
  });
  if (scope) form.set('scope', scope);
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
  if (authMethod === 'client_secret_basic') {
    headers.authorization = `Basic ${btoa(`${formEncode(clientId)}:${formEncode(clientSecret)}`)}`;
  } else {
    form.set('client_id', clientId);
    form.set('client_secret', clientSecret);
  }

  const request: SvcRequestInfo = { method: 'POST', path: TOKEN_EXCHANGE_PATH };
  if (signal?.aborted) throw new SvcAbortError(`POST ${TOKEN_EXCHANGE_PATH} was aborted.`, { request, cause: signal.reason });
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const fetchImpl = options.fetch ?? ((url, init) => globalThis.fetch(url, init));

  let response: Response;
  let text: string;
  try {
    response = await fetchImpl(baseUrl + TOKEN_EXCHANGE_PATH, {
      method: 'POST',
      headers,
      body: form.toString(),
      signal: controller.signal,
      credentials: 'omit',
    });
    text = await response.text();
  } catch (cause) {
    if (timedOut) throw new SvcTimeoutError(`POST ${TOKEN_EXCHANGE_PATH} did not finish within ${timeoutMs} ms.`, { request, cause });
    if (controller.signal.aborted)
      throw new SvcAbortError(`POST ${TOKEN_EXCHANGE_PATH} was aborted.`, { request, cause: signal?.reason ?? cause });
    const message = cause instanceof Error ? cause.message : String(cause);
    throw new SvcNetworkError(`POST ${TOKEN_EXCHANGE_PATH} got no response: ${message}`, { request, cause });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }

  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Reported below as a body that is not JSON, or as the status alone for an error.
  }
  if (!response.ok) throw exchangeError(response, json, request);
  const parsed = tokenExchangeResponse.safeParse(json, { reportInput: true });
  if (!parsed.success) {
    const errors = json === undefined ? [{ path: '(body)', code: 'invalid_json', message: 'not JSON' }] : fieldErrors(parsed.error.issues);
    throw new SvcResponseValidationError(
      `POST ${TOKEN_EXCHANGE_PATH} answered with a body that is not a token exchange response: ${errors
        .slice(0, 3)
        .map((e) => `${e.path}: ${e.message}`)
        .join('; ')}`,
      { request, status: response.status, errors, cause: parsed.error },
    );
  }
  return parsed.data;
}

/** An OAuth error body as `SvcOAuthError`; anything else (a proxy's page, a 5xx) by its status, as every call does. */
function exchangeError(response: Response, json: unknown, request: SvcRequestInfo): SvcError {
  const oauth = oauthErrorBody.safeParse(json);
  if (oauth.success) {
    const { error, error_description: description } = oauth.data;
    return new SvcOAuthError(description || `The token exchange was refused: ${error}.`, {
      request,
      status: response.status,
      reason: error,
    });
  }
  const message =
    typeof (json as { message?: unknown } | undefined)?.message === 'string'
      ? (json as { message: string }).message
      : `POST ${TOKEN_EXCHANGE_PATH} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`;
  return errorForStatus(response.status, message, {
    request,
    status: response.status,
    retryAfter: parseRetryAfter(response.headers.get('retry-after')),
  });
}
