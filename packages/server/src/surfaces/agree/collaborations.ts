// Collaborations: persons of an account who agree on terms and on what each shares. Personal data, homed in the cell
// of the persons it names (`col_<country>_…`, memberships `cmb_<country>_…`).
//
// States. A membership is `pending -> signed` (its member's own access token) and `pending|signed -> revoked` (the
// member, the initiator or an API token), each once. A collaboration is `pending` while it forms; it becomes `active`
// when it has at least two current (not revoked) members and every one of them signed; `dissolved` for good when
// dissolved, or when revocations leave an active one fewer than two members. It takes new members only while
// pending. Anything else is 409 `illegal_transition` naming the move. `member_count` (current memberships) and
// `signed_count` (signed ones) are recounted from the rows in the transaction of every change.
import type {
  AddMembershipRequest,
  Collaboration,
  CollaborationDetail,
  CollaborationMembership,
  CollaborationStatus,
  CreateCollaborationRequest,
  MembershipRole,
  MembershipStatus,
} from '@svc/schemas';
import { appendAuditEvent } from '../../consent/audit/chain.js';
import { assertHomedHere } from '../../infra/cells/routing.js';
import { defaultApplication, getApplication } from '../../consent/decisions/applications.js';
import { isoNow } from '../../infra/clock.js';
import type { Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError, forbidden, notFound, unprocessable } from '../../infra/errors.js';
import { homedId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import { isPersonOf } from '../verify/vouches.js';

export interface CollaborationRow {
  seq: number;
  id: string;
  account_id: string;
  application_id: string;
  initiator_id: string | null;
  status: CollaborationStatus;
  terms: string;
  member_count: number;
  signed_count: number;
  created_at: string;
  updated_at: string;
  activated_at: string | null;
  dissolved_at: string | null;
}

export interface MembershipRow {
  seq: number;
  id: string;
  collaboration_id: string;
  user_id: string | null;
  role: MembershipRole;
  status: MembershipStatus;
  shared_data_categories: string;
  created_at: string;
  signed_at: string | null;
  revoked_at: string | null;
}

/** The fewest current members an active collaboration has. */
export const MIN_ACTIVE_MEMBERS = 2;

type PersonPrincipal = Extract<Principal, { kind: 'person' }>;

const illegal = (what: string, from: string, to: string) =>
  new ApiError(409, `${what} cannot go from ${from} to ${to}.`, 'illegal_transition');

export function toCollaboration(row: CollaborationRow): Collaboration {
  return {
    id: row.id,
    status: row.status,
    initiator_id: row.initiator_id,
    application_id: row.application_id,
    member_count: row.member_count,
    signed_count: row.signed_count,
    terms: JSON.parse(row.terms) as Record<string, unknown>,
    created_at: row.created_at,
    updated_at: row.updated_at,
    activated_at: row.activated_at,
    dissolved_at: row.dissolved_at,
  };
}

export function toMembership(row: MembershipRow): CollaborationMembership {
  return {
    id: row.id,
    collaboration_id: row.collaboration_id,
    role: row.role,
    status: row.status,
    user_id: row.user_id,
    shared_data_categories: JSON.parse(row.shared_data_categories) as string[],
    created_at: row.created_at,
    signed_at: row.signed_at,
    revoked_at: row.revoked_at,
  };
}

export function membershipsOf(ctx: ServerContext, collaborationId: string): MembershipRow[] {
  return stmt<[string], MembershipRow>(ctx.db, 'SELECT * FROM collaboration_memberships WHERE collaboration_id = ? ORDER BY seq').all(
    collaborationId,
  );
}

export function toCollaborationDetail(ctx: ServerContext, row: CollaborationRow): CollaborationDetail {
  return { ...toCollaboration(row), memberships: membershipsOf(ctx, row.id).map(toMembership) };
}

const collaborationRow = (ctx: ServerContext, id: string) =>
  stmt<[string], CollaborationRow>(ctx.db, 'SELECT * FROM collaborations WHERE id = ?').get(id);

/** Whether `person` takes part in the collaboration: its initiator, or a member (current or past). */
function involves(ctx: ServerContext, row: CollaborationRow, personId: string): boolean {
  if (row.initiator_id === personId) return true;
  return (
    stmt<[string, string], number>(ctx.db, 'SELECT 1 FROM collaboration_memberships WHERE collaboration_id = ? AND user_id = ?')
      .pluck()
      .get(row.id, personId) !== undefined
  );
}

/**
 * The collaboration `id` as `principal` may see it: an API token sees the account's, a person those they initiated
 * or are (or were) a member of. Anything else is a 404.
 */
export function visibleCollaboration(ctx: ServerContext, principal: Principal, id: string): CollaborationRow {
  const row = /^col_(?:[a-z]{2}_)?[A-Za-z0-9]{16,24}$/.test(id) ? collaborationRow(ctx, id) : undefined;
  const visible = row && row.account_id === principal.accountId && (principal.kind !== 'person' || involves(ctx, row, principal.personId));
  if (!visible) throw notFound('No such collaboration.');
  return row;
}

/** The membership `membershipId` of the collaboration (404 otherwise). */
export function membershipOf(ctx: ServerContext, row: CollaborationRow, membershipId: string): MembershipRow {
  const membership = /^cmb_(?:[a-z]{2}_)?[A-Za-z0-9]{16,24}$/.test(membershipId)
    ? stmt<[string], MembershipRow>(ctx.db, 'SELECT * FROM collaboration_memberships WHERE id = ?').get(membershipId)
    : undefined;
  if (!membership || membership.collaboration_id !== row.id) throw notFound('No such membership of this collaboration.');
  return membership;
}

/** Only the initiator (their access token) or an API token may change the collaboration as a whole. */
function assertOrganiser(principal: Principal, row: CollaborationRow, what: string): void {
  if (principal.kind === 'person' && principal.personId !== row.initiator_id) {
    throw forbidden(`Only the collaboration's initiator or an API token can ${what}.`, 'initiator_only');
  }
}

/**
 * Recounts `member_count` and `signed_count` from the membership rows and applies the status rule (pending -> active
 * at full signature with at least two members; active -> dissolved below two members), in the caller's transaction.
 */
function settle(ctx: ServerContext, id: string, now: string): CollaborationRow {
  const counts = stmt<[string], { members: number; signed: number }>(
    ctx.db,
    `SELECT
      COALESCE(SUM(status <> 'revoked'), 0) AS members, COALESCE(SUM(status = 'signed'), 0) AS signed
    FROM collaboration_memberships WHERE collaboration_id = ?`,
  ).get(id)!;
  const row = collaborationRow(ctx, id)!;
  let status = row.status;
  if (status === 'pending' && counts.members >= MIN_ACTIVE_MEMBERS && counts.signed === counts.members) status = 'active';
  else if (status === 'active' && counts.members < MIN_ACTIVE_MEMBERS) status = 'dissolved';
  stmt(
    ctx.db,
    `UPDATE collaborations SET member_count = ?, signed_count = ?, status = ?, updated_at = ?,
      activated_at = CASE WHEN ? = 'active' AND activated_at IS NULL THEN ? ELSE activated_at END,
      dissolved_at = CASE WHEN ? = 'dissolved' AND dissolved_at IS NULL THEN ? ELSE dissolved_at END
    WHERE id = ?`,
  ).run(counts.members, counts.signed, status, now, status, now, status, now, id);
  if (status !== row.status)
    audit(ctx, row, `collaboration.${status === 'active' ? 'activated' : 'dissolved'}`, now, { members: counts.members });
  return collaborationRow(ctx, id)!;
}

function audit(
  ctx: ServerContext,
  row: Pick<CollaborationRow, 'id' | 'application_id'>,
  type: string,
  at: string,
  data: Record<string, unknown> = {},
): void {
  appendAuditEvent(ctx, { applicationId: row.application_id, type, occurredAt: at, data: { collaboration_id: row.id, ...data } });
}

/** Refuses a person that is not one of the account's in this cell (421 when homed in another). */
function assertPerson(ctx: ServerContext, accountId: string, personId: string, path: string): void {
  assertHomedHere(ctx, personId);
  if (!isPersonOf(ctx, accountId, personId)) {
    throw unprocessable(`No person ${personId} in this account.`, 'person_not_found', [
      { path, code: 'person_not_found', message: 'no such person' },
    ]);
  }
}

function insertMembership(
  ctx: ServerContext,
  collaborationId: string,
  userId: string,
  role: MembershipRole,
  categories: readonly string[],
  now: string,
): string {
  const id = homedId(ctx.country, 'cmb_', 20);
  stmt(
    ctx.db,
    `INSERT INTO collaboration_memberships (id, collaboration_id, user_id, role, status, shared_data_categories, created_at)
    VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
  ).run(id, collaborationId, userId, role, JSON.stringify(categories), now);
  return id;
}

/**
 * Creates a collaboration: in the named application (404 `application_not_found` when not the account's) or the
 * account's first; each participant a pending `member` (422 `person_not_found`); a person creating it is its
 * initiator, with a pending `initiator` membership (naming themselves among the participants is 422).
 */
export function createCollaboration(ctx: ServerContext, principal: Principal, input: CreateCollaborationRequest): CollaborationRow {
  const application = input.application_id ? getApplication(ctx, input.application_id) : defaultApplication(ctx, principal.accountId);
  if (input.application_id && application?.account_id !== principal.accountId) {
    throw new ApiError(404, `No application ${input.application_id} in this account.`, 'application_not_found', [
      { path: 'application_id', code: 'application_not_found', message: 'no such application' },
    ]);
  }
  if (!application) throw unprocessable('The account has no active application to hold this collaboration.', 'application_missing');
  const initiator = principal.kind === 'person' ? principal.personId : null;
  const participants = input.participant_ids ?? [];
  participants.forEach((id, i) => {
    if (id === initiator) {
      throw unprocessable('The initiator is a member already; name only the others.', 'initiator_is_member', [
        { path: `participant_ids.${i}`, code: 'initiator_is_member', message: 'the initiator is a member already' },
      ]);
    }
    assertPerson(ctx, principal.accountId, id, `participant_ids.${i}`);
  });
  const id = homedId(ctx.country, 'col_', 20);
  const now = isoNow(ctx.clock);
  return transaction(ctx.db, () => {
    stmt(
      ctx.db,
      `INSERT INTO collaborations (id, account_id, application_id, initiator_id, status, terms, created_at, updated_at)
      VALUES (?, ?, ?, ?, 'pending', ?, ?, ?)`,
    ).run(id, principal.accountId, application.id, initiator, JSON.stringify(input.terms ?? {}), now, now);
    if (initiator) insertMembership(ctx, id, initiator, 'initiator', [], now);
    for (const participant of participants) insertMembership(ctx, id, participant, 'member', [], now);
    audit(ctx, { id, application_id: application.id }, 'collaboration.created', now, {
      members: participants.length + (initiator ? 1 : 0),
    });
    return settle(ctx, id, now);
  });
}

/**
 * Adds a person to a pending collaboration (409 `illegal_transition` once active or dissolved; 409 `already_member`
 * for a current member): the initiator or an API token.
 */
export function addMembership(ctx: ServerContext, principal: Principal, row: CollaborationRow, input: AddMembershipRequest): MembershipRow {
  assertOrganiser(principal, row, 'add members');
  if (row.status !== 'pending') throw illegal(`Collaboration ${row.id}`, row.status, 'pending (a new member)');
  assertPerson(ctx, row.account_id, input.user_id, 'user_id');
  const now = isoNow(ctx.clock);
  return transaction(ctx.db, () => {
    const current = stmt<[string, string], string>(
      ctx.db,
      "SELECT id FROM collaboration_memberships WHERE collaboration_id = ? AND user_id = ? AND status <> 'revoked'",
    )
      .pluck()
      .get(row.id, input.user_id);
    if (current) {
      throw new ApiError(409, `${input.user_id} is a member already (${current}).`, 'already_member', [
        { path: 'user_id', code: 'already_member', message: `membership ${current}` },
      ]);
    }
    const id = insertMembership(ctx, row.id, input.user_id, input.role ?? 'member', input.shared_data_categories ?? [], now);
    audit(ctx, row, 'collaboration.member_added', now, { membership_id: id });
    settle(ctx, row.id, now);
    return stmt<[string], MembershipRow>(ctx.db, 'SELECT * FROM collaboration_memberships WHERE id = ?').get(id)!;
  });
}

/**
 * The member signs, with their own access token (403 `member_token_required` for an API token, `not_your_membership`
 * for another person): `pending -> signed`, once, while the collaboration is not dissolved; `categories` replace the
 * proposed ones (an observer shares none: 422 `observer_shares_nothing`).
 */
export function signMembership(
  ctx: ServerContext,
  principal: Principal,
  row: CollaborationRow,
  membership: MembershipRow,
  categories?: readonly string[],
): MembershipRow {
  if (principal.kind !== 'person')
    throw forbidden("A membership is signed with its member's own access token, not an API token.", 'member_token_required');
  if (membership.user_id !== (principal as PersonPrincipal).personId)
    throw forbidden('Only the member can sign their membership.', 'not_your_membership');
  if (row.status === 'dissolved') throw illegal(`Collaboration ${row.id}`, 'dissolved', 'signed');
  if (membership.status !== 'pending') throw illegal(`Membership ${membership.id}`, membership.status, 'signed');
  if (membership.role === 'observer' && categories?.length) {
    throw unprocessable('An observer shares no data.', 'observer_shares_nothing', [
      { path: 'shared_data_categories', code: 'observer_shares_nothing', message: 'an observer shares no data' },
    ]);
  }
  const now = isoNow(ctx.clock);
  return transaction(ctx.db, () => {
    const moved = stmt(
      ctx.db,
      `UPDATE collaboration_memberships SET status = 'signed', signed_at = ?, shared_data_categories = COALESCE(?, shared_data_categories)
      WHERE id = ? AND status = 'pending'`,
    ).run(now, categories ? JSON.stringify(categories) : null, membership.id).changes;
    if (moved === 0) throw illegal(`Membership ${membership.id}`, 'signed', 'signed');
    audit(ctx, row, 'collaboration.member_signed', now, { membership_id: membership.id });
    settle(ctx, row.id, now);
    return stmt<[string], MembershipRow>(ctx.db, 'SELECT * FROM collaboration_memberships WHERE id = ?').get(membership.id)!;
  });
}

/**
 * Ends a membership (`pending|signed -> revoked`, once): its member, the initiator or an API token; not after the
 * collaboration is dissolved. An active collaboration left with fewer than two members is dissolved.
 */
export function revokeMembership(
  ctx: ServerContext,
  principal: Principal,
  row: CollaborationRow,
  membership: MembershipRow,
): MembershipRow {
  if (principal.kind === 'person' && membership.user_id !== principal.personId)
    assertOrganiser(principal, row, "end another person's membership");
  if (row.status === 'dissolved') throw illegal(`Collaboration ${row.id}`, 'dissolved', 'a revoked membership');
  if (membership.status === 'revoked') throw illegal(`Membership ${membership.id}`, 'revoked', 'revoked');
  const now = isoNow(ctx.clock);
  return transaction(ctx.db, () => {
    const moved = stmt(
      ctx.db,
      "UPDATE collaboration_memberships SET status = 'revoked', revoked_at = ? WHERE id = ? AND status <> 'revoked'",
    ).run(now, membership.id).changes;
    if (moved === 0) throw illegal(`Membership ${membership.id}`, 'revoked', 'revoked');
    audit(ctx, row, 'collaboration.member_revoked', now, { membership_id: membership.id });
    settle(ctx, row.id, now);
    return stmt<[string], MembershipRow>(ctx.db, 'SELECT * FROM collaboration_memberships WHERE id = ?').get(membership.id)!;
  });
}

/** Dissolves the collaboration (`pending|active -> dissolved`, once): the initiator or an API token. */
export function dissolveCollaboration(ctx: ServerContext, principal: Principal, row: CollaborationRow): CollaborationRow {
  assertOrganiser(principal, row, 'dissolve it');
  const now = isoNow(ctx.clock);
  return transaction(ctx.db, () => {
    const moved = stmt(
      ctx.db,
      "UPDATE collaborations SET status = 'dissolved', dissolved_at = ?, updated_at = ? WHERE id = ? AND status <> 'dissolved'",
    ).run(now, now, row.id).changes;
    if (moved === 0) throw illegal(`Collaboration ${row.id}`, 'dissolved', 'dissolved');
    audit(ctx, row, 'collaboration.dissolved', now, { by: principal.kind });
    return settle(ctx, row.id, now);
  });
}

/**
 * A page of collaborations, oldest first: the account's for an API token, a person's own (initiated, or a member of)
 * for their access token.
 */
export function listCollaborations(
  ctx: ServerContext,
  principal: Principal,
  page: { limit: number; cursor?: string | undefined; status?: CollaborationStatus | undefined },
) {
  const person = principal.kind === 'person' ? principal.personId : null;
  const status = page.status ?? null;
  const rows = stmt<[string, number, string | null, string | null, string | null, string | null, string | null, number], CollaborationRow>(
    ctx.db,
    `
    SELECT * FROM collaborations c WHERE c.account_id = ? AND c.seq > ? AND (? IS NULL OR c.status = ?)
      AND (? IS NULL OR c.initiator_id = ? OR EXISTS (SELECT 1 FROM collaboration_memberships m WHERE m.collaboration_id = c.id AND m.user_id = ?))
    ORDER BY c.seq LIMIT ?`,
  ).all(principal.accountId, decodeCursor(page.cursor), status, status, person, person, person, page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return { collaborations: items.map(toCollaboration), next_cursor };
}
