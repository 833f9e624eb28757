// A person's own trust scores and vouches: one score per organisation the person is known to (their person row there),
// the vouches those rows gave and received, and vouching through Verify's own createVouch / revokeVouch. The person's
// rows are found by their verified email (people/reader.ts); an organisation's client sees that organisation's only,
// and the service's own account (the trust center's) is nobody's organisation.
import type { CreatePersonVouchRequest, PersonTrustScore, PersonTrustScoreFactor, PersonVouch, VouchStatus } from '@svc/schemas';
import { findAgentIdentity } from '../../authority/agents/store.js';
import { personTrustScore } from '../../authority/delegations/trust-score.js';
import { assertHomedHere } from '../../infra/cells/routing.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError, unprocessable } from '../../infra/errors.js';
import { DEFAULT_LIMIT, decodeCursor, toPage } from '../../infra/pagination.js';
import { createVouch, revokeVouch, type VouchRow } from '../../surfaces/verify/vouches.js';
import { type PersonReader, readerParams, readerPersons } from '../reader.js';

/** Who reads; with one of the service's own clients, the service's own account, whose person rows are nobody's. */
export interface VouchReader extends PersonReader {
  serviceAccountId: string | undefined;
}

/** One of the reader's person rows: their id at one organisation. */
interface OwnRow {
  seq: number;
  id: string;
  account_id: string;
  organisation_name: string;
}

/** The reader's person rows homed in this cell, oldest relationship first (never the service's own account's). */
function ownRows(ctx: ServerContext, reader: VouchReader, after = 0, limit = -1): OwnRow[] {
  return stmt<unknown[], OwnRow>(
    ctx.db,
    `SELECT p.seq, p.id, p.account_id, a.name AS organisation_name FROM persons p JOIN accounts a ON a.id = p.account_id
      WHERE ${readerPersons('p.id')} AND (? IS NULL OR p.account_id != ?) AND p.seq > ? ORDER BY p.seq LIMIT ?`,
  ).all(...readerParams(reader), reader.serviceAccountId ?? null, reader.serviceAccountId ?? null, after, limit);
}

/** What each of a person's factors counts, in plain words; a factor the server adds later reads by its name. */
const FACTOR_TEXT: Record<string, string> = {
  sign_ins_verified: 'Sign-ins you confirmed with a code sent to your email: 2 points each, up to 10.',
  consents_fulfilled: 'Consents you gave that are in force: 1 point each, up to 10.',
  consents_revoked: 'Consents you withdrew: withdrawing is your right, so it never lowers your score.',
  age_days: 'How long this organisation has known you: 1 point per 30 days, up to 10.',
  vouches_received: 'People who vouch for you now: 5 points each, up to 20.',
  vouches_revoked: 'Vouches for you that were later withdrawn: 5 points off each, up to 20.',
};

/** A page of the reader's trust scores, one per organisation, oldest relationship first. */
export function listPersonTrustScores(
  ctx: ServerContext,
  reader: VouchReader,
  page: { limit?: number | undefined; cursor?: string | undefined },
): { trust_scores: PersonTrustScore[]; next_cursor: string | null } {
  const limit = page.limit ?? DEFAULT_LIMIT;
  const rows = ownRows(ctx, reader, decodeCursor(page.cursor), limit + 1);
  const { items, next_cursor } = toPage(rows, limit, (r) => r.seq);
  return {
    trust_scores: items.map((row) => {
      const { subject_id, score, factors, computed_at } = personTrustScore(ctx, row.id);
      return {
        organisation: { id: row.account_id, name: row.organisation_name },
        subject_id,
        score,
        factors: factors.map((f): PersonTrustScoreFactor => ({ ...f, description: FACTOR_TEXT[f.name] ?? f.name.replaceAll('_', ' ') })),
        computed_at,
      };
    }),
    next_cursor,
  };
}

/** A stored vouch with what the person reads: its organisation's name, the agent's display name, which side they are. */
export type PersonVouchRow = VouchRow & { organisation_name: string; agent_name: string | null; direction: 'given' | 'received' };

// The reader's person ids are bound once, as a JSON array (json_each), for both sides of the vouch.
const SELECT = `SELECT v.*, a.name AS organisation_name, ag.display_name AS agent_name,
    CASE WHEN v.voucher_id IN (SELECT value FROM json_each(@mine)) THEN 'given' ELSE 'received' END AS direction
  FROM vouches v JOIN accounts a ON a.id = v.account_id
  LEFT JOIN agent_identities ag ON v.vouchee_type = 'agent' AND ag.id = v.vouchee_id
  WHERE (v.voucher_id IN (SELECT value FROM json_each(@mine)) OR v.vouchee_id IN (SELECT value FROM json_each(@mine)))`;

