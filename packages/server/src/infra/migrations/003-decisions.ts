import type { Migration } from '../db.js';

/** Decisions (consent and approval sessions), their transitions, and consent tokens. */
export const decisions: Migration = {
  id: 3,
  name: 'decisions',
  sql: `
    -- The session token is kept as it is: it appears in hosted page URLs and grants participation in one
    -- decision, never API access. Exchange and consent tokens are bearer secrets and are stored only hashed.
    CREATE TABLE decisions (
      id TEXT PRIMARY KEY,
      session_token TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      kind TEXT NOT NULL CHECK (kind IN ('consent', 'approval')),
      subject_ref TEXT NOT NULL,
      flow_id TEXT,
      flow_version INTEGER,
      -- The flow version's terms frozen at creation: the version that governs this decision.
      terms TEXT,
      delivery_mode TEXT NOT NULL CHECK (delivery_mode IN ('embed', 'popup', 'redirect')),
      embed_origin TEXT,
      redirect_uri TEXT,
      scope TEXT,
      state TEXT,
      meeting_id TEXT,
      status TEXT NOT NULL,
      step_index INTEGER NOT NULL DEFAULT 0,
      outcome TEXT,
      subject_email TEXT,
      verify_code_hash TEXT,
      verify_attempts INTEGER NOT NULL DEFAULT 0,
      evidence TEXT,
      purposes TEXT,
      counter_proposal TEXT,
      cancelled_by TEXT,
      consent_transaction_id TEXT UNIQUE,
      exchange_token_hash TEXT UNIQUE,
      exchange_expires_at TEXT,
      exchanged_at TEXT,
      -- The consent token sealed (AES-256-GCM) under a key derived from the exchange token, so the database
      -- alone never yields a usable token; wiped at exchange.
      sealed_consent_token TEXT,
      drop_reports INTEGER NOT NULL DEFAULT 0,
      deadline_at TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      completed_at TEXT
    );
    CREATE INDEX decisions_account ON decisions(account_id, created_at);
    CREATE TABLE decision_transitions (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      decision_id TEXT NOT NULL REFERENCES decisions(id) ON DELETE CASCADE,
      action TEXT NOT NULL,
      from_status TEXT NOT NULL,
      to_status TEXT NOT NULL,
      step_index INTEGER NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX decision_transitions_decision ON decision_transitions(decision_id, seq);
    CREATE TABLE consent_tokens (
      token_hash TEXT PRIMARY KEY,
      decision_id TEXT NOT NULL REFERENCES decisions(id) ON DELETE CASCADE,
      account_id TEXT NOT NULL,
      application_id TEXT NOT NULL,
      flow_id TEXT NOT NULL,
      flow_version INTEGER NOT NULL,
      consent_transaction_id TEXT NOT NULL,
      issued_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      verified_at TEXT
    );
    CREATE INDEX consent_tokens_decision ON consent_tokens(decision_id);
  `,
};
