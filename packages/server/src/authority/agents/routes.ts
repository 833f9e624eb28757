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
} from '@svc/client/schemas';
import type { Context } from 'hono';
import { routes } from '../../infra/http/route.js';
import { requires } from '../../infra/auth.js';
import type { Env, ServerContext } from '../../infra/context.js';
import { notFound } from '../../infra/errors.js';
import type { Operation } from '../../infra/operations.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { readJson, readQuery } from '../../infra/validate.js';
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
  app.get(BASE, requires('read'), (c) => {
    const { limit = DEFAULT_LIMIT, cursor, status } = readQuery(c, agentIdentityListQuery);
    return c.json(listAgentIdentities(ctx, c.get('principal').accountId, { limit, cursor, status }));
  });

  app.post(BASE, requires('write'), async (c) => {
    const input = await readJson(c, createAgentIdentityRequest);
    const agent = createAgentIdentity(ctx, c.get('principal').accountId, input, actorOf(c));
    return c.json({ agent_identity: toAgentIdentity(agent) }, 201);
  });

  app.get(`${BASE}/:id`, requires('read'), (c) => c.json({ agent_identity: toAgentIdentity(owned(ctx, c)) }));

  for (const action of ['suspend', 'resume', 'revoke'] as const satisfies AgentAction[]) {
    app.post(`${BASE}/:id/${action}`, requires('write'), (c) => {
      const agent = changeAgentIdentityStatus(ctx, owned(ctx, c), action, actorOf(c));
      return c.json({ agent_identity: toAgentIdentity(agent) });
    });
  }

  // Pinning freezes the manifest as the agent is now; an identical manifest pins nothing (200 with the latest).
  app.post(`${BASE}/:id/manifests`, requires('write'), async (c) => {
    const agent = owned(ctx, c);
    const { delegated_scopes } = await readJson(c, pinCapabilityManifestRequest);
    const { pinned, created } = pinCapabilityManifest(ctx, agent.id, delegated_scopes, actorOf(c));
    return c.json({ capability_manifest: pinned }, created ? 201 : 200);
  });

  app.get(`${BASE}/:id/manifests`, requires('read'), (c) => {
    const agent = owned(ctx, c);
    const { limit = DEFAULT_LIMIT, cursor } = readQuery(c, capabilityManifestListQuery);
    return c.json(listPinnedManifests(ctx, agent.id, { limit, cursor }));
  });
});

const tag = 'Agent identities';

const stateChange = (action: AgentAction, summary: string): Operation => ({
  method: 'post', path: `${BASE}/{id}/${action}`, summary, tag,
  auth: ['api_token'], permission: 'write',
  response: { status: 200, description: 'The agent identity in its new status (unchanged when it already had it)', schema: agentIdentityEnvelope },
  errors: [404, 409],
});

/** OpenAPI descriptors of the agent identity routes. */
export const agentIdentityOperations: Operation[] = [
  {
    method: 'get', path: BASE, summary: "List the account's agent identities, oldest first", tag,
    auth: ['api_token'], permission: 'read', query: agentIdentityListQuery,
    response: { status: 200, description: 'A page of agent identities', schema: agentIdentityList }, errors: [400],
  },
  {
    method: 'post', path: BASE, summary: 'Register an agent identity, optionally linked to one of the account\'s OAuth clients', tag,
    auth: ['api_token'], permission: 'write', body: createAgentIdentityRequest,
    response: { status: 201, description: 'The agent identity, active', schema: agentIdentityEnvelope }, errors: [422],
  },
  {
    method: 'get', path: `${BASE}/{id}`, summary: 'Read an agent identity', tag,
    auth: ['api_token'], permission: 'read',
    response: { status: 200, description: 'The agent identity', schema: agentIdentityEnvelope }, errors: [404],
  },
  stateChange('suspend', 'Suspend an active agent identity (409 invalid_transition when revoked)'),
  stateChange('resume', 'Resume a suspended agent identity (409 invalid_transition when revoked)'),
  stateChange('revoke', 'Revoke an agent identity for good'),
  {
    method: 'post', path: `${BASE}/{id}/manifests`,
    summary: "Pin the agent's capability manifest as it is now (name, type, the operator's declarations in metadata) with the scopes it is declared to request, as its next version",
    tag, auth: ['api_token'], permission: 'write', body: pinCapabilityManifestRequest,
    response: {
      status: 201,
      description: 'The new version, frozen, with its digest (sha256 over the RFC 8785 JSON of manifest), published at /.well-known/transparency/agents/{id}/manifests/{version}. 200 with the latest version when the manifest is identical to it. 409 agent_revoked for a revoked agent.',
      schema: capabilityManifestEnvelope,
    },
    errors: [404, 409],
  },
  {
    method: 'get', path: `${BASE}/{id}/manifests`, summary: "List the agent's pinned capability manifest versions, oldest first", tag,
    auth: ['api_token'], permission: 'read', query: capabilityManifestListQuery,
    response: { status: 200, description: 'A page of pinned versions', schema: capabilityManifestList }, errors: [400, 404],
  },
];
