// Who may use an organisation's console: the account users whose person has the signed-in person's verified email.
// Account users live in the control file (a person's id only); their persons, with the email, in this cell.
import type { AccountUserRole } from '@svc/schemas';
import type { Permission, ServerContext } from '../infra/context.js';
import { stmt } from '../infra/db.js';

/** An account the signed-in person is a user of, and their role in it. */
export interface Membership {
  accountUserId: string;
  userId: string;
  accountId: string;
  accountName: string;
  role: AccountUserRole;
}

/** What each role may do through the API: an admin everything, a viewer reads (and checks the audit chain). */
export const ROLE_PERMISSIONS: Record<AccountUserRole, Permission[]> = {
  admin: ['admin'],
  viewer: ['read', 'audit:verify'],
};

const SELECT = `SELECT au.id AS accountUserId, au.user_id AS userId, au.account_id AS accountId, a.name AS accountName, au.role AS role
  FROM account_users au JOIN accounts a ON a.id = au.account_id JOIN persons p ON p.id = au.user_id`;

/** The accounts whose users include a person of `email` (verified by the sign-in), in the order they were added. */
export function membershipsOf(ctx: ServerContext, email: string): Membership[] {
  return stmt<[string], Membership>(ctx.db, `${SELECT} WHERE p.email = ? ORDER BY au.seq`).all(email);
}

/** The account user `accountUserId` as it stands now (its role read afresh), or undefined once removed. */
export function membershipById(ctx: ServerContext, accountUserId: string): Membership | undefined {
  return stmt<[string], Membership>(ctx.db, `${SELECT} WHERE au.id = ?`).get(accountUserId);
}
