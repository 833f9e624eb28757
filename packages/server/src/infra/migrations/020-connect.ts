import type { Migration } from '../db.js';

/**
 * Connect. Accounts gain an owner, a `personal` flag and `updated_at`; `account_users` lists the persons added to an
 * account as its users (control plane: only the person's id, never their email, which stays in their home cell).
 *
 * Personal, homed in the person's cell: `connections` between a person and an application (at most one not
 * disconnected per pair) with their `connection_suspensions`; `device_links`, each a short code (stored as a salted
 * SHA-256, compared in constant time) a person's second device claims within ten minutes, and the
 * `trust_pairings` claims make.
 */
export const connect: Migration = {
  id: 20,
  name: 'connect',
  sql: `
    ALTER TABLE accounts ADD COLUMN owner_id TEXT;
    ALTER TABLE accounts ADD COLUMN personal INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE accounts ADD COLUMN updated_at TEXT;

    CREATE TABLE account_users (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      user_id TEXT NOT NULL,
      created_at TEXT NOT NULL,
      UNIQUE (account_id, user_id)
    );

    CREATE TABLE connections (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      person_id TEXT NOT NULL REFERENCES persons(id),
      status TEXT NOT NULL CHECK (status IN ('active', 'suspended', 'disconnected')),
      -- How it began: the person connected, or their first consent to the application did.
      source TEXT NOT NULL CHECK (source IN ('person', 'consent')),
      connected_at TEXT NOT NULL,
      last_active_at TEXT,
      disconnected_at TEXT,
      disconnected_by TEXT CHECK (disconnected_by IS NULL OR disconnected_by IN ('person', 'organisation')),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX connections_open ON connections (person_id, application_id) WHERE status <> 'disconnected';
    CREATE INDEX connections_account ON connections (account_id, seq);
    CREATE INDEX connections_person ON connections (person_id, seq);

    CREATE TABLE connection_suspensions (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      connection_id TEXT NOT NULL REFERENCES connections(id),
      reason TEXT NOT NULL,
      suspended_by TEXT NOT NULL CHECK (suspended_by IN ('person', 'organisation')),
      suspended_at TEXT NOT NULL,
      resumed_by TEXT CHECK (resumed_by IS NULL OR resumed_by IN ('person', 'organisation')),
      resumed_at TEXT
    );
    CREATE INDEX connection_suspensions_connection ON connection_suspensions (connection_id, seq);

    CREATE TABLE device_links (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      person_id TEXT NOT NULL REFERENCES persons(id),
      -- SHA-256 of "<id>:<code>", hex: the code itself is never stored.
      code_hash TEXT NOT NULL,
      device_name TEXT,
      client_id TEXT NOT NULL,
      -- SHA-256 of the access token that made the link: the claim must come from another sign-in.
      token_hash TEXT NOT NULL,
      -- expired is read-time (expires_at passed while pending).
      status TEXT NOT NULL CHECK (status IN ('pending', 'claimed', 'locked', 'cancelled')),
      attempts INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      claimed_at TEXT,
      cancelled_at TEXT,
      trust_pairing_id TEXT
    );
    CREATE INDEX device_links_person ON device_links (person_id, seq);

    CREATE TABLE trust_pairings (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      person_id TEXT NOT NULL REFERENCES persons(id),
      device_link_id TEXT NOT NULL UNIQUE REFERENCES device_links(id),
      initiator_device_name TEXT,
      initiator_client_id TEXT NOT NULL,
      claimant_device_name TEXT,
      claimant_client_id TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('active', 'revoked')),
      created_at TEXT NOT NULL,
      revoked_at TEXT
    );
    CREATE INDEX trust_pairings_account ON trust_pairings (account_id, seq);
    CREATE INDEX trust_pairings_person ON trust_pairings (person_id, seq);
  `,
};
