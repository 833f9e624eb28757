// Breach scope: what a leaked credential could have touched in a window, drawn from what the service records about
// that credential's use, as counts and categories only. The identifier asked about is never returned or echoed (not
// even in an error): the report names it by a one-way fingerprint. Counts come from every cell of the deployment
// through the directory's contexts (aggregates only).
import { createHash } from 'node:crypto';
import type { BreachCoverage, BreachCredentialType, BreachScope } from '@svc/schemas';
import { LAST_USED_RESOLUTION_MS } from '../../../infra/auth.js';
import type { ServerContext } from '../../../infra/context.js';
import type { Db } from '../../../infra/db.js';
import { notFound } from '../../../infra/errors.js';
import { hashSecret } from '../../../infra/ids.js';

/** What is asked: the credential (by its record id or its raw value) and the window, `to` defaulting to now. */
export interface BreachScopeInput {
  credential_type: BreachCredentialType;
  credential_id: string;
  window: { from: string; to?: string | undefined };
}

/** Credentials the service issues whose use it does not record per credential, named in every report's caveats. */
const UNRECORDED_TYPES =
  "Not assessable here: a person's OAuth access and refresh tokens, delegates acting with X-Delegation-Grant-Id, OAuth client secrets, " +
  'webhook signing secrets and form connection secrets; the service does not attribute their use to the credential.';

const iso = (ms: number) => new Date(ms).toISOString();

/** The cells' contexts (this one alone before the directory fills), open ones only. */
function cellContexts(ctx: ServerContext): ServerContext[] {
  const listed = ctx.cells.list().map((c) => c.context);
  return (listed.length > 0 ? listed : [ctx]).filter((c) => c.db.open);
}

function hasTable(db: Db, table: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
}

const countOf = (db: Db, sql: string, ...args: unknown[]): number =>
  (db
    .prepare(sql)
    .pluck()
    .get(...args) as number | null) ?? 0;

/** An interval; `null` when empty. */
type Span = { from: number; to: number } | null;

function intersect(a: Span, from: number, to: number): Span {
  if (!a) return null;
  const f = Math.max(a.from, from);
  const t = Math.min(a.to, to);
  return f <= t ? { from: f, to: t } : null;
}

interface CellCount {
  country: string;
  subjects_affected: number;
  records_count: number;
}

/** Draws the breach scope of one of the account's credentials; 404 when the account has no such credential. */
export function breachScope(ctx: ServerContext, accountId: string, input: BreachScopeInput): BreachScope {
  const now = ctx.clock.now();
  const from = Date.parse(input.window.from);
  const to = input.window.to === undefined ? now : Date.parse(input.window.to);
  const window = { from: iso(from), to: iso(to) };
  const credential = {
    type: input.credential_type,
    fingerprint: `sha256:${createHash('sha256').update(input.credential_id, 'utf8').digest('hex')}`,
  };
  const drawn =
    input.credential_type === 'api_token'
      ? apiTokenScope(ctx, accountId, input.credential_id, from, to, now)
      : input.credential_type === 'agent_token'
        ? agentTokenScope(ctx, accountId, input.credential_id, from, to, now)
        : publishableKeyScope(ctx, accountId, input.credential_id, from, to);
  return {
    credential,
    window,
    used_in_window: drawn.used,
    subjects_affected: drawn.cells.reduce((n, c) => n + c.subjects_affected, 0),
    records_count: drawn.cells.reduce((n, c) => n + c.records_count, 0),
    coverage: drawn.coverage,
    caveats: [...drawn.caveats, UNRECORDED_TYPES],
    events_by_type: drawn.events,
    scopes_involved: drawn.scopes,
    countries: drawn.cells,
  };
}

interface Drawn {
  used: boolean;
  cells: CellCount[];
  coverage: BreachCoverage;
  caveats: string[];
  events: Record<string, number>;
  scopes: string[];
}

// ---- API tokens ----------------------------------------------------------------------------------------------------

