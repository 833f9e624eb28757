import type { Migration } from '../db.js';

/**
 * The Trust Inbox lists decisions by `addressee_email`, which every kind fills at creation from migration 15 on. An
 * approval opened for an agent's escalation before then is addressed to the escalation's principal here, so what was
 * already waiting for someone appears in their inbox too. Nothing else changes.
 */
export const inboxAddressees: Migration = {
  id: 16,
  name: 'inbox-addressees',
  sql: `
    UPDATE decisions SET addressee_email = (
        SELECT lower(p.email) FROM escalations e JOIN persons p ON p.id = e.principal_id
        WHERE e.id = decisions.subject_ref AND e.account_id = decisions.account_id AND instr(p.email, '@') > 0)
      WHERE kind = 'approval' AND addressee_email IS NULL
        AND EXISTS (SELECT 1 FROM escalations e WHERE e.id = decisions.subject_ref AND e.account_id = decisions.account_id);
  `,
};
