// Credential-free links that withdraw consent, as easy to use as the form that gave it: a receipt's
// `withdrawal_method` opens one record (`/withdraw/{record}.{mac}`), a receipt email's management link opens one
// person's records with one organisation (`/manage/{account}.{person}.{mac}`). The mac (HMAC-SHA-256 under a key
// the service keeps in its own settings) is the capability: without it the ids open nothing, and it is checked in
// constant time. Links are stable for the life of the key, as a receipt that is frozen at signing needs.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { newSecret } from '../../infra/ids.js';

const KEY_SETTING = 'withdrawal_link_key';
export const WITHDRAW_PATH = '/withdraw';
export const MANAGE_PATH = '/manage';
const ID = /^[A-Za-z0-9_]{1,64}$/;

function linkKey(ctx: ServerContext): string {
  const found = stmt<[string], string>(ctx.db, 'SELECT value FROM settings WHERE key = ?').pluck().get(KEY_SETTING) as unknown as
    | string
    | undefined;
  if (found) return found;
  const value = newSecret();
  // Two first uses at once keep the first key written, so every link made is checked by the same key.
  stmt(ctx.db, 'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING').run(KEY_SETTING, value);
  return linkKey(ctx);
}

const macOf = (ctx: ServerContext, purpose: string, ...ids: string[]) =>
  createHmac('sha256', linkKey(ctx))
    .update([purpose, ...ids].join('\n'))
    .digest('base64url');

function verified(ctx: ServerContext, purpose: string, token: string, parts: number): string[] | undefined {
  const pieces = token.split('.');
  if (pieces.length !== parts + 1) return undefined;
  const mac = pieces.pop()!;
  if (!pieces.every((id) => ID.test(id))) return undefined;
  const expected = Buffer.from(macOf(ctx, purpose, ...pieces));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected) ? pieces : undefined;
}

/** The receipt's `withdrawal_method`: withdraws this one record, with no credential. */
export function recordWithdrawalUrl(ctx: ServerContext, recordId: string): string {
  return `${ctx.trustUrl}${WITHDRAW_PATH}/${recordId}.${macOf(ctx, 'record', recordId)}`;
}

/** The record a `/withdraw/{token}` opens; undefined for a token the service did not make. */
export function recordOfWithdrawalToken(ctx: ServerContext, token: string): string | undefined {
  return verified(ctx, 'record', token, 1)?.[0];
}

/** The receipt email's management link: this person's records with this organisation, with no sign-in. */
export function managementUrl(ctx: ServerContext, accountId: string, personId: string): string {
  return `${ctx.trustUrl}${MANAGE_PATH}/${accountId}.${personId}.${macOf(ctx, 'manage', accountId, personId)}`;
}

/** The account and person a `/manage/{token}` opens; undefined for a token the service did not make. */
export function personOfManagementToken(ctx: ServerContext, token: string): { accountId: string; personId: string } | undefined {
  const ids = verified(ctx, 'manage', token, 2);
  return ids ? { accountId: ids[0]!, personId: ids[1]! } : undefined;
}
