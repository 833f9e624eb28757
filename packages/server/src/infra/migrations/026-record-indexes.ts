import type { Migration } from '../db.js';

/**
 * Fewer index pages written per consent record. `consent_records_import` is read by no query (an import's results
 * name their records), so it goes. `consent_records_application_external` serves only lookups by external id, so it
 * keeps only the rows that have one: most records carry none, and each row in an index is a page written per insert.
 * Queries by application alone keep the application-first unique index (application_id, idempotency_key).
 */
export const recordIndexes: Migration = {
  id: 26,
  name: 'record-indexes',
  sql: `
    DROP INDEX consent_records_import;
    DROP INDEX consent_records_application_external;
    CREATE INDEX consent_records_application_external ON consent_records(application_id, external_id) WHERE external_id IS NOT NULL;
  `,
};
