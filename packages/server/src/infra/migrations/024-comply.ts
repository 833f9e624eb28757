import type { Migration } from '../db.js';

/**
 * Comply: an account's product modules and governance settings, the log of their changes, meeting consents (all
 * organisation configuration, no personal data: the control plane, readable in every cell), and clean rooms with
 * their queries (homed in the cell of the agreement they run under, computed over that cell's consent records).
 *
 * Decisions already carry `meeting_id` (003); it now names a meeting consent of the account, and the index below
 * finds a meeting's decisions.
 */
export const comply: Migration = {
  id: 24,
  name: 'comply',
  sql: `
    -- A row only once a module was switched: without one, a module is enabled since the account was created.
    CREATE TABLE account_modules (
      account_id TEXT NOT NULL REFERENCES accounts(id),
      key TEXT NOT NULL,
      enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
      enabled_at TEXT,
      disabled_at TEXT,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (account_id, key)
    );

    -- The settings as JSON (the schema's defaults fill what a row does not say).
    CREATE TABLE governance_settings (
      account_id TEXT PRIMARY KEY REFERENCES accounts(id),
      settings TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      updated_by TEXT
    );

    CREATE TABLE governance_changes (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      type TEXT NOT NULL,
      changes TEXT NOT NULL,
      actor_kind TEXT NOT NULL,
      actor_id TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX governance_changes_account ON governance_changes (account_id, seq);

    CREATE TABLE meeting_consents (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      title TEXT,
      description TEXT,
      platform TEXT,
      external_meeting_id TEXT,
      scheduled_at TEXT,
      starts_at TEXT NOT NULL,
      ends_at TEXT NOT NULL,
      duration_minutes INTEGER NOT NULL CHECK (duration_minutes >= 1),
      template TEXT NOT NULL,
      agent_ids TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      cancelled_at TEXT
    );
    CREATE INDEX meeting_consents_account ON meeting_consents (account_id, seq);

    CREATE TABLE clean_rooms (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      agreement_id TEXT NOT NULL REFERENCES agreements(id),
      participants TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('active', 'closed', 'expired')),
      min_cohort INTEGER NOT NULL CHECK (min_cohort >= 2),
      -- Thousandths of epsilon, so the budget adds up exactly.
      epsilon_budget_milli INTEGER NOT NULL,
      epsilon_spent_milli INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      expires_at TEXT,
      ended_at TEXT
    );
    CREATE INDEX clean_rooms_account ON clean_rooms (account_id, seq);

    CREATE TABLE clean_room_queries (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      clean_room_id TEXT NOT NULL REFERENCES clean_rooms(id),
      computation_type TEXT NOT NULL,
      query_definition TEXT NOT NULL,
      privacy_parameters TEXT,
      status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
      result TEXT,
      submitted_at TEXT NOT NULL,
      completed_at TEXT
    );
    CREATE INDEX clean_room_queries_room ON clean_room_queries (clean_room_id, seq);

    CREATE INDEX decisions_meeting ON decisions (meeting_id) WHERE meeting_id IS NOT NULL;
  `,
};
