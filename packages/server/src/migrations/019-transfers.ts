import type { Migration } from '../lib/db.js';

/**
 * The transfer register: one row per recorded cross-border transfer of an application's data, with its category,
 * route (from and to country), lawful basis and adequacy verdict. Rows hold no personal data (no person, record or
 * email), so the register is organisation-level and readable from every cell.
 */
export const transfers: Migration = {
  id: 19,
  name: 'transfers',
  sql: `
    CREATE TABLE transfers (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
      category TEXT NOT NULL,
      from_country TEXT NOT NULL,
      to_country TEXT NOT NULL,
      lawful_basis TEXT NOT NULL,
      adequacy TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX transfers_application ON transfers (application_id, seq);
  `,
};
