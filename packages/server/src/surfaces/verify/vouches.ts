// Vouches: a person's word for another person, or for an agent identity of the same account. Personal data, homed in
// the voucher's cell (`vch_<country>_…`); one active vouch per voucher and vouchee (a unique partial index); never for
// oneself; revocable by the voucher alone, once. Each one counts in the vouchee's trust score.
import type { CreateVouchRequest, TrustSubjectType, Vouch, VouchStatus } from '@svc/schemas';
import { getAgentIdentity } from '../../authority/agents/store.js';
import { assertHomedHere } from '../../infra/cells/routing.js';
import { isoNow } from '../../infra/clock.js';
import type { Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError, unprocessable } from '../../infra/errors.js';
import { homedId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';

export interface VouchRow {
  seq: number;
  id: string;
  account_id: string;
  voucher_id: string;
  vouchee_id: string;
  vouchee_type: TrustSubjectType;
  statement: string | null;
  status: VouchStatus;
  created_at: string;
  revoked_at: string | null;
}

/** The wire shape. */
export function toVouch(row: VouchRow): Vouch {
  return {
    id: row.id,
    voucher_id: row.voucher_id,
    vouchee_id: row.vouchee_id,
    vouchee_type: row.vouchee_type,
    statement: row.statement,
    status: row.status,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

/** Whether `personId` is a person of `accountId` in this cell. */
export function isPersonOf(ctx: ServerContext, accountId: string, personId: string): boolean {
  if (!personId.startsWith('prs_')) return false;
  return (
    stmt<[string, string], number>(ctx.db, 'SELECT 1 FROM persons WHERE id = ? AND account_id = ?').pluck().get(personId, accountId) !==
    undefined
  );
}

const refuse = (code: string, message: string) => unprocessable(message, code, [{ path: 'vouchee_id', code, message }]);

/**
 * Records `voucherId`'s vouch: the vouchee is a person of the account homed in this cell (421 `wrong_country`
 * otherwise) or an agent identity of the account that is not revoked (422 `vouchee_not_found`, `vouchee_revoked`),
 * never the voucher (422 `self_vouch`); a second active vouch for the same vouchee is 409 `vouch_exists`.
 */
export function createVouch(ctx: ServerContext, accountId: string, voucherId: string, input: CreateVouchRequest): VouchRow {
  const vouchee = input.vouchee_id;
  if (vouchee === voucherId) throw refuse('self_vouch', 'A person cannot vouch for themselves.');
  let type: TrustSubjectType;
  if (vouchee.startsWith('prs_')) {
    assertHomedHere(ctx, vouchee);
    if (!isPersonOf(ctx, accountId, vouchee)) throw refuse('vouchee_not_found', `No person ${vouchee} in this account.`);
    type = 'person';
  } else {
    const agent = getAgentIdentity(ctx, accountId, vouchee);
    if (!agent) throw refuse('vouchee_not_found', `No agent identity ${vouchee} in this account.`);
    if (agent.status === 'revoked')
      throw refuse('vouchee_revoked', `Agent identity ${vouchee} is revoked: there is nothing left to vouch for.`);
    type = 'agent';
  }
  return transaction(ctx.db, () => {
    const existing = stmt<[string, string], string>(
      ctx.db,
      "SELECT id FROM vouches WHERE voucher_id = ? AND vouchee_id = ? AND status = 'active'",
    )
      .pluck()
      .get(voucherId, vouchee);
    if (existing) {
      throw new ApiError(409, `You already vouch for ${vouchee} (${existing}); revoke that vouch before giving another.`, 'vouch_exists', [
        { path: 'vouchee_id', code: 'vouch_exists', message: `active vouch ${existing}` },
      ]);
    }
    const id = homedId(ctx.country, 'vch_', 20);
    stmt(
      ctx.db,
      `INSERT INTO vouches (id, account_id, voucher_id, vouchee_id, vouchee_type, statement, status, created_at)
      VALUES (?, ?, ?, ?, ?, ?, 'active', ?)`,
    ).run(id, accountId, voucherId, vouchee, type, input.statement ?? null, isoNow(ctx.clock));
    return stmt<[string], VouchRow>(ctx.db, 'SELECT * FROM vouches WHERE id = ?').get(id)!;
  });
}

/**
 * The vouch `id` as `principal` may see it: an API token sees the account's; a person the vouches they gave or
 * received. Anything else is undefined (a 404).
 */
export function visibleVouch(ctx: ServerContext, principal: Principal, id: string): VouchRow | undefined {
  if (!/^vch_(?:[a-z]{2}_)?[A-Za-z0-9]{16,24}$/.test(id)) return undefined;
  const row = stmt<[string], VouchRow>(ctx.db, 'SELECT * FROM vouches WHERE id = ?').get(id);
  if (!row || row.account_id !== principal.accountId) return undefined;
  if (principal.kind === 'person') return row.voucher_id === principal.personId || row.vouchee_id === principal.personId ? row : undefined;
  return row;
}

/**
 * Revokes a vouch, by its voucher alone (403 `not_your_vouch` for the vouchee); `active -> revoked` only, once (409
 * `illegal_transition`).
 */
export function revokeVouch(ctx: ServerContext, row: VouchRow, personId: string): VouchRow {
  if (row.voucher_id !== personId) throw new ApiError(403, 'Only the person who gave a vouch can revoke it.', 'not_your_vouch');
  return transaction(ctx.db, () => {
    const moved = stmt(ctx.db, "UPDATE vouches SET status = 'revoked', revoked_at = ? WHERE id = ? AND status = 'active'").run(
      isoNow(ctx.clock),
      row.id,
    ).changes;
    if (moved === 0) throw new ApiError(409, `Vouch ${row.id} cannot go from revoked to revoked.`, 'illegal_transition');
    return stmt<[string], VouchRow>(ctx.db, 'SELECT * FROM vouches WHERE id = ?').get(row.id)!;
  });
}

/** Filters of the vouch list. */
export interface VouchFilter {
  limit: number;
  cursor?: string | undefined;
  direction?: 'given' | 'received' | undefined;
  status?: VouchStatus | undefined;
  voucher_id?: string | undefined;
  vouchee_id?: string | undefined;
}

/**
 * A page of vouches, oldest first: a person's own (given, received, or both), or the account's for an API token.
 */
export function listVouches(ctx: ServerContext, principal: Principal, filter: VouchFilter) {
  const where = ['account_id = @account', 'seq > @after'];
  const params: Record<string, string | number> = {
    account: principal.accountId,
    after: decodeCursor(filter.cursor),
    limit: filter.limit + 1,
  };
  if (principal.kind === 'person') {
    params.me = principal.personId;
    where.push(
      filter.direction === 'given'
        ? 'voucher_id = @me'
        : filter.direction === 'received'
          ? 'vouchee_id = @me'
          : '(voucher_id = @me OR vouchee_id = @me)',
    );
  }
  const narrow = (column: string, name: string, value: string | undefined) => {
    if (value === undefined) return;
    where.push(`${column} = @${name}`);
    params[name] = value;
  };
  narrow('status', 'status', filter.status);
  narrow('voucher_id', 'voucher', filter.voucher_id);
  narrow('vouchee_id', 'vouchee', filter.vouchee_id);
  const rows = ctx.db.prepare(`SELECT * FROM vouches WHERE ${where.join(' AND ')} ORDER BY seq LIMIT @limit`).all(params) as VouchRow[];
  const { items, next_cursor } = toPage(rows, filter.limit, (r) => r.seq);
  return { vouches: items.map(toVouch), next_cursor };
}
