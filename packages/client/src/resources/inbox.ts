import { inboxList, type DecisionKind, type EscalationTrigger, type InboxDecision, type InboxSort } from '@svc/schemas';
import type { CallOptions, SvcConnection } from '../lib/connection.js';
import { listEndpoint, type ListQuery, type SvcList } from '../lib/pagination.js';

/** Query of the inbox: filters and order, with the list's `limit` and `cursor`. */
export type InboxListQuery = ListQuery & {
  /** Only decisions of this kind. */
  kind?: DecisionKind | undefined;
  /** Only approvals answering an agent's escalation of this trigger type. */
  trigger?: EscalationTrigger | undefined;
  /** Only decisions of this application (an organisation's). */
  application_id?: string | undefined;
  /** `deadline` (soonest first, the default) or `newest` (most recently asked first). */
  sort?: InboxSort | undefined;
};

const PATH = '/api/v1/inbox';

/**
 * Lists the decisions that wait for the signed-in person (`GET /api/v1/inbox`): open consent, approval and signature
 * decisions addressed to their verified email, from every organisation, soonest deadline first (or `sort: 'newest'`).
 * Needs a person's access token with the `inbox:read` scope (a delegate's grant must delegate it). Each row's `url` is
 * the hosted decision page where the person answers it.
 *
 * @example A single-page app, with the person's token from the OAuth helper
 * ```ts
 * const svc = createClient({ baseUrl, getAccessToken: () => auth.accessToken() });
 * for await (const row of svc.inbox.list({ kind: 'approval' })) console.log(row.title, row.deadline_at, row.url);
 * ```
 */
export function listInbox(connection: SvcConnection<'bearer'>, query?: InboxListQuery, options?: CallOptions): SvcList<InboxDecision> {
  return listEndpoint(connection, PATH, inboxList, 'decisions', query, options);
}

/** The person's Trust Inbox: what waits for their decision, across organisations. */
export interface InboxResource {
  /** Lists the decisions that wait for the person; see {@link listInbox}. */
  list(query?: InboxListQuery, options?: CallOptions): SvcList<InboxDecision>;
}

/** Binds the inbox functions to a connection. */
export function inboxResource(connection: SvcConnection<'bearer'>): InboxResource {
  return { list: (query, options) => listInbox(connection, query, options) };
}
