import type { Migration } from '../db.js';
import { CONTROL_SCHEMA } from '../cells/control-plane.js';

/**
 * Control migration 4: the organisation's console. An account user gains a `role` (`admin` manages keys, tokens and
 * settings; `viewer` reads); a user added before roles existed stays a viewer until an admin says otherwise. A
 * console token is what a console page's elements call the API with for an account user: only its SHA-256 is
 * kept, it lives ten minutes and dies with the browser session that asked for it (`session_uid`). The table is made
 * here, in the control file, where every cell finds it: it is not among the tables a cell's replica is adopted from.
 */
export const consoleAccountUsers: Migration = {
  id: 4,
  name: 'console-account-users',
  sql: `
    ALTER TABLE ${CONTROL_SCHEMA}.account_users ADD COLUMN role TEXT NOT NULL DEFAULT 'viewer' CHECK (role IN ('admin', 'viewer'));
    CREATE TABLE ${CONTROL_SCHEMA}.console_tokens (
      id TEXT PRIMARY KEY,
      token_hash TEXT NOT NULL UNIQUE,
      account_user_id TEXT NOT NULL REFERENCES account_users(id) ON DELETE CASCADE,
      session_uid TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    );
    CREATE INDEX ${CONTROL_SCHEMA}.console_tokens_session ON console_tokens (session_uid);
  `,
};
