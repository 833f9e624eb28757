// Accounts and their users. Both are control plane (organisation configuration, one file every cell attaches): an account
// user row holds only the person's id, never their email, which stays in the person's home cell. Adding a person
// therefore happens at their home cell (another cell's person id is the 421), where the person is known.
import type { Account, AccountUser, AccountUserRole } from '@svc/schemas';
import { assertHomedHere } from '../../infra/cells/routing.js';
import { holds } from '../../infra/auth.js';
import { isoNow } from '../../infra/clock.js';
import type { Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError, forbidden, notFound, unprocessable } from '../../infra/errors.js';
import { newId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import { isAnonymousPrincipal } from '../../consent/records/rows.js';

/** The most users one account may have (each is listed in the account itself). */
export const MAX_ACCOUNT_USERS = 1000;

interface AccountRow {
  seq: number;
  id: string;
  name: string;
  owner_id: string | null;
  personal: number;
  created_at: string;
  updated_at: string | null;
}

interface AccountUserRow {
  id: string;
  account_id: string;
  user_id: string;
  role: AccountUserRole;
  created_at: string;
}

const SELECT_ACCOUNT = 'SELECT rowid AS seq, id, name, owner_id, personal, created_at, updated_at FROM accounts';

function usersOf(ctx: ServerContext, accountId: string): AccountUser[] {
  return stmt<[string], AccountUser>(
    ctx.db,
    'SELECT id, user_id, role, created_at FROM account_users WHERE account_id = ? ORDER BY seq',
  ).all(accountId);
}

function toAccount(ctx: ServerContext, row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    // An account nobody has been made owner of is the organisation's own.
    owner_id: row.owner_id ?? row.id,
    personal: row.personal === 1,
    created_at: row.created_at,
    updated_at: row.updated_at ?? row.created_at,
    account_users: usersOf(ctx, row.id),
  };
}

/** The caller's account `id` (an API token sees its own account only), or undefined. */
function findAccount(ctx: ServerContext, accountId: string, id: string): AccountRow | undefined {
  if (id !== accountId) return undefined;
  return stmt<[string], AccountRow>(ctx.db, `${SELECT_ACCOUNT} WHERE id = ?`).get(id);
}

/** The account `id` if it is the caller's, or the 404. */
export function getAccount(ctx: ServerContext, accountId: string, id: string): Account {
  const row = findAccount(ctx, accountId, id);
  if (!row) throw notFound('No such account.');
  return toAccount(ctx, row);
}

/** The accounts the caller sees (its own), as a page. */
export function listAccounts(ctx: ServerContext, accountId: string, query: { limit: number; cursor?: string | undefined }) {
  const rows = stmt<[string, number, number], AccountRow>(
    ctx.db,
    `${SELECT_ACCOUNT} WHERE id = ? AND rowid > ? ORDER BY rowid LIMIT ?`,
  ).all(accountId, decodeCursor(query.cursor), query.limit + 1);
  const { items, next_cursor } = toPage(rows, query.limit, (r) => r.seq);
  return { accounts: items.map((row) => toAccount(ctx, row)), next_cursor };
}

/**
 * Renames the account (`write`, checked by the route) and/or hands it to a new owner (`admin`): one of its users'
 * `user_id`, or the account's own id to make it the organisation's again.
 */
export function updateAccount(
  ctx: ServerContext,
  principal: Principal,
  id: string,
  patch: { name?: string | undefined; owner_id?: string | undefined },
): Account {
  return transaction(ctx.db, () => {
    const row = findAccount(ctx, principal.accountId, id);
    if (!row) throw notFound('No such account.');
    if (patch.owner_id !== undefined && patch.owner_id !== (row.owner_id ?? row.id)) {
      if (principal.kind !== 'api_token' || !holds(principal.permissions, 'admin')) {
        throw forbidden('Changing the owner of an account needs the "admin" permission.', 'insufficient_permissions');
      }
      const isUser =
        patch.owner_id === row.id ||
        stmt<[string, string], number>(ctx.db, 'SELECT 1 FROM account_users WHERE account_id = ? AND user_id = ?')
          .pluck()
          .get(row.id, patch.owner_id) !== undefined;
      if (!isUser) {
        const message = `${patch.owner_id} is not a user of this account: add them (POST /api/v1/accounts/${row.id}/account_users) first.`;
        throw unprocessable(message, 'not_an_account_user', [{ path: 'account.owner_id', code: 'not_an_account_user', message }]);
      }
    }
    const now = isoNow(ctx.clock);
    const owner = patch.owner_id === undefined ? row.owner_id : patch.owner_id === row.id ? null : patch.owner_id;
    stmt(ctx.db, 'UPDATE accounts SET name = ?, owner_id = ?, updated_at = ? WHERE id = ?').run(patch.name ?? row.name, owner, now, row.id);
    return toAccount(ctx, findAccount(ctx, principal.accountId, id)!);
  });
}

