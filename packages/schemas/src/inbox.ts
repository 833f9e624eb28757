import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';
import { decisionKind, decisionStatus } from './decisions.js';
import { escalationTrigger } from './delegations.js';

/** The OAuth scope a person's access token needs for `GET /api/v1/inbox` (and a delegate's grant must delegate). */
export const INBOX_SCOPE = 'inbox:read';

/** Orders of the inbox: `deadline` (soonest first, the default) or `newest` (most recently asked first). */
export const inboxSort = z.enum(['deadline', 'newest']);
export type InboxSort = z.infer<typeof inboxSort>;

/**
 * Query of `GET /api/v1/inbox`: the list query (`limit`, `cursor`) and the filters. `trigger` keeps only approvals
 * that answer an agent's escalation of that trigger type. A cursor belongs to the sort it was made for; pass the same
 * filters with it.
 */
export const inboxQuery = z.object({
  ...listQuery.shape,
  kind: z.optional(decisionKind),
  trigger: z.optional(escalationTrigger),
  application_id: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  sort: z.optional(inboxSort),
});
export type InboxQuery = z.input<typeof inboxQuery>;

/**
 * One decision waiting for the person: open (not completed, cancelled or expired) and before its deadline, addressed to
 * their verified email by any organisation. `url` is the hosted decision page (`{trust_url}/decisions/{session_token}`),
 * where the person answers it. `title` and `summary` say in a line what is asked; `trigger` is an approval's trigger
 * type when it answers an agent's escalation, else null.
 */
export const inboxDecision = z.object({
  kind: decisionKind,
  status: decisionStatus,
  trigger: z.nullable(escalationTrigger),
  application_id: z.string(),
  /** The name of the application (the organisation's) that asks. */
  application_name: z.string(),
  title: z.string(),
  summary: z.nullable(z.string()),
  session_token: z.string(),
  url: z.string(),
  deadline_at: dateTime(),
  created_at: dateTime(),
});
export type InboxDecision = z.infer<typeof inboxDecision>;

/** `{decisions: [...], next_cursor}`: a page of the inbox. */
export const inboxList = listOf('decisions', inboxDecision);
export type InboxList = z.infer<typeof inboxList>;
