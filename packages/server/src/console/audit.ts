// A change made in the console lands on the audit trail with the account user who made it. The console has no write
// path of its own: its elements call the API's routes, so this watches those routes for a console token's changes.
// An application's change goes on that application's chain; a change to the account (its API tokens, its users) on
// the chain of each of its applications. Recorded once the route answered 2xx (a refused change changed nothing); an
// idempotent replay answers before this runs, so it is never recorded twice.
import type { MiddlewareHandler } from 'hono';
import type { Env, ServerContext } from '../infra/context.js';
import { stmt } from '../infra/db.js';
import { appendAuditEvent } from '../consent/audit/chain.js';

/** The audit event type of a change made in the console. */
export const CONSOLE_CHANGE_EVENT = 'console.change';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The account's applications a change at `path` concerns: the one the path names, else all of them. */
function applicationsOf(ctx: ServerContext, accountId: string, path: string): string[] {
  const named = /^\/api\/v1\/applications\/([^/]+)/.exec(path)?.[1];
  const all = stmt<[string], string>(ctx.db, 'SELECT id FROM applications WHERE account_id = ? ORDER BY rowid').pluck().all(accountId);
  const one = named === undefined ? undefined : all.find((id) => id === decoded(named));
  return one ? [one] : all;
}

export function consoleAudit(ctx: ServerContext): MiddlewareHandler<Env> {
  return async (c, next) => {
    await next();
    const principal = c.get('principal');
    if (principal?.kind !== 'api_token' || !principal.accountUser || READS.has(c.req.method)) return;
    if (c.res.status < 200 || c.res.status > 299) return;
    const data = {
      actor: { kind: 'account_user', id: principal.accountUser.id, user_id: principal.accountUser.userId },
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
    };
    for (const applicationId of applicationsOf(ctx, principal.accountId, c.req.path))
      appendAuditEvent(ctx, { applicationId, type: CONSOLE_CHANGE_EVENT, data });
  };
}