/**
 * Adds a person of the account as one of its users. The person must be homed in this cell (another cell's id is the
 * 421) and belong to the account; an anonymous record's stand-in principal is no person. 409 when already a user.
 */
export function addAccountUser(
  ctx: ServerContext,
  accountId: string,
  id: string,
  userId: string,
  role: AccountUserRole = 'viewer',
): AccountUser {
  if (!findAccount(ctx, accountId, id)) throw notFound('No such account.');
  assertHomedHere(ctx, userId);
  return transaction(ctx.db, () => {
    const person = stmt<[string, string], { id: string }>(ctx.db, 'SELECT id FROM persons WHERE id = ? AND account_id = ?').get(
      userId,
      accountId,
    );
    if (!person || isAnonymousPrincipal(person.id) || !person.id.startsWith('prs_')) {
      const message = `${userId} is no person of this account (a person id, prs_…, from GET /api/v1/me or a consent).`;
      throw unprocessable(message, 'user_not_found', [{ path: 'user_id', code: 'user_not_found', message }]);
    }
    const existing = stmt<[string, string], AccountUserRow>(ctx.db, 'SELECT * FROM account_users WHERE account_id = ? AND user_id = ?').get(
      accountId,
      userId,
    );
    if (existing) {
      throw new ApiError(409, `${userId} is already a user of this account (${existing.id}).`, 'account_user_exists', [
        { path: 'user_id', code: 'account_user_exists', message: `already account user ${existing.id}` },
      ]);
    }
    const count = stmt<[string], number>(ctx.db, 'SELECT count(*) FROM account_users WHERE account_id = ?')
      .pluck()
      .get(accountId) as number;
    if (count >= MAX_ACCOUNT_USERS)
      throw unprocessable(`An account can have at most ${MAX_ACCOUNT_USERS} users.`, 'too_many_account_users');
    const now = isoNow(ctx.clock);
    const accountUserId = newId('au_', 20);
    stmt(ctx.db, 'INSERT INTO account_users (id, account_id, user_id, role, created_at) VALUES (?, ?, ?, ?, ?)').run(
      accountUserId,
      accountId,
      userId,
      role,
      now,
    );
    stmt(ctx.db, 'UPDATE accounts SET updated_at = ? WHERE id = ?').run(now, accountId);
    return { id: accountUserId, user_id: userId, role, created_at: now };
  });
}

/** Gives an account user another console role; the owner stays an admin (409), so an account always has one. */
export function updateAccountUserRole(
  ctx: ServerContext,
  accountId: string,
  id: string,
  accountUserId: string,
  role: AccountUserRole,
): AccountUser {
  const account = findAccount(ctx, accountId, id);
  if (!account) throw notFound('No such account.');
  return transaction(ctx.db, () => {
    const user = stmt<[string, string], AccountUserRow>(ctx.db, 'SELECT * FROM account_users WHERE id = ? AND account_id = ?').get(
      accountUserId,
      accountId,
    );
    if (!user) throw notFound('No such account user.');
    if (account.owner_id === user.user_id && role !== 'admin') {
      throw new ApiError(
        409,
        `${user.user_id} owns this account and stays an admin: make another user its owner first.`,
        'owner_stays_admin',
      );
    }
    stmt(ctx.db, 'UPDATE account_users SET role = ? WHERE id = ?').run(role, user.id);
    stmt(ctx.db, 'UPDATE accounts SET updated_at = ? WHERE id = ?').run(isoNow(ctx.clock), accountId);
    return { id: user.id, user_id: user.user_id, role, created_at: user.created_at };
  });
}

/** Removes an account user; the owner cannot be removed (hand the account to someone else first): 409. */
export function removeAccountUser(ctx: ServerContext, accountId: string, id: string, accountUserId: string): void {
  const account = findAccount(ctx, accountId, id);
  if (!account) throw notFound('No such account.');
  transaction(ctx.db, () => {
    const user = stmt<[string, string], AccountUserRow>(ctx.db, 'SELECT * FROM account_users WHERE id = ? AND account_id = ?').get(
      accountUserId,
      accountId,
    );
    if (!user) throw notFound('No such account user.');
    if (account.owner_id === user.user_id) {
      throw new ApiError(
        409,
        `${user.user_id} owns this account and cannot be removed: make another user (or the account itself) its owner first.`,
        'owner_cannot_be_removed',
      );
    }
    stmt(ctx.db, 'DELETE FROM account_users WHERE id = ?').run(user.id);
    stmt(ctx.db, 'UPDATE accounts SET updated_at = ? WHERE id = ?').run(isoNow(ctx.clock), accountId);
  });
}
