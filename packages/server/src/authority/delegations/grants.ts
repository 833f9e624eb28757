// Delegation grants: made by a signed-in person (or, narrower, by a grant's own delegate), suspended, resumed and
// revoked by the principal, expired by the clock. A grant's standing is read again on every use, so a revocation
// stops every token issued from it, and from the grants made under it, at once.
import type { CreateDelegationRequest, DelegationBounds, DelegationGrant, DelegationStatus } from '@svc/schemas';
import { HUMAN_DELEGATION_TYPES } from '@svc/schemas';
import { appendAuditEvent } from '../../consent/audit/chain.js';
import { findAgentIdentity, type AgentIdentityRecord } from '../agents/store.js';
import { insertGrantRecord } from '../../consent/authorizations/store.js';
import { isoNow } from '../../infra/clock.js';
import type { Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError, forbidden, notFound, unprocessable, type FieldError } from '../../infra/errors.js';
import { homedId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import { findClient } from '../../platform/oauth/clients.js';
import { wideningsOf, type GrantTerms } from './bounds.js';
import { freezeGrantReceipt } from './receipt.js';

interface GrantRow {
  seq: number;
  id: string;
  account_id: string;
  application_id: string;
  principal_id: string;
  delegate_type: 'person' | 'agent';
  delegate_id: string;
  delegation_type: DelegationGrant['delegation_type'];
  delegated_scopes: string;
  allow_sub_delegation: number;
  max_actions_per_day: number | null;
  expires_at: string | null;
  bounds: string;
  parent_grant_id: string | null;
  chain_root_id: string;
  authorization_record_id: string;
  status: 'active' | 'suspended' | 'revoked';
  created_at: string;
  updated_at: string;
  suspended_at: string | null;
  revoked_at: string | null;
}

/** A grant as the server keeps it: the wire shape plus its account. */
export type GrantRecord = DelegationGrant & { account_id: string };

const HUMAN = new Set<string>(HUMAN_DELEGATION_TYPES);

/** The status a stored grant has at `now`: `expired` once `expires_at` passed, unless it was revoked first. */
export function statusAt(row: Pick<GrantRow, 'status' | 'expires_at' | 'revoked_at'>, now: number): DelegationStatus {
  if (row.status === 'revoked') return 'revoked';
  if (row.expires_at !== null && Date.parse(row.expires_at) <= now) return 'expired';
  return row.status;
}

function toRecord(row: GrantRow, now: number): GrantRecord {
  return {
    id: row.id,
    status: statusAt(row, now),
    delegation_type: row.delegation_type,
    principal_id: row.principal_id,
    delegate_id: row.delegate_id,
    delegate_type: row.delegate_type,
    delegated_scopes: JSON.parse(row.delegated_scopes) as string[],
    allow_sub_delegation: row.allow_sub_delegation === 1,
    max_actions_per_day: row.max_actions_per_day,
    expires_at: row.expires_at,
    bounds: JSON.parse(row.bounds) as DelegationBounds,
    parent_grant_id: row.parent_grant_id,
    delegation_chain_root: row.chain_root_id,
    authorization_record_id: row.authorization_record_id,
    application_id: row.application_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    suspended_at: row.suspended_at,
    revoked_at: row.revoked_at,
    account_id: row.account_id,
  };
}

/** The wire shape (without the account). */
export function toDelegationGrant({ account_id: _a, ...grant }: GrantRecord): DelegationGrant {
  return grant;
}

/** The terms the bound checks read. */
export function termsOf(grant: GrantRecord): GrantTerms {
  return {
    delegated_scopes: grant.delegated_scopes,
    max_actions_per_day: grant.max_actions_per_day,
    expires_at: grant.expires_at,
    allow_sub_delegation: grant.allow_sub_delegation,
    bounds: grant.bounds,
  };
}

/** Whether `id` looks like a grant id; anything else is not looked up. */
export function isGrantId(id: string): boolean {
  return /^dlg_[a-z]+_[A-Za-z0-9]{16}$/.test(id);
}

/** Any grant by id, whatever its account; undefined when absent. */
export function findGrant(ctx: ServerContext, id: string): GrantRecord | undefined {
  if (!isGrantId(id)) return undefined;
  const row = stmt<[string], GrantRow>(ctx.db, 'SELECT * FROM delegation_grants WHERE id = ?').get(id);
  return row && toRecord(row, ctx.clock.now());
}

/** Why a grant cannot be used now (itself or a grant it was made under), or undefined when it can. */
export function standingOf(
  ctx: ServerContext,
  grant: GrantRecord,
): { status: DelegationStatus; grantId: string; message: string } | undefined {
  for (let at: GrantRecord | undefined = grant, hops = 0; at && hops < 32; hops += 1) {
    if (at.status !== 'active') {
      const whose = at.id === grant.id ? 'The delegation grant' : `The grant it was made under (${at.id})`;
      const how = { revoked: 'was revoked', expired: 'has expired', suspended: 'is suspended' }[at.status];
      return { status: at.status, grantId: at.id, message: `${whose} ${how}.` };
    }
    at = at.parent_grant_id ? findGrant(ctx, at.parent_grant_id) : undefined;
  }
  return undefined;
}

/**
 * Whether `principal` may see `grant`: the account's API token; the principal or the delegate among people (a
 * delegate acting through a header sees the principal's grants); an agent, the grant it acts under and grants made
 * under that one.
 */
function visibleTo(principal: Principal, grant: GrantRecord): boolean {
  if (grant.account_id !== principal.accountId) return false;
  switch (principal.kind) {
    case 'api_token':
      return true;
    case 'person':
      return grant.principal_id === principal.personId || (!principal.delegation && grant.delegate_id === principal.personId);
    case 'agent':
      return grant.id === principal.grantId || grant.delegate_id === principal.agentId || grant.parent_grant_id === principal.grantId;
    default:
      return false;
  }
}

/** The grant `id` as `principal` may see it, or 404. */
export function visibleGrant(ctx: ServerContext, principal: Principal, id: string): GrantRecord {
  const grant = findGrant(ctx, id);
  if (!grant || !visibleTo(principal, grant)) throw notFound('No such delegation grant.');
  return grant;
}

/** A page of the grants `principal` may see, oldest first. */
export function listGrants(
  ctx: ServerContext,
  principal: Principal,
  page: { limit: number; cursor?: string | undefined; status?: DelegationStatus | undefined; role?: 'principal' | 'delegate' | undefined },
): { delegation_grants: DelegationGrant[]; next_cursor: string | null } {
  const after = decodeCursor(page.cursor);
  const now = ctx.clock.now();
  let where: string;
  let args: (string | number)[];
  if (principal.kind === 'api_token') {
    [where, args] = ['account_id = ?', [principal.accountId]];
  } else if (principal.kind === 'person') {
    const asPrincipal = page.role !== 'delegate';
    const asDelegate = page.role !== 'principal' && !principal.delegation;
    where = [asPrincipal ? 'principal_id = ?' : '0', asDelegate ? 'delegate_id = ?' : '0'].join(' OR ');
    args = [...(asPrincipal ? [principal.personId] : []), ...(asDelegate ? [principal.personId] : [])];
  } else if (principal.kind === 'agent') {
    [where, args] = ['delegate_id = ? OR parent_grant_id = ?', [principal.agentId, principal.grantId]];
  } else {
    return { delegation_grants: [], next_cursor: null };
  }
  // The status filter needs the clock (expired is read-time), so filter after reading, a bounded batch at a time.
  const out: GrantRow[] = [];
  let cursor = after;
  let more = true;
  while (out.length <= page.limit && more) {
    const rows = stmt<(string | number)[], GrantRow>(
      ctx.db,
      `SELECT * FROM delegation_grants WHERE account_id = ? AND (${where}) AND seq > ? ORDER BY seq LIMIT 200`,
    ).all(principal.accountId, ...args, cursor);
    more = rows.length === 200;
    for (const row of rows) {
      cursor = row.seq;
      if (!page.status || statusAt(row, now) === page.status) out.push(row);
      if (out.length > page.limit) break;
    }
  }
  const { items, next_cursor } = toPage(out, page.limit, (r) => r.seq);
  return { delegation_grants: items.map((r) => toDelegationGrant(toRecord(r, now))), next_cursor };
}

function invalid(message: string, path: string, code = 'invalid'): ApiError {
  return unprocessable(message, 'validation_failed', [{ path, code, message }]);
}

/** The refusal of a grant to oneself: it would only restart the daily allowance and hide who acts. */
function selfDelegation(message: string): ApiError {
  return unprocessable(message, 'self_delegation', [{ path: 'delegate_id', code: 'self_delegation', message }]);
}

function personExists(ctx: ServerContext, accountId: string, personId: string): boolean {
  return (
    stmt<[string, string], number>(ctx.db, 'SELECT 1 FROM persons WHERE id = ? AND account_id = ?').pluck().get(personId, accountId) !==
    undefined
  );
}

/**
 * Makes a grant. A person makes one as principal with their own access token; the delegate of a grant that allows
 * sub-delegation (a person with their own token, or the agent with its token) makes one under it, never wider.
 * Activation makes the grant's authorization record (frozen receipt) and appends `delegation.granted` to the
 * application's audit chain, in one transaction. `forApplication` names the organisation's application the grant is
 * for when the person's token is not that organisation's (the service's own pages: people/delegations).
 */
export function createGrant(ctx: ServerContext, caller: Principal, request: CreateDelegationRequest, forApplication?: string): GrantRecord {
  const body = request.delegation_grant;
  const now = ctx.clock.now();
  const nowIso = isoNow(ctx.clock);
  let parent: GrantRecord | undefined;
  let principalId: string;
  let applicationId: string;

  if (caller.kind === 'person' && caller.delegation) {
    throw forbidden(
      'A delegate acting through X-Delegation-Grant-Id cannot make grants; a sub-delegation is made with your own token and parent_grant_id.',
      'delegate_cannot_delegate',
    );
  }
  if (body.parent_grant_id !== undefined) {
    const found = findGrant(ctx, body.parent_grant_id);
    const callerId = caller.kind === 'person' ? caller.personId : caller.kind === 'agent' ? caller.agentId : undefined;
    if (!found || found.account_id !== caller.accountId || found.delegate_id !== callerId) {
      throw invalid('parent_grant_id must be a grant made to you.', 'delegation_grant.parent_grant_id', 'unknown_grant');
    }
    parent = found;
    if (caller.kind === 'agent' && caller.grantId !== parent.id) {
      throw forbidden('An agent makes sub-delegations only under the grant its token was issued for.', 'wrong_grant');
    }
    const standing = standingOf(ctx, parent);
    if (standing) throw new ApiError(409, `Cannot delegate under ${parent.id}: ${standing.message}`, 'grant_not_active');
    if (!parent.allow_sub_delegation) {
      throw forbidden(`Grant ${parent.id} does not allow sub-delegation.`, 'sub_delegation_not_allowed');
    }
    principalId = parent.principal_id;
    applicationId = parent.application_id;
  } else if (caller.kind === 'person') {
    const client = forApplication ? undefined : findClient(ctx, caller.clientId);
    if (!forApplication && !client) throw forbidden("The access token's client no longer exists.", 'client_missing');
    principalId = caller.personId;
    applicationId = forApplication ?? client!.application_id;
  } else if (caller.kind === 'agent') {
    throw forbidden(
      'An agent cannot grant authority it was not given: name the grant it narrows with parent_grant_id.',
      'agent_cannot_delegate',
    );
  } else {
    throw forbidden('Delegation grants are made by a signed-in person with their own access token.', 'person_token_required');
  }

  const isHuman = HUMAN.has(body.delegation_type);
  let agent: AgentIdentityRecord | undefined;
  if (request.delegate_id.startsWith('agt_')) {
    agent = findAgentIdentity(ctx, request.delegate_id);
    if (!agent || agent.account_id !== caller.accountId)
      throw invalid('delegate_id names no agent identity of this account.', 'delegate_id', 'unknown_delegate');
    if (agent.status !== 'active')
      throw invalid(
        `Agent identity ${agent.id} is ${agent.status}; only an active agent can receive a grant.`,
        'delegate_id',
        'delegate_not_active',
      );
    if (caller.kind === 'agent') {
      const self = findAgentIdentity(ctx, caller.agentId);
      if (agent.id === caller.agentId) throw selfDelegation('An agent cannot delegate to itself.');
      // Another identity on the caller's own OAuth client is the same software under a second name.
      if (self?.oauth_application_id && agent.oauth_application_id === self.oauth_application_id) {
        throw selfDelegation(`Agent identity ${agent.id} runs on your own OAuth client: an agent cannot delegate to itself.`);
      }
    }
    if (isHuman)
      throw invalid(
        `An agent identity is delegated to with delegation_type ai_agent, not ${body.delegation_type} (human-to-human only).`,
        'delegation_grant.delegation_type',
        'agent_needs_ai_agent',
      );
  } else {
    if (!personExists(ctx, caller.accountId, request.delegate_id))
      throw invalid('delegate_id names no person of this account.', 'delegate_id', 'unknown_delegate');
    if (!isHuman)
      throw invalid(
        `A person is delegated to with one of ${HUMAN_DELEGATION_TYPES.join(', ')}; ai_agent is for agent identities.`,
        'delegation_grant.delegation_type',
        'person_needs_human_type',
      );
    if (request.delegate_id === principalId || (caller.kind === 'person' && request.delegate_id === caller.personId)) {
      throw selfDelegation('A person cannot delegate to themselves.');
    }
    if (body.bounds !== undefined)
      throw invalid(
        'Bounds apply to grants to agent identities; a person acts within delegated_scopes.',
        'delegation_grant.bounds',
        'bounds_for_agents',
      );
  }
  if (!body.delegated_scopes?.length) {
    throw invalid(
      'delegated_scopes must name at least one scope: a grant without a scope bound would be unlimited.',
      'delegation_grant.delegated_scopes',
      'required',
    );
  }
  if (body.expires_at !== undefined && Date.parse(body.expires_at) <= now) {
    throw invalid('expires_at must be in the future.', 'delegation_grant.expires_at', 'in_the_past');
  }
  const terms: GrantTerms = {
    delegated_scopes: [...body.delegated_scopes].sort(),
    max_actions_per_day: body.max_actions_per_day ?? null,
    expires_at: body.expires_at ? new Date(body.expires_at).toISOString() : null,
    allow_sub_delegation: body.allow_sub_delegation ?? false,
    bounds: body.bounds ?? {},
  };
  if (parent) {
    if (HUMAN.has(parent.delegation_type) !== isHuman) {
      throw invalid(
        "A sub-delegation keeps its parent's kind: a person's grant to a person, an agent's to an agent.",
        'delegation_grant.delegation_type',
        'widens_parent',
      );
    }
    const widenings = wideningsOf(termsOf(parent), terms);
    if (widenings.length > 0) {
      const errors: FieldError[] = widenings.map((w) => ({ path: w.path, code: 'widens_parent', message: w.message }));
      throw unprocessable(
        `A sub-delegation may not be wider than its parent grant ${parent.id}: ${widenings.map((w) => `${w.path} ${w.message}`).join('; ')}.`,
        'widens_parent',
        errors,
      );
    }
  }

  const id = homedId(ctx.country, 'dlg_');
  const recordId = homedId(ctx.country, 'ar_', 20);
  const grantForReceipt = {
    id,
    principal_id: principalId,
    delegate_id: request.delegate_id,
    delegate_type: agent ? ('agent' as const) : ('person' as const),
    delegation_type: body.delegation_type,
    ...terms,
    parent_grant_id: parent?.id ?? null,
    delegation_chain_root: parent?.delegation_chain_root ?? id,
    created_at: nowIso,
  };
  return transaction(ctx.db, () => {
    const receipt = freezeGrantReceipt(ctx, { recordId, grant: grantForReceipt, applicationId, agent, recordedAt: nowIso });
    stmt(
      ctx.db,
      `INSERT INTO delegation_grants (id, account_id, application_id, principal_id, delegate_type, delegate_id, delegation_type,
      delegated_scopes, allow_sub_delegation, max_actions_per_day, expires_at, bounds, parent_grant_id, chain_root_id, authorization_record_id,
      status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?)`,
    ).run(
      id,
      caller.accountId,
      applicationId,
      principalId,
      grantForReceipt.delegate_type,
      request.delegate_id,
      body.delegation_type,
      JSON.stringify(terms.delegated_scopes),
      terms.allow_sub_delegation ? 1 : 0,
      terms.max_actions_per_day,
      terms.expires_at,
      JSON.stringify(terms.bounds),
      parent?.id ?? null,
      grantForReceipt.delegation_chain_root,
      recordId,
      nowIso,
      nowIso,
    );
    insertGrantRecord(ctx, { id: recordId, accountId: caller.accountId, applicationId, grantId: id, recordedAt: nowIso, receipt });
    if (agent) stmt(ctx.db, 'UPDATE agent_identities SET delegation_grant_id = ?, updated_at = ? WHERE id = ?').run(id, nowIso, agent.id);
    appendAuditEvent(ctx, {
      applicationId,
      type: 'delegation.granted',
      occurredAt: nowIso,
      data: {
        delegation_grant_id: id,
        delegation_type: body.delegation_type,
        delegate_type: grantForReceipt.delegate_type,
        delegate_id: request.delegate_id,
        principal_id: principalId,
        parent_grant_id: parent?.id ?? null,
        record_id: recordId,
        content_hash: (receipt.extensions?.grant_integrity as { content_hash: string }).content_hash,
      },
    });
    return findGrant(ctx, id)!;
  });
}

/** A change of a grant's status, as its route names it. */
export type GrantAction = 'suspend' | 'resume' | 'revoke';

const moves: Record<
  GrantAction,
  { to: 'active' | 'suspended' | 'revoked'; from: DelegationStatus[]; state: 'suspended' | 'resumed' | 'revoked' }
> = {
  suspend: { to: 'suspended', from: ['active'], state: 'suspended' },
  resume: { to: 'active', from: ['suspended'], state: 'resumed' },
  revoke: { to: 'revoked', from: ['active', 'suspended'], state: 'revoked' },
};

/**
 * Whether `principal` may change `grant`: its principal with their own token (or a delegate through the header
 * with `delegations:write`, checked by the route), or the account's API token (revocation only, so an organisation
 * can stop an agent at once; suspending and resuming are the principal's).
 */
function mayChange(principal: Principal, grant: GrantRecord, action: GrantAction): boolean {
  if (principal.kind === 'api_token') return action === 'revoke';
  if (principal.kind === 'person') return grant.principal_id === principal.personId;
  return false;
}

/** The grant `id` and every grant made under it, at any depth (ids). */
function descendantsOf(ctx: ServerContext, id: string): string[] {
  return stmt<[string], string>(
    ctx.db,
    `WITH RECURSIVE d(id) AS (SELECT id FROM delegation_grants WHERE parent_grant_id = ?
      UNION SELECT g.id FROM delegation_grants g JOIN d ON g.parent_grant_id = d.id) SELECT id FROM d`,
  )
    .pluck()
    .all(id) as unknown as string[];
}

/**
 * Suspends, resumes or revokes a grant. A revocation is final and takes every grant made under it along (each gets
 * its own `authority revoked`); repeating the status a grant has answers it unchanged; leaving revoked or expired is
 * 409 `invalid_transition`. Appends `delegation.<state>` to the audit chain and, for a revocation, emits
 * `delegation.revoked` to webhooks, in the change's transaction.
 */
export function changeGrantStatus(ctx: ServerContext, principal: Principal, grant: GrantRecord, action: GrantAction): GrantRecord {
  if (!mayChange(principal, grant, action)) {
    throw forbidden(
      principal.kind === 'api_token'
        ? "An API token can revoke a grant, not suspend or resume it: that is the principal's."
        : 'Only the principal who made the grant can change it.',
      'not_principal',
    );
  }
  const move = moves[action];
  const entity = principal.kind === 'person' ? (principal.delegation?.delegateId ?? principal.personId) : grant.application_id;
  return transaction(ctx.db, () => {
    const current = findGrant(ctx, grant.id)!;
    if (current.status === move.to) return current;
    if (!move.from.includes(current.status)) {
      throw new ApiError(
        409,
        `Cannot ${action} delegation grant ${current.id}: it is ${current.status} (from ${current.status} to ${move.to}).`,
        'invalid_transition',
        [{ path: 'status', code: 'invalid_transition', message: `from ${current.status} to ${move.to} is not allowed` }],
      );
    }
    const now = isoNow(ctx.clock);
    const targets = action === 'revoke' ? [current.id, ...descendantsOf(ctx, current.id)] : [current.id];
    const revokedDescendants: string[] = [];
    for (const id of targets) {
      const target = id === current.id ? current : findGrant(ctx, id)!;
      if (id !== current.id && (target.status === 'revoked' || target.status === 'expired')) continue;
      stmt(
        ctx.db,
        `UPDATE delegation_grants SET status = ?, updated_at = ?,
        suspended_at = CASE WHEN ? = 'suspended' THEN ? WHEN ? = 'active' THEN NULL ELSE suspended_at END,
        revoked_at = CASE WHEN ? = 'revoked' THEN ? ELSE revoked_at END WHERE id = ?`,
      ).run(move.to, now, move.to, now, move.to, move.to, now, id);
      stmt(ctx.db, 'INSERT INTO delegation_grant_events (grant_id, state, entity_id, at) VALUES (?, ?, ?, ?)').run(
        id,
        move.state,
        entity,
        now,
      );
      appendAuditEvent(ctx, {
        applicationId: target.application_id,
        type: `delegation.${move.state}`,
        occurredAt: now,
        data: { delegation_grant_id: id, record_id: target.authorization_record_id, cascaded_from: id === current.id ? null : current.id },
      });
      if (id !== current.id) revokedDescendants.push(id);
    }
    if (action === 'revoke') {
      ctx.events.emit(ctx, {
        type: 'delegation.revoked',
        application_id: current.application_id,
        occurred_at: now,
        data: {
          delegation_grant_id: current.id,
          delegate_id: current.delegate_id,
          delegate_type: current.delegate_type,
          user_id: current.principal_id,
          revoked_descendants: revokedDescendants,
          revoked_at: now,
        },
      });
    }
    return findGrant(ctx, current.id)!;
  });
}
