// Agent identity storage and its state machine. Other modules (delegations, token exchange) read agent identities
// only through the functions exported here.
import type { AgentIdentity, AgentIdentityStatus, AgentType } from '@svc/schemas';
import { recordActivity } from '../../infra/activity.js';
import { defaultApplication } from '../../platform/application-store.js';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError, unprocessable } from '../../infra/errors.js';
import { newId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import { findClient } from '../../platform/oauth/clients.js';

interface AgentRow {
  seq: number;
  id: string;
  account_id: string;
  application_id: string | null;
  display_name: string;
  agent_type: AgentType;
  status: AgentIdentityStatus;
  delegation_grant_id: string | null;
  oauth_client_id: string | null;
  metadata: string;
  created_at: string;
  updated_at: string;
  suspended_at: string | null;
  revoked_at: string | null;
}

/** An agent identity with the account that operates it and the application its activity goes to (server side). */
export type AgentIdentityRecord = AgentIdentity & { account_id: string; application_id: string | null };

/** A state change of an agent identity, as its route names it. */
export type AgentAction = 'suspend' | 'resume' | 'revoke';

/** Who asked for a change, recorded with the activity event. */
export interface AgentActor {
  api_token_id?: string | undefined;
}

// Each action's target and the statuses it may leave. A repeat (already in the target) changes nothing and answers
// 200, so a retried call is harmless; leaving `revoked` is never allowed.
const moves: Record<AgentAction, { to: AgentIdentityStatus; from: AgentIdentityStatus[]; event: string }> = {
  suspend: { to: 'suspended', from: ['active'], event: 'agent_identity.suspended' },
  resume: { to: 'active', from: ['suspended'], event: 'agent_identity.resumed' },
  revoke: { to: 'revoked', from: ['active', 'suspended'], event: 'agent_identity.revoked' },
};

const toRecord = (row: AgentRow): AgentIdentityRecord => ({
  id: row.id,
  display_name: row.display_name,
  agent_type: row.agent_type,
  status: row.status,
  delegation_grant_id: row.delegation_grant_id,
  oauth_application_id: row.oauth_client_id,
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  created_at: row.created_at,
  updated_at: row.updated_at,
  suspended_at: row.suspended_at,
  revoked_at: row.revoked_at,
  account_id: row.account_id,
  application_id: row.application_id,
});

/** The wire shape of an agent identity (without its account and activity application). */
export function toAgentIdentity({ account_id: _a, application_id: _b, ...agent }: AgentIdentityRecord): AgentIdentity {
  return agent;
}

function regionOf(applicationId: string | null | undefined): string {
  return (applicationId && /^tp_([a-z]+)_/.exec(applicationId)?.[1]) || 'dev';
}

/** Any agent identity by id, whatever its account (for the token exchange); undefined when absent. */
export function findAgentIdentity(ctx: ServerContext, id: string): AgentIdentityRecord | undefined {
  const row = stmt<[string], AgentRow>(ctx.db, 'SELECT * FROM agent_identities WHERE id = ?').get(id);
  return row && toRecord(row);
}

/** The account's agent identity `id`, or undefined when it does not exist or is another account's. */
export function getAgentIdentity(ctx: ServerContext, accountId: string, id: string): AgentIdentityRecord | undefined {
  const agent = findAgentIdentity(ctx, id);
  return agent?.account_id === accountId ? agent : undefined;
}

/**
 * Registers an agent identity for the account. `oauth_application_id` must be the `client_id` of a live OAuth client
 * of one of the account's applications (anything else is 422, without saying whether it exists elsewhere); the
 * identity takes that application's region and records its activity there, or else the account's oldest one's.
 */
export function createAgentIdentity(
  ctx: ServerContext,
  accountId: string,
  input: {
    display_name: string;
    agent_type?: AgentType | undefined;
    metadata?: Record<string, unknown> | undefined;
    oauth_application_id?: string | undefined;
  },
  actor: AgentActor = {},
): AgentIdentityRecord {
  let applicationId: string | null;
  if (input.oauth_application_id !== undefined) {
    const client = findClient(ctx, input.oauth_application_id);
    if (!client || client.account_id !== accountId) {
      throw unprocessable(
        'oauth_application_id must be the client_id (oc_...) of an OAuth client of one of your applications.',
        'validation_failed',
        [{ path: 'oauth_application_id', code: 'unknown_oauth_client', message: 'names no OAuth client of this account' }],
      );
    }
    applicationId = client.application_id;
  } else {
    applicationId = defaultApplication(ctx, accountId)?.id ?? null;
  }
  const id = newId(`agt_${regionOf(applicationId)}_`);
  const now = isoNow(ctx.clock);
  const agentType = input.agent_type ?? 'assistant';
  transaction(ctx.db, () => {
    stmt(
      ctx.db,
      `INSERT INTO agent_identities (id, account_id, application_id, display_name, agent_type, status, delegation_grant_id,
      oauth_client_id, metadata, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'active', NULL, ?, ?, ?, ?)`,
    ).run(
      id,
      accountId,
      applicationId,
      input.display_name,
      agentType,
      input.oauth_application_id ?? null,
      JSON.stringify(input.metadata ?? {}),
      now,
      now,
    );
    if (applicationId) {
      recordActivity(ctx, applicationId, 'agent_identity.created', {
        agent_identity_id: id,
        agent_type: agentType,
        oauth_application_id: input.oauth_application_id ?? null,
        api_token_id: actor.api_token_id ?? null,
      });
    }
  });
  return findAgentIdentity(ctx, id)!;
}

/** A page of the account's agent identities, oldest first, optionally of one status. */
export function listAgentIdentities(
  ctx: ServerContext,
  accountId: string,
  page: { limit: number; cursor?: string | undefined; status?: AgentIdentityStatus | undefined },
): { agent_identities: AgentIdentity[]; next_cursor: string | null } {
  const status = page.status ?? null;
  const rows = stmt<[string, number, string | null, string | null, number], AgentRow>(
    ctx.db,
    'SELECT * FROM agent_identities WHERE account_id = ? AND seq > ? AND (? IS NULL OR status = ?) ORDER BY seq LIMIT ?',
  ).all(accountId, decodeCursor(page.cursor), status, status, page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return { agent_identities: items.map((r) => toAgentIdentity(toRecord(r))), next_cursor };
}

/**
 * Suspends, resumes or revokes `agent` (one the caller already owns) and records the change as activity. A repeat
 * of the status it already has answers it unchanged; a move out of `revoked` is 409 `invalid_transition`.
 */
export function changeAgentIdentityStatus(
  ctx: ServerContext,
  agent: AgentIdentityRecord,
  action: AgentAction,
  actor: AgentActor = {},
): AgentIdentityRecord {
  const move = moves[action];
  return transaction(ctx.db, () => {
    // Read again inside the transaction: the status the decision rests on is the one the update replaces.
    const current = findAgentIdentity(ctx, agent.id)!;
    if (current.status === move.to) return current;
    if (!move.from.includes(current.status)) {
      const why = current.status === 'revoked' ? 'revoked is final' : `${move.to} is reached only from ${move.from.join(' or ')}`;
      const message = `Cannot ${action} agent identity ${current.id}: it is ${current.status}, and ${why} (from ${current.status} to ${move.to}).`;
      throw new ApiError(409, message, 'invalid_transition', [
        { path: 'status', code: 'invalid_transition', message: `from ${current.status} to ${move.to} is not allowed` },
      ]);
    }
    const now = isoNow(ctx.clock);
    stmt(
      ctx.db,
      `UPDATE agent_identities SET status = ?, updated_at = ?,
      suspended_at = CASE WHEN ? = 'suspended' THEN ? WHEN ? = 'active' THEN NULL ELSE suspended_at END,
      revoked_at = CASE WHEN ? = 'revoked' THEN ? ELSE revoked_at END WHERE id = ?`,
    ).run(move.to, now, move.to, now, move.to, move.to, now, current.id);
    if (current.application_id) {
      recordActivity(ctx, current.application_id, move.event, {
        agent_identity_id: current.id,
        from: current.status,
        to: move.to,
        api_token_id: actor.api_token_id ?? null,
      });
    }
    return findAgentIdentity(ctx, current.id)!;
  });
}
