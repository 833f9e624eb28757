import { z } from 'zod/mini';
import { dateTime, listOf } from './common.js';

/** What an API token may do: `admin` covers `write`, `write` covers `read`. */
export const permission = z.enum(['read', 'write', 'admin', 'audit:verify', 'disclosures:write']);
export type Permission = z.infer<typeof permission>;

/**
 * A limit an organisation sets on one API token: at most `requests` per `window_seconds` (a fixed window); past it the
 * token's requests answer 429 with `Retry-After` until the window ends. `null`: no limit of its own (the default).
 */
export const apiTokenRateLimit = z.strictObject({
  requests: z.int().check(z.gte(1), z.lte(1_000_000)),
  window_seconds: z.int().check(z.gte(1), z.lte(86_400)),
});
export type ApiTokenRateLimit = z.infer<typeof apiTokenRateLimit>;

/** An API token record; `token` (the raw bearer value) appears only in the create and rotate answers. */
export const apiToken = z.object({
  id: z.string(),
  name: z.string(),
  permissions: z.array(permission),
  created_at: dateTime(),
  expires_at: z.nullable(dateTime()),
  last_used_at: z.nullable(dateTime()),
  rate_limit: z.nullable(apiTokenRateLimit),
  token: z.optional(z.string()),
});
export type ApiToken = z.infer<typeof apiToken>;

/** `POST /api/v1/api_tokens`: permissions default to `[read]`; issuing `admin` requires `admin`. */
export const createApiTokenRequest = z.strictObject({
  api_token: z.strictObject({
    name: z.string().check(z.minLength(1), z.maxLength(100)),
    permissions: z.optional(
      z.array(permission).check(
        z.minLength(1),
        z.refine((list) => new Set(list).size === list.length, 'permissions must not repeat'),
      ),
    ),
    expires_at: z.optional(z.nullable(dateTime())),
    rate_limit: z.optional(z.nullable(apiTokenRateLimit)),
  }),
});
export type CreateApiTokenRequest = z.input<typeof createApiTokenRequest>;

/** `PATCH /api/v1/api_tokens/{id}`: rename a token or set (`null` lifts) its rate limit; the caller must hold its permissions. */
export const updateApiTokenRequest = z.strictObject({
  api_token: z.strictObject({
    name: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
    rate_limit: z.optional(z.nullable(apiTokenRateLimit)),
  }),
});
export type UpdateApiTokenRequest = z.input<typeof updateApiTokenRequest>;

/** `{api_token}` envelope. */
export const apiTokenEnvelope = z.object({ api_token: apiToken });
/** `{api_tokens: [...], next_cursor}`. */
export const apiTokenList = listOf('api_tokens', apiToken);
