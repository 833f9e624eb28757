import type { Migration } from '../db.js';

/**
 * Delegated authority: grants a person makes to another person or to an agent identity, the agent tokens exchanged
 * for them (stored hashed), every action an agent proposed with its verdict, and the escalations a principal
 * decides. Authorization records are rebuilt so that one can come from a grant's activation (no decision).
 */
export const delegations: Migration = {
  id: 11,
  name: 'delegations',
  sql: `
    CREATE TABLE delegation_grants (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      principal_id TEXT NOT NULL REFERENCES persons(id),
      delegate_type TEXT NOT NULL CHECK (delegate_type IN ('person', 'agent')),
      delegate_id TEXT NOT NULL,
      delegation_type TEXT NOT NULL,
      delegated_scopes TEXT NOT NULL,
      allow_sub_delegation INTEGER NOT NULL,
      max_actions_per_day INTEGER,
      expires_at TEXT,
      bounds TEXT NOT NULL,
      parent_grant_id TEXT REFERENCES delegation_grants(id),
      chain_root_id TEXT NOT NULL,
      authorization_record_id TEXT NOT NULL,
      -- expired is read-time (expires_at passed); the stored status only moves by the principal's hand.
      status TEXT NOT NULL CHECK (status IN ('active', 'suspended', 'revoked')),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      suspended_at TEXT,
      revoked_at TEXT
    );
    CREATE INDEX delegation_grants_account ON delegation_grants (account_id, seq);
    CREATE INDEX delegation_grants_principal ON delegation_grants (principal_id, seq);
    CREATE INDEX delegation_grants_delegate ON delegation_grants (delegate_id, seq);
    CREATE INDEX delegation_grants_parent ON delegation_grants (parent_grant_id);

    -- A grant's lifecycle after activation (suspended, resumed, revoked): the receipt appends them at read time.
    CREATE TABLE delegation_grant_events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      grant_id TEXT NOT NULL REFERENCES delegation_grants(id),
      state TEXT NOT NULL CHECK (state IN ('suspended', 'resumed', 'revoked')),
      entity_id TEXT NOT NULL,
      at TEXT NOT NULL
    );
    CREATE INDEX delegation_grant_events_grant ON delegation_grant_events (grant_id, seq);

    CREATE TABLE agent_tokens (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      token_hash TEXT NOT NULL UNIQUE,
      grant_id TEXT NOT NULL REFERENCES delegation_grants(id),
      agent_id TEXT NOT NULL REFERENCES agent_identities(id),
      client_id TEXT NOT NULL,
      scopes TEXT NOT NULL,
      issued_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    );
    CREATE INDEX agent_tokens_grant ON agent_tokens (grant_id);

    -- Every action an agent proposed and its verdict: the daily allowance, the trust score and the receipt's
    -- aggregated authority exercised rows read it.
    CREATE TABLE authority_actions (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      grant_id TEXT NOT NULL REFERENCES delegation_grants(id),
      agent_id TEXT NOT NULL,
      day TEXT NOT NULL,
      outcome TEXT NOT NULL CHECK (outcome IN ('allowed', 'denied', 'escalated')),
      bound TEXT,
      scope TEXT NOT NULL,
      action TEXT NOT NULL,
      value REAL,
      currency TEXT,
      jurisdiction TEXT,
      escalation_id TEXT,
      at TEXT NOT NULL
    );
    CREATE INDEX authority_actions_grant_day ON authority_actions (grant_id, day, outcome);
    CREATE INDEX authority_actions_agent ON authority_actions (agent_id, outcome);

    CREATE TABLE escalations (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      grant_id TEXT NOT NULL REFERENCES delegation_grants(id),
      agent_id TEXT NOT NULL,
      principal_id TEXT NOT NULL,
      trigger TEXT NOT NULL,
      reason TEXT NOT NULL,
      action TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'countered')),
      decision_id TEXT,
      counter_proposal TEXT,
      authorization_record_id TEXT,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      decided_at TEXT,
      used_at TEXT
    );
    CREATE INDEX escalations_account ON escalations (account_id, seq);
    CREATE INDEX escalations_grant ON escalations (grant_id, seq);
    CREATE INDEX escalations_principal ON escalations (principal_id, seq);

    CREATE TABLE authorization_records_v2 (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      -- An approval's record: one per decision. A grant's activation: one per grant.
      decision_id TEXT UNIQUE REFERENCES decisions(id),
      grant_id TEXT UNIQUE REFERENCES delegation_grants(id),
      outcome TEXT NOT NULL CHECK (outcome IN ('approved', 'denied', 'countered', 'granted')),
      recorded_at TEXT NOT NULL,
      receipt TEXT NOT NULL,
      CHECK ((decision_id IS NULL) <> (grant_id IS NULL))
    );
    INSERT INTO authorization_records_v2 (seq, id, account_id, application_id, decision_id, outcome, recorded_at, receipt)
      SELECT seq, id, account_id, application_id, decision_id, outcome, recorded_at, receipt FROM authorization_records;
    DROP TABLE authorization_records;
    ALTER TABLE authorization_records_v2 RENAME TO authorization_records;
    CREATE INDEX authorization_records_account ON authorization_records(account_id, seq);
  `,
};
