import { z } from 'zod/mini';
import { permission } from './api-tokens.js';
import { dateTime } from './common.js';

/** `GET /api/v1/me`: the calling identity (an API token and its account). */
export const me = z.object({
  kind: z.enum(['api_token']),
  account: z.object({ id: z.string(), name: z.string(), created_at: dateTime() }),
  api_token: z.object({
    id: z.string(),
    name: z.string(),
    permissions: z.array(permission),
    created_at: dateTime(),
    expires_at: z.nullable(dateTime()),
    last_used_at: z.nullable(dateTime()),
  }),
});
export type Me = z.infer<typeof me>;
