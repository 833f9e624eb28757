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
  /**
   * Present when a delegate calls with `X-Delegation-Grant-Id`: `person` is then the principal whose context the
   * call acts in, and `delegate` the person calling, within `delegated_scopes`.
   */
  delegation: z.optional(
    z.object({
      delegation_grant_id: z.string(),
      delegation_type: z.string(),
      delegate: z.object({ id: z.string(), email: z.string() }),
      delegated_scopes: z.array(z.string()),
    }),
  ),
});

/** `GET /api/v1/me` with an agent token: the agent, the grant it acts under and the principal it acts for. */
export const agentMe = z.object({
  kind: z.literal('agent'),
  account: z.object({ id: z.string(), name: z.string(), created_at: dateTime() }),
  agent_identity: z.object({ id: z.string(), display_name: z.string(), agent_type: z.string() }),
  delegation_grant: z.object({ id: z.string(), principal_id: z.string(), delegated_scopes: z.array(z.string()) }),
  token: z.object({ expires_at: dateTime(), scopes: z.array(z.string()) }),
});

/** `GET /api/v1/me`: the calling identity, by `kind`. */
export const me = z.discriminatedUnion('kind', [apiTokenMe, personMe, agentMe]);
export type Me = z.infer<typeof me>;
