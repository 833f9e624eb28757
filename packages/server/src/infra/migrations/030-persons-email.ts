import type { Migration } from '../db.js';

/**
 * A person's own pages read their things by verified email in every organisation (`readerPersons`): without an index
 * on the email alone (the unique one leads with the organisation), each of those requests read every person row.
 */
export const personsEmail: Migration = {
  id: 30,
  name: 'persons-email',
  sql: 'CREATE INDEX persons_email ON persons(email);',
};
