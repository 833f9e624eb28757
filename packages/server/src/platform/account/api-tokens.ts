import {
  apiTokenEnvelope,
  apiTokenList,
  createApiTokenRequest,
  listQuery,
  updateApiTokenRequest,
  type ApiToken,
  type ApiTokenRateLimit,
} from '@svc/schemas';
import { route, routes } from '../../infra/http/route.js';
import { holds } from '../../infra/auth.js';
import { isoNow } from '../../infra/clock.js';
import type { Permission, Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { transaction } from '../../infra/transaction.js';
import { forbidden, notFound, unprocessable } from '../../infra/errors.js';
import { hashSecret, newId, newSecret } from '../../infra/ids.js';
import { DEFAULT_LIMIT, decodeCursor, toPage } from '../../infra/pagination.js';

interface TokenRow {
  rowid: number;
  id: string;
  account_id: string;
  name: string;
  permissions: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  rate_limit_requests: number | null;
  rate_limit_window_seconds: number | null;
}

function toApiToken(row: TokenRow, token?: string): ApiToken {
  return {
    id: row.id,
    name: row.name,
    permissions: JSON.parse(row.permissions) as Permission[],
    created_at: row.created_at,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
    rate_limit:
      row.rate_limit_requests === null || row.rate_limit_window_seconds === null
        ? null
        : { requests: row.rate_limit_requests, window_seconds: row.rate_limit_window_seconds },
    ...(token ? { token } : {}),
  };
}

function findRow(ctx: ServerContext, accountId: string, id: string): TokenRow | undefined {
  return stmt<[string, string], TokenRow>(
    ctx.db,
    'SELECT rowid, * FROM api_tokens WHERE id = ? AND account_id = ? AND revoked_at IS NULL',
  ).get(id, accountId);
}

// A caller may only issue, rotate or revoke tokens whose every permission it holds itself: otherwise a write
// token could mint an admin token (spec: Errors rule 5) or rotate one and read its new value.
function assertHoldsAll(principal: Principal, wanted: readonly Permission[], action: string): void {
  if (principal.kind !== 'api_token') throw forbidden('Only an API token can manage API tokens.');
  const missing = wanted.filter((p) => !holds(principal.permissions, p));
  if (missing.length) {
    throw forbidden(
      `${action} a token with ${missing.map((p) => `"${p}"`).join(', ')} requires holding it yourself.`,
      'insufficient_permissions',
    );
  }
}

const tag = 'API tokens';

/**
 * `GET|POST /api/v1/api_tokens`, `PATCH /api/v1/api_tokens/{id}`, `POST /api/v1/api_tokens/{id}/rotate`,
 * `DELETE /api/v1/api_tokens/{id}`.
 */
export const apiTokenRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'get',
      path: '/api/v1/api_tokens',
      summary: "List the account's API tokens (never their values)",
      tag,
      permission: 'read',
      query: listQuery,
      response: { status: 200, description: 'A page of API tokens', schema: apiTokenList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor } }) => {
      const principal = c.get('principal');
      const rows = stmt<[string, number, number], TokenRow>(
        ctx.db,
        'SELECT rowid, * FROM api_tokens WHERE account_id = ? AND revoked_at IS NULL AND rowid > ? ORDER BY rowid LIMIT ?',
      ).all(principal.accountId, decodeCursor(cursor), limit + 1);
      const page = toPage(rows, limit, (r) => r.rowid);
      return c.json({ api_tokens: page.items.map((r) => toApiToken(r)), next_cursor: page.next_cursor });
    },
  );

  route(
    app,
    {
      method: 'post',
      path: '/api/v1/api_tokens',
      summary: 'Create an API token; the raw value is returned only here',
      tag,
      permission: 'write',
      body: createApiTokenRequest,
      response: { status: 201, description: 'The token, with `token` set', schema: apiTokenEnvelope },
      errors: [400, 422],
    },
    (c, { body: { api_token: input } }) => {
      const principal = c.get('principal');
      const permissions = input.permissions ?? ['read'];
      assertHoldsAll(principal, permissions, 'Issuing');
      const now = isoNow(ctx.clock);
      const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
      if (expiresAt && !(expiresAt.getTime() > ctx.clock.now())) {
        throw unprocessable('api_token.expires_at must be in the future.', 'validation_failed', [
          { path: 'api_token.expires_at', code: 'too_small', message: 'must be in the future' },
        ]);
      }
      const id = newId('api_token_');
      const token = newSecret();
      const limit = input.rate_limit ?? null;
      // Stored in UTC so that expiry is a plain string comparison against the clock.
      transaction(ctx.db, () =>
        stmt(
          ctx.db,
          `INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at, expires_at, rate_limit_requests,
             rate_limit_window_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          id,
          principal.accountId,
          input.name,
          JSON.stringify(permissions),
          hashSecret(token),
          now,
          expiresAt?.toISOString() ?? null,
          limit?.requests ?? null,
          limit?.window_seconds ?? null,
        ),
      );
      return c.json({ api_token: toApiToken(findRow(ctx, principal.accountId, id)!, token) }, 201);
    },
  );

  route(
    app,
    {
      method: 'patch',
      path: '/api/v1/api_tokens/{id}',
      summary: "Rename a token or set its own rate limit (`rate_limit: null` lifts it); takes effect on the token's next request",
      tag,
      permission: 'write',
      body: updateApiTokenRequest,
      response: { status: 200, description: 'The token (never its value)', schema: apiTokenEnvelope },
      errors: [404],
    },
    (c, { body: { api_token: input } }) => {
      const principal = c.get('principal');
      const row = findRow(ctx, principal.accountId, c.req.param('id')!);
      if (!row) throw notFound('No such API token.');
      assertHoldsAll(principal, JSON.parse(row.permissions) as Permission[], 'Changing');
      // Left out, the current limit stays; null lifts it.
      const limit: ApiTokenRateLimit | null = input.rate_limit !== undefined ? input.rate_limit : toApiToken(row).rate_limit;
      transaction(ctx.db, () =>
        stmt(ctx.db, 'UPDATE api_tokens SET name = ?, rate_limit_requests = ?, rate_limit_window_seconds = ? WHERE id = ?').run(
          input.name ?? row.name,
          limit?.requests ?? null,
          limit?.window_seconds ?? null,
          row.id,
        ),
      );
      return c.json({ api_token: toApiToken(findRow(ctx, principal.accountId, row.id)!) });
    },
  );

  route(
    app,
    {
      method: 'post',
      path: '/api/v1/api_tokens/{id}/rotate',
      summary: "Replace a token's value; the old value stops working at once",
      tag,
      permission: 'write',
      response: { status: 200, description: 'The token, with the new `token`', schema: apiTokenEnvelope },
      errors: [404],
    },
    (c) => {
      const principal = c.get('principal');
      const row = findRow(ctx, principal.accountId, c.req.param('id')!);
      if (!row) throw notFound('No such API token.');
      assertHoldsAll(principal, JSON.parse(row.permissions) as Permission[], 'Rotating');
      const token = newSecret();
      transaction(ctx.db, () => stmt(ctx.db, 'UPDATE api_tokens SET token_hash = ? WHERE id = ?').run(hashSecret(token), row.id));
      return c.json({ api_token: toApiToken(row, token) });
    },
  );

  route(
    app,
    {
      method: 'delete',
      path: '/api/v1/api_tokens/{id}',
      summary: 'Revoke an API token',
      tag,
      permission: 'write',
      response: { status: 204, description: 'Revoked' },
      errors: [404],
    },
    (c) => {
      const principal = c.get('principal');
      const row = findRow(ctx, principal.accountId, c.req.param('id')!);
      if (!row) throw notFound('No such API token.');
      assertHoldsAll(principal, JSON.parse(row.permissions) as Permission[], 'Revoking');
      transaction(ctx.db, () => stmt(ctx.db, 'UPDATE api_tokens SET revoked_at = ? WHERE id = ?').run(isoNow(ctx.clock), row.id));
      return c.body(null, 204);
    },
  );
});
