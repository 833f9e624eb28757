import type { Migration } from '../db.js';

/** Persons, consent records and their withdrawals, imports, receipt emails, and the hash-chained audit trail. */
export const records: Migration = {
  id: 4,
  name: 'records',
  sql: `
    -- A person is an email within an account; the organisation's own ids (external_id) stay on the records.
    CREATE TABLE persons (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      email TEXT NOT NULL,
      created_at TEXT NOT NULL,
      UNIQUE (account_id, email)
    );
    CREATE TABLE consent_records (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      flow_id TEXT NOT NULL REFERENCES flows(id),
      flow_version INTEGER NOT NULL,
      person_id TEXT NOT NULL REFERENCES persons(id),
      external_id TEXT,
      channel TEXT NOT NULL,
      captured_at TEXT NOT NULL,
      recorded_at TEXT NOT NULL,
      expires_at TEXT,
      locale TEXT NOT NULL,
      notice_hash TEXT,
      wording_verdict TEXT,
      -- Outcomes at issue, [{key, outcome, basis}]; withdrawals live in consent_withdrawals and never rewrite them.
      purposes TEXT NOT NULL,
      idempotency_key TEXT,
      request_fingerprint TEXT,
      import_id TEXT,
      supersedes_record_id TEXT,
      suppress_receipt INTEGER NOT NULL DEFAULT 0,
      client_facts TEXT,
      -- The canonical receipt frozen at issue (svc-cr/2.13); events after issue are appended when it is read.
      receipt TEXT NOT NULL,
      UNIQUE (application_id, idempotency_key)
    );
    CREATE INDEX consent_records_person_flow ON consent_records(person_id, flow_id, captured_at);
    CREATE INDEX consent_records_application_external ON consent_records(application_id, external_id);
    CREATE INDEX consent_records_import ON consent_records(import_id);
    CREATE TABLE consent_withdrawals (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      record_id TEXT NOT NULL REFERENCES consent_records(id),
      purpose_key TEXT NOT NULL,
      -- revoked (a consent purpose) or objected (a legitimate interest with a right to object)
      outcome TEXT NOT NULL CHECK (outcome IN ('revoked', 'objected')),
      withdrawn_at TEXT NOT NULL,
      event_channel TEXT NOT NULL,
      -- 1 when the withdrawal named some purposes (its receipt events carry purpose_id), 0 for "all"
      scoped INTEGER NOT NULL,
      superseding_record_id TEXT,
      UNIQUE (record_id, purpose_key)
    );
    CREATE TABLE consent_imports (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      flow_id TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
      send_receipts INTEGER NOT NULL DEFAULT 0,
      row_count INTEGER NOT NULL,
      accepted_count INTEGER NOT NULL DEFAULT 0,
      refused_count INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT,
      error TEXT,
      allowance TEXT NOT NULL,
      results TEXT NOT NULL DEFAULT '[]'
    );
    -- Receipt emails waiting for a mail transport (the reference server has none; they stay queued).
    CREATE TABLE receipt_emails (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      record_id TEXT NOT NULL UNIQUE REFERENCES consent_records(id),
      person_id TEXT NOT NULL REFERENCES persons(id),
      status TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    -- The audit trail: one hash chain per application; each row's hash covers the previous row's hash.
    CREATE TABLE audit_events (
      application_id TEXT NOT NULL REFERENCES applications(id),
      sequence INTEGER NOT NULL,
      id TEXT NOT NULL UNIQUE,
      type TEXT NOT NULL,
      occurred_at TEXT NOT NULL,
      data TEXT NOT NULL,
      previous_hash TEXT NOT NULL,
      hash TEXT NOT NULL,
      anchor_id TEXT,
      PRIMARY KEY (application_id, sequence)
    );
    CREATE TABLE audit_anchors (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      application_id TEXT NOT NULL REFERENCES applications(id),
      type TEXT NOT NULL,
      format_version TEXT NOT NULL,
      merkle_root TEXT NOT NULL,
      signature TEXT NOT NULL,
      key_version TEXT NOT NULL,
      issuer_id TEXT,
      issuer_key_fingerprint TEXT,
      previous_anchor_id TEXT,
      record_count INTEGER NOT NULL,
      sequence_from INTEGER,
      sequence_to INTEGER,
      created_at TEXT NOT NULL
    );
    CREATE INDEX audit_anchors_application ON audit_anchors(application_id, seq);
    CREATE TABLE audit_anchor_receipts (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      anchor_id TEXT NOT NULL REFERENCES audit_anchors(id),
      status TEXT NOT NULL,
      receipt_id TEXT,
      witness_id TEXT,
      witness_key_version TEXT,
      witness_signature TEXT,
      witnessed_at TEXT,
      created_at TEXT NOT NULL
    );
  `,
};
