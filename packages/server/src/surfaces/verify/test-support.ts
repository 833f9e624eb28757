// What the Verify and Agree tests share: another account with its own API token (written straight into the cell's
// database, as the agent tests do), and the pages of a list walked with a small limit.
import assert from 'node:assert/strict';
import { hashSecret, newSecret, randomBase62 } from '../../infra/ids.js';
import type { TestServer } from '../../testing.js';
import { call, type Json } from '../../authority/delegations/test-support.js';

/** A second account with an application and an API token holding read and write; answers the token. */
export function otherAccountToken(server: TestServer): string {
  const db = server.context.db;
  const now = new Date().toISOString();
  const suffix = randomBase62(8);
  db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)').run(`acct_other_${suffix}`, 'Other', now);
  db.prepare(
    `INSERT INTO applications (id, account_id, name, environment, created_at, updated_at) VALUES (?, ?, 'Theirs', 'development', ?, ?)`,
  ).run(`tp_dev_other${suffix}`, `acct_other_${suffix}`, now, now);
  const token = newSecret();
  db.prepare(
    `INSERT INTO api_tokens (id, account_id, name, permissions, token_hash, created_at) VALUES (?, ?, 'Theirs', '["read","write"]', ?, ?)`,
  ).run(`api_token_other_${suffix}`, `acct_other_${suffix}`, hashSecret(token), now);
  return token;
}

/** An API token of the sandbox account holding only `permissions`. */
export async function tokenWith(server: TestServer, permissions: string[]): Promise<string> {
  const res = await call(server, '/api/v1/api_tokens', { json: { api_token: { name: `only ${permissions.join(' ')}`, permissions } } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.api_token.token as string;
}

/** Every item of a list, walked `limit` at a time through `next_cursor`; also answers how many pages it took. */
export async function walk(
  server: TestServer,
  path: string,
  key: string,
  limit: number,
  token?: string,
): Promise<{ items: Json[]; pages: number }> {
  const items: Json[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await call(
      server,
      `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      token ? { token } : {},
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body[key].length <= limit);
    items.push(...(res.body[key] as Json[]));
    cursor = res.body.next_cursor as string | null;
    pages += 1;
  } while (cursor);
  return { items, pages };
}
