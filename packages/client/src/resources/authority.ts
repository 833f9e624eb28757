import {
  authorityCheckEnvelope,
  boundName,
  type AuthorityCheck,
  type AuthorityCheckRequest,
  type BoundName,
  type Escalation,
} from '@svc/schemas';
import type { SvcConnection, WriteOptions } from '../lib/connection.js';
import { SvcPermissionError, SvcResponseValidationError, type SvcFieldError } from '../lib/errors.js';
import { parseRetryAfter } from '../lib/retry.js';

/** The action is within the grant's bounds: go ahead (the service recorded it as authority exercised). */
export interface AuthorityAllowed {
  outcome: 'allowed';
  check: AuthorityCheck;
}

/**
 * The action is beyond a bound the principal may lift: an escalation is open for them. Do not act yet; wait with
 * `escalations.waitFor(escalation.id, { outcome: 'approved' })`, then check again with `escalation_id`.
 */
export interface AuthorityEscalated {
  outcome: 'escalated';
  check: AuthorityCheck;
  escalation: Escalation;
  /** Seconds the service asks to wait before the first look at the escalation (`Retry-After`), when it said. */
  retryAfter: number | undefined;
}

/** The action is beyond a bound and may not be escalated (403 `bound_exceeded`): do not act. */
export interface AuthorityDenied {
  outcome: 'denied';
  /** The bound the action went beyond (the first one the service named). */
  bound: BoundName;
  /** The service's explanation, for a log or the agent's user. */
  message: string;
  /** Every bound the service named, each as `{ path, code: <bound>, message }`. */
  errors: readonly SvcFieldError[];
}

/** What an authority check answers; `switch (result.outcome)` narrows it. */
export type AuthorityCheckResult = AuthorityAllowed | AuthorityEscalated | AuthorityDenied;

const PATH = '/api/v1/authorities/check';

/**
 * Asks, with an agent token, whether the agent may take an action for its principal before it takes it
 * (`POST /api/v1/authorities/check`), and resolves to the answer an agent branches on: `allowed` (200),
 * `escalated` (202, with the escalation opened for the principal) or `denied` (the 403 `bound_exceeded`, naming
 * the bound). A denial is an answer, not a failure, so it resolves; every other refusal still throws: an expired or
 * revoked token (`SvcAuthenticationError`, `invalid_token`), a suspended grant (`SvcPermissionError`,
 * `grant_suspended`), an `escalation_id` not approved or already used (`SvcHttpError` 409
 * `escalation_not_approved` / `escalation_used`), an invalid request (`SvcValidationError`).
 *
 * Not retried unless `idempotencyKey` is given: each check counts against the grant's daily limit and may open an
 * escalation.
 *
 * @example
 * ```ts
 * const agent = createClient({ baseUrl, agentToken });
 * const result = await agent.authority.check({ scope: 'payments:write', action: 'write', value: 240, currency: 'EUR', description: 'Pay the plumber' });
 * switch (result.outcome) {
 *   case 'allowed': return pay();
 *   case 'escalated': return waitForPrincipal(result.escalation.id);
 *   case 'denied': return explain(`beyond the ${result.bound} bound: ${result.message}`);
 * }
 * ```
 */
export async function checkAuthority(
  connection: SvcConnection<'bearer'>,
  request: AuthorityCheckRequest,
  options?: WriteOptions,
): Promise<AuthorityCheckResult> {
  let status = 0;
  let retryAfter: number | undefined;
  let check: AuthorityCheck;
  try {
    const body = await connection.request(
      {
        method: 'POST',
        path: PATH,
        body: request,
        schema: authorityCheckEnvelope,
        onResponse: (response) => {
          status = response.status;
          retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        },
      },
      options,
    );
    check = body.authority_check;
  } catch (err) {
    if (err instanceof SvcPermissionError && err.reason === 'bound_exceeded') return denial(err);
    throw err;
  }
  // An agent acts on `allowed`: an answer whose status and body disagree is refused rather than guessed at.
  if (check.outcome === 'allowed' && status === 200) return { outcome: 'allowed', check };
  if (check.outcome === 'escalated' && status === 202 && check.escalation)
    return { outcome: 'escalated', check, escalation: check.escalation, retryAfter };
  throw new SvcResponseValidationError(
    `POST ${PATH} answered ${status} with outcome ${check.outcome}${check.outcome === 'escalated' && !check.escalation ? ' and no escalation' : ''}: not an answer the contract allows (200 allowed, or 202 escalated with its escalation).`,
    {
      request: { method: 'POST', path: PATH },
      status,
      errors: [{ path: 'authority_check.outcome', code: 'status_mismatch', message: `outcome ${check.outcome} with status ${status}` }],
    },
  );
}

/** The 403 `bound_exceeded` as a denial; a body that names no known bound fails as a response that broke the contract. */
function denial(err: SvcPermissionError): AuthorityDenied {
  const named = boundName.safeParse(err.errors[0]?.code);
  if (!named.success) {
    throw new SvcResponseValidationError(`POST ${PATH} answered 403 bound_exceeded without naming a bound: ${err.message}`, {
      request: { method: err.method ?? 'POST', path: err.path ?? PATH },
      status: err.status,
      reason: err.reason,
      errors: err.errors,
      cause: err,
    });
  }
  return { outcome: 'denied', bound: named.data, message: err.message, errors: err.errors };
}

/** Authority checks: what an agent asks before it acts. */
export interface AuthorityResource {
  /** Checks an action against the agent's grant; see {@link checkAuthority}. */
  check(request: AuthorityCheckRequest, options?: WriteOptions): Promise<AuthorityCheckResult>;
}

/** Binds the authority check to a connection. */
export function authorityResource(connection: SvcConnection<'bearer'>): AuthorityResource {
  return { check: (request, options) => checkAuthority(connection, request, options) };
}
