import type { Migration } from '../db.js';

/**
 * Agent identities: software agents an account operates, each optionally linked to one of the account's OAuth
 * clients (`oauth_client_id`, the wire's `oauth_application_id`). `application_id` is where the identity's activity
 * is recorded: the linked client's application, else the account's oldest one.
 */
export const agentIdentities: Migration = {
  id: 10,
  name: 'agent-identities',
  sql: `
    CREATE TABLE agent_identities (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT REFERENCES applications(id),
      display_name TEXT NOT NULL,
      agent_type TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('active', 'suspended', 'revoked')),
      delegation_grant_id TEXT,
      oauth_client_id TEXT REFERENCES oauth_clients(id),
      metadata TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      suspended_at TEXT,
      revoked_at TEXT
    );
    CREATE INDEX agent_identities_account ON agent_identities (account_id, seq);
    CREATE INDEX agent_identities_account_status ON agent_identities (account_id, status, seq);
  `,
};
