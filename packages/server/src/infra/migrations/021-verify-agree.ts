import type { Migration } from '../db.js';

/**
 * Verify and Agree: vouches (a person vouching for another person or for an agent identity of the account; one
 * active vouch per pair), the verified sign-ins a person's trust score counts, and collaborations with their
 * memberships. All of it is personal data, homed in the cell that holds the persons it names; nothing here is
 * control-plane configuration. `member_count` and `signed_count` are recounted from the membership rows in the
 * transaction of every change.
 */
export const verifyAgree: Migration = {
  id: 21,
  name: 'verify-agree',
  sql: `
    CREATE TABLE vouches (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      voucher_id TEXT NOT NULL REFERENCES persons(id),
      vouchee_id TEXT NOT NULL,
      vouchee_type TEXT NOT NULL CHECK (vouchee_type IN ('person', 'agent')),
      statement TEXT,
      status TEXT NOT NULL CHECK (status IN ('active', 'revoked')),
      created_at TEXT NOT NULL,
      revoked_at TEXT
    );
    -- One active vouch per voucher and vouchee; a revoked one may be followed by a new one.
    CREATE UNIQUE INDEX vouches_one_active ON vouches (voucher_id, vouchee_id) WHERE status = 'active';
    CREATE INDEX vouches_account ON vouches (account_id, seq);
    CREATE INDEX vouches_voucher ON vouches (voucher_id, seq);
    CREATE INDEX vouches_vouchee ON vouches (vouchee_id, status);

    -- A sign-in confirmed with the code sent to the person's email (the OAuth provider's hosted pages).
    CREATE TABLE person_sign_ins (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      person_id TEXT NOT NULL REFERENCES persons(id),
      method TEXT NOT NULL,
      signed_in_at TEXT NOT NULL
    );
    CREATE INDEX person_sign_ins_person ON person_sign_ins (person_id);

    CREATE TABLE collaborations (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      initiator_id TEXT REFERENCES persons(id),
      status TEXT NOT NULL CHECK (status IN ('pending', 'active', 'dissolved')),
      terms TEXT NOT NULL,
      member_count INTEGER NOT NULL DEFAULT 0,
      signed_count INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      activated_at TEXT,
      dissolved_at TEXT
    );
    CREATE INDEX collaborations_account ON collaborations (account_id, seq);

    CREATE TABLE collaboration_memberships (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      collaboration_id TEXT NOT NULL REFERENCES collaborations(id),
      user_id TEXT REFERENCES persons(id),
      role TEXT NOT NULL CHECK (role IN ('initiator', 'member', 'observer')),
      status TEXT NOT NULL CHECK (status IN ('pending', 'signed', 'revoked')),
      shared_data_categories TEXT NOT NULL,
      created_at TEXT NOT NULL,
      signed_at TEXT,
      revoked_at TEXT
    );
    -- A person holds at most one current (not revoked) membership of a collaboration.
    CREATE UNIQUE INDEX collaboration_memberships_current ON collaboration_memberships (collaboration_id, user_id) WHERE status <> 'revoked';
    CREATE INDEX collaboration_memberships_collaboration ON collaboration_memberships (collaboration_id, seq);
    CREATE INDEX collaboration_memberships_user ON collaboration_memberships (user_id);
  `,
};
