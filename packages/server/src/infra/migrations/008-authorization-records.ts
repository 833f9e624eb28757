import type { Migration } from '../db.js';

/**
 * Authorization records: the proof an approval decision leaves (approved, denied or countered). Kept apart from
 * consent_records, whose every reader (record reads, withdrawals, consent status, imports) is about consent.
 */
export const authorizationRecords: Migration = {
  id: 8,
  name: 'authorization_records',
  sql: `
    CREATE TABLE authorization_records (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      -- One record per decision; the decision finds its record through this key.
      decision_id TEXT NOT NULL UNIQUE REFERENCES decisions(id),
      outcome TEXT NOT NULL CHECK (outcome IN ('approved', 'denied', 'countered')),
      recorded_at TEXT NOT NULL,
      -- The canonical receipt frozen at issue (svc-cr/2.13, record_type authorization_record).
      receipt TEXT NOT NULL
    );
    CREATE INDEX authorization_records_account ON authorization_records(account_id, seq);
  `,
};
