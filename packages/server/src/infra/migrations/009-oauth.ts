import type { Migration } from '../db.js';

/**
 * The OpenID provider's storage: the OAuth clients applications register, and what oidc-provider keeps (sessions,
 * interactions, pushed requests, codes, device codes, grants, access and refresh tokens), so that all of it survives
 * a restart.
 */
export const oauth: Migration = {
  id: 9,
  name: 'oauth',
  sql: `
    CREATE TABLE oauth_clients (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      name TEXT NOT NULL,
      -- confidential clients authenticate with a secret (stored hashed); public ones with PKCE alone.
      client_type TEXT NOT NULL CHECK (client_type IN ('confidential', 'public')),
      token_endpoint_auth_method TEXT NOT NULL,
      secret_hash TEXT,
      redirect_uris TEXT NOT NULL,
      grant_types TEXT NOT NULL,
      created_at TEXT NOT NULL,
      secret_rotated_at TEXT,
      deleted_at TEXT
    );
    CREATE INDEX oauth_clients_application ON oauth_clients (application_id, seq);

    CREATE TABLE oidc_payloads (
      model TEXT NOT NULL,
      id TEXT NOT NULL,
      payload TEXT NOT NULL,
      grant_id TEXT,
      user_code TEXT,
      uid TEXT,
      -- Unix seconds; null for what never expires on its own.
      expires_at INTEGER,
      consumed_at INTEGER,
      PRIMARY KEY (model, id)
    );
    CREATE INDEX oidc_payloads_grant ON oidc_payloads (grant_id) WHERE grant_id IS NOT NULL;
    CREATE INDEX oidc_payloads_user_code ON oidc_payloads (model, user_code) WHERE user_code IS NOT NULL;
    CREATE INDEX oidc_payloads_uid ON oidc_payloads (model, uid) WHERE uid IS NOT NULL;
    -- A sign-in under way on an interaction: the email given and the hash of the code sent to it.
    CREATE TABLE oauth_sign_ins (
      uid TEXT PRIMARY KEY,
      email TEXT NOT NULL,
      code_hash TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      expires_at TEXT NOT NULL
    );
    CREATE INDEX oidc_payloads_expiry ON oidc_payloads (expires_at) WHERE expires_at IS NOT NULL;
  `,
};
