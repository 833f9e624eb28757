import type { Migration } from '../db.js';

/**
 * `GET /api/v1/consent_records` lists an account's records newest `seq` first: this index finds them without reading
 * the other accounts' records of the cell, and in order without a sort. One more index row per record written.
 */
export const recordList: Migration = {
  id: 27,
  name: 'record-list',
  sql: `
    CREATE INDEX consent_records_account ON consent_records(account_id, seq);
  `,
};
