// `GET /api/v1/applications/{id}/consent_activity`: consent given, refused and withdrawn per purpose per UTC day,
// counted in SQL from the application's records (their purposes as issued) and withdrawals, so a console's chart
// never reads every record. Records are counted on the day they were captured, withdrawals on the day they were made.
import { type ConsentActivity, consentActivityEnvelope, consentActivityQuery } from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Env, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { notFound } from '../../infra/errors.js';
import { route } from '../../infra/http/route.js';
import { getApplication } from '../../platform/application-store.js';

const DAY_MS = 86_400_000;
/** Days counted when `?days=` is absent. */
export const DEFAULT_ACTIVITY_DAYS = 30;

// Stored captured_at and withdrawn_at are toISOString() (UTC, milliseconds): their first ten characters are the UTC
// date and they compare as strings. An objection at issue counts as refused; a later objection as withdrawn.
const COUNTS = `
  SELECT date, purpose, SUM(granted) AS granted, SUM(denied) AS denied, SUM(withdrawn) AS withdrawn FROM (
    SELECT substr(r.captured_at, 1, 10) AS date, p.value ->> 'key' AS purpose,
           SUM(p.value ->> 'outcome' = 'granted') AS granted,
           SUM(p.value ->> 'outcome' IN ('declined', 'objected')) AS denied,
           0 AS withdrawn
      FROM consent_records r, json_each(r.purposes) p
     WHERE r.application_id = ? AND r.captured_at >= ? AND r.captured_at < ?
     GROUP BY 1, 2
    UNION ALL
    SELECT substr(w.withdrawn_at, 1, 10), w.purpose_key, 0, 0, COUNT(*)
      FROM consent_withdrawals w JOIN consent_records r ON r.id = w.record_id
     WHERE r.application_id = ? AND w.withdrawn_at >= ? AND w.withdrawn_at < ?
     GROUP BY 1, 2
  )
  GROUP BY date, purpose
  HAVING SUM(granted) + SUM(denied) + SUM(withdrawn) > 0
  ORDER BY date, purpose`;

type CountRow = ConsentActivity['days'][number];

/** The counts of `applicationId` over the `days` UTC days ending today (by the server's clock). */
export function consentActivityOf(ctx: ServerContext, applicationId: string, days: number): ConsentActivity {
  const today = Math.floor(ctx.clock.now() / DAY_MS) * DAY_MS;
  const start = new Date(today - (days - 1) * DAY_MS).toISOString();
  const end = new Date(today + DAY_MS).toISOString();
  const rows = stmt<unknown[], CountRow>(ctx.db, COUNTS).all(applicationId, start, end, applicationId, start, end);
  return {
    application_id: applicationId,
    from: start.slice(0, 10),
    to: new Date(today).toISOString().slice(0, 10),
    days: rows.map((row) => ({
      date: row.date,
      purpose: row.purpose,
      granted: Number(row.granted),
      denied: Number(row.denied),
      withdrawn: Number(row.withdrawn),
    })),
  };
}

/** Mounts `GET /api/v1/applications/{id}/consent_activity` (API tokens with `read`; the account's applications only). */
export function consentActivityRoute(app: OpenAPIHono<Env>, ctx: ServerContext, tag: string): void {
  route(
    app,
    {
      method: 'get',
      path: '/api/v1/applications/{id}/consent_activity',
      summary:
        "Consent given, refused and withdrawn per purpose per UTC day over the last `days` days (1 to 90, default 30), counted from the application's records and withdrawals",
      tag,
      permission: 'read',
      query: consentActivityQuery,
      response: { status: 200, description: 'The counts, oldest day first', schema: consentActivityEnvelope },
      errors: [400, 404],
    },
    (c, { query }) => {
      const application = getApplication(ctx, c.get('principal').accountId, c.req.param('id')!);
      if (!application) throw notFound('No such application.');
      return c.json({ consent_activity: consentActivityOf(ctx, application.id, query.days ?? DEFAULT_ACTIVITY_DAYS) });
    },
  );
}
