import type { Migration } from '../db.js';

/**
 * How the person a decision is addressed to proved it was them before answering: `trust_session` (signed in on the
 * trust URL), `email_code` (the page's own code sent to their address) or `access_token` (their own token, for a
 * quorum vote through the API), the address proven and when. A decision
 * answered before this migration keeps nulls: nothing was proven then, and nothing is claimed now.
 */
export const decisionAuthentication: Migration = {
  id: 25,
  name: 'decision-authentication',
  sql: `
    ALTER TABLE decisions ADD COLUMN authenticated_email TEXT;
    ALTER TABLE decisions ADD COLUMN authentication_method TEXT CHECK (authentication_method IN ('trust_session', 'email_code', 'access_token'));
    ALTER TABLE decisions ADD COLUMN authenticated_at TEXT;
  `,
};
