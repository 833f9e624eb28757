import type { Migration } from '../db.js';
import { CONTROL_SCHEMA } from '../cells/control-plane.js';

/** Control migration 3: how the provider signs a client's ID tokens (`ES256` or `RS256`), null for its default (ES256). */
export const oauthClientIdTokenAlg: Migration = {
  id: 3,
  name: 'oauth-client-id-token-alg',
  sql: `ALTER TABLE ${CONTROL_SCHEMA}.oauth_clients ADD COLUMN id_token_signed_response_alg TEXT
    CHECK (id_token_signed_response_alg IN ('ES256', 'RS256'));`,
};
