/**
 * The wire shapes of the svc REST API (zod/mini schemas and their types), as `@svc/schemas` exports them: this entry
 * stays so that imports of `@svc/client/schemas` keep working.
 * @module @svc/client/schemas
 */
export * from '@svc/schemas';
