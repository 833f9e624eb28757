// What the people's API tests share: another organisation to test what a person's token may not reach.
import type { TestServer } from '../testing.js';
import { hashSecret, newId, newSecret } from '../infra/ids.js';

/**
 * Another organisation of `server` (its account, a development application and an admin API token), written straight
 * into storage: the API has no signup.
 */
export function otherOrganisation(
  server: TestServer,
  name = 'Other organisation',
  applicationName = 'Other shop',
): { token: string; applicationId: string; accountId: string } {
  const db = server.context.db;
  const now = new Date().toISOString();
  const accountId = newId('acct_');
  const applicationId = newId('tp_dev_');
  const token = newSecret();
  db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(accountId, name, now);
  db.prepare(
    `INSERT INTO applications (id, account_id, name, environment, created_at, updated_at) VALUES (?, ?, ?, 'development', ?, ?)`,
  ).run(applicationId, accountId, applicationName, now, now);
  db.prepare(
    `INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at) VALUES (?, ?, 'other', '["read","write","admin"]', ?, ?)`,
  ).run(newId('api_token_'), accountId, hashSecret(token), now);
  return { token, applicationId, accountId };
}
