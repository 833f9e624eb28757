// Agent tokens: exchanged for a delegation grant (RFC 8693), stored as SHA-256 hashes, never outliving the grant,
// and resolved against the grant, its chain and the agent on every request, so revoking any of them stops the token
// at once.
import type { Principal, ServerContext } from '../../infra/context.js';
import { findAgentIdentity } from '../agents/store.js';
import { appendAuditEvent } from '../../consent/audit/chain.js';
import { isoNow } from '../../infra/clock.js';
import { stmt } from '../../infra/db.js';
import { ApiError } from '../../infra/errors.js';
import { hashSecret, newId, newSecret } from '../../infra/ids.js';
import { transaction } from '../../infra/transaction.js';
import { findClient } from '../../platform/oauth/clients.js';
import { AGENT_TOKEN_PREFIX } from '../../infra/auth.js';
import { findGrant, standingOf, type GrantRecord } from './grants.js';

/** The longest an agent token lives; a grant that ends sooner ends it sooner. */
export const AGENT_TOKEN_MAX_SECONDS = 3600;

interface TokenRow {
  id: string;
  grant_id: string;
  agent_id: string;
  client_id: string;
  scopes: string;
  expires_at: string;
}

/**
 * Issues an agent token for `grant` to its agent's client: its lifetime is an hour or what is left of the grant,
 * whichever is shorter. Appends `authority.token_issued` (ids only, never the token) to the audit chain.
 */
export function issueAgentToken(
  ctx: ServerContext,
  grant: GrantRecord,
  clientId: string,
  scopes: string[],
): { token: string; expiresIn: number } {
  const now = ctx.clock.now();
  const left = grant.expires_at ? Math.floor((Date.parse(grant.expires_at) - now) / 1000) : AGENT_TOKEN_MAX_SECONDS;
  const expiresIn = Math.max(1, Math.min(AGENT_TOKEN_MAX_SECONDS, left));
  const token = `${AGENT_TOKEN_PREFIX}${newSecret()}`;
  const id = newId('agtok_', 20);
  const issuedAt = isoNow(ctx.clock);
  const expiresAt = new Date(now + expiresIn * 1000).toISOString();
  transaction(ctx.db, () => {
    stmt(
      ctx.db,
      `INSERT INTO agent_tokens (id, token_hash, grant_id, agent_id, client_id, scopes, issued_at, expires_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, hashSecret(token), grant.id, grant.delegate_id, clientId, JSON.stringify(scopes), issuedAt, expiresAt);
    appendAuditEvent(ctx, {
      applicationId: grant.application_id,
      type: 'authority.token_issued',
      occurredAt: issuedAt,
      data: {
        token_id: id,
        delegation_grant_id: grant.id,
        agent_identity_id: grant.delegate_id,
        client_id: clientId,
        scopes,
        expires_at: expiresAt,
      },
    });
  });
  return { token, expiresIn };
}

const invalidToken = (message: string) => new ApiError(401, message, 'invalid_token');

/**
 * The principal of an agent token, checked now: the token itself (known, unexpired), its grant and every grant above
 * it (active: revoked or expired is 401, suspended 403 `grant_suspended`), the agent (active: revoked 401, suspended
 * 403 `agent_suspended`) and its client (still registered).
 */
export function resolveAgentToken(ctx: ServerContext, token: string): Principal {
  const row = stmt<[string], TokenRow>(
    ctx.db,
    'SELECT id, grant_id, agent_id, client_id, scopes, expires_at FROM agent_tokens WHERE token_hash = ?',
  ).get(hashSecret(token));
  if (!row) throw invalidToken('The agent token is not valid.');
  if (Date.parse(row.expires_at) <= ctx.clock.now())
    throw invalidToken('The agent token has expired: exchange the delegation grant again.');
  const grant = findGrant(ctx, row.grant_id)!;
  const standing = standingOf(ctx, grant);
  if (standing?.status === 'suspended')
    throw new ApiError(403, `${standing.message} The agent cannot act until the principal resumes it.`, 'grant_suspended');
  if (standing) throw invalidToken(`${standing.message} Every token issued from it stopped.`);
  const agent = findAgentIdentity(ctx, row.agent_id);
  if (!agent || agent.status === 'revoked') throw invalidToken('The agent identity was revoked.');
  if (agent.status === 'suspended') throw new ApiError(403, `Agent identity ${agent.id} is suspended by its operator.`, 'agent_suspended');
  if (!findClient(ctx, row.client_id)) throw invalidToken('The OAuth client the token was issued to no longer exists.');
  return {
    kind: 'agent',
    accountId: grant.account_id,
    agentId: agent.id,
    grantId: grant.id,
    tokenId: row.id,
    clientId: row.client_id,
    personId: grant.principal_id,
    scopes: JSON.parse(row.scopes) as string[],
    expiresAt: row.expires_at,
  };
}
