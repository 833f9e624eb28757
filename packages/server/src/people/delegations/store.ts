// The delegation grants a person made: which a signed-in person may see, and how each reads for them. A grant belongs
// to the person row of one organisation, so a person's grants are found by their verified email (people/reader.ts);
// what an organisation's client sees stops at that organisation. Grants made under a grant by its delegate (a
// sub-delegation) have the same principal and are listed too: the person can stop them as well. A person makes a grant
// as their person row of one organisation, for one of its applications.
import type { DelegatingOrganisation, DelegationBounds, DelegationStatus, PersonDelegation } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { DEFAULT_LIMIT, decodeCursor, toPage } from '../../infra/pagination.js';
import { statusAt } from '../../authority/delegations/grants.js';
import { normaliseEmail, personFor } from '../../consent/records/person.js';
import { type PersonReader, readerParams, readerPersons } from '../reader.js';

/** A stored grant with the names the person reads: its organisation's, and its delegate's email or display name. */
export interface PersonGrantRow {
  seq: number;
  id: string;
  account_id: string;
  principal_id: string;
  delegate_type: 'person' | 'agent';
  delegate_id: string;
  delegation_type: PersonDelegation['delegation_type'];
  delegated_scopes: string;
  allow_sub_delegation: number;
  max_actions_per_day: number | null;
  expires_at: string | null;
  bounds: string;
  parent_grant_id: string | null;
  status: 'active' | 'suspended' | 'revoked';
  created_at: string;
  suspended_at: string | null;
  revoked_at: string | null;
  organisation_name: string;
  delegate_name: string | null;
}

const WHOSE = readerPersons('g.principal_id');
const SELECT = `SELECT g.*, a.name AS organisation_name,
    CASE g.delegate_type WHEN 'agent' THEN ag.display_name ELSE p.email END AS delegate_name
  FROM delegation_grants g JOIN accounts a ON a.id = g.account_id
  LEFT JOIN persons p ON g.delegate_type = 'person' AND p.id = g.delegate_id
  LEFT JOIN agent_identities ag ON g.delegate_type = 'agent' AND ag.id = g.delegate_id`;

/** SQL (and its parameters) of the grants that read with `status` at `now` (`expired` is read time, as `statusAt`). */
function statusIs(status: DelegationStatus | undefined, now: string): [string, string[]] {
  const lapsed = 'g.expires_at IS NOT NULL AND g.expires_at <= ?';
  switch (status) {
    case undefined:
      return ['1', []];
    case 'revoked':
      return ["g.status = 'revoked'", []];
    case 'expired':
      return [`g.status != 'revoked' AND ${lapsed}`, [now]];
    default:
      return [`g.status = '${status === 'active' ? 'active' : 'suspended'}' AND NOT (${lapsed})`, [now]];
  }
}

/** A page of the grants the reader made, most recently made first (`seq`), optionally of one status now. */
export function listPersonGrants(
  ctx: ServerContext,
  reader: PersonReader,
  page: { limit?: number | undefined; cursor?: string | undefined; status?: DelegationStatus | undefined },
): { delegations: PersonDelegation[]; next_cursor: string | null } {
  const limit = page.limit ?? DEFAULT_LIMIT;
  const before = page.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(page.cursor);
  const [condition, params] = statusIs(page.status, isoNow(ctx.clock));
  const rows = stmt<unknown[], PersonGrantRow>(
    ctx.db,
    `${SELECT} WHERE ${WHOSE} AND g.seq < ? AND ${condition} ORDER BY g.seq DESC LIMIT ?`,
  ).all(...readerParams(reader), before, ...params, limit + 1);
  const { items, next_cursor } = toPage(rows, limit, (r) => r.seq);
  return { delegations: items.map((row) => toPersonDelegation(ctx, row)), next_cursor };
}

/** The reader's grant `id`, or undefined: another person's grant (or another organisation's, for its client) is not there. */
export function findPersonGrant(ctx: ServerContext, reader: PersonReader, id: string): PersonGrantRow | undefined {
  return stmt<unknown[], PersonGrantRow>(ctx.db, `${SELECT} WHERE g.id = ? AND ${WHOSE}`).get(id, ...readerParams(reader));
}

