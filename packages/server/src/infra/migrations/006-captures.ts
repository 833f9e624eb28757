import type { Migration } from '../db.js';

/** Capture tokens (consent captured in the organisation's own form), form platform connections and their submissions. */
export const captures: Migration = {
  id: 6,
  name: 'captures',
  sql: `
    -- One capture: what the page attested, evaluated against the flow version it was captured under. The capture
    -- token (dts_...) bears the commit, so only its SHA-256 is kept. No subject is stored: the commit names the
    -- person. An uncommitted capture expires after 24 hours and leaves no record; the sweep then wipes its snapshot,
    -- page and form and keeps the row a while, so a late commit is told "expired" rather than "unknown".
    CREATE TABLE captures (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      token_hash TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      flow_id TEXT NOT NULL REFERENCES flows(id),
      flow_version INTEGER NOT NULL,
      -- embedded_field (a valid render proof) or form_capture; a browser commit stores the _browser variant
      channel TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'committed', 'expired')),
      decisions TEXT NOT NULL,
      outcomes TEXT NOT NULL,
      locale TEXT,
      form_id TEXT,
      page_url TEXT,
      origin TEXT,
      notice_hash TEXT,
      notice_hashes TEXT,
      wording_verdict TEXT,
      -- Which submitted digests matched the published wording: {notice_hash, notice_hashes: {key: verdict}}
      wording TEXT,
      snapshot TEXT,
      -- For embedded_field: {render_proof_id, notice_hash, issued_at, expires_at, origin, kid}
      rendering_evidence TEXT,
      record_id TEXT,
      captured_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      committed_at TEXT
    );
    CREATE INDEX captures_pending ON captures(status, expires_at);

    -- A hosted form platform (Typeform-compatible) posting signed submissions for one flow. Signing secrets must
    -- be usable to compute HMACs, so they are sealed (AES-256-GCM), not hashed.
    CREATE TABLE form_connections (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      flow_id TEXT NOT NULL REFERENCES flows(id),
      platform TEXT NOT NULL,
      name TEXT NOT NULL,
      form_id TEXT,
      fields TEXT NOT NULL,
      subject TEXT NOT NULL,
      purposes TEXT NOT NULL,
      secret_enc TEXT NOT NULL,
      previous_secret_enc TEXT,
      previous_secret_expires_at TEXT,
      secret_rotated_at TEXT,
      last_submission_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      deleted_at TEXT
    );
    CREATE INDEX form_connections_application ON form_connections(application_id, seq);

    -- Accepted submissions by their platform token: a replay finds its record here and writes nothing.
    CREATE TABLE form_submissions (
      connection_id TEXT NOT NULL REFERENCES form_connections(id),
      response_token TEXT NOT NULL,
      record_id TEXT NOT NULL,
      received_at TEXT NOT NULL,
      PRIMARY KEY (connection_id, response_token)
    );
  `,
};
