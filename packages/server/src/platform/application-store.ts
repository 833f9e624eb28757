// Application storage: routes and other modules read applications through these functions.
import type { Application } from '@svc/schemas';
import { isoNow } from '../infra/clock.js';
import type { ServerContext } from '../infra/context.js';
import { stmt } from '../infra/db.js';
import { transaction } from '../infra/transaction.js';
import { newId, randomBase62 } from '../infra/ids.js';
import { decodeCursor, toPage } from '../infra/pagination.js';
import { firstCountry } from '../infra/cells/routing.js';

interface ApplicationRow {
  rowid: number;
  id: string;
  account_id: string;
  name: string;
  environment: 'development' | 'production';
  application_type: string;
  visibility: string;
  active: number;
  browser_commit_enabled: number;
  home_country: string | null;
  created_at: string;
  updated_at: string;
}

/** An application with the account that owns it (server-side view). */
export type ApplicationRecord = Omit<Application, 'publishable_keys'> & { account_id: string };

function toRecord(ctx: ServerContext, row: ApplicationRow): ApplicationRecord {
  return {
    id: row.id,
    name: row.name,
    active: row.active === 1,
    application_type: row.application_type,
    environment: row.environment,
    visibility: row.visibility,
    region: (/^tp_(dev|us|eu)_/.exec(row.id)?.[1] ?? 'dev') as Application['region'],
    browser_commit_enabled: row.browser_commit_enabled === 1,
    home_country: row.home_country ?? firstCountry(ctx),
    created_at: row.created_at,
    updated_at: row.updated_at,
    account_id: row.account_id,
  };
}

type KeyRow = { application_id: string; key: string; created_at: string };

/** The publishable keys in force of `ids`, in one read, by application. */
function keysOf(ctx: ServerContext, ids: readonly string[]): Map<string, { key: string; created_at: string }[]> {
  const rows = stmt<[string], KeyRow>(
    ctx.db,
    `SELECT application_id, key, created_at FROM publishable_keys
      WHERE application_id IN (SELECT value FROM json_each(?)) AND revoked_at IS NULL ORDER BY rowid`,
  ).all(JSON.stringify(ids));
  const byApplication = new Map(ids.map((id) => [id, [] as { key: string; created_at: string }[]]));
  for (const { application_id, ...key } of rows) byApplication.get(application_id)?.push(key);
  return byApplication;
}

const wire = ({ account_id: _a, ...application }: ApplicationRecord, keys: { key: string; created_at: string }[]): Application => ({
  ...application,
  publishable_keys: keys,
});

/** The wire shape of an application (without its owner), with its publishable keys in force. */
export function toApplication(ctx: ServerContext, record: ApplicationRecord): Application {
  return wire(record, keysOf(ctx, [record.id]).get(record.id)!);
}

/** Any application by id, whatever its account (for credential and origin checks); undefined when absent. */
export function findApplication(ctx: ServerContext, id: string): ApplicationRecord | undefined {
  const row = stmt<[string], ApplicationRow>(ctx.db, 'SELECT rowid, * FROM applications WHERE id = ?').get(id);
  return row && toRecord(ctx, row);
}

/** The account's application `id`, or undefined when it does not exist or is another account's. */
export function getApplication(ctx: ServerContext, accountId: string, id: string): ApplicationRecord | undefined {
  const app = findApplication(ctx, id);
  return app?.account_id === accountId ? app : undefined;
}

/** The account's oldest application (the default home of new flows), or undefined when it has none. */
export function defaultApplication(ctx: ServerContext, accountId: string): ApplicationRecord | undefined {
  const row = stmt<[string], ApplicationRow>(ctx.db, 'SELECT rowid, * FROM applications WHERE account_id = ? ORDER BY rowid LIMIT 1').get(
    accountId,
  );
  return row && toRecord(ctx, row);
}

/** Creates an application and its publishable key (`pk_test_` for development, `pk_live_` for production). */
export function createApplication(
  ctx: ServerContext,
  accountId: string,
  input: {
    name: string;
    environment: 'development' | 'production';
    region?: 'us' | 'eu' | undefined;
    application_type: string;
    visibility: string;
    browser_commit_enabled: boolean;
    home_country?: string | undefined;
  },
): { application: ApplicationRecord; publishable_key: string } {
  const now = isoNow(ctx.clock);
  const development = input.environment === 'development';
  const id = newId(development ? 'tp_dev_' : `tp_${input.region ?? 'us'}_`);
  const key = `${development ? 'pk_test_' : 'pk_live_'}${randomBase62(24)}`;
  transaction(ctx.db, () => {
    stmt(
      ctx.db,
      `INSERT INTO applications (id, account_id, name, environment, application_type, visibility, active, browser_commit_enabled, home_country, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
    ).run(
      id,
      accountId,
      input.name,
      input.environment,
      input.application_type,
      input.visibility,
      input.browser_commit_enabled ? 1 : 0,
      input.home_country ?? null,
      now,
      now,
    );
    stmt(ctx.db, 'INSERT INTO publishable_keys (key, application_id, created_at) VALUES (?, ?, ?)').run(key, id, now);
  });
  return { application: findApplication(ctx, id)!, publishable_key: key };
}

/** Applies a partial update to the account's application; undefined when it is not the account's. */
export function updateApplication(
  ctx: ServerContext,
  accountId: string,
  id: string,
  changes: {
    name?: string | undefined;
    active?: boolean | undefined;
    application_type?: string | undefined;
    visibility?: string | undefined;
    browser_commit_enabled?: boolean | undefined;
    home_country?: string | undefined;
  },
): ApplicationRecord | undefined {
  const current = getApplication(ctx, accountId, id);
  if (!current) return undefined;
  const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) } as ApplicationRecord;
  transaction(ctx.db, () =>
    stmt(
      ctx.db,
      `UPDATE applications SET name = ?, active = ?, application_type = ?, visibility = ?, browser_commit_enabled = ?,
      home_country = ?, updated_at = ? WHERE id = ?`,
    ).run(
      next.name,
      next.active ? 1 : 0,
      next.application_type,
      next.visibility,
      next.browser_commit_enabled ? 1 : 0,
      next.home_country,
      isoNow(ctx.clock),
      id,
    ),
  );
  return findApplication(ctx, id);
}

/** A page of the account's applications, oldest first. */
export function listApplications(
  ctx: ServerContext,
  accountId: string,
  page: { limit: number; cursor?: string | undefined },
): { applications: Application[]; next_cursor: string | null } {
  const rows = stmt<[string, number, number], ApplicationRow>(
    ctx.db,
    'SELECT rowid, * FROM applications WHERE account_id = ? AND rowid > ? ORDER BY rowid LIMIT ?',
  ).all(accountId, decodeCursor(page.cursor), page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.rowid);
  const keys = keysOf(
    ctx,
    items.map((r) => r.id),
  );
  return { applications: items.map((r) => wire(toRecord(ctx, r), keys.get(r.id)!)), next_cursor };
}
