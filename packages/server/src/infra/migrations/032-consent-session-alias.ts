import type { Migration } from '../db.js';

/**
 * Consent tokens for committed captures, and the deprecated consent-session shape.
 *
 * `consent_tokens` is rebuilt so a token can belong to a committed capture (ConsentAuthorized) as well as to a hosted
 * decision: `decision_id` becomes nullable and `record_id` names the capture's consent record (withdrawal stops its
 * use); a capture has no consent transaction, so `consent_transaction_id` becomes nullable too. Every token keeps
 * exactly one owner.
 *
 * `consent_session_aliases` remembers the decisions created through `POST /api/v1/consent_sessions` with the spec's
 * Consent session request: the `delivery_mode` as sent (`iframe`, `popup`, `redirect`) and its `metadata`, so the
 * alias answers them in the same shape on every read.
 */
export const consentSessionAlias: Migration = {
  id: 32,
  name: 'consent-session-alias',
  sql: `
    CREATE TABLE consent_tokens_next (
      token_hash TEXT PRIMARY KEY,
      decision_id TEXT REFERENCES decisions(id) ON DELETE CASCADE,
      record_id TEXT,
      account_id TEXT NOT NULL,
      application_id TEXT NOT NULL,
      flow_id TEXT NOT NULL,
      flow_version INTEGER NOT NULL,
      consent_transaction_id TEXT,
      issued_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      verified_at TEXT,
      CHECK ((decision_id IS NULL) <> (record_id IS NULL))
    );
    INSERT INTO consent_tokens_next (token_hash, decision_id, account_id, application_id, flow_id, flow_version,
      consent_transaction_id, issued_at, expires_at, verified_at)
      SELECT token_hash, decision_id, account_id, application_id, flow_id, flow_version, consent_transaction_id,
        issued_at, expires_at, verified_at FROM consent_tokens;
    DROP TABLE consent_tokens;
    ALTER TABLE consent_tokens_next RENAME TO consent_tokens;
    CREATE INDEX consent_tokens_decision ON consent_tokens(decision_id);
    CREATE INDEX consent_tokens_record ON consent_tokens(record_id);
    CREATE TABLE consent_session_aliases (
      decision_id TEXT PRIMARY KEY REFERENCES decisions(id) ON DELETE CASCADE,
      delivery_mode TEXT NOT NULL CHECK (delivery_mode IN ('iframe', 'popup', 'redirect')),
      metadata TEXT
    );
  `,
};
