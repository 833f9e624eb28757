// Connections between a person and an application of the account, homed in the person's cell. A person connects
// with their access token (`POST /api/v1/connections`), or their first consent to the application connects them
// (a `consent.granted` naming them). Suspending keeps a reason; disconnecting is final and stops what governed the
// connection: the consent in force is withdrawn (credentials attesting it are revoked with it) and the delegation
// grants made through the application or to its agents are revoked; the answer's warnings name each.
import type {
  ActivePolicy,
  ConnectionActor,
  ConnectionDetail,
  Connection,
  ConnectionStatus,
  ConnectionSuspension,
  DisconnectResult,
  TrustTier,
} from '@svc/schemas';
import { assertHomedHere } from '../../infra/cells/routing.js';
import { TERMINAL } from '../../consent/decisions/row.js';
import { changeGrantStatus, findGrant, statusAt } from '../../authority/delegations/grants.js';
import { isoNow } from '../../infra/clock.js';
import type { Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError, forbidden, notFound, unprocessable } from '../../infra/errors.js';
import type { DomainEvent } from '../../infra/events.js';
import { homedId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';
import { latestRecordsPerFlow } from '../../consent/records/read.js';
import { recordState } from '../../consent/records/rows.js';
import { withdrawConsentRecord } from '../../consent/records/withdrawals.js';

interface ConnectionRow {
  seq: number;
  id: string;
  account_id: string;
  application_id: string;
  person_id: string;
  status: ConnectionStatus;
  source: 'person' | 'consent';
  connected_at: string;
  last_active_at: string | null;
  disconnected_at: string | null;
  disconnected_by: ConnectionActor | null;
  created_at: string;
  updated_at: string;
}

interface SuspensionRow extends ConnectionSuspension {
  seq: number;
  connection_id: string;
}

interface GrantRow {
  id: string;
  delegate_type: 'person' | 'agent';
  delegate_id: string;
  delegated_scopes: string;
  status: 'active' | 'suspended' | 'revoked';
  expires_at: string | null;
  revoked_at: string | null;
}

/** The 409 of a transition the connection's status does not allow, naming both ends. */
function illegal(row: Pick<ConnectionRow, 'id' | 'status'>, to: ConnectionStatus, hint = ''): ApiError {
  const message =
    row.status === to
      ? `Connection ${row.id} is already ${to}: it cannot go from ${row.status} to ${to}.${hint}`
      : `Connection ${row.id} cannot go from ${row.status} to ${to}.${hint}`;
  return new ApiError(409, message, 'illegal_transition', [
    { path: 'status', code: 'illegal_transition', message: `from ${row.status} to ${to} is not allowed` },
  ]);
}

const actorOf = (principal: Principal): ConnectionActor => (principal.kind === 'person' ? 'person' : 'organisation');

function applicationName(ctx: ServerContext, applicationId: string): string | null {
  return (
    (stmt<[string], string>(ctx.db, 'SELECT name FROM applications WHERE id = ?').pluck().get(applicationId) as string | undefined) ?? null
  );
}

/** The delegation grants in force from the person, made through the application or to one of its agents. */
function grantsInForce(ctx: ServerContext, row: ConnectionRow): GrantRow[] {
  const now = ctx.clock.now();
  return stmt<[string, string, string], GrantRow>(
    ctx.db,
    `
    SELECT id, delegate_type, delegate_id, delegated_scopes, status, expires_at, revoked_at FROM delegation_grants
     WHERE principal_id = ? AND status IN ('active', 'suspended')
       AND (application_id = ? OR (delegate_type = 'agent' AND delegate_id IN (SELECT id FROM agent_identities WHERE application_id = ?)))
     ORDER BY seq`,
  )
    .all(row.person_id, row.application_id, row.application_id)
    .filter((g) => statusAt(g, now) !== 'expired');
}

/** What governs the connection now: the consent in force (per flow, its latest record) and the grants in force. */
function policiesOf(ctx: ServerContext, row: ConnectionRow): ActivePolicy[] {
  if (row.status === 'disconnected') return [];
  const now = isoNow(ctx.clock);
  const policies: ActivePolicy[] = [];
  for (const record of latestRecordsPerFlow(ctx, row.application_id, row.person_id)) {
    const state = recordState(record.issued, record.withdrawals, record.expires_at, now);
    const granted = state.purposes.filter((p) => p.outcome === 'granted').map((p) => p.key);
    if (state.status !== 'fulfilled' || granted.length === 0) continue;
    policies.push({
      type: 'consent_record',
      id: record.id,
      flow_id: record.flow_id,
      purposes: granted,
      granted_at: record.captured_at,
      expires_at: record.expires_at,
    });
  }
  for (const grant of grantsInForce(ctx, row)) {
    policies.push({
      type: 'delegation_grant',
      id: grant.id,
      status: grant.status === 'suspended' ? 'suspended' : 'active',
      delegate_type: grant.delegate_type,
      delegate_id: grant.delegate_id,
      delegated_scopes: JSON.parse(grant.delegated_scopes) as string[],
      expires_at: grant.expires_at,
    });
  }
  return policies;
}

function tierOf(row: ConnectionRow, policies: readonly ActivePolicy[]): TrustTier | null {
  if (row.status === 'disconnected') return null;
  if (policies.some((p) => p.type === 'delegation_grant')) return 'delegated';
  if (policies.some((p) => p.type === 'consent_record')) return 'consented';
  return 'connected';
}

function toConnection(ctx: ServerContext, row: ConnectionRow, policies = policiesOf(ctx, row)): Connection {
  return {
    id: row.id,
    status: row.status,
    user_id: row.person_id,
    application_id: row.application_id,
    application_name: applicationName(ctx, row.application_id),
    trust_tier: tierOf(row, policies),
    connected_at: row.connected_at,
    last_active_at: row.last_active_at,
  };
}

function suspensionsOf(ctx: ServerContext, connectionId: string): ConnectionSuspension[] {
  return stmt<[string], SuspensionRow>(ctx.db, 'SELECT * FROM connection_suspensions WHERE connection_id = ? ORDER BY seq')
    .all(connectionId)
    .map(({ reason, suspended_by, suspended_at, resumed_by, resumed_at }) => ({
      reason,
      suspended_by,
      suspended_at,
      resumed_by,
      resumed_at,
    }));
}

/** A connection as read on its own: with its times, the policies in force and its suspensions. */
export function toConnectionDetail(ctx: ServerContext, row: ConnectionRow): ConnectionDetail {
  const policies = policiesOf(ctx, row);
  return {
    ...toConnection(ctx, row, policies),
    created_at: row.created_at,
    updated_at: row.updated_at,
    disconnected_at: row.disconnected_at,
    active_policies: policies,
    suspensions: suspensionsOf(ctx, row.id),
  };
}

const findRow = (ctx: ServerContext, id: string) => stmt<[string], ConnectionRow>(ctx.db, 'SELECT * FROM connections WHERE id = ?').get(id);

/**
 * The connection `id` as `principal` may see it: the account's API token sees the account's; a person their own.
 * Anything else (another account's, another person's) is the 404; another cell's id the 421.
 */
export function visibleConnection(ctx: ServerContext, principal: Principal, id: string): ConnectionRow {
  assertHomedHere(ctx, id);
  const row = findRow(ctx, id);
  if (!row || row.account_id !== principal.accountId || (principal.kind === 'person' && row.person_id !== principal.personId)) {
    throw notFound('No such connection.');
  }
  return row;
}

/** A page of the connections `principal` sees (a person: their own; an API token: the account's in this cell), oldest first. */
export function listConnections(
  ctx: ServerContext,
  principal: Principal,
  query: { limit: number; cursor?: string | undefined; status?: ConnectionStatus | undefined; application_id?: string | undefined },
) {
  const person = principal.kind === 'person' ? principal.personId : null;
  const rows = stmt<
    [string, string | null, string | null, number, string | null, string | null, string | null, string | null, number],
    ConnectionRow
  >(
    ctx.db,
    `
    SELECT * FROM connections WHERE account_id = ? AND (? IS NULL OR person_id = ?) AND seq > ?
      AND (? IS NULL OR status = ?) AND (? IS NULL OR application_id = ?) ORDER BY seq LIMIT ?`,
  ).all(
    principal.accountId,
    person,
    person,
    decodeCursor(query.cursor),
    query.status ?? null,
    query.status ?? null,
    query.application_id ?? null,
    query.application_id ?? null,
    query.limit + 1,
  );
  const { items, next_cursor } = toPage(rows, query.limit, (r) => r.seq);
  return { connections: items.map((row) => toConnection(ctx, row)), next_cursor };
}

function openConnection(ctx: ServerContext, personId: string, applicationId: string): ConnectionRow | undefined {
  return stmt<[string, string], ConnectionRow>(
    ctx.db,
    "SELECT * FROM connections WHERE person_id = ? AND application_id = ? AND status <> 'disconnected'",
  ).get(personId, applicationId);
}

function insertConnection(
  ctx: ServerContext,
  accountId: string,
  applicationId: string,
  personId: string,
  source: ConnectionRow['source'],
  at: string,
): ConnectionRow {
  const id = homedId(ctx.country, 'con_', 20);
  stmt(
    ctx.db,
    `INSERT INTO connections (id, account_id, application_id, person_id, status, source, connected_at, last_active_at, created_at, updated_at)
    VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?, ?)`,
  ).run(id, accountId, applicationId, personId, source, at, at, at, at);
  return findRow(ctx, id)!;
}

/**
 * Connects the calling person to an application of their account (`POST /api/v1/connections`). A connection that is
 * not disconnected is answered as it is (`created: false`); after a disconnection a new one begins. The application
 * must be the account's (422 `application_not_found`) and active (422 `application_inactive`).
 */
export function createConnection(
  ctx: ServerContext,
  principal: Extract<Principal, { kind: 'person' }>,
  applicationId: string,
): { row: ConnectionRow; created: boolean } {
  assertHomedHere(ctx, principal.personId);
  return transaction(ctx.db, () => {
    const app = stmt<[string], { account_id: string; active: number }>(
      ctx.db,
      'SELECT account_id, active FROM applications WHERE id = ?',
    ).get(applicationId);
    if (!app || app.account_id !== principal.accountId) {
      const message = `${applicationId} is no application of this account.`;
      throw unprocessable(message, 'application_not_found', [{ path: 'application_id', code: 'application_not_found', message }]);
    }
    if (!app.active) {
      const message = `Application ${applicationId} is inactive: it takes no new connections.`;
      throw unprocessable(message, 'application_inactive', [{ path: 'application_id', code: 'application_inactive', message }]);
    }
    const open = openConnection(ctx, principal.personId, applicationId);
    if (open) return { row: open, created: false };
    return {
      row: insertConnection(ctx, principal.accountId, applicationId, principal.personId, 'person', isoNow(ctx.clock)),
      created: true,
    };
  });
}

/** Suspends an active connection with a reason (the person, or the organisation with `write`). */
export function suspendConnection(ctx: ServerContext, principal: Principal, row: ConnectionRow, reason: string): ConnectionRow {
  return transaction(ctx.db, () => {
    const current = findRow(ctx, row.id)!;
    if (current.status !== 'active') throw illegal(current, 'suspended');
    const now = isoNow(ctx.clock);
    stmt(ctx.db, 'INSERT INTO connection_suspensions (connection_id, reason, suspended_by, suspended_at) VALUES (?, ?, ?, ?)').run(
      current.id,
      reason,
      actorOf(principal),
      now,
    );
    stmt(ctx.db, "UPDATE connections SET status = 'suspended', updated_at = ? WHERE id = ?").run(now, current.id);
    return findRow(ctx, current.id)!;
  });
}

/**
 * Resumes a suspended connection. A suspension is lifted by the party that made it: the person's by the person, the
 * organisation's by the organisation (409 `suspended_by_other_party` otherwise).
 */
export function resumeConnection(ctx: ServerContext, principal: Principal, row: ConnectionRow): ConnectionRow {
  return transaction(ctx.db, () => {
    const current = findRow(ctx, row.id)!;
    if (current.status !== 'suspended') throw illegal(current, 'active');
    const open = stmt<[string], SuspensionRow>(
      ctx.db,
      'SELECT * FROM connection_suspensions WHERE connection_id = ? AND resumed_at IS NULL ORDER BY seq DESC LIMIT 1',
    ).get(current.id);
    const actor = actorOf(principal);
    if (open && open.suspended_by !== actor) {
      throw new ApiError(
        409,
        `The ${open.suspended_by} suspended connection ${current.id}; only the ${open.suspended_by} can resume it.`,
        'suspended_by_other_party',
      );
    }
    const now = isoNow(ctx.clock);
    if (open) stmt(ctx.db, 'UPDATE connection_suspensions SET resumed_by = ?, resumed_at = ? WHERE seq = ?').run(actor, now, open.seq);
    stmt(ctx.db, "UPDATE connections SET status = 'active', updated_at = ? WHERE id = ?").run(now, current.id);
    return findRow(ctx, current.id)!;
  });
}

const list = (items: readonly string[]) => items.join(', ');

/**
 * Disconnects (final): in one transaction, withdraws the consent in force (every granted consent purpose of the
 * latest record per flow; the channel is the person's records or the organisation, by who disconnects), which revokes
 * the credentials attesting it, and revokes the grants in force made through the application or to its agents (with
 * every grant made under them). Answers the warnings that name each thing that stopped working, and the decisions of
 * the application still open for the person, which disconnecting does not answer. 409 once disconnected.
 */
export function disconnectConnection(ctx: ServerContext, principal: Principal, row: ConnectionRow): DisconnectResult {
  return transaction(ctx.db, () => {
    const current = findRow(ctx, row.id)!;
    if (current.status === 'disconnected')
      throw illegal(current, 'disconnected', ' A disconnection is final: connect again for a new connection.');
    const actor = actorOf(principal);
    const now = isoNow(ctx.clock);
    const warnings: string[] = [];
    // The status first, so the withdrawals' own events find the connection already disconnected.
    stmt(
      ctx.db,
      "UPDATE connections SET status = 'disconnected', disconnected_at = ?, disconnected_by = ?, updated_at = ? WHERE id = ?",
    ).run(now, actor, now, current.id);

    const policies = policiesOf(ctx, current);
    const credentialsBefore = stmt<[string], string>(ctx.db, 'SELECT id FROM credentials WHERE application_id = ? AND revoked_at IS NULL')
      .pluck()
      .all(current.application_id) as unknown as string[];
    for (const policy of policies) {
      if (policy.type !== 'consent_record') continue;
      withdrawConsentRecord(ctx, current.account_id, policy.id, {
        purposes: policy.purposes,
        eventChannel: actor === 'person' ? 'person_records' : 'organisation',
      });
      warnings.push(
        `Consent record ${policy.id} (flow ${policy.flow_id}): consent to ${list(policy.purposes)} is withdrawn; the application can no longer rely on it.`,
      );
    }
    if (credentialsBefore.length) {
      const revoked = credentialsBefore.filter(
        (id) => stmt<[string], string | null>(ctx.db, 'SELECT revoked_at FROM credentials WHERE id = ?').pluck().get(id) !== null,
      );
      for (const id of revoked)
        warnings.push(
          `Credential ${id} is revoked with the consent it attested: verifiers see it once their copy of its status list expires.`,
        );
    }

    for (const policy of policies) {
      if (policy.type !== 'delegation_grant') continue;
      const grant = findGrant(ctx, policy.id)!;
      const escalations = stmt<[string], string>(
        ctx.db,
        "SELECT id FROM escalations WHERE grant_id = ? AND status = 'pending' ORDER BY seq",
      )
        .pluck()
        .all(grant.id) as unknown as string[];
      // An API token may revoke any grant of the account; the person revokes their own.
      changeGrantStatus(ctx, principal, grant, 'revoke');
      const delegate = policy.delegate_type === 'agent' ? `agent ${policy.delegate_id}` : `person ${policy.delegate_id}`;
      warnings.push(
        `Delegation grant ${policy.id} to ${delegate} is revoked, with every grant made under it: its tokens stop working now.`,
      );
      if (escalations.length)
        warnings.push(
          `Escalation${escalations.length === 1 ? '' : 's'} ${list(escalations)} under grant ${policy.id} may still be answered, but its agent can no longer act on ${escalations.length === 1 ? 'it' : 'them'}.`,
        );
    }

    const email = stmt<[string], string>(ctx.db, 'SELECT email FROM persons WHERE id = ?').pluck().get(current.person_id) as
      | string
      | undefined;
    if (email) {
      const open = stmt<[string, string, string], { id: string; kind: string; deadline_at: string }>(
        ctx.db,
        `
        SELECT id, kind, deadline_at FROM decisions WHERE application_id = ? AND addressee_email = ? AND deadline_at > ?
           AND status NOT IN (${[...TERMINAL].map((s) => `'${s}'`).join(', ')}) ORDER BY deadline_at`,
      ).all(current.application_id, email, now);
      for (const d of open) {
        warnings.push(
          `Decision ${d.id} (${d.kind}) from this application is still open until ${d.deadline_at}: disconnecting does not answer it${d.kind === 'consent' ? ', and granting it connects you again' : ''}.`,
        );
      }
    }
    if (warnings.length === 0)
      warnings.push('Nothing else depended on this connection: no consent, delegation grant, credential or open decision.');
    return { connection: { id: current.id, status: 'disconnected', disconnected_at: now }, warnings };
  });
}

const followed = new WeakSet<ServerContext>();

/**
 * A consent connects: the first `consent.granted` naming a person (not an anonymous record) with an application
 * opens their connection to it; later consent events mark it active (`last_active_at`). Runs in the record's
 * transaction; it never fails the consent (a failure here is logged and left out). Subscribed once per cell.
 */
export function followConsents(ctx: ServerContext): void {
  if (followed.has(ctx)) return;
  followed.add(ctx);
  const follow = (connect: boolean) => (eventCtx: ServerContext, event: DomainEvent) => {
    const personId = event.data.user_id;
    if (typeof personId !== 'string' || !personId.startsWith('prs_')) return;
    try {
      const open = openConnection(eventCtx, personId, event.application_id);
      if (open) {
        stmt(eventCtx.db, 'UPDATE connections SET last_active_at = ?, updated_at = ? WHERE id = ?').run(
          event.occurred_at,
          event.occurred_at,
          open.id,
        );
        return;
      }
      if (!connect) return;
      const accountId = stmt<[string], string>(eventCtx.db, 'SELECT account_id FROM persons WHERE id = ?').pluck().get(personId) as
        | string
        | undefined;
      if (accountId) insertConnection(eventCtx, accountId, event.application_id, personId, 'consent', event.occurred_at);
    } catch (error) {
      console.error('[svc-server] connections: following a consent failed', error);
    }
  };
  ctx.events.on('consent.granted', follow(true));
  ctx.events.on('consent.denied', follow(false));
}

/** Refuses anything but a person's own access token (a connection is made by the person). */
export function personOnly(principal: Principal, what: string): Extract<Principal, { kind: 'person' }> {
  if (principal.kind !== 'person')
    throw forbidden(`${what} is the person's own: call it with their access token, not an API token.`, 'person_token_required');
  return principal;
}