const mineOf = (ctx: ServerContext, reader: VouchReader) => JSON.stringify(ownRows(ctx, reader).map((r) => r.id));

/** A page of the vouches the reader gave and received, most recent first, optionally of one side and one status. */
export function listPersonVouches(
  ctx: ServerContext,
  reader: VouchReader,
  page: {
    limit?: number | undefined;
    cursor?: string | undefined;
    direction?: 'given' | 'received' | undefined;
    status?: VouchStatus | undefined;
  },
): { vouches: PersonVouch[]; next_cursor: string | null } {
  const limit = page.limit ?? DEFAULT_LIMIT;
  const before = page.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(page.cursor);
  const rows = stmt<[Record<string, string | number | null>], PersonVouchRow>(
    ctx.db,
    `SELECT * FROM (${SELECT}) WHERE seq < @before AND (@direction IS NULL OR direction = @direction)
      AND (@status IS NULL OR status = @status) ORDER BY seq DESC LIMIT @limit`,
  ).all({
    mine: mineOf(ctx, reader),
    before,
    direction: page.direction ?? null,
    status: page.status ?? null,
    limit: limit + 1,
  });
  const { items, next_cursor } = toPage(rows, limit, (r) => r.seq);
  return { vouches: items.map(toPersonVouch), next_cursor };
}

/** The reader's vouch `id` (given or received), or undefined: anyone else's is not there. */
export function findPersonVouch(ctx: ServerContext, reader: VouchReader, id: string): PersonVouchRow | undefined {
  return stmt<[Record<string, string>], PersonVouchRow>(ctx.db, `${SELECT} AND v.id = @id`).get({ mine: mineOf(ctx, reader), id });
}

/** A vouch as the person reads it: the other side by id (an agent by its name too). */
export function toPersonVouch(row: PersonVouchRow): PersonVouch {
  const given = row.direction === 'given';
  return {
    id: row.id,
    direction: row.direction,
    organisation: { id: row.account_id, name: row.organisation_name },
    counterpart: given
      ? { type: row.vouchee_type, id: row.vouchee_id, name: row.vouchee_type === 'agent' ? row.agent_name : null }
      : { type: 'person', id: row.voucher_id, name: null },
    statement: row.statement,
    status: row.status,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

/** The organisation a subject (`prs_…` homed in this cell: 421 otherwise; `agt_…`) belongs to, if it exists. */
function accountOfSubject(ctx: ServerContext, id: string): string | undefined {
  if (id.startsWith('prs_')) {
    assertHomedHere(ctx, id);
    return stmt<[string], string>(ctx.db, 'SELECT account_id FROM persons WHERE id = ?').pluck().get(id) as unknown as string | undefined;
  }
  return findAgentIdentity(ctx, id)?.account_id;
}

/**
 * The reader vouches, as their person row in the vouchee's organisation, through Verify's own createVouch (its rules:
 * never oneself, a revoked agent refused). A vouchee outside the reader's organisations is 422 `vouchee_not_found`,
 * the same as one that does not exist. A second vouch for the same vouchee is the first one again (`created` false).
 */
export function vouchAsPerson(ctx: ServerContext, reader: VouchReader, body: CreatePersonVouchRequest): { id: string; created: boolean } {
  const account = accountOfSubject(ctx, body.vouchee_id);
  const voucher = account === undefined ? undefined : ownRows(ctx, reader).find((r) => r.account_id === account);
  if (!account || !voucher) {
    const message = `No person or agent identity ${body.vouchee_id} at an organisation that knows you.`;
    throw unprocessable(message, 'vouchee_not_found', [{ path: 'vouchee_id', code: 'vouchee_not_found', message }]);
  }
  try {
    return { id: createVouch(ctx, account, voucher.id, body).id, created: true };
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'vouch_exists') throw error;
    const existing = stmt<[string, string], string>(
      ctx.db,
      "SELECT id FROM vouches WHERE voucher_id = ? AND vouchee_id = ? AND status = 'active'",
    )
      .pluck()
      .get(voucher.id, body.vouchee_id) as unknown as string;
    return { id: existing, created: false };
  }
}

/**
 * The reader revokes a vouch through Verify's own revokeVouch, as their person row in its organisation: one they
 * received is 403 `not_your_vouch`; one they already revoked stays as it is (a replay changes nothing).
 */
export function revokeAsPerson(ctx: ServerContext, reader: VouchReader, row: PersonVouchRow): void {
  if (row.direction === 'given' && row.status === 'revoked') return;
  const me = ownRows(ctx, reader).find((r) => r.account_id === row.account_id);
  revokeVouch(ctx, row, me?.id ?? '');
}
