import { z } from 'zod/mini';
import { dateTime, listOf } from './common.js';

/** An origin registered for an application; `last_seen_at` is its most recent successful preflight. */
export const allowedOrigin = z.object({
  origin: z.string(),
  last_seen_at: z.nullable(dateTime()),
  created_at: dateTime(),
});
export type AllowedOrigin = z.infer<typeof allowedOrigin>;

/**
 * `POST /api/v1/applications/{id}/allowed_origins`. The server checks the origin itself (scheme, host, optional
 * port; https, or http on localhost and 127.0.0.1 for development applications).
 */
export const createAllowedOriginRequest = z.strictObject({
  allowed_origin: z.strictObject({ origin: z.string().check(z.minLength(1), z.maxLength(300)) }),
});
export type CreateAllowedOriginRequest = z.input<typeof createAllowedOriginRequest>;

/** `{allowed_origin}` envelope. */
export const allowedOriginEnvelope = z.object({ allowed_origin: allowedOrigin });
/** `{allowed_origins: [...], next_cursor}`. */
export const allowedOriginList = listOf('allowed_origins', allowedOrigin);
