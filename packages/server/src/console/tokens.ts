// Console tokens: what a console page's elements call the organisation's API with, for the account user signed in.
// The API treats one as an API token of the user's role, read afresh on every request (a removed user or a lowered
// role takes effect at once), with the account user as the actor of what it changes. Only the token's SHA-256 is
// kept; it lives ten minutes, and signing out of the browser session that asked for it ends it.
import type { Principal, ServerContext } from '../infra/context.js';
import { CONSOLE_TOKEN_PREFIX } from '../infra/auth.js';
import { isoNow } from '../infra/clock.js';
import { stmt } from '../infra/db.js';
import { hashSecret, newId, newSecret } from '../infra/ids.js';
import { membershipById, ROLE_PERMISSIONS, type Membership } from './members.js';

/** How long a console token lives. */
export const CONSOLE_TOKEN_SECONDS = 600;

/** A minted console token, as the console's token URL answers it. */
export interface ConsoleToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  account_id: string;
  role: Membership['role'];
}

/** Mints a console token for `member`, bound to the browser session `sessionUid`. */
export function mintConsoleToken(ctx: ServerContext, member: Membership, sessionUid: string): ConsoleToken {
  const token = `${CONSOLE_TOKEN_PREFIX}${newSecret()}`;
  const now = ctx.clock.now();
  stmt(
    ctx.db,
    'INSERT INTO console_tokens (id, token_hash, account_user_id, session_uid, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(
    newId('cst_', 20),
    hashSecret(token),
    member.accountUserId,
    sessionUid,
    isoNow(ctx.clock),
    new Date(now + CONSOLE_TOKEN_SECONDS * 1000).toISOString(),
  );
  // Expired tokens of the service are of no use to anyone: drop them as new ones are made.
  stmt(ctx.db, 'DELETE FROM console_tokens WHERE expires_at <= ?').run(isoNow(ctx.clock));
  return { access_token: token, token_type: 'Bearer', expires_in: CONSOLE_TOKEN_SECONDS, account_id: member.accountId, role: member.role };
}

/** The principal of a current console token: an API token of its account user's role now; undefined otherwise. */
export function consolePrincipal(ctx: ServerContext, token: string): Principal | undefined {
  const row = stmt<[string], { id: string; account_user_id: string; expires_at: string }>(
    ctx.db,
    'SELECT id, account_user_id, expires_at FROM console_tokens WHERE token_hash = ?',
  ).get(hashSecret(token));
  if (!row || row.expires_at <= isoNow(ctx.clock)) return undefined;
  const member = membershipById(ctx, row.account_user_id);
  if (!member) return undefined;
  return {
    kind: 'api_token',
    accountId: member.accountId,
    tokenId: row.id,
    permissions: [...ROLE_PERMISSIONS[member.role]],
    accountUser: { id: member.accountUserId, userId: member.userId },
  };
}

/** Ends every console token of a browser session (its person signed out). */
export function endConsoleTokens(ctx: ServerContext, sessionUid: string): void {
  stmt(ctx.db, 'DELETE FROM console_tokens WHERE session_uid = ?').run(sessionUid);
}
