import type { z } from 'zod/mini';
import type { Permission } from './context.js';

/** How an operation authenticates (OpenAPI security schemes of the same names). */
export type Auth = 'api_token' | 'publishable_key' | 'access_token' | 'agent_token';

/**
 * One HTTP operation as the OpenAPI document describes it. Route modules export a list of these beside their
 * routes, built from the same zod schemas the routes validate with, so the document cannot drift.
 */
export interface Operation {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  /** OpenAPI path template, e.g. `/api/v1/flows/{id}`. */
  path: string;
  summary: string;
  tag: string;
  /** Accepted credentials; empty for public endpoints. */
  auth: Auth[];
  /** Permission an API token needs. */
  permission?: Permission;
  body?: z.ZodMiniType;
  query?: z.ZodMiniType;
  /** Success response: status and body schema (omit the schema for an empty body). */
  response: { status: number; description: string; schema?: z.ZodMiniType };
  /** Error statuses this operation can answer besides 401/403 (e.g. 404, 422). */
  errors?: number[];
  deprecated?: boolean;
}
