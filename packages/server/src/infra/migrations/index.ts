import type { Migration } from '../db.js';
import { core } from './001-core.js';
import { flows } from './002-flows.js';
import { decisions } from './003-decisions.js';
import { records } from './004-records.js';
import { webhooks } from './005-webhooks.js';
import { captures } from './006-captures.js';
import { idempotency } from './007-idempotency.js';
import { authorizationRecords } from './008-authorization-records.js';
import { oauth } from './009-oauth.js';
import { agentIdentities } from './010-agent-identities.js';
import { delegations } from './011-delegations.js';
import { noticeRecords } from './012-notice-records.js';
import { agentManifests } from './013-agent-manifests.js';
import { agreements } from './014-agreements.js';
import { signatureRequests } from './015-signature-requests.js';
import { inboxAddressees } from './016-inbox-addressees.js';
import { homeCountries } from './017-home-countries.js';
import { credentials } from './018-credentials.js';
import { transfers } from './019-transfers.js';
import { connect } from './020-connect.js';
import { verifyAgree } from './021-verify-agree.js';
import { protect } from './022-protect.js';
import { comply } from './024-comply.js';
import { decisionAuthentication } from './025-decision-authentication.js';
import { recordIndexes } from './026-record-indexes.js';
import { recordList } from './027-record-list.js';
import { mailOutbox } from './028-mail-outbox.js';
import { personPresentations } from './029-person-presentations.js';
import { personsEmail } from './030-persons-email.js';
import { mailingConnections } from './031-mailing-connections.js';
import { consentSessionAlias } from './032-consent-session-alias.js';
import { anchorReceiptRetries } from './033-anchor-receipt-retries.js';
export { controlMigrations } from './control.js';

/**
 * The migrations of a cell's own file, in order: add a module's migration here with the next free id. They run on the
 * cell's file alone, before the control database is attached, and build the schema as one file (the organisation
 * configuration tables included, which the control database is first filled from: see `control.ts`). Once a data
 * directory is separated, those tables are in the control file only, so:
 * - a change to a control table (`CONTROL_TABLES` in `cells/control-plane.ts`) goes in `controlMigrations`
 *   (`control.ts`), with the next free id there, its statements naming `control.<table>`;
 * - a cell table made or rebuilt from now on declares no foreign key to a control table (SQLite cannot enforce one
 *   across files; those of the migrations above are dropped on open): the code that writes such an id reads the row
 *   it names first.
 */
export const migrations: Migration[] = [
  core,
  flows,
  decisions,
  records,
  webhooks,
  captures,
  idempotency,
  authorizationRecords,
  oauth,
  agentIdentities,
  delegations,
  noticeRecords,
  agentManifests,
  agreements,
  signatureRequests,
  inboxAddressees,
  homeCountries,
  credentials,
  transfers,
  connect,
  verifyAgree,
  protect,
  comply,
  decisionAuthentication,
  recordIndexes,
  recordList,
  mailOutbox,
  personPresentations,
  personsEmail,
  mailingConnections,
  consentSessionAlias,
  anchorReceiptRetries,
];
