// The issuing side of credential status (IETF OAuth Token Status List): each credential holds one bit in one of the
// cell's status lists (`status.status_list {idx, uri}`), drawn at random so an index says nothing about its
// neighbours; revocation sets the bit. Each list is published at `/.well-known/credential-status/{id}` as a status
// list token (a JWT `typ: statuslist+jwt`, ES256 with the cell's key, `kid` in its JWKS) whose `ttl` tells verifiers
// how long they may cache it.
import { randomInt } from 'node:crypto';
import { SignJWT } from 'jose';
import { StatusList, createHeaderAndPayload } from '@sd-jwt/jwt-status-list';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { randomBase62 } from '../../infra/ids.js';

/** Entries per status list (16 KiB of bits; mostly zeros, so the published token stays small). */
export const STATUS_LIST_SIZE = 131_072;
/** A list takes new credentials until this share of it is allocated (random draws stay cheap); then a new list opens. */
const FILL_LIMIT = 0.5;
/**
 * Seconds a verifier may cache a status list token before fetching it again (its `ttl` claim and the response's
 * `Cache-Control: max-age`): a revocation is seen by every verifier at most this long after it happens.
 */
export const STATUS_LIST_TTL_SECONDS = 300;
/** Lifetime of one signed status list token (`exp - iat`); the cell signs a fresh one well before. */
export const STATUS_LIST_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

/** Path of a status list of this cell. */
export const STATUS_LIST_PATH = '/.well-known/credential-status';

/** The media type of a status list token. */
export const STATUS_LIST_MEDIA_TYPE = 'application/statuslist+jwt';

export const statusListUri = (ctx: ServerContext, listId: string) => `${ctx.baseUrl}${STATUS_LIST_PATH}/${listId}`;

interface ListRow {
  id: string;
  size: number;
  allocated: number;
}

/**
 * Reserves a fresh index for a new credential: in the newest list while it is less than half full, else in a new
 * list. Call it inside the transaction that inserts the credential (the unique `(status_list_id, status_idx)` holds).
 */
export function allocateStatusIndex(ctx: ServerContext): { listId: string; idx: number } {
  const now = isoNow(ctx.clock);
  let list = stmt<[], ListRow>(ctx.db, 'SELECT id, size, allocated FROM credential_status_lists ORDER BY seq DESC LIMIT 1').get();
  if (!list || list.allocated >= list.size * FILL_LIMIT) {
    list = { id: `sl_${ctx.country.toLowerCase()}_${randomBase62(16)}`, size: STATUS_LIST_SIZE, allocated: 0 };
    stmt(ctx.db, 'INSERT INTO credential_status_lists (id, size, allocated, created_at, updated_at) VALUES (?, ?, 0, ?, ?)').run(
      list.id,
      list.size,
      now,
      now,
    );
  }
  const taken = stmt<[string, number], number>(ctx.db, 'SELECT 1 FROM credentials WHERE status_list_id = ? AND status_idx = ?').pluck();
  let idx = randomInt(list.size);
  // At most half the list is taken, so each draw succeeds with probability at least one half.
  while (taken.get(list.id, idx) !== undefined) idx = randomInt(list.size);
  stmt(ctx.db, 'UPDATE credential_status_lists SET allocated = allocated + 1, updated_at = ? WHERE id = ?').run(now, list.id);
  return { listId: list.id, idx };
}

interface SignedToken {
  jwt: string;
  /** Seconds since the epoch. */
  iat: number;
}

/** Per cell: the signed token of each list, and a change counter per list (bumped by every revocation). */
interface Published {
  tokens: Map<string, SignedToken>;
  changes: Map<string, number>;
}
const published = new WeakMap<ServerContext, Published>();

function publishedOf(ctx: ServerContext): Published {
  let state = published.get(ctx);
  if (!state) {
    state = { tokens: new Map(), changes: new Map() };
    published.set(ctx, state);
  }
  return state;
}

/** Drops the cell's signed token of `listId`, so the next request publishes the list as it is now. */
export function statusListChanged(ctx: ServerContext, listId: string): void {
  const state = publishedOf(ctx);
  state.tokens.delete(listId);
  state.changes.set(listId, (state.changes.get(listId) ?? 0) + 1);
}

/** Whether `listId` is one of this cell's status lists. */
export function statusListExists(ctx: ServerContext, listId: string): boolean {
  return stmt<[string], number>(ctx.db, 'SELECT 1 FROM credential_status_lists WHERE id = ?').pluck().get(listId) !== undefined;
}

/**
 * The status list token of `listId` (undefined when this cell has no such list): `sub` its URI, `iat`, `exp`, `ttl`
 * and `status_list {bits: 1, lst}` (zlib-compressed, base64url: 1 = revoked).
 */
export async function statusListToken(ctx: ServerContext, listId: string): Promise<SignedToken | undefined> {
  const now = Math.floor(ctx.clock.now() / 1000);
  const { tokens, changes } = publishedOf(ctx);
  const cached = tokens.get(listId);
  if (cached && now < cached.iat + STATUS_LIST_TOKEN_LIFETIME_SECONDS / 2 && now >= cached.iat) return cached;
  const version = changes.get(listId) ?? 0;
  const list = stmt<[string], ListRow>(ctx.db, 'SELECT id, size, allocated FROM credential_status_lists WHERE id = ?').get(listId);
  if (!list) return undefined;
  const statuses = new StatusList(new Array<number>(list.size).fill(0), 1);
  const revoked = stmt<[string], number>(ctx.db, 'SELECT status_idx FROM credentials WHERE status_list_id = ? AND revoked_at IS NOT NULL')
    .pluck()
    .all(listId) as unknown as number[];
  for (const idx of revoked) statuses.setStatus(idx, 1);
  const { header, payload } = createHeaderAndPayload(
    statuses,
    { sub: statusListUri(ctx, listId), iat: now, exp: now + STATUS_LIST_TOKEN_LIFETIME_SECONDS, ttl: STATUS_LIST_TTL_SECONDS },
    { alg: 'ES256', typ: 'statuslist+jwt', kid: ctx.keys.kid },
  );
  const jwt = await new SignJWT(payload as Record<string, unknown>)
    .setProtectedHeader(header as { alg: string; typ: string; kid: string })
    .sign(ctx.keys.privateKey);
  const token = { jwt, iat: now };
  // A revocation that landed while this one was being signed makes it stale: serve it once, sign again next time.
  if ((changes.get(listId) ?? 0) === version) tokens.set(listId, token);
  return token;
}
