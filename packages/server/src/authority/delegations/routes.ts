// Delegated authority over HTTP: `/api/v1/delegations` (grants), `/api/v1/authorities/check` (an agent asks before
// it acts), `/api/v1/oap/escalations` (what waits for a principal), an agent's trust score, and the resolvers that
// let the authentication middleware accept agent tokens and delegates.
import {
  authorityCheckEnvelope,
  authorityCheckRequest,
  createDelegationRequest,
  createEscalationRequest,
  delegationGrantEnvelope,
  delegationGrantList,
  delegationListQuery,
  escalationEnvelope,
  escalationList,
  escalationListQuery,
  trustScoreEnvelope,
} from '@svc/schemas';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { route, routes } from '../../infra/http/route.js';
import { getAgentIdentity } from '../agents/store.js';
import { requires } from '../../infra/auth.js';
import type { Env, Principal, ServerContext } from '../../infra/context.js';
import { forbidden, notFound } from '../../infra/errors.js';
import { DEFAULT_LIMIT } from '../../infra/pagination.js';
import { checkAuthority, requestEscalation } from './authority.js';
import { listEscalations, visibleEscalation } from './escalations.js';
import { escalationPageRoutes } from './pages.js';
import {
  changeGrantStatus,
  createGrant,
  findGrant,
  listGrants,
  standingOf,
  toDelegationGrant,
  visibleGrant,
  type GrantAction,
} from './grants.js';
import { resolveAgentToken } from './tokens.js';
import { trustScore } from './trust-score.js';

const GRANTS = '/api/v1/delegations';
const ESCALATIONS = '/api/v1/oap/escalations';
const CHECK = '/api/v1/authorities/check';
const grantsTag = 'Delegations';
const authorityTag = 'Authority';

/** Seconds an agent should wait before polling a pending escalation again. */
export const ESCALATION_POLL_SECONDS = 5;

function agentOnly(principal: Principal): Extract<Principal, { kind: 'agent' }> {
  if (principal.kind !== 'agent')
    throw forbidden('Only an agent token (ra_agent_…) can do this: it acts under its delegation grant.', 'agent_token_required');
  return principal;
}

/**
 * The routes an agent alone may call: `requires` admits agent tokens (and refuses a person's token and a browser's
 * key as everywhere), then an API token is refused by name before the body is read.
 */
const agentsOnly = (permission: 'read' | 'write'): MiddlewareHandler<Env>[] => [
  requires(permission, { agent: true }),
  async (c, next) => {
    agentOnly(c.get('principal'));
    await next();
  },
];

/** A grant is made by a person (or, under a grant, its agent); an API token is refused by name before the body is read. */
const grantMakers: MiddlewareHandler<Env>[] = [
  requires('write', { person: true, agent: true }),
  async (c, next) => {
    if (c.get('principal').kind === 'api_token')
      throw forbidden("A delegation grant is a person's: make it with their access token, not an API token.", 'person_token_required');
    await next();
  },
];

/**
 * A person calling with `X-Delegation-Grant-Id`: the grant must be one made to them, by a person (human-to-human),
 * and usable now; they then act in its principal's context within its delegated scopes.
 */
export function delegateOf(ctx: ServerContext, person: Extract<Principal, { kind: 'person' }>, grantId: string): Principal {
  const grant = findGrant(ctx, grantId);
  if (!grant || grant.account_id !== person.accountId || grant.delegate_type !== 'person' || grant.delegate_id !== person.personId) {
    throw forbidden('X-Delegation-Grant-Id names no delegation grant made to you.', 'not_delegate');
  }
  const standing = standingOf(ctx, grant);
  if (standing) throw forbidden(standing.message, 'grant_not_active');
  return {
    ...person,
    personId: grant.principal_id,
    delegation: { grantId: grant.id, delegateId: person.personId, delegationType: grant.delegation_type, scopes: grant.delegated_scopes },
  };
}

/** Every delegation route. */
export const delegationRoutes = routes((app, ctx) => {
  escalationPageRoutes(app, ctx);
  grantRoutes(app, ctx);
  authorityRoutes(app, ctx);

  // ---- Trust scores
  route(
    app,
    {
      method: 'get',
      path: '/api/v1/agent_identities/{id}/trust_score',
      summary: "An agent's trust score (0-100) with its factors",
      tag: 'Agent identities',
      permission: 'read',
      response: { status: 200, description: 'The score now', schema: trustScoreEnvelope },
      errors: [404],
    },
    (c) => {
      const agent = getAgentIdentity(ctx, c.get('principal').accountId, c.req.param('id')!);
      if (!agent) throw notFound('No such agent identity.');
      return c.json({ trust_score: trustScore(ctx, agent.id) });
    },
  );
});

