import type { Migration } from '../db.js';

/**
 * Protect: policies (a person's or the account's, made from a built-in template), data requests (DSAR), data
 * licenses and their counted accesses, data offers and their negotiation rounds, portability transfers. Every table
 * is personal or may hold personal data (a deal policy records who accepted it), so each lives in its home cell only:
 * none is control plane. Ids carry the cell's country (`pol_us_…`).
 */
export const protect: Migration = {
  id: 22,
  name: 'protect',
  sql: `
    CREATE TABLE policies (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      -- null for an account policy
      person_id TEXT REFERENCES persons(id),
      template_id TEXT NOT NULL,
      template_version INTEGER NOT NULL,
      title TEXT NOT NULL,
      config TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('active', 'revoked')),
      accepted_at TEXT,
      acceptance TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      revoked_at TEXT
    );
    CREATE INDEX policies_account ON policies (account_id, seq);
    CREATE INDEX policies_person ON policies (person_id, seq);

    CREATE TABLE data_requests (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      person_id TEXT NOT NULL REFERENCES persons(id),
      dsar_type TEXT NOT NULL CHECK (dsar_type IN ('access', 'erasure', 'portability', 'rectification')),
      scope TEXT,
      status TEXT NOT NULL CHECK (status IN ('received', 'in_progress', 'completed', 'rejected')),
      due_date TEXT NOT NULL,
      original_due_date TEXT NOT NULL,
      extended_at TEXT,
      extension_reason TEXT,
      received_at TEXT NOT NULL,
      started_at TEXT,
      completed_at TEXT,
      completion_note TEXT,
      rejected_at TEXT,
      rejection_reason TEXT,
      export TEXT,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX data_requests_account ON data_requests (account_id, seq);
    CREATE INDEX data_requests_person ON data_requests (person_id, seq);

    CREATE TABLE data_licenses (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      agreement_id TEXT NOT NULL REFERENCES agreements(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      max_access_count INTEGER,
      -- counted in the same transaction as the access row; never past the maximum, whatever races
      access_count INTEGER NOT NULL DEFAULT 0 CHECK (max_access_count IS NULL OR access_count <= max_access_count),
      terms TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('active', 'exhausted', 'revoked')),
      last_accessed_at TEXT,
      revoked_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX data_licenses_account ON data_licenses (account_id, seq);

    CREATE TABLE data_license_accesses (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      data_license_id TEXT NOT NULL REFERENCES data_licenses(id),
      sequence INTEGER NOT NULL,
      purpose TEXT,
      accessor TEXT,
      accessed_at TEXT NOT NULL,
      UNIQUE (data_license_id, sequence)
    );

    CREATE TABLE data_offers (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      policy_id TEXT NOT NULL REFERENCES policies(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      person_id TEXT NOT NULL REFERENCES persons(id),
      status TEXT NOT NULL CHECK (status IN ('draft', 'offered', 'countered', 'user_revised', 'accepted', 'declined', 'expired')),
      terms TEXT NOT NULL,
      counter_count INTEGER NOT NULL DEFAULT 0,
      -- asked for at creation; fixed when offered (default 7 days then)
      requested_expires_at TEXT,
      expires_at TEXT,
      offered_at TEXT,
      decided_at TEXT,
      decline_reason TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX data_offers_account ON data_offers (account_id, seq);
    CREATE INDEX data_offers_person ON data_offers (person_id, seq);
    CREATE INDEX data_offers_due ON data_offers (status, expires_at);

    CREATE TABLE data_offer_rounds (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      data_offer_id TEXT NOT NULL REFERENCES data_offers(id),
      round INTEGER NOT NULL,
      action TEXT NOT NULL,
      by_party TEXT NOT NULL,
      terms TEXT,
      message TEXT,
      at TEXT NOT NULL,
      UNIQUE (data_offer_id, round)
    );

    CREATE TABLE portability_transfers (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      policy_id TEXT NOT NULL REFERENCES policies(id),
      person_id TEXT NOT NULL REFERENCES persons(id),
      source_application_id TEXT NOT NULL REFERENCES applications(id),
      destination_application_id TEXT NOT NULL REFERENCES applications(id),
      negotiated_format TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'ready', 'confirmed', 'cancelled')),
      data_hash TEXT,
      mismatch_count INTEGER NOT NULL DEFAULT 0,
      ready_at TEXT,
      confirmed_at TEXT,
      cancelled_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX portability_transfers_account ON portability_transfers (account_id, seq);
    CREATE INDEX portability_transfers_person ON portability_transfers (person_id, seq);
  `,
};
