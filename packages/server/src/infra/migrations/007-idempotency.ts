import type { Migration } from '../db.js';

/** Responses remembered per `Idempotency-Key`, so a retried write is performed once. */
export const idempotency: Migration = {
  id: 7,
  name: 'idempotency',
  sql: `
    CREATE TABLE idempotency_keys (
      account_id TEXT NOT NULL,
      key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      -- NULL while the first request is still being handled.
      status INTEGER,
      -- The response body, sealed: it may hold a secret shown once (a new API token or signing secret).
      body TEXT,
      created_at TEXT NOT NULL,
      PRIMARY KEY (account_id, key)
    );
    CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
  `,
};
