/**
 * JSON Schema (Draft 2020-12) generation for the protocol v2 messages, for build scripts and servers; kept out of
 * the main entry so browser bundles do not carry zod's JSON Schema generator.
 *
 * @module @svc/protocol/json-schemas
 */

// Functions
export { messageJsonSchemas, MESSAGE_SCHEMAS_BASE_URL } from './lib/json-schemas.js';

// Types
export type { JsonSchemaDocuments } from './lib/json-schemas.js';
