// `/api/v1/agent_identities`: the software agents an account operates (API tokens only: `read` to look, `write` to
// register and to suspend, resume or revoke, and to pin capability manifest versions). Another account's identity is
// a 404, as if it did not exist.
import {
  agentIdentityEnvelope,
  agentIdentityList,
  agentIdentityListQuery,
  capabilityManifestEnvelope,
  capabilityManifestList,
  capabilityManifestListQuery,
  createAgentIdentityRequest,
  pinCapabilityManifestRequest,
} from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { route, routes } from '../../infra/http/route.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { listPinnedManifests, pinCapabilityManifest } from './manifest.js';
import {
  changeAgentIdentityStatus,
  createAgentIdentity,
  getAgentIdentity,
  listAgentIdentities,
  toAgentIdentity,
  type AgentAction,
  type AgentActor,
  type AgentIdentityRecord,
} from './store.js';

const BASE = '/api/v1/agent_identities';
const tag = 'Agent identities';

function owned(ctx: ServerContext, c: Context<Env>): AgentIdentityRecord {
  const agent = getAgentIdentity(ctx, c.get('principal').accountId, c.req.param('id') ?? '');
  if (!agent) throw notFound('No such agent identity.');
  return agent;
}

function actorOf(c: Context<Env>): AgentActor {
  const principal = c.get('principal');
  return principal.kind === 'api_token' ? { api_token_id: principal.tokenId } : {};
}

/** `GET|POST /api/v1/agent_identities`, `GET …/{id}`, `POST …/{id}/suspend|resume|revoke`, `GET|POST …/{id}/manifests`. */
export const agentIdentityRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'get',
      path: BASE,
      summary: "List the account's agent identities, oldest first",
      tag,
      permission: 'read',
      query: agentIdentityListQuery,
      response: { status: 200, description: 'A page of agent identities', schema: agentIdentityList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, status } }) =>
      c.json(listAgentIdentities(ctx, c.get('principal').accountId, { limit, cursor, status })),
  );

  route(
    app,
    {
      method: 'post',
      path: BASE,
      summary: "Register an agent identity, optionally linked to one of the account's OAuth clients",
      tag,
      permission: 'write',
      body: createAgentIdentityRequest,
      response: { status: 201, description: 'The agent identity, active', schema: agentIdentityEnvelope },
      errors: [422],
    },
    (c, { body }) => {
      const agent = createAgentIdentity(ctx, c.get('principal').accountId, body, actorOf(c));
      return c.json({ agent_identity: toAgentIdentity(agent) }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${BASE}/{id}`,
      summary: 'Read an agent identity',
      tag,
      permission: 'read',
      response: { status: 200, description: 'The agent identity', schema: agentIdentityEnvelope },
      errors: [404],
    },
    (c) => c.json({ agent_identity: toAgentIdentity(owned(ctx, c)) }),
  );

  const stateChanges: [AgentAction, string][] = [
    ['suspend', 'Suspend an active agent identity (409 invalid_transition when revoked)'],
    ['resume', 'Resume a suspended agent identity (409 invalid_transition when revoked)'],
    ['revoke', 'Revoke an agent identity for good'],
  ];
  for (const [action, summary] of stateChanges) {
    route(
      app,
      {
        method: 'post',
        path: `${BASE}/{id}/${action}`,
        summary,
        tag,
        permission: 'write',
        response: {
          status: 200,
          description: 'The agent identity in its new status (unchanged when it already had it)',
          schema: agentIdentityEnvelope,
        },
        errors: [404, 409],
      },
      (c) => {
        const agent = changeAgentIdentityStatus(ctx, owned(ctx, c), action, actorOf(c));
        return c.json({ agent_identity: toAgentIdentity(agent) });
      },
    );
  }

  manifestRoutes(app, ctx);
});

/** `GET|POST /api/v1/agent_identities/{id}/manifests`: an agent's pinned capability manifest versions. */
function manifestRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  // Pinning freezes the manifest as the agent is now; an identical manifest pins nothing (200 with the latest).
  route(
    app,
    {
      method: 'post',
      path: `${BASE}/{id}/manifests`,
      summary:
        "Pin the agent's capability manifest as it is now (name, type, the operator's declarations in metadata) with the scopes it is declared to request, as its next version",
      tag,
      permission: 'write',
      body: pinCapabilityManifestRequest,
      response: {
        status: 201,
        description:
          'The new version, frozen, with its digest (sha256 over the RFC 8785 JSON of manifest), published at /.well-known/transparency/agents/{id}/manifests/{version}. 200 with the latest version when the manifest is identical to it. 409 agent_revoked for a revoked agent.',
        schema: capabilityManifestEnvelope,
      },
      errors: [404, 409],
    },
    (c, { body: { delegated_scopes } }) => {
      const agent = owned(ctx, c);
      const { pinned, created } = pinCapabilityManifest(ctx, agent.id, delegated_scopes, actorOf(c));
      return c.json({ capability_manifest: pinned }, created ? 201 : 200);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: `${BASE}/{id}/manifests`,
      summary: "List the agent's pinned capability manifest versions, oldest first",
      tag,
      permission: 'read',
      query: capabilityManifestListQuery,
      response: { status: 200, description: 'A page of pinned versions', schema: capabilityManifestList },
      errors: [400, 404],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor } }) => {
      const agent = owned(ctx, c);
      return c.json(listPinnedManifests(ctx, agent.id, { limit, cursor }));
    },
  );
}
