import type { Migration } from '../db.js';

/**
 * An application's home country: where the personal data it collects is homed when a capture or record does not
 * name the subject's country. NULL means the deployment's first country (where everything lived before cells).
 */
export const homeCountries: Migration = {
  id: 17,
  name: 'home-countries',
  sql: `ALTER TABLE applications ADD COLUMN home_country TEXT CHECK (home_country IS NULL OR (length(home_country) = 2 AND home_country = upper(home_country)));`,
};
