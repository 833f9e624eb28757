// An account's product modules and governance settings (organisation configuration: the control plane, the same in
// every cell). Every change is appended to the account's governance change log with its actor and each value's from
// and to, in the transaction that makes it.
import {
  governanceSettings,
  MODULE_KEYS,
  type Governance,
  type GovernanceChange,
  type GovernanceSettings,
  type ModuleKey,
  type ProductModule,
  type UpdateGovernanceRequest,
} from '@svc/schemas';
import { assertCountryCell } from '../../infra/cells/routing.js';
import { isoNow } from '../../infra/clock.js';
import type { Principal, ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { ApiError, unprocessable } from '../../infra/errors.js';
import { newId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { transaction } from '../../infra/transaction.js';

/** What each module is: its name, a line on what it does, and the path families (the spec's) it covers. */
export const MODULES: Record<ModuleKey, { name: string; description: string; surfaces: string[] }> = {
  connect: {
    name: 'Connect',
    description: 'Applications, device links, trust pairings and connections between people and applications.',
    surfaces: ['/applications', '/device_links', '/trust_pairings', '/connections'],
  },
  verify: {
    name: 'Verify',
    description: 'Verifiable credentials and their presentations, trust scores and vouches.',
    surfaces: ['/credentials', '/presentations', '/trust_scores', '/vouches'],
  },
  protect: {
    name: 'Protect',
    description: 'Policies, data subject requests, data licenses and data offers.',
    surfaces: ['/policies', '/data_requests', '/data_licenses', '/data_offers'],
  },
  agree: {
    name: 'Agree',
    description: 'Agreements, multi-party agreements, decisions and collaborations.',
    surfaces: ['/agreements', '/multi_party_agreements', '/decisions', '/collaborations'],
  },
  delegate: {
    name: 'Delegate',
    description: 'Delegations, agent identities, application agents, authorities and their receipts.',
    surfaces: [
      '/delegations',
      '/agent_identities',
      '/application_agents',
      '/authorities',
      '/authorization_receipts',
      '/disclosure_receipts',
    ],
  },
  comply: {
    name: 'Comply',
    description: 'Transfer register, residency posture, modules, governance, evidence packages, clean rooms and meeting consents.',
    surfaces: [
      '/transfer_register',
      '/residency_posture',
      '/modules',
      '/governance',
      '/evidence_packages',
      '/clean_rooms',
      '/meeting_consents',
    ],
  },
};

interface ModuleRow {
  account_id: string;
  key: ModuleKey;
  enabled: number;
  enabled_at: string | null;
  disabled_at: string | null;
  updated_at: string;
}

/** Who made a change, as the log records it. */
function actorOf(principal: Principal): { kind: string; id: string } {
  switch (principal.kind) {
    case 'api_token':
      // A change made in the console is its account user's, not the short-lived token's.
      return principal.accountUser ? { kind: 'account_user', id: principal.accountUser.id } : { kind: 'api_token', id: principal.tokenId };
    case 'person':
      return { kind: 'person', id: principal.personId };
    case 'agent':
      return { kind: 'agent', id: principal.agentId };
    default:
      return { kind: 'publishable_key', id: principal.key };
  }
}

function accountCreatedAt(ctx: ServerContext, accountId: string): string {
  return (
    (stmt<[string], string>(ctx.db, 'SELECT created_at FROM accounts WHERE id = ?').pluck().get(accountId) as string | undefined) ??
    isoNow(ctx.clock)
  );
}

function toModule(key: ModuleKey, row: ModuleRow | undefined, createdAt: string): ProductModule {
  const { name, description, surfaces } = MODULES[key];
  const enabled = row ? row.enabled === 1 : true;
  return {
    key,
    name,
    description,
    enabled,
    enabled_at: enabled ? (row?.enabled_at ?? createdAt) : null,
    disabled_at: row?.disabled_at ?? null,
    surfaces,
  };
}

/** Whether `key` names a module. */
export function isModuleKey(key: string): key is ModuleKey {
  return (MODULE_KEYS as readonly string[]).includes(key);
}

/** Every module of the account, in the spec's order. */
export function listModules(ctx: ServerContext, accountId: string): ProductModule[] {
  const rows = new Map(
    stmt<[string], ModuleRow>(ctx.db, 'SELECT * FROM account_modules WHERE account_id = ?')
      .all(accountId)
      .map((r) => [r.key, r]),
  );
  const createdAt = accountCreatedAt(ctx, accountId);
  return MODULE_KEYS.map((key) => toModule(key, rows.get(key), createdAt));
}

/** A page of the modules (a fixed list of six, paged like every list). */
export function pageModules(ctx: ServerContext, accountId: string, limit: number, cursor: string | undefined) {
  const after = decodeCursor(cursor);
  const all = listModules(ctx, accountId)
    .map((module, index) => ({ module, seq: index + 1 }))
    .filter((m) => m.seq > after);
  const { items, next_cursor } = toPage(all.slice(0, limit + 1), limit, (m) => m.seq);
  return { modules: items.map((m) => m.module), next_cursor };
}

/** The module `key` of the account. */
export function getModule(ctx: ServerContext, accountId: string, key: ModuleKey): ProductModule {
  return listModules(ctx, accountId).find((m) => m.key === key)!;
}

/** Whether the account has the module enabled. */
export function moduleEnabled(ctx: ServerContext, accountId: string, key: ModuleKey): boolean {
  const enabled = stmt<[string, string], number>(ctx.db, 'SELECT enabled FROM account_modules WHERE account_id = ? AND key = ?')
    .pluck()
    .get(accountId, key) as number | undefined;
  return enabled === undefined || enabled === 1;
}

/** Refuses with 403 `module_disabled` while the account has the module disabled. */
export function requireModule(ctx: ServerContext, accountId: string, key: ModuleKey): void {
  if (!moduleEnabled(ctx, accountId, key)) {
    throw new ApiError(
      403,
      `The ${MODULES[key].name} module is disabled for this account; an admin enables it with PATCH /api/v1/modules/${key}.`,
      'module_disabled',
    );
  }
}

function logChange(
  ctx: ServerContext,
  accountId: string,
  principal: Principal,
  type: GovernanceChange['type'],
  changes: GovernanceChange['changes'],
  at: string,
): void {
  const actor = actorOf(principal);
  stmt(
    ctx.db,
    'INSERT INTO governance_changes (id, account_id, type, changes, actor_kind, actor_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(newId('gch_', 20), accountId, type, JSON.stringify(changes), actor.kind, actor.id, at);
}

/** Enables or disables a module; the same value again changes nothing and logs nothing. */
export function setModule(ctx: ServerContext, accountId: string, principal: Principal, key: ModuleKey, enabled: boolean): ProductModule {
  const current = getModule(ctx, accountId, key);
  if (current.enabled === enabled) return current;
  const now = isoNow(ctx.clock);
  transaction(ctx.db, () => {
    stmt(
      ctx.db,
      `INSERT INTO account_modules (account_id, key, enabled, enabled_at, disabled_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (account_id, key) DO UPDATE SET enabled = excluded.enabled,
        enabled_at = CASE WHEN excluded.enabled = 1 THEN excluded.updated_at ELSE account_modules.enabled_at END,
        disabled_at = CASE WHEN excluded.enabled = 0 THEN excluded.updated_at ELSE account_modules.disabled_at END,
        updated_at = excluded.updated_at`,
    ).run(accountId, key, enabled ? 1 : 0, enabled ? now : current.enabled_at, enabled ? null : now, now);
    logChange(
      ctx,
      accountId,
      principal,
      enabled ? 'module.enabled' : 'module.disabled',
      { [`modules.${key}.enabled`]: { from: !enabled, to: enabled } },
      now,
    );
  });
  return getModule(ctx, accountId, key);
}

interface GovernanceRow {
  settings: string;
  updated_at: string;
  updated_by: string | null;
}

/** The account's governance settings, defaults filling what was never set. */
export function governanceOf(ctx: ServerContext, accountId: string): GovernanceSettings {
  const row = stmt<[string], GovernanceRow>(
    ctx.db,
    'SELECT settings, updated_at, updated_by FROM governance_settings WHERE account_id = ?',
  ).get(accountId);
  const parsed = governanceSettings.safeParse(row ? JSON.parse(row.settings) : {});
  // A stored value a later version no longer accepts falls back to the defaults rather than failing every read.
  return parsed.success ? parsed.data : governanceSettings.parse({});
}

/** The governance wire shape. */
export function getGovernance(ctx: ServerContext, accountId: string): Governance {
  const row = stmt<[string], GovernanceRow>(
    ctx.db,
    'SELECT settings, updated_at, updated_by FROM governance_settings WHERE account_id = ?',
  ).get(accountId);
  return { ...governanceOf(ctx, accountId), updated_at: row?.updated_at ?? null, updated_by: row?.updated_by ?? null };
}

/** The account's flow `id` when it is active, else why not (for the meeting template). */
export function activeFlowOf(ctx: ServerContext, accountId: string, id: string): 'active' | 'draft' | undefined {
  const status = stmt<[string, string], string>(ctx.db, 'SELECT status FROM flows WHERE id = ? AND account_id = ?')
    .pluck()
    .get(id, accountId) as string | undefined;
  return status === undefined ? undefined : status === 'active' ? 'active' : 'draft';
}

/** Refuses a template that is not an active flow of the account, naming `path`. */
export function assertTemplate(ctx: ServerContext, accountId: string, id: string, path: string): void {
  const state = activeFlowOf(ctx, accountId, id);
  if (state === 'active') return;
  const code = state === undefined ? 'template_not_found' : 'template_not_active';
  const message =
    state === undefined ? `${id} is not a flow of this account.` : `${id} is a draft flow: a meeting's template must be an active flow.`;
  throw unprocessable(message, code, [{ path, code, message }]);
}

/**
 * Changes the named settings (admin), checking what the schema cannot: every allowed country is a cell the service
 * runs, and the default meeting template is an active flow of the account. Logs one `governance.updated` entry with
 * each setting that changed; a request that changes nothing logs nothing.
 */
export function updateGovernance(
  ctx: ServerContext,
  accountId: string,
  principal: Principal,
  patch: UpdateGovernanceRequest['governance'],
): Governance {
  patch.allowed_countries?.forEach((country, i) => assertCountryCell(ctx, country, `governance.allowed_countries.${i}`));
  if (typeof patch.default_meeting_template === 'string')
    assertTemplate(ctx, accountId, patch.default_meeting_template, 'governance.default_meeting_template');
  const current = governanceOf(ctx, accountId);
  const next = { ...current } as Record<string, unknown>;
  const changes: GovernanceChange['changes'] = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const before = (current as Record<string, unknown>)[key];
    if (JSON.stringify(before) === JSON.stringify(value)) continue;
    changes[key] = { from: before, to: value };
    next[key] = value;
  }
  if (Object.keys(changes).length === 0) return getGovernance(ctx, accountId);
  const now = isoNow(ctx.clock);
  const actor = actorOf(principal);
  transaction(ctx.db, () => {
    stmt(
      ctx.db,
      `INSERT INTO governance_settings (account_id, settings, updated_at, updated_by) VALUES (?, ?, ?, ?)
      ON CONFLICT (account_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    ).run(accountId, JSON.stringify(next), now, `${actor.kind}:${actor.id}`);
    logChange(ctx, accountId, principal, 'governance.updated', changes, now);
  });
  return getGovernance(ctx, accountId);
}

interface ChangeRow {
  seq: number;
  id: string;
  type: GovernanceChange['type'];
  changes: string;
  actor_kind: string;
  actor_id: string;
  created_at: string;
}

/** A page of the account's governance change log, oldest first (newest first when `newest`). */
export function listGovernanceChanges(ctx: ServerContext, accountId: string, limit: number, cursor: string | undefined, newest = false) {
  // Newest first pages down from the cursor's change (from the end without one).
  const rows = newest
    ? stmt<[string, number, number], ChangeRow>(
        ctx.db,
        'SELECT * FROM governance_changes WHERE account_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
      ).all(accountId, cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(cursor), limit + 1)
    : stmt<[string, number, number], ChangeRow>(
        ctx.db,
        'SELECT * FROM governance_changes WHERE account_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      ).all(accountId, decodeCursor(cursor), limit + 1);
  const { items, next_cursor } = toPage(rows, limit, (r) => r.seq);
  return {
    governance_changes: items.map(
      (r): GovernanceChange => ({
        id: r.id,
        type: r.type,
        changes: JSON.parse(r.changes) as GovernanceChange['changes'],
        actor: { kind: r.actor_kind, id: r.actor_id },
        created_at: r.created_at,
      }),
    ),
    next_cursor,
  };
}
