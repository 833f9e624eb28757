import type { Migration } from '../db.js';

/**
 * Notice records: a flow disclosed an agent to a person (a disclosure receipt). System-mediated and anonymous (the
 * request names no person), kept apart from consent records, whose readers are all about consent.
 */
export const noticeRecords: Migration = {
  id: 12,
  name: 'notice_records',
  sql: `
    CREATE TABLE notice_records (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      application_id TEXT NOT NULL REFERENCES applications(id),
      flow_id TEXT NOT NULL REFERENCES flows(id),
      flow_version INTEGER NOT NULL,
      agent_id TEXT NOT NULL REFERENCES agent_identities(id),
      locale TEXT NOT NULL,
      disclosed_at TEXT NOT NULL,
      recorded_at TEXT NOT NULL,
      -- The canonical receipt frozen at issue (svc-cr/2.13, record_type notice_record).
      receipt TEXT NOT NULL
    );
    CREATE INDEX notice_records_account ON notice_records (account_id, seq);
  `,
};
