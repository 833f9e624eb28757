// What the Protect modules share: who is calling (a person or the organisation), the refusals of illegal
// transitions and body-referenced applications.
import type { Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError, forbidden, unprocessable } from '../../infra/errors.js';

/** The caller as Protect sees it: the organisation (an API token) or one person of the account. */
export type Caller = { kind: 'organisation'; accountId: string } | { kind: 'person'; accountId: string; personId: string };

/** The caller behind a principal that `requires` admitted (API tokens and, where allowed, a person's own token). */
export function callerOf(principal: Principal): Caller {
  if (principal.kind === 'person') return { kind: 'person', accountId: principal.accountId, personId: principal.personId };
  if (principal.kind === 'api_token') return { kind: 'organisation', accountId: principal.accountId };
  throw forbidden("This endpoint takes an API token or a person's access token.", 'credential_not_allowed');
}

/** The person calling, or the 403 for an API token: the resource is the person's to make. */
export function personOnly(principal: Principal, what: string): Extract<Caller, { kind: 'person' }> {
  const caller = callerOf(principal);
  if (caller.kind !== 'person')
    throw forbidden(`${what} is the person's own: make it with their access token, not an API token.`, 'person_token_required');
  return caller;
}

/** The 409 of a move the state rules do not allow, naming it (`errors[0].path` is `status`). */
export function illegalTransition(message: string, code = 'illegal_transition'): ApiError {
  return new ApiError(409, message, code, [{ path: 'status', code, message }]);
}

/** A 422 about one field of the request body. */
export function refused(path: string, code: string, message: string): ApiError {
  return unprocessable(message, code, [{ path, code, message }]);
}

/** An active application of the account named in the body at `path`, or the 422 that names it. */
export function accountApplication(ctx: ServerContext, accountId: string, id: string, path: string): string {
  const row = stmt<[string], { account_id: string; active: number }>(
    ctx.db,
    'SELECT account_id, active FROM applications WHERE id = ?',
  ).get(id);
  if (!row || row.account_id !== accountId) throw refused(path, 'application_not_found', `No application ${id} in this account.`);
  if (!row.active) throw refused(path, 'application_inactive', `Application ${id} is not active.`);
  return id;
}

/** JSON text of a stored object column, parsed (null stays null). */
export function parsed<T = Record<string, unknown>>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

/** `at` plus `days`, as an ISO string. */
export function plusDays(at: string, days: number): string {
  return new Date(Date.parse(at) + days * 86_400_000).toISOString();
}
