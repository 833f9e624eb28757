// Applications as decisions need them: who holds a decision, and where its page may be embedded or return to.
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';

/** An application as decisions need it. */
export interface ApplicationRow {
  id: string;
  account_id: string;
  name: string;
  environment: 'development' | 'production';
}

/** The application `id`, or undefined. */
export function getApplication(ctx: ServerContext, id: string): ApplicationRow | undefined {
  return stmt<[string], ApplicationRow>(ctx.db, 'SELECT id, account_id, name, environment FROM applications WHERE id = ?').get(id);
}

/** The account's first active application, or undefined. */
export function defaultApplication(ctx: ServerContext, accountId: string): ApplicationRow | undefined {
  return stmt<[string], ApplicationRow>(
    ctx.db,
    'SELECT id, account_id, name, environment FROM applications WHERE account_id = ? AND active = 1 ORDER BY created_at, rowid LIMIT 1',
  ).get(accountId);
}

/** The allowed origins registered for an application. */
export function allowedOrigins(ctx: ServerContext, applicationId: string): string[] {
  return stmt<[string], string>(ctx.db, 'SELECT origin FROM allowed_origins WHERE application_id = ? ORDER BY origin')
    .pluck()
    .all(applicationId) as unknown as string[];
}
