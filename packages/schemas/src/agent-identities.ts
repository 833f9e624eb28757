import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';
import { depthWithin, jsonBytes } from './json-bounds.js';

/** The agent types the OpenID provider advertises as `agent_types_supported`; an agent identity is one of them. */
export const AGENT_TYPES = ['assistant', 'autonomous', 'workflow'] as const;

/** What kind of software an agent is. */
export const agentType = z.enum(AGENT_TYPES);
export type AgentType = z.infer<typeof agentType>;

/**
 * An agent identity's status: `active` may act; `suspended` is paused and can be resumed; `revoked` is final.
 * Moves: suspend (active to suspended), resume (suspended to active), revoke (active or suspended to revoked).
 */
export const agentIdentityStatus = z.enum(['active', 'suspended', 'revoked']);
export type AgentIdentityStatus = z.infer<typeof agentIdentityStatus>;

/** Most keys `metadata` may have at its top level. */
export const AGENT_METADATA_MAX_KEYS = 50;
/** Largest `metadata`, counted as UTF-8 bytes of its JSON. */
export const AGENT_METADATA_MAX_BYTES = 16 * 1024;
/** Deepest nesting of `metadata` (the object itself is depth 1). */
export const AGENT_METADATA_MAX_DEPTH = 8;

/**
 * The operator's own facts about an agent (model, version, owner team): a bounded JSON object, kept as given, except
 * that a top-level `__proto__` key is dropped (zod strips it so it can never become the object's prototype).
 */
export const agentMetadata = z.record(z.string().check(z.minLength(1), z.maxLength(100)), z.unknown()).check(
  z.refine((meta) => Object.keys(meta).length <= AGENT_METADATA_MAX_KEYS, `metadata may have at most ${AGENT_METADATA_MAX_KEYS} keys`),
  z.refine((meta) => depthWithin(meta, AGENT_METADATA_MAX_DEPTH), {
    message: `metadata may nest at most ${AGENT_METADATA_MAX_DEPTH} levels`,
    abort: true,
  }),
  z.refine((meta) => jsonBytes(meta) <= AGENT_METADATA_MAX_BYTES, `metadata must be at most ${AGENT_METADATA_MAX_BYTES} bytes of JSON`),
);

/**
 * A software agent an organisation operates, registered so that people can delegate bounded authority to it.
 * `oauth_application_id` is the `client_id` (`oc_...`) of the OAuth client the agent authenticates with, one of the
 * account's own; `delegation_grant_id` stays null until delegations exist.
 */
export const agentIdentity = z.object({
  /** `agt_<region>_<hashid>`, the region of the application it belongs to (`agt_dev_`, `agt_us_`, `agt_eu_`). */
  id: z.string(),
  display_name: z.string(),
  agent_type: agentType,
  status: agentIdentityStatus,
  delegation_grant_id: z.nullable(z.string()),
  oauth_application_id: z.nullable(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  created_at: dateTime(),
  /** The last change of any field, including status. */
  updated_at: dateTime(),
  /** When it was last suspended; null while active or after a resume. */
  suspended_at: z.nullable(dateTime()),
  /** When it was revoked; null until then. */
  revoked_at: z.nullable(dateTime()),
});
export type AgentIdentity = z.infer<typeof agentIdentity>;

/**
 * `POST /api/v1/agent_identities`: the spec's CreateAgentIdentityRequest, flat as the spec gives it (like decisions
 * and consent records). `agent_type` defaults to `assistant`; `metadata` to `{}`.
 */
export const createAgentIdentityRequest = z.strictObject({
  display_name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  agent_type: z.optional(agentType),
  metadata: z.optional(agentMetadata),
  /** The `client_id` (`oc_...`) of one of the account's OAuth clients: the client the agent authenticates with. */
  oauth_application_id: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
});
export type CreateAgentIdentityRequest = z.input<typeof createAgentIdentityRequest>;

/** Query of `GET /api/v1/agent_identities`: a page, optionally of one status. */
export const agentIdentityListQuery = z.object({
  ...listQuery.shape,
  status: z.optional(agentIdentityStatus),
});

/** `{agent_identity}` envelope. */
export const agentIdentityEnvelope = z.object({ agent_identity: agentIdentity });
/** `{agent_identities: [...], next_cursor}`. */
export const agentIdentityList = listOf('agent_identities', agentIdentity);
