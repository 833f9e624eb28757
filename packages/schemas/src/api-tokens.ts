import { z } from 'zod/mini';
import { dateTime, listOf } from './common.js';

/** What an API token may do: `admin` covers `write`, `write` covers `read`. */
export const permission = z.enum(['read', 'write', 'admin', 'audit:verify', 'disclosures:write']);
export type Permission = z.infer<typeof permission>;

/** An API token record; `token` (the raw bearer value) appears only in the create and rotate answers. */
export const apiToken = z.object({
  id: z.string(),
  name: z.string(),
  permissions: z.array(permission),
  created_at: dateTime(),
  expires_at: z.nullable(dateTime()),
  last_used_at: z.nullable(dateTime()),
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
  }),
});
export type CreateApiTokenRequest = z.input<typeof createApiTokenRequest>;

/** `{api_token}` envelope. */
export const apiTokenEnvelope = z.object({ api_token: apiToken });
/** `{api_tokens: [...], next_cursor}`. */
export const apiTokenList = listOf('api_tokens', apiToken);
