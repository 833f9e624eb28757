// Token exchange (RFC 8693) of a delegation grant for an agent token, as oidc-provider's grant handler: the provider
// has authenticated the client and checked that it may use the grant type; this checks the subject token (the
// grant id) against the client's agent and answers RFC 8693 section 2.2.1.
import { ACCESS_TOKEN_TYPE, DELEGATION_GRANT_TOKEN_TYPE } from '@svc/schemas';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { findAgentIdentity } from '../agents/store.js';
import type { ServerContext } from '../../infra/context.js';
import { findGrant, standingOf } from './grants.js';
import { issueAgentToken } from './tokens.js';

/** The parameters the grant type takes. */
export const EXCHANGE_PARAMETERS = [
  'subject_token',
  'subject_token_type',
  'actor_token',
  'actor_token_type',
  'requested_token_type',
  'audience',
  'resource',
  'scope',
];

const param = (koa: KoaContextWithOIDC, name: string) => {
  const value = (koa.oidc.params as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

/**
 * Exchanges a delegation grant for an agent token. Every problem with the subject token is `invalid_request` with a
 * description, as RFC 8693 section 2.2.2 says; a grant that is not the client's agent's is described the same way
 * whether it exists or not.
 */
export async function exchangeDelegationGrant(ctx: ServerContext, koa: KoaContextWithOIDC): Promise<void> {
  const type = param(koa, 'subject_token_type');
  if (type !== DELEGATION_GRANT_TOKEN_TYPE) {
    throw new errors.InvalidRequest(`subject_token_type must be ${DELEGATION_GRANT_TOKEN_TYPE}, not ${(type ?? '(none)').slice(0, 100)}`);
  }
  const requested = param(koa, 'requested_token_type');
  if (requested !== undefined && requested !== ACCESS_TOKEN_TYPE)
    throw new errors.InvalidRequest(`requested_token_type may only be ${ACCESS_TOKEN_TYPE}`);
  if (param(koa, 'actor_token') !== undefined)
    throw new errors.InvalidRequest('actor_token is not supported: the agent is the authenticated client');
  const subject = param(koa, 'subject_token');
  if (!subject) throw new errors.InvalidRequest('subject_token (the delegation grant id) is required');

  const client = koa.oidc.client!;
  const grant = findGrant(ctx, subject);
  const agent = grant?.delegate_type === 'agent' ? findAgentIdentity(ctx, grant.delegate_id) : undefined;
  if (!grant || !agent || agent.oauth_application_id !== client.clientId) {
    throw new errors.InvalidRequest("subject_token is not a delegation grant made to this client's agent");
  }
  const standing = standingOf(ctx, grant);
  if (standing) throw new errors.InvalidRequest(`subject_token cannot be exchanged: ${standing.message}`);
  if (agent.status !== 'active')
    throw new errors.InvalidRequest(`subject_token cannot be exchanged: agent identity ${agent.id} is ${agent.status}`);

  const asked = param(koa, 'scope')?.split(' ').filter(Boolean);
  const scopes = asked ? [...new Set(asked)] : grant.delegated_scopes;
  const beyond = scopes.filter((s) => !grant.delegated_scopes.includes(s));
  if (beyond.length)
    throw new errors.InvalidScope(
      `scope beyond the grant's delegated scopes: ${beyond.join(' ').slice(0, 200)}`,
      beyond.join(' ').slice(0, 200),
    );

  const { token, expiresIn } = issueAgentToken(ctx, grant, client.clientId, scopes);
  koa.body = {
    access_token: token,
    issued_token_type: ACCESS_TOKEN_TYPE,
    token_type: 'Bearer',
    expires_in: expiresIn,
    scope: scopes.join(' '),
  };
}
