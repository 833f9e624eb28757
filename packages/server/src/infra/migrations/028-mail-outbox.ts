import type { Migration } from '../db.js';

/**
 * The mail outbox: every message the server sends (receipts, sign-in codes, approval requests), written in the
 * transaction of what it tells of, then delivered over SMTP by the mail worker, or kept as `sandbox` (the playground's
 * mailbox) when the server has no SMTP server. A cell table: it holds personal data (addresses, and the sealed
 * message until it is sent). `created_ms` and `next_attempt_ms` are server-clock milliseconds the worker and the
 * per-address limits compare.
 */
export const mailOutbox: Migration = {
  id: 28,
  name: 'mail-outbox',
  sql: `
    CREATE TABLE mail_outbox (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL,
      recipient TEXT NOT NULL,
      body_enc TEXT,
      status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'sandbox')),
      attempt_count INTEGER NOT NULL DEFAULT 0,
      next_attempt_ms INTEGER,
      in_flight INTEGER NOT NULL DEFAULT 0,
      last_error TEXT,
      message_id TEXT,
      created_ms INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      completed_at TEXT
    );
    CREATE INDEX mail_outbox_due ON mail_outbox(next_attempt_ms) WHERE status = 'pending';
    CREATE INDEX mail_outbox_recipient ON mail_outbox(recipient, kind, created_ms);
  `,
};
