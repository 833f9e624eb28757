import { z } from 'zod/mini';
import { permission } from './api-tokens.js';
import { dateTime } from './common.js';

/** `GET /api/v1/me` with an API token: the token and its account. */
export const apiTokenMe = z.object({
  kind: z.literal('api_token'),
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

/** `GET /api/v1/me` with a person's OAuth access token: the person, and the client acting for them. */
export const personMe = z.object({
  kind: z.literal('person'),
  account: z.object({ id: z.string(), name: z.string(), created_at: dateTime() }),
  person: z.object({ id: z.string(), email: z.string() }),
  client: z.object({ client_id: z.string(), name: z.string(), application_id: z.string() }),
  scopes: z.array(z.string()),
});

/** `GET /api/v1/me`: the calling identity, by `kind`. */
export const me = z.discriminatedUnion('kind', [apiTokenMe, personMe]);
export type Me = z.infer<typeof me>;
