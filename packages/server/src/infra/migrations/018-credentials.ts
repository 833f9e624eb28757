import type { Migration } from '../db.js';

/**
 * Credentials: verifiable credentials (SD-JWT VC) issued from fulfilled consent decisions, each with its index in one
 * of the cell's token status lists (IETF OAuth Status List: one bit per credential, set when it is revoked).
 * `credential` keeps the issued SD-JWT (every disclosure) so the organisation can read it again; `status_lists`
 * counts each list's allocated indices (indices are drawn at random within a list, so neighbours say nothing).
 */
export const credentials: Migration = {
  id: 18,
  name: 'credentials',
  sql: `
    CREATE TABLE credential_status_lists (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      size INTEGER NOT NULL CHECK (size > 0),
      allocated INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );

    CREATE TABLE credentials (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      decision_id TEXT NOT NULL REFERENCES decisions(id),
      consent_transaction_id TEXT NOT NULL,
      credential_type TEXT NOT NULL,
      purposes TEXT NOT NULL,
      holder_bound INTEGER NOT NULL DEFAULT 0,
      status_list_id TEXT NOT NULL REFERENCES credential_status_lists(id),
      status_idx INTEGER NOT NULL,
      credential TEXT NOT NULL,
      issued_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      revoked_at TEXT,
      UNIQUE (status_list_id, status_idx)
    );
    CREATE INDEX credentials_account ON credentials (account_id, seq);
    CREATE INDEX credentials_transaction ON credentials (consent_transaction_id);
  `,
};
