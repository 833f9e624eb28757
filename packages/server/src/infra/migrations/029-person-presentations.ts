import type { Migration } from '../db.js';

/**
 * What a person presented of their credentials through the service (`POST /api/v1/me/credentials/{id}/presentations`):
 * which credential, to whom (`audience`, as the person named the verifier), the verifier's nonce, and the paths of the
 * claims they chose to disclose. Never the presentation itself. A cell table: it holds personal data, and belongs to
 * the person row the credential's consent record names.
 */
export const personPresentations: Migration = {
  id: 29,
  name: 'person-presentations',
  sql: `
    CREATE TABLE person_presentations (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      credential_id TEXT NOT NULL REFERENCES credentials(id),
      person_id TEXT NOT NULL REFERENCES persons(id),
      audience TEXT NOT NULL,
      nonce TEXT,
      disclosed TEXT NOT NULL,
      presented_at TEXT NOT NULL
    );
    CREATE INDEX person_presentations_person ON person_presentations (person_id, seq);
    CREATE INDEX person_presentations_credential ON person_presentations (credential_id, seq);
  `,
};
