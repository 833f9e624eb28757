/**
 * Wire shapes of the svc REST API as zod/mini schemas: the one source of the client's types, the server's
 * validation, the OpenAPI document and the types of the elements' answers.
 * @module @svc/schemas
 */
export * from './common.js';
export * from './flows.js';
export * from './decisions.js';
export * from './consent-tokens.js';
export * from './consent-sessions.js';
export * from './api-tokens.js';
export * from './applications.js';
export * from './allowed-origins.js';
export * from './me.js';
export * from './captures.js';
export * from './render.js';
export * from './authorize.js';
export * from './form-connections.js';
export * from './mailing-connections.js';
export * from './oauth-clients.js';
export * from './webhooks.js';
export * from './records.js';
export * from './imports.js';
export * from './receipts.js';
export * from './consent-status.js';
export * from './consent-activity.js';
export * from './audit.js';
export * from './agent-identities.js';
export * from './delegations.js';
export * from './disclosures.js';
export * from './agreements.js';
export * from './inbox.js';
export * from './my-records.js';
export * from './my-credentials.js';
export * from './my-data-requests.js';
export * from './my-delegations.js';
export * from './my-data-offers.js';
export * from './my-vouches.js';
export * from './my-connections.js';
export * from './my-agreements.js';
export * from './my-receipts.js';
export * from './transparency.js';
export * from './cross-border.js';
export * from './breach-scope.js';
export * from './countries.js';
export * from './credentials.js';
export * from './protect.js';
export * from './connect.js';
export * from './comply.js';
export * from './vouches.js';
export * from './collaborations.js';
