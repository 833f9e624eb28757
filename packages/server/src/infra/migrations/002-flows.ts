import type { Migration } from '../db.js';

/** Flows and their versions: a version's terms never change once it has been activated. */
export const flows: Migration = {
  id: 2,
  name: 'flows',
  sql: `
    CREATE TABLE flows (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      pattern TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('draft', 'active')),
      version INTEGER NOT NULL,
      active_version INTEGER,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      activated_at TEXT
    );
    CREATE INDEX flows_account ON flows(account_id, seq);
    CREATE TABLE flow_versions (
      flow_id TEXT NOT NULL REFERENCES flows(id),
      version INTEGER NOT NULL,
      title TEXT NOT NULL,
      description TEXT,
      config TEXT NOT NULL,
      created_at TEXT NOT NULL,
      activated_at TEXT,
      superseded_at TEXT,
      PRIMARY KEY (flow_id, version)
    );
  `,
};
