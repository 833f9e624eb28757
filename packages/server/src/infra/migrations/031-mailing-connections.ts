import type { Migration } from '../db.js';

/**
 * Mailing-audience connections (consent/mailing): a Mailchimp audience or a Brevo list bound to one purpose of a
 * flow. The provider's API key is sealed at rest (bound to the connection id); the inbound webhook's secret is kept
 * as its SHA-256 only. `mailing_outbox` holds the permission writes owed to the provider (the member's email sealed
 * until sent), retried on the outboxes' schedule; `mailing_writes` remembers the last state the service itself wrote
 * for each member (by a hash of the email), so the provider's echo of it is never applied back; `expired_through` is
 * how far the sweep that writes off consents ending at the end of their term has read. Cell tables, with no
 * foreign key to control tables.
 */
export const mailingConnections: Migration = {
  id: 31,
  name: 'mailing-connections',
  sql: `
    CREATE TABLE mailing_connections (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL,
      application_id TEXT NOT NULL,
      provider TEXT NOT NULL CHECK (provider IN ('mailchimp', 'brevo')),
      api_key_enc TEXT NOT NULL,
      api_base_url TEXT,
      list_id TEXT NOT NULL,
      flow_id TEXT NOT NULL,
      purpose TEXT NOT NULL,
      marketing_permission_id TEXT,
      webhook_secret_hash TEXT NOT NULL,
      provider_webhook_id TEXT,
      status TEXT NOT NULL CHECK (status IN ('active', 'disconnected')),
      created_at TEXT NOT NULL,
      disconnected_at TEXT,
      expired_through TEXT
    );
    CREATE INDEX mailing_connections_account ON mailing_connections(account_id, seq);
    CREATE INDEX mailing_connections_flow ON mailing_connections(flow_id, purpose) WHERE status = 'active';
    CREATE INDEX consent_records_flow_expiry ON consent_records(flow_id, expires_at) WHERE expires_at IS NOT NULL;
    CREATE TABLE mailing_outbox (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      connection_id TEXT NOT NULL,
      email_enc TEXT,
      member_hash TEXT NOT NULL,
      enabled INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
      attempt_count INTEGER NOT NULL DEFAULT 0,
      next_attempt_ms INTEGER,
      in_flight INTEGER NOT NULL DEFAULT 0,
      last_error TEXT,
      created_at TEXT NOT NULL,
      completed_at TEXT
    );
    CREATE INDEX mailing_outbox_due ON mailing_outbox(next_attempt_ms) WHERE status = 'pending';
    CREATE INDEX mailing_outbox_member ON mailing_outbox(member_hash, seq) WHERE status = 'pending';
    CREATE TABLE mailing_writes (
      connection_id TEXT NOT NULL,
      member_hash TEXT NOT NULL,
      enabled INTEGER NOT NULL,
      written_at TEXT NOT NULL,
      PRIMARY KEY (connection_id, member_hash)
    );
  `,
};
