import type { Migration } from '../db.js';

/**
 * Retrying witnesses (consent/audit): a `failed` anchor receipt is asked again with backoff. `attempts` counts the
 * witness's tries, `next_attempt_at` is when the next is due (NULL: none), `last_error` why the last one failed.
 * Internal columns, never on the wire.
 */
export const anchorReceiptRetries: Migration = {
  id: 33,
  name: 'anchor-receipt-retries',
  sql: `
    ALTER TABLE audit_anchor_receipts ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE audit_anchor_receipts ADD COLUMN next_attempt_at TEXT;
    ALTER TABLE audit_anchor_receipts ADD COLUMN last_error TEXT;
    CREATE INDEX audit_anchor_receipts_due ON audit_anchor_receipts(next_attempt_at) WHERE status = 'failed';
    CREATE INDEX audit_anchor_receipts_anchor ON audit_anchor_receipts(anchor_id, seq);
  `,
};