/** A grant as the person who made it reads it: its status now, its delegate by name, its bounds. */
export function toPersonDelegation(ctx: ServerContext, row: PersonGrantRow): PersonDelegation {
  return {
    id: row.id,
    status: statusAt(row, ctx.clock.now()),
    delegation_type: row.delegation_type,
    organisation: { id: row.account_id, name: row.organisation_name },
    delegate: { type: row.delegate_type, id: row.delegate_id, name: row.delegate_name ?? row.delegate_id },
    delegated_scopes: JSON.parse(row.delegated_scopes) as string[],
    max_actions_per_day: row.max_actions_per_day,
    bounds: JSON.parse(row.bounds) as DelegationBounds,
    allow_sub_delegation: row.allow_sub_delegation === 1,
    parent_grant_id: row.parent_grant_id,
    created_at: row.created_at,
    expires_at: row.expires_at,
    suspended_at: row.suspended_at,
    revoked_at: row.revoked_at,
  };
}

/** Who makes a grant, and (a token of one of the service's own clients) the service's own account, which is nobody's organisation. */
export interface GrantingReader extends PersonReader {
  serviceAccountId: string | undefined;
}

/** The reader's person row in an organisation they may make a grant in: one with an active application, never the service's own. */
type Standing = DelegatingOrganisation & { person_id: string };
const standings = (ctx: ServerContext, reader: GrantingReader, accountId: string | null): Standing[] =>
  stmt<unknown[], Standing>(
    ctx.db,
    `SELECT a.id, a.name, p.id AS person_id FROM persons p JOIN accounts a ON a.id = p.account_id
      WHERE ${readerPersons('p.id')} AND (? IS NULL OR a.id = ?) AND (? IS NULL OR a.id <> ?)
        AND EXISTS (SELECT 1 FROM applications ap WHERE ap.account_id = a.id AND ap.active = 1)
      ORDER BY a.name, a.id`,
  ).all(...readerParams(reader), accountId, accountId, reader.serviceAccountId ?? null, reader.serviceAccountId ?? null);

/** The organisations the reader may make a grant in, by name. */
export function delegatingOrganisations(ctx: ServerContext, reader: GrantingReader): DelegatingOrganisation[] {
  return standings(ctx, reader, null).map(({ id, name }) => ({ id, name }));
}

/** Where a grant is made: the organisation, the reader's person row there, and the application it is for. */
export interface GrantPlace {
  accountId: string;
  name: string;
  personId: string;
  applicationId: string;
}

/**
 * Where the reader's grant goes: the application named (active, in an organisation of theirs), or the organisation
 * named and its first active application; `own` (an organisation's client) is the only place its token reaches.
 * Undefined when the reader has no person row there, or names another organisation than `own`'s (nothing is made).
 */
export function grantPlace(
  ctx: ServerContext,
  reader: GrantingReader,
  named: { organisation_id?: string | undefined; application_id?: string | undefined },
  own: { accountId: string; applicationId: string } | undefined,
): GrantPlace | undefined {
  const application = named.application_id ?? own?.applicationId;
  const found = application
    ? stmt<[string], { id: string; account_id: string }>(ctx.db, 'SELECT id, account_id FROM applications WHERE id = ? AND active = 1').get(
        application,
      )
    : undefined;
  const accountId = found?.account_id ?? named.organisation_id;
  if (!accountId || (application && !found) || (named.organisation_id && named.organisation_id !== accountId)) return undefined;
  if (own && (accountId !== own.accountId || found?.id !== own.applicationId)) return undefined;
  const [standing] = standings(ctx, reader, accountId);
  if (!standing) return undefined;
  const applicationId =
    found?.id ??
    (stmt<[string], string>(ctx.db, 'SELECT id FROM applications WHERE account_id = ? AND active = 1 ORDER BY created_at, id LIMIT 1')
      .pluck()
      .get(accountId) as unknown as string);
  return { accountId, name: standing.name, personId: standing.person_id, applicationId };
}

/**
 * The person of the organisation with `email`, made when the organisation does not know them yet (they are that person
 * once they sign in with it): the answer is the same whoever the email belongs to, so the form can never tell a
 * person who else has dealt with an organisation.
 */
export function delegateByEmail(ctx: ServerContext, place: GrantPlace, email: string): string {
  return personFor(ctx, place.accountId, email, isoNow(ctx.clock));
}
