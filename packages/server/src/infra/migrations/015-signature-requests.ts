import type { Migration } from '../db.js';

/**
 * Signing sessions as decisions: `decisions.kind` admits `signature_request`, and a decision can name the person it is
 * addressed to (`addressee_email`, what the inbox will list by) and their home country (an ISO code, until country
 * cells serve each session from its home). SQLite cannot alter a CHECK, so `decisions` is rebuilt with the same
 * columns, constraints and indexes plus the two new ones, copied, dropped and renamed; the tables that reference
 * `decisions(id)` keep referring to it by name. Agreements gain the deadline of their signing sessions.
 */
export const signatureRequests: Migration = {
  id: 15,
  name: 'signature-requests',
  rebuildsReferencedTable: true,
  sql: `
    CREATE TABLE decisions_rebuilt (
      id TEXT PRIMARY KEY,
      session_token TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      kind TEXT NOT NULL CHECK (kind IN ('consent', 'approval', 'signature_request')),
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
      completed_at TEXT,
      -- The person the decision is addressed to, when the service knows them before they sign in (a signing
      -- session's party), lower-case; null for decisions anyone holding the link may answer.
      addressee_email TEXT,
      -- The ISO country code of the addressee's home (a signing session's party).
      home_country TEXT
    );
    INSERT INTO decisions_rebuilt (id, session_token, account_id, application_id, kind, subject_ref, flow_id, flow_version, terms,
        delivery_mode, embed_origin, redirect_uri, scope, state, meeting_id, status, step_index, outcome, subject_email,
        verify_code_hash, verify_attempts, evidence, purposes, counter_proposal, cancelled_by, consent_transaction_id,
        exchange_token_hash, exchange_expires_at, exchanged_at, sealed_consent_token, drop_reports, deadline_at, created_at,
        updated_at, completed_at)
      SELECT id, session_token, account_id, application_id, kind, subject_ref, flow_id, flow_version, terms,
        delivery_mode, embed_origin, redirect_uri, scope, state, meeting_id, status, step_index, outcome, subject_email,
        verify_code_hash, verify_attempts, evidence, purposes, counter_proposal, cancelled_by, consent_transaction_id,
        exchange_token_hash, exchange_expires_at, exchanged_at, sealed_consent_token, drop_reports, deadline_at, created_at,
        updated_at, completed_at
      FROM decisions;
    DROP TABLE decisions;
    ALTER TABLE decisions_rebuilt RENAME TO decisions;
    CREATE INDEX decisions_account ON decisions(account_id, created_at);
    CREATE INDEX decisions_addressee ON decisions(addressee_email, deadline_at) WHERE addressee_email IS NOT NULL;
    CREATE INDEX decisions_kind_deadline ON decisions(kind, deadline_at);

    ALTER TABLE agreements ADD COLUMN expires_at TEXT;
  `,
};
