import { me, type Me } from '@svc/schemas';
import { route, routes } from '../../infra/http/route.js';
import type { Permission, Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';

/**
 * `GET /api/v1/me`: the calling API token and its account, or, for a person's access token, the person and the
 * client acting for them. Publishable keys get 403 like every non-browser route.
 */
export const meRoutes = routes((app, ctx) => {
  route(
    app,
    {
      method: 'get',
      path: '/api/v1/me',
      summary: 'The calling identity',
      tag: 'Identity',
      permission: 'read',
      access: { person: true, agent: true, delegateScope: null },
      response: {
        status: 200,
        description:
          'The API token and its account; the person and the client acting for them (a delegate: the principal, with `delegation`); or the agent, its grant and its principal',
        schema: me,
      },
    },
    (c) => {
      const principal = c.get('principal');
      const account = stmt<[string], { id: string; name: string; created_at: string }>(
        ctx.db,
        'SELECT id, name, created_at FROM accounts WHERE id = ?',
      ).get(principal.accountId)!;
      const personOf = (id: string) =>
        stmt<[string], { id: string; email: string }>(ctx.db, 'SELECT id, email FROM persons WHERE id = ?').get(id)!;
      if (principal.kind === 'person') {
        const client = stmt<[string], { client_id: string; name: string; application_id: string }>(
          ctx.db,
          'SELECT id AS client_id, name, application_id FROM oauth_clients WHERE id = ?',
        ).get(principal.clientId)!;
        const { delegation } = principal;
        return c.json({
          kind: 'person',
          account,
          person: personOf(principal.personId),
          client,
          scopes: principal.scopes,
          ...(delegation
            ? {
                delegation: {
                  delegation_grant_id: delegation.grantId,
                  delegation_type: delegation.delegationType,
                  delegate: personOf(delegation.delegateId),
                  delegated_scopes: delegation.scopes,
                },
              }
            : {}),
        } satisfies Me);
      }
      if (principal.kind === 'agent') return c.json(agentMe(ctx, principal) satisfies Me);
      if (principal.kind !== 'api_token') throw new Error('unreachable: requires() refuses publishable keys');
      const token = stmt<
        [string],
        { id: string; name: string; permissions: string; created_at: string; expires_at: string | null; last_used_at: string | null }
      >(ctx.db, 'SELECT id, name, permissions, created_at, expires_at, last_used_at FROM api_tokens WHERE id = ?').get(principal.tokenId)!;
      const body: Me = {
        kind: 'api_token',
        account,
        api_token: { ...token, permissions: JSON.parse(token.permissions) as Permission[] },
      };
      return c.json(body);
    },
  );
});

/** `GET /api/v1/me` of an agent token (also the model-context gateway's `whoami`): the agent, its grant, its principal. */
export function agentMe(ctx: ServerContext, principal: Extract<Principal, { kind: 'agent' }>): Extract<Me, { kind: 'agent' }> {
  const account = stmt<[string], { id: string; name: string; created_at: string }>(
    ctx.db,
    'SELECT id, name, created_at FROM accounts WHERE id = ?',
  ).get(principal.accountId)!;
  const agent = stmt<[string], { id: string; display_name: string; agent_type: string }>(
    ctx.db,
    'SELECT id, display_name, agent_type FROM agent_identities WHERE id = ?',
  ).get(principal.agentId)!;
  const scopes = stmt<[string], string>(ctx.db, 'SELECT delegated_scopes FROM delegation_grants WHERE id = ?')
    .pluck()
    .get(principal.grantId) as unknown as string;
  return {
    kind: 'agent',
    account,
    agent_identity: agent,
    delegation_grant: { id: principal.grantId, principal_id: principal.personId, delegated_scopes: JSON.parse(scopes) as string[] },
    token: { expires_at: principal.expiresAt, scopes: principal.scopes },
  };
}
