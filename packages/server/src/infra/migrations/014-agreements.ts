import type { Migration } from '../db.js';

/**
 * Agreements: a document (its text and SHA-256), parties by email with their home country, a quorum, each party's
 * signing session (a decision of kind signature_request) and outcome, and the signatures (compact JWS) that make the
 * agreement's receipt.
 */
export const agreements: Migration = {
  id: 14,
  name: 'agreements',
  sql: `
    CREATE TABLE agreements (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      title TEXT NOT NULL,
      document_text TEXT NOT NULL,
      document_sha256 TEXT NOT NULL,
      quorum INTEGER NOT NULL CHECK (quorum >= 1),
      status TEXT NOT NULL CHECK (status IN ('pending', 'partially_signed', 'active')),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      activated_at TEXT
    );
    CREATE INDEX agreements_account ON agreements (account_id, seq);

    CREATE TABLE agreement_parties (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      agreement_id TEXT NOT NULL REFERENCES agreements(id),
      email TEXT NOT NULL,
      name TEXT,
      home_country TEXT NOT NULL,
      decision_id TEXT REFERENCES decisions(id),
      status TEXT NOT NULL CHECK (status IN ('pending', 'signed', 'declined', 'countered', 'expired')),
      vote TEXT CHECK (vote IN ('approve', 'deny')),
      comment TEXT,
      decided_at TEXT,
      -- The signature: a compact JWS over the document hash, the party and the time.
      signature_jws TEXT,
      UNIQUE (agreement_id, email)
    );
    CREATE INDEX agreement_parties_agreement ON agreement_parties (agreement_id, seq);
    CREATE INDEX agreement_parties_email ON agreement_parties (email);
  `,
};
