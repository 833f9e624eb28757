import type { Migration } from '../db.js';

/**
 * Webhook endpoints (subscriptions), the outbox of events, one delivery per (event, endpoint) and every HTTP
 * attempt. Times the worker compares (`next_attempt_at`, the previous secret's expiry) are integer milliseconds
 * on the server clock; the rest are ISO strings like every other table.
 */
export const webhooks: Migration = {
  id: 5,
  name: 'webhooks',
  sql: `
    CREATE TABLE webhook_endpoints (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      application_id TEXT NOT NULL REFERENCES applications(id),
      url TEXT NOT NULL,
      description TEXT,
      events TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('enabled', 'disabled')),
      disabled_reason TEXT CHECK (disabled_reason IN ('consecutive_failures', 'manual')),
      disabled_at TEXT,
      consecutive_failures INTEGER NOT NULL DEFAULT 0,
      secret_enc TEXT NOT NULL,
      previous_secret_enc TEXT,
      previous_secret_expires_ms INTEGER,
      secret_rotated_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      deleted_at TEXT
    );
    CREATE INDEX webhook_endpoints_application ON webhook_endpoints(application_id, seq);

    CREATE TABLE webhook_events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      application_id TEXT NOT NULL,
      type TEXT NOT NULL,
      body_enc TEXT NOT NULL,
      occurred_at TEXT NOT NULL,
      created_at TEXT NOT NULL
    );

    CREATE TABLE webhook_deliveries (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      event_id TEXT NOT NULL REFERENCES webhook_events(id),
      endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id),
      test INTEGER NOT NULL DEFAULT 0,
      status TEXT NOT NULL CHECK (status IN ('pending', 'acknowledged', 'failed')),
      failure_reason TEXT CHECK (failure_reason IN ('rejected', 'attempts_exhausted', 'endpoint_deleted')),
      attempt_count INTEGER NOT NULL DEFAULT 0,
      next_attempt_ms INTEGER,
      in_flight INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      completed_at TEXT,
      UNIQUE (event_id, endpoint_id)
    );
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_ms) WHERE status = 'pending';
    CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, seq);

    CREATE TABLE webhook_attempts (
      delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id),
      number INTEGER NOT NULL,
      started_at TEXT NOT NULL,
      finished_at TEXT,
      outcome TEXT NOT NULL CHECK (outcome IN ('in_flight', 'acknowledged', 'rejected', 'failed', 'interrupted')),
      status_code INTEGER,
      error TEXT,
      error_message TEXT,
      duration_ms INTEGER,
      response_body TEXT,
      PRIMARY KEY (delivery_id, number)
    );
  `,
};