/** `/api/v1/delegations`: grants made, listed, read, suspended, resumed and revoked. */
function grantRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  const reader = { person: true, agent: true, delegateScope: 'delegations:read' };
  route(
    app,
    {
      method: 'post',
      path: GRANTS,
      summary: "Grant authority to a person or an agent identity (a person's access token; a sub-delegation by the parent's delegate)",
      tag: grantsTag,
      auth: ['access_token', 'agent_token'],
      middleware: grantMakers,
      body: createDelegationRequest,
      response: { status: 201, description: 'The grant, active, with its authorization record', schema: delegationGrantEnvelope },
      errors: [409],
    },
    (c, { body }) => c.json({ delegation_grant: toDelegationGrant(createGrant(ctx, c.get('principal'), body)) }, 201),
  );

  route(
    app,
    {
      method: 'get',
      path: GRANTS,
      summary: "List the grants the caller may see (a person: made or received; an agent: its own; an API token: the account's)",
      tag: grantsTag,
      permission: 'read',
      access: reader,
      query: delegationListQuery,
      response: { status: 200, description: 'A page of grants', schema: delegationGrantList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, status, role } }) =>
      c.json(listGrants(ctx, c.get('principal'), { limit, cursor, status, role })),
  );

  route(
    app,
    {
      method: 'get',
      path: `${GRANTS}/{id}`,
      summary: 'Read a grant',
      tag: grantsTag,
      permission: 'read',
      access: reader,
      response: { status: 200, description: 'The grant', schema: delegationGrantEnvelope },
      errors: [404],
    },
    (c) => c.json({ delegation_grant: toDelegationGrant(visibleGrant(ctx, c.get('principal'), c.req.param('id')!)) }),
  );

  const changes: [GrantAction, string][] = [
    ['suspend', 'Suspend a grant (its principal): its tokens answer 403 grant_suspended until resumed'],
    ['resume', 'Resume a suspended grant (its principal)'],
    ['revoke', 'Revoke a grant and every grant made under it, stopping every token issued from them at once'],
  ];
  const changer = { person: true, delegateScope: 'delegations:write' };
  for (const [action, summary] of changes) {
    // Only revoking is open to an API token: suspending and resuming are the principal's (403 not_principal).
    const who =
      action === 'revoke'
        ? { permission: 'write' as const, access: changer }
        : { auth: ['access_token' as const], middleware: [requires('write', changer)] };
    route(
      app,
      {
        method: 'post',
        path: `${GRANTS}/{id}/${action}`,
        summary,
        tag: grantsTag,
        ...who,
        response: {
          status: 200,
          description: 'The grant in its new status (unchanged when it already had it)',
          schema: delegationGrantEnvelope,
        },
        errors: [404, 409],
      },
      (c) => {
        const principal = c.get('principal');
        const grant = visibleGrant(ctx, principal, c.req.param('id')!);
        return c.json({ delegation_grant: toDelegationGrant(changeGrantStatus(ctx, principal, grant, action)) });
      },
    );
  }
}

/** `/api/v1/authorities/check` (an agent asks before it acts) and `/api/v1/oap/escalations` (what waits for a principal). */
function authorityRoutes(app: OpenAPIHono<Env>, ctx: ServerContext): void {
  const reader = { person: true, agent: true, delegateScope: 'escalations:read' };
  route(
    app,
    {
      method: 'post',
      path: CHECK,
      summary:
        'Ask before acting: allowed (200), escalated to the principal (202), denied naming the bound (403 bound_exceeded), or 422 when the action leaves out the value or jurisdiction a bound needs',
      tag: authorityTag,
      auth: ['agent_token'],
      middleware: agentsOnly('read'),
      body: authorityCheckRequest,
      response: { status: 200, description: 'Allowed, recorded as authority exercised', schema: authorityCheckEnvelope },
      alsoResponds: [
        {
          status: 202,
          description:
            'Escalated to the principal: the check with its pending escalation (Location and Retry-After name where and when to poll)',
          schema: authorityCheckEnvelope,
        },
      ],
      errors: [404, 409],
    },
    (c, { body }) => {
      const { status, check } = checkAuthority(ctx, agentOnly(c.get('principal')), body);
      if (status === 202 && check.escalation) {
        c.header('Location', `${ESCALATIONS}/${check.escalation.id}`);
        c.header('Retry-After', String(ESCALATION_POLL_SECONDS));
      }
      return c.json({ authority_check: check }, status);
    },
  );

  route(
    app,
    {
      method: 'post',
      path: ESCALATIONS,
      summary: 'Ask the principal for approval of an action before trying it (trigger escalation)',
      tag: authorityTag,
      auth: ['agent_token'],
      middleware: agentsOnly('write'),
      body: createEscalationRequest,
      response: { status: 201, description: 'The escalation, pending', schema: escalationEnvelope },
    },
    (c, { body }) => {
      const escalation = requestEscalation(ctx, agentOnly(c.get('principal')), body);
      c.header('Location', `${ESCALATIONS}/${escalation.id}`);
      c.header('Retry-After', String(ESCALATION_POLL_SECONDS));
      return c.json({ escalation }, 201);
    },
  );

  route(
    app,
    {
      method: 'get',
      path: ESCALATIONS,
      summary: "List escalations (an agent: its grant's; a person: where they are principal; an API token: the account's)",
      tag: authorityTag,
      permission: 'read',
      access: reader,
      query: escalationListQuery,
      response: { status: 200, description: 'A page of escalations', schema: escalationList },
      errors: [400],
    },
    (c, { query: { limit = DEFAULT_LIMIT, cursor, status, trigger, created_since } }) =>
      c.json(listEscalations(ctx, c.get('principal'), { limit, cursor, status, trigger, createdSince: created_since })),
  );

  route(
    app,
    {
      method: 'get',
      path: `${ESCALATIONS}/{id}`,
      summary: 'Read an escalation (Retry-After while pending); its decision is never shown to the agent',
      tag: authorityTag,
      permission: 'read',
      access: reader,
      response: { status: 200, description: 'The escalation', schema: escalationEnvelope },
      errors: [404],
    },
    (c) => {
      const escalation = visibleEscalation(ctx, c.get('principal'), c.req.param('id')!);
      if (escalation.status === 'pending') c.header('Retry-After', String(ESCALATION_POLL_SECONDS));
      return c.json({ escalation });
    },
  );
}
