import { allowedOriginEnvelope, allowedOriginList, createAllowedOriginRequest, listQuery, type AllowedOrigin } from '@svc/schemas';
import { route, routes } from '../../infra/http/route.js';
import { getApplication } from '../application-store.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { transaction } from '../../infra/transaction.js';
import { notFound, unprocessable } from '../../infra/errors.js';
import { parseOrigin } from '../origins.js';
import { DEFAULT_LIMIT, decodeCursor, toPage } from '../../infra/pagination.js';

/** Most origins one application may register; enough for every real site, small enough for a CSP header. */
export const MAX_ORIGINS_PER_APPLICATION = 100;

type OriginRow = AllowedOrigin & { rowid: number };

const select = 'SELECT rowid, origin, last_seen_at, created_at FROM allowed_origins';
const toOrigin = ({ rowid: _r, ...origin }: OriginRow): AllowedOrigin => origin;

function ownedApplication(ctx: ServerContext, accountId: string, id: string) {
  const app = getApplication(ctx, accountId, id);
  if (!app) throw notFound('No such application.');
  return app;
}

const tag = 'Allowed origins';
const path = '/api/v1/applications/{id}/allowed_origins';

/** `GET|POST /api/v1/applications/{id}/allowed_origins`, `DELETE .../allowed_origins/{origin}` (origin URL-encoded). */
export const allowedOriginRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'get',
      path,
      summary: "List an application's allowed origins",
      tag,
      permission: 'read',
      query: listQuery,
      response: { status: 200, description: 'A page of allowed origins', schema: allowedOriginList },
      errors: [400, 404],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor } }) => {
      const application = ownedApplication(ctx, c.get('principal').accountId, c.req.param('id')!);
      const rows = stmt<[string, number, number], OriginRow>(
        ctx.db,
        `${select} WHERE application_id = ? AND rowid > ? ORDER BY rowid LIMIT ?`,
      ).all(application.id, decodeCursor(cursor), limit + 1);
      const page = toPage(rows, limit, (r) => r.rowid);
      return c.json({ allowed_origins: page.items.map(toOrigin), next_cursor: page.next_cursor });
    },
  );

  route(
    app,
    {
      method: 'post',
      path,
      summary: 'Register a browser origin (scheme, host, optional port)',
      tag,
      permission: 'write',
      body: createAllowedOriginRequest,
      response: { status: 201, description: 'The registration (200 when it already existed)', schema: allowedOriginEnvelope },
      errors: [400, 404, 422],
    },
    (c, { body: { allowed_origin: input } }) => {
      const application = ownedApplication(ctx, c.get('principal').accountId, c.req.param('id')!);
      const parsed = parseOrigin(input.origin, application.environment);
      if (!parsed.ok) {
        throw unprocessable(`allowed_origin.origin: ${parsed.message}.`, 'invalid_origin', [
          { path: 'allowed_origin.origin', code: 'invalid_origin', message: parsed.message },
        ]);
      }
      const existing = stmt<[string, string], OriginRow>(ctx.db, `${select} WHERE application_id = ? AND origin = ?`).get(
        application.id,
        parsed.origin,
      );
      // Registering an origin twice is harmless, so it answers the existing registration rather than an error.
      if (existing) return c.json({ allowed_origin: toOrigin(existing) }, 200);
      const count = stmt(ctx.db, 'SELECT count(*) FROM allowed_origins WHERE application_id = ?').pluck().get(application.id) as number;
      if (count >= MAX_ORIGINS_PER_APPLICATION) {
        throw unprocessable(`An application can register at most ${MAX_ORIGINS_PER_APPLICATION} origins.`, 'too_many_origins');
      }
      transaction(ctx.db, () =>
        stmt(ctx.db, 'INSERT INTO allowed_origins (application_id, origin, created_at) VALUES (?, ?, ?)').run(
          application.id,
          parsed.origin,
          isoNow(ctx.clock),
        ),
      );
      const row = stmt<[string, string], OriginRow>(ctx.db, `${select} WHERE application_id = ? AND origin = ?`).get(
        application.id,
        parsed.origin,
      )!;
      return c.json({ allowed_origin: toOrigin(row) }, 201);
    },
  );

  route(
    app,
    {
      method: 'delete',
      path: `${path}/{origin}`,
      summary: 'Remove an allowed origin (the origin URL-encoded in the path)',
      tag,
      permission: 'write',
      response: { status: 204, description: 'Removed' },
      errors: [404],
    },
    (c) => {
      const application = ownedApplication(ctx, c.get('principal').accountId, c.req.param('id')!);
      // Stored origins are lower-case; match case-insensitively so a hand-typed DELETE finds its registration.
      const origin = c.req.param('origin')!.toLowerCase();
      const { changes } = transaction(ctx.db, () =>
        stmt(ctx.db, 'DELETE FROM allowed_origins WHERE application_id = ? AND origin = ?').run(application.id, origin),
      );
      if (!changes) throw notFound('No such allowed origin; pass the origin URL-encoded, e.g. https%3A%2F%2Fexample.com.');
      return c.body(null, 204);
    },
  );
});
