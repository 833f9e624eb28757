import type { Migration } from '../db.js';

/**
 * The transfer register: one row per recorded cross-border transfer of an application's data, with its category,
 * route (from and to country), lawful basis and adequacy verdict. Rows hold no personal data (no person, record or
 * email), so the register is organisation-level and readable from every cell.
 *
 * Evidence packages: one row per signed package drawn (transfer register, residency posture, breach scope), with the
 * compact JWS itself. A package holds counts, categories and ids of organisation resources, never personal data.
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

    CREATE TABLE evidence_packages (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT REFERENCES accounts(id),
      format_type TEXT NOT NULL,
      kid TEXT NOT NULL,
      payload_sha256 TEXT NOT NULL,
      package TEXT NOT NULL,
      drawn_at TEXT NOT NULL
    );
    CREATE INDEX evidence_packages_account ON evidence_packages (account_id, seq);
  `,
};
