// The Trust Inbox over HTTP: `GET /api/v1/inbox` (a person's access token with the `inbox:read` scope, or a delegate
// whose grant delegates it).
import { INBOX_SCOPE, inboxList, inboxQuery } from '@svc/client/schemas';
import type { Context } from 'hono';
import type { RouteModule } from '../app.js';
import { requires } from '../lib/auth.js';
import type { Env, Principal, ServerContext } from '../lib/context.js';
import { ApiError, forbidden } from '../lib/errors.js';
import type { Operation } from '../lib/operations.js';
import { DEFAULT_LIMIT } from '../lib/pagination.js';
import { readQuery } from '../lib/validate.js';
import { inboxEmailOf, listInbox } from './store.js';

const API = '/api/v1/inbox';

/**
 * The email whose inbox `principal` reads: a person's own, or, for a delegate (`X-Delegation-Grant-Id`), the
 * principal's they act for. The token must hold the `inbox:read` scope (the inbox shows what every organisation asks
 * of the person, so an application sees it only when the person allowed that); an API token has no inbox.
 */
function inboxOwner(ctx: ServerContext, c: Context<Env>, principal: Principal): string | undefined {
  if (principal.kind !== 'person') {
    throw forbidden("The inbox is a person's: call it with their access token (scope inbox:read), not an API token.", 'person_token_required');
  }
  if (!principal.scopes.includes(INBOX_SCOPE)) {
    c.header('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${INBOX_SCOPE}"`);
    throw new ApiError(403, `This access token lacks the ${INBOX_SCOPE} scope: ask for it when the person signs in.`, 'insufficient_scope');
  }
  return inboxEmailOf(ctx, principal.personId);
}

/** `GET /api/v1/inbox`. */
export const inboxRoutes: RouteModule = (app, ctx) => {
  app.get(API, requires('read', { person: true, delegateScope: INBOX_SCOPE }), (c) => {
    const email = inboxOwner(ctx, c, c.get('principal'));
    const { limit = DEFAULT_LIMIT, cursor, kind, trigger, application_id, sort = 'deadline' } = readQuery(c, inboxQuery);
    if (!email) return c.json({ decisions: [], next_cursor: null });
    return c.json(listInbox(ctx, email, { limit, cursor, kind, trigger, application_id, sort }));
  });
};

/** OpenAPI descriptor of the inbox. */
export const inboxOperations: Operation[] = [
  {
    method: 'get', path: API, tag: 'Inbox',
    summary: 'The open decisions addressed to the person (consent, approval, signature), across organisations: filter by kind, trigger and application; deadline (default) or newest first',
    auth: ['access_token'], query: inboxQuery,
    response: { status: 200, description: 'A page of the decisions that wait for the person (needs the inbox:read scope; a delegate needs it delegated)', schema: inboxList },
    errors: [400],
  },
];