interface ApiTokenRow {
  id: string;
  permissions: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

/**
 * An API token reaches the whole account (every cell: the control plane makes one token work everywhere). The service
 * records its last use (`last_used_at`, written at most once a minute) and names it on agent identity changes; it does
 * not attribute reads or other writes to a token. So: a token whose last recorded use lies before the window (or that
 * was not valid in it) did nothing in it; otherwise the report counts everything it could reach while valid, an upper
 * bound.
 */
function apiTokenScope(ctx: ServerContext, accountId: string, identifier: string, from: number, to: number, now: number): Drawn {
  const byId = /^api_token_[A-Za-z0-9]{1,64}$/.test(identifier);
  const row = ctx.db
    .prepare(`SELECT id, permissions, created_at, expires_at, last_used_at, revoked_at FROM api_tokens
    WHERE account_id = ? AND ${byId ? 'id = ?' : 'token_hash = ?'}`)
    .get(accountId, byId ? identifier : hashSecret(identifier)) as ApiTokenRow | undefined;
  if (!row) throw notFound('No API token of this account matches the credential given.');
  const permissions = JSON.parse(row.permissions) as string[];
  const validTo = Math.min(
    now,
    row.revoked_at ? Date.parse(row.revoked_at) : Infinity,
    row.expires_at ? Date.parse(row.expires_at) : Infinity,
  );
  const valid = intersect({ from: Date.parse(row.created_at), to: validTo }, from, to);
  // The stored last use lags the true last use by less than the write resolution.
  const lastUse = row.last_used_at ? Date.parse(row.last_used_at) + LAST_USED_RESOLUTION_MS : null;
  const used = valid !== null && lastUse !== null && lastUse >= valid.from;
  const events: Record<string, number> = {};
  const cells: CellCount[] = [];
  for (const cell of cellContexts(ctx)) {
    const db = cell.db;
    const end = used && valid ? iso(valid.to) : null;
    const subjects = end ? countOf(db, 'SELECT COUNT(*) FROM persons WHERE account_id = ? AND created_at <= ?', accountId, end) : 0;
    let records = 0;
    if (end) {
      for (const table of ['consent_records', 'authorization_records', 'notice_records']) {
        if (hasTable(db, table))
          records += countOf(db, `SELECT COUNT(*) FROM ${table} WHERE account_id = ? AND recorded_at <= ?`, accountId, end);
      }
    }
    cells.push({ country: cell.country, subjects_affected: subjects, records_count: records });
    if (valid) {
      // Changes the service attributes to the token (agent identity changes, manifest pins), by type.
      const rows = db
        .prepare(`SELECT e.type, COUNT(*) AS n FROM activity_events e JOIN applications a ON a.id = e.application_id
        WHERE a.account_id = ? AND json_valid(e.data) AND json_extract(e.data, '$.api_token_id') = ? AND e.created_at BETWEEN ? AND ?
        GROUP BY e.type`)
        .all(accountId, row.id, iso(valid.from), iso(valid.to)) as { type: string; n: number }[];
      for (const r of rows) events[r.type] = (events[r.type] ?? 0) + r.n;
    }
  }
  const caveats = [
    "API tokens: the service records a token's last use (at most once a minute) and names it on agent identity changes and manifest pins; " +
      'it does not attribute reads or other writes to a token. When the token may have been used in the window, subjects_affected and ' +
      'records_count are everything of the account it could read while valid (an upper bound), in every country.',
  ];
  if (!valid) caveats.push('The token was not valid at any time in the window (created after it, or revoked or expired before it).');
  else if (!used) caveats.push("The token's last recorded use precedes the window: it was not used in the window.");
  if (used && permissions.includes('admin')) {
    caveats.push(
      'The token held admin: it could have issued further API tokens; draw their scope too (tokens created in the window are counted in events_by_type).',
    );
    events['api_token.created_in_window'] = countOf(
      ctx.db,
      'SELECT COUNT(*) FROM api_tokens WHERE account_id = ? AND id <> ? AND created_at BETWEEN ? AND ?',
      accountId,
      row.id,
      iso(valid!.from),
      iso(valid!.to),
    );
  }
  return { used, cells, coverage: 'partly_recorded', caveats, events, scopes: permissions };
}

// ---- Agent tokens --------------------------------------------------------------------------------------------------

interface AgentTokenRow {
  id: string;
  grant_id: string;
  agent_id: string;
  scopes: string;
  issued_at: string;
  expires_at: string;
  principal_id: string;
  revoked_at: string | null;
}

/**
 * An agent token acts for one principal under one grant: it can check and exercise authority, ask for escalations,
 * record disclosures, and read its principal's consent status and its own escalations. Authority checks, escalations
 * and disclosures are recorded per grant and agent (not per token: several tokens of one grant overlap); reads are not
 * recorded. The token lives in the grant's home cell, and so does everything it reaches.
 */
function agentTokenScope(ctx: ServerContext, accountId: string, identifier: string, from: number, to: number, now: number): Drawn {
  const byId = /^agtok_[A-Za-z0-9]{1,64}$/.test(identifier);
  let found: { cell: ServerContext; row: AgentTokenRow } | undefined;
  for (const cell of cellContexts(ctx)) {
    const row = cell.db
      .prepare(`SELECT t.id, t.grant_id, t.agent_id, t.scopes, t.issued_at, t.expires_at, g.principal_id, g.revoked_at
      FROM agent_tokens t JOIN delegation_grants g ON g.id = t.grant_id
      WHERE g.account_id = ? AND ${byId ? 't.id = ?' : 't.token_hash = ?'}`)
      .get(accountId, byId ? identifier : hashSecret(identifier)) as AgentTokenRow | undefined;
    if (row) {
      found = { cell, row };
      break;
    }
  }
  if (!found) throw notFound('No agent token of this account matches the credential given.');
  const { cell, row } = found;
  const db = cell.db;
  const validTo = Math.min(now, Date.parse(row.expires_at), row.revoked_at ? Date.parse(row.revoked_at) : Infinity);
  const valid = intersect({ from: Date.parse(row.issued_at), to: validTo }, from, to);
  const events: Record<string, number> = {};
  const scopes = new Set(JSON.parse(row.scopes) as string[]);
  let records = 0;
  if (valid) {
    const span = [iso(valid.from), iso(valid.to)] as const;
    const actions = db
      .prepare(`SELECT outcome, scope, COUNT(*) AS n FROM authority_actions WHERE grant_id = ? AND agent_id = ? AND at BETWEEN ? AND ?
      GROUP BY outcome, scope`)
      .all(row.grant_id, row.agent_id, ...span) as { outcome: string; scope: string; n: number }[];
    for (const a of actions) {
      events[`authority.${a.outcome}`] = (events[`authority.${a.outcome}`] ?? 0) + a.n;
      scopes.add(a.scope);
    }
    const escalations = countOf(
      db,
      'SELECT COUNT(*) FROM escalations WHERE grant_id = ? AND agent_id = ? AND created_at BETWEEN ? AND ?',
      row.grant_id,
      row.agent_id,
      ...span,
    );
    if (escalations) events['escalation.requested'] = escalations;
    const notices = hasTable(db, 'notice_records')
      ? countOf(
          db,
          'SELECT COUNT(*) FROM notice_records WHERE account_id = ? AND agent_id = ? AND recorded_at BETWEEN ? AND ?',
          accountId,
          row.agent_id,
          ...span,
        )
      : 0;
    if (notices) events['notice_record.recorded'] = notices;
    // What it could read (its principal's consent records, through their consent status) and what it wrote.
    records =
      countOf(
        db,
        'SELECT COUNT(*) FROM consent_records WHERE account_id = ? AND person_id = ? AND recorded_at <= ?',
        accountId,
        row.principal_id,
        span[1],
      ) + notices;
  }
  const used = Object.keys(events).length > 0;
  const caveats = [
    'Agent tokens: authority checks, escalations and disclosures are recorded per delegation grant and agent, not per token (tokens exchanged ' +
      "from the same grant are not told apart); reading the principal's consent status, an escalation or whoami is not recorded. " +
      "subjects_affected is the grant's principal while the token was valid; records_count is the principal's consent records it could read " +
      'plus the notice records recorded for the agent in the window.',
    'Suspensions of the grant or the agent inside the window are not subtracted (an upper bound).',
  ];
  if (!valid) caveats.push('The token was not valid at any time in the window (issued after it, or expired or revoked before it).');
  return {
    used,
    cells: [{ country: cell.country, subjects_affected: valid ? 1 : 0, records_count: records }],
    coverage: 'partly_recorded',
    caveats,
    events,
    scopes: [...scopes].sort(),
  };
}

// ---- Publishable keys ----------------------------------------------------------------------------------------------

/**
 * A publishable key is public by design (it sits in page source): it reads no personal data. It can create decision
 * sessions, render flows and post captures for its application, and commit a capture from the browser when the
 * application allows it. Captures and browser commits are recorded per application (every capture is posted with a
 * publishable key); decision sessions it creates are not told apart from those made with API tokens.
 */
function publishableKeyScope(ctx: ServerContext, accountId: string, identifier: string, from: number, to: number): Drawn {
  const key = /^pk_(test|live)_[A-Za-z0-9]{8,64}$/.test(identifier)
    ? (ctx.db
        .prepare(`SELECT k.application_id, k.created_at, k.revoked_at FROM publishable_keys k JOIN applications a ON a.id = k.application_id
        WHERE k.key = ? AND a.account_id = ?`)
        .get(identifier, accountId) as { application_id: string; created_at: string; revoked_at: string | null } | undefined)
    : undefined;
  if (!key) throw notFound('No publishable key of this account matches the credential given.');
  const valid = intersect({ from: Date.parse(key.created_at), to: key.revoked_at ? Date.parse(key.revoked_at) : Infinity }, from, to);
  const keys = countOf(ctx.db, 'SELECT COUNT(*) FROM publishable_keys WHERE application_id = ?', key.application_id);
  const events: Record<string, number> = {};
  const cells: CellCount[] = [];
  for (const cell of cellContexts(ctx)) {
    const db = cell.db;
    if (!valid) {
      cells.push({ country: cell.country, subjects_affected: 0, records_count: 0 });
      continue;
    }
    const span = [iso(valid.from), iso(valid.to)] as const;
    const captures = countOf(
      db,
      'SELECT COUNT(*) FROM captures WHERE application_id = ? AND captured_at BETWEEN ? AND ?',
      key.application_id,
      ...span,
    );
    if (captures) events['capture.created'] = (events['capture.created'] ?? 0) + captures;
    // Browser commits: records the key itself wrote, naming a subject.
    const committed = db
      .prepare(`SELECT COUNT(*) AS records, COUNT(DISTINCT person_id) AS subjects FROM consent_records
      WHERE application_id = ? AND channel LIKE '%\\_browser' ESCAPE '\\' AND recorded_at BETWEEN ? AND ?`)
      .get(key.application_id, ...span) as { records: number; subjects: number };
    if (committed.records) events['capture.committed_from_browser'] = (events['capture.committed_from_browser'] ?? 0) + committed.records;
    cells.push({ country: cell.country, subjects_affected: committed.subjects, records_count: committed.records });
  }
  const caveats = [
    'Publishable keys read no personal data. Captures and browser commits are recorded per application, so they are counted for every ' +
      'publishable key of the application; decision sessions created with the key and flow renders are not attributed to it.',
    'subjects_affected and records_count are the consent records the key committed from the browser (it names their subject) in the window.',
  ];
  if (keys > 1) caveats.push(`The application has ${keys} publishable keys; its captures are not told apart by key.`);
  if (!valid) caveats.push('The key did not exist or was revoked for the whole window.');
  return {
    used: Object.keys(events).length > 0,
    cells,
    coverage: 'partly_recorded',
    caveats,
    events,
    scopes: ['decisions:create', 'captures:create', 'render:read'],
  };
}
