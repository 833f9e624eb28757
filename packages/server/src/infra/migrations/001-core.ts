import type { Migration } from '../db.js';

/** Accounts, applications, credentials, allowed origins and activity events. */
export const core: Migration = {
  id: 1,
  name: 'core',
  sql: `
    CREATE TABLE accounts (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE TABLE applications (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      name TEXT NOT NULL,
      environment TEXT NOT NULL CHECK (environment IN ('development', 'production')),
      application_type TEXT NOT NULL DEFAULT 'web',
      visibility TEXT NOT NULL DEFAULT 'private',
      active INTEGER NOT NULL DEFAULT 1,
      browser_commit_enabled INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX applications_account ON applications(account_id);
    -- Publishable keys are public by design (they sit in page source), so they are stored as they are.
    CREATE TABLE publishable_keys (
      key TEXT PRIMARY KEY,
      application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
      created_at TEXT NOT NULL,
      revoked_at TEXT
    );
    CREATE TABLE allowed_origins (
      application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
      origin TEXT NOT NULL,
      created_at TEXT NOT NULL,
      last_seen_at TEXT,
      PRIMARY KEY (application_id, origin)
    );
    -- API tokens are stored only as SHA-256 hashes; the raw value is shown once, on create and rotate.
    CREATE TABLE api_tokens (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      name TEXT NOT NULL,
      permissions TEXT NOT NULL,
      token_hash TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL,
      expires_at TEXT,
      last_used_at TEXT,
      revoked_at TEXT
    );
    CREATE TABLE activity_events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX activity_events_application ON activity_events(application_id, seq);
    CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    );
  `,
};
