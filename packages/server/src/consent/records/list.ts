// `GET /api/v1/consent_records`: the account's consent records of this cell, most recently recorded first, filtered
// in SQL so that a page is always `limit` matching records (or the last ones), paged by `seq` like every list.
import { type ConsentRecord, consentRecordList, consentRecordListQuery, type ConsentRecordStatus } from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { isoNow } from '../../infra/clock.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { route } from '../../infra/http/route.js';
import { DEFAULT_LIMIT, decodeCursor, toPage } from '../../infra/pagination.js';
import { normaliseEmail } from './person.js';
import { type RecordRow, toWire } from './rows.js';

/** What the list filters by; every given filter must hold. */
export interface RecordListFilter {
  flowId?: string | undefined;
  status?: ConsentRecordStatus | undefined;
  purpose?: string | undefined;
  email?: string | undefined;
  externalId?: string | undefined;
  capturedSince?: string | undefined;
}

// The status in SQL, as `recordState` (rows.ts) computes it in code: revoked when the record granted some consent and
// every granted one has a `revoked` withdrawal; else expired when its term has ended (`expires_at <= now`, the same
// string comparison); else fulfilled. The list test checks each listed record's status against its filter.
const GRANTED = `SELECT 1 FROM json_each(r.purposes) p WHERE p.value ->> 'outcome' = 'granted'`;
export const REVOKED = `(EXISTS (${GRANTED}) AND NOT EXISTS (${GRANTED} AND NOT EXISTS (SELECT 1 FROM consent_withdrawals w
  WHERE w.record_id = r.id AND w.purpose_key = p.value ->> 'key' AND w.outcome = 'revoked')))`;
export const ENDED = '(r.expires_at IS NOT NULL AND r.expires_at <= ?)';

/** The WHERE conditions and their parameters for `filter`, after the account and the cursor's position. */
function conditions(ctx: ServerContext, accountId: string, before: number, filter: RecordListFilter): [string[], unknown[]] {
  const where = ['r.account_id = ?', 'r.seq < ?'];
  const params: unknown[] = [accountId, before];
  const add = (sql: string, ...values: unknown[]) => {
    where.push(sql);
    params.push(...values);
  };
  if (filter.flowId !== undefined) add('r.flow_id = ?', filter.flowId);
  if (filter.purpose !== undefined) add(`EXISTS (SELECT 1 FROM json_each(r.purposes) p WHERE p.value ->> 'key' = ?)`, filter.purpose);
  if (filter.email !== undefined) {
    add('r.person_id IN (SELECT id FROM persons WHERE account_id = ? AND email = ?)', accountId, normaliseEmail(filter.email));
  }
  if (filter.externalId !== undefined) add('r.external_id = ?', filter.externalId);
  // Stored captured_at values are all toISOString() (UTC, milliseconds), so the bound is too.
  if (filter.capturedSince !== undefined) add('r.captured_at >= ?', new Date(filter.capturedSince).toISOString());
  const now = isoNow(ctx.clock);
  if (filter.status === 'revoked') add(REVOKED);
  if (filter.status === 'expired') add(`NOT ${REVOKED} AND ${ENDED}`, now);
  if (filter.status === 'fulfilled') add(`NOT ${REVOKED} AND NOT ${ENDED}`, now);
  return [where, params];
}

/**
 * A page of the account's records in this cell's database (personal data lives in its home cell only: records
 * homed elsewhere are listed by their own cell), newest `seq` first. The cursor is the last record's `seq`.
 */
export function listConsentRecords(
  ctx: ServerContext,
  accountId: string,
  page: { limit: number; cursor?: string | undefined },
  filter: RecordListFilter = {},
): { consent_records: ConsentRecord[]; next_cursor: string | null } {
  const before = page.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(page.cursor);
  const [where, params] = conditions(ctx, accountId, before, filter);
  const rows = stmt<unknown[], RecordRow>(
    ctx.db,
    `SELECT r.* FROM consent_records r WHERE ${where.join(' AND ')} ORDER BY r.seq DESC LIMIT ?`,
  ).all(...params, page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return { consent_records: items.map((row) => toWire(ctx, row)), next_cursor };
}

/** Mounts `GET /api/v1/consent_records`. */
export function recordListRoute(app: OpenAPIHono<Env>, ctx: ServerContext, tag: string): void {
  route(
    app,
    {
      method: 'get',
      path: '/api/v1/consent_records',
      summary:
        "List the account's consent records homed in this cell, most recently recorded first; filter by flow, status, purpose, subject or capture time",
      tag,
      permission: 'read',
      query: consentRecordListQuery,
      response: { status: 200, description: 'A page of consent records', schema: consentRecordList },
      errors: [400],
    },
    (c, { query }) =>
      c.json(
        listConsentRecords(
          ctx,
          c.get('principal').accountId,
          { limit: query.limit ?? DEFAULT_LIMIT, cursor: query.cursor },
          {
            flowId: query.flow_id,
            status: query.status,
            purpose: query.purpose,
            email: query['subject[email]'],
            externalId: query['subject[external_id]'],
            capturedSince: query.captured_since,
          },
        ),
      ),
  );
}
