// Flow storage. Other modules (decisions, render, captures) read flows only through the functions exported here.
import type { Flow, FlowConfig, FlowVersion } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt, type Db } from '../../infra/db.js';
import { transaction } from '../../infra/transaction.js';
import { unprocessable } from '../../infra/errors.js';
import { newId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';

/** One version of a flow's terms together with the flow it belongs to: what a consent given under it is bound to. */
export interface FlowVersionRecord {
  flow_id: string;
  version: number;
  /** `active` is the version governing new consents; `superseded` versions still govern consents given under them. */
  status: 'draft' | 'active' | 'superseded';
  account_id: string;
  application_id: string;
  pattern: string;
  title: string;
  description: string | null;
  config: FlowConfig;
  created_at: string;
  activated_at: string | null;
  superseded_at: string | null;
}

/** The terms a create or revise call sets. */
export interface FlowTerms {
  title: string;
  description: string | null;
  config: FlowConfig;
}

interface FlowRow {
  seq: number;
  id: string;
  account_id: string;
  application_id: string;
  pattern: string;
  status: 'draft' | 'active';
  version: number;
  active_version: number | null;
  created_at: string;
  updated_at: string;
  activated_at: string | null;
}

interface VersionRow {
  flow_id: string;
  version: number;
  title: string;
  description: string | null;
  config: string;
  created_at: string;
  activated_at: string | null;
  superseded_at: string | null;
}

/** Terms of a flow created without a config: nothing to show until purposes are added. */
export const EMPTY_FLOW_CONFIG: FlowConfig = { locale: 'en', purposes: [], steps: [] };

const selectFlow = 'SELECT * FROM flows WHERE id = ?';
const selectVersion = 'SELECT * FROM flow_versions WHERE flow_id = ? AND version = ?';

function regionOf(applicationId: string): string {
  return /^tp_([a-z]+)_/.exec(applicationId)?.[1] ?? 'dev';
}

function versionStatus(flow: FlowRow, row: VersionRow): FlowVersionRecord['status'] {
  if (row.superseded_at) return 'superseded';
  return flow.status === 'active' && flow.active_version === row.version ? 'active' : 'draft';
}

function toRecord(flow: FlowRow, row: VersionRow): FlowVersionRecord {
  return {
    flow_id: flow.id,
    version: row.version,
    status: versionStatus(flow, row),
    account_id: flow.account_id,
    application_id: flow.application_id,
    pattern: flow.pattern,
    title: row.title,
    description: row.description,
    config: JSON.parse(row.config) as FlowConfig,
    created_at: row.created_at,
    activated_at: row.activated_at,
    superseded_at: row.superseded_at,
  };
}

function toFlow(db: Db, flow: FlowRow): Flow {
  const row = stmt<[string, number], VersionRow>(db, selectVersion).get(flow.id, flow.version);
  if (!row) throw new Error(`flow ${flow.id} lacks version ${flow.version}`);
  return {
    id: flow.id,
    application_id: flow.application_id,
    pattern: flow.pattern,
    status: flow.status,
    version: flow.version,
    active_version: flow.active_version,
    title: row.title,
    description: row.description,
    config: JSON.parse(row.config) as FlowConfig,
    created_at: flow.created_at,
    updated_at: flow.updated_at,
    activated_at: flow.activated_at,
  };
}

function findOwned(db: Db, accountId: string, flowId: string): FlowRow | undefined {
  const flow = stmt<[string], FlowRow>(db, selectFlow).get(flowId);
  return flow && flow.account_id === accountId ? flow : undefined;
}

/** The flow `flowId` as the API shows it, or undefined when it does not exist or belongs to another account. */
export function getFlow(ctx: ServerContext, accountId: string, flowId: string): Flow | undefined {
  const flow = findOwned(ctx.db, accountId, flowId);
  return flow && toFlow(ctx.db, flow);
}

/**
 * The version of `flowId` that governs new consents, or undefined when the flow does not exist or is still a
 * draft (a draft is 404 through its hosted URL and refuses sessions). Callers check `account_id` or
 * `application_id` against the caller themselves.
 */
export function getActiveFlowVersion(ctx: ServerContext, flowId: string): FlowVersionRecord | undefined {
  const flow = stmt<[string], FlowRow>(ctx.db, selectFlow).get(flowId);
  if (!flow || flow.status !== 'active' || flow.active_version === null) return undefined;
  const row = stmt<[string, number], VersionRow>(ctx.db, selectVersion).get(flow.id, flow.active_version);
  return row && toRecord(flow, row);
}

/** A flow as a new decision reads it: its owner and, once active, the terms of its active version as JSON text. */
export interface FlowTermsText {
  flow_id: string;
  account_id: string;
  application_id: string;
  /** The active version; null while the flow is a draft. */
  version: number | null;
  /** `{"title","description","config"}` of the active version; null while the flow is a draft. */
  terms: string | null;
}

/**
 * The flow `flowId` with its active terms in one read, the config left unparsed: it is stored as JSON.stringify
 * wrote it, so spliced in it gives the very text JSON.stringify gives for the parsed terms. Undefined when the flow
 * does not exist; callers check `account_id` or `application_id` themselves.
 */
export function getActiveTermsText(ctx: ServerContext, flowId: string): FlowTermsText | undefined {
  const row = stmt<
    [string],
    {
      id: string;
      account_id: string;
      application_id: string;
      version: number | null;
      title: string;
      description: string | null;
      config: string;
    }
  >(
    ctx.db,
    `SELECT f.id, f.account_id, f.application_id, v.version, v.title, v.description, v.config FROM flows f
       LEFT JOIN flow_versions v ON f.status = 'active' AND v.flow_id = f.id AND v.version = f.active_version WHERE f.id = ?`,
  ).get(flowId);
  if (!row) return undefined;
  const { id, account_id, application_id, version } = row;
  const terms =
    version === null
      ? null
      : `{"title":${JSON.stringify(row.title)},"description":${JSON.stringify(row.description)},"config":${row.config}}`;
  return { flow_id: id, account_id, application_id, version, terms };
}

/**
 * The account's flow `flowId` with every version ever activated, oldest first (each governs the consents given while
 * it was in force), in two reads; undefined when the flow does not exist or belongs to another account.
 */
export function getActivatedVersions(
  ctx: ServerContext,
  accountId: string,
  flowId: string,
): { application_id: string; status: 'draft' | 'active'; active_version: number | null; versions: FlowVersionRecord[] } | undefined {
  const flow = findOwned(ctx.db, accountId, flowId);
  if (!flow) return undefined;
  const rows = stmt<[string], VersionRow>(
    ctx.db,
    'SELECT * FROM flow_versions WHERE flow_id = ? AND activated_at IS NOT NULL ORDER BY version',
  ).all(flow.id);
  return {
    application_id: flow.application_id,
    status: flow.status,
    active_version: flow.active_version,
    versions: rows.map((row) => toRecord(flow, row)),
  };
}

/** One version of a flow (any state), for consents given under earlier terms; undefined when absent. */
export function getFlowVersion(ctx: ServerContext, flowId: string, version: number): FlowVersionRecord | undefined {
  const flow = stmt<[string], FlowRow>(ctx.db, selectFlow).get(flowId);
  if (!flow) return undefined;
  const row = stmt<[string, number], VersionRow>(ctx.db, selectVersion).get(flow.id, version);
  return row && toRecord(flow, row);
}

/** Creates a draft flow (version 1) for an application of the account; its id carries the application's region. */
export function createFlow(ctx: ServerContext, input: { accountId: string; applicationId: string; pattern: string } & FlowTerms): Flow {
  const { db } = ctx;
  const now = isoNow(ctx.clock);
  const id = newId(`flw_${regionOf(input.applicationId)}_`);
  transaction(db, () => {
    stmt(
      db,
      `INSERT INTO flows (id, account_id, application_id, pattern, status, version, created_at, updated_at)
              VALUES (?, ?, ?, ?, 'draft', 1, ?, ?)`,
    ).run(id, input.accountId, input.applicationId, input.pattern, now, now);
    stmt(db, `INSERT INTO flow_versions (flow_id, version, title, description, config, created_at) VALUES (?, 1, ?, ?, ?, ?)`).run(
      id,
      input.title,
      input.description,
      JSON.stringify(input.config),
      now,
    );
  });
  return getFlow(ctx, input.accountId, id)!;
}

function assertActivatable(config: FlowConfig): void {
  if (config.purposes.length === 0) {
    throw unprocessable('A flow needs at least one purpose before it can be active.', 'flow_incomplete', [
      { path: 'flow.config.purposes', code: 'too_small', message: 'at least one purpose is required' },
    ]);
  }
}

/** Activates a draft flow, freezing its current version; activating an active flow changes nothing. */
export function activateFlow(ctx: ServerContext, accountId: string, flowId: string): Flow | undefined {
  const { db } = ctx;
  return transaction(db, () => {
    const flow = findOwned(db, accountId, flowId);
    if (!flow) return undefined;
    if (flow.status === 'active') return toFlow(db, flow);
    const row = stmt<[string, number], VersionRow>(db, selectVersion).get(flow.id, flow.version)!;
    assertActivatable(JSON.parse(row.config) as FlowConfig);
    const now = isoNow(ctx.clock);
    stmt(db, `UPDATE flows SET status = 'active', active_version = version, activated_at = ?, updated_at = ? WHERE id = ?`).run(
      now,
      now,
      flow.id,
    );
    stmt(db, 'UPDATE flow_versions SET activated_at = ? WHERE flow_id = ? AND version = ?').run(now, flow.id, flow.version);
    return getFlow(ctx, accountId, flowId);
  });
}

/**
 * Changes a flow's terms. A draft is edited in place; an active flow publishes version n+1, which governs new
 * consents at once while earlier versions stay readable and keep governing consents given under them. Terms
 * identical to the current ones publish nothing (same content, same version).
 */
export function reviseFlow(ctx: ServerContext, accountId: string, flowId: string, changes: Partial<FlowTerms>): Flow | undefined {
  const { db } = ctx;
  return transaction(db, () => {
    const flow = findOwned(db, accountId, flowId);
    if (!flow) return undefined;
    const current = stmt<[string, number], VersionRow>(db, selectVersion).get(flow.id, flow.version)!;
    const next = {
      title: changes.title ?? current.title,
      description: changes.description !== undefined ? changes.description : current.description,
      config: changes.config ? JSON.stringify(changes.config) : current.config,
    };
    if (next.title === current.title && next.description === current.description && next.config === current.config) {
      return toFlow(db, flow);
    }
    const now = isoNow(ctx.clock);
    if (flow.status === 'draft') {
      stmt(db, 'UPDATE flow_versions SET title = ?, description = ?, config = ? WHERE flow_id = ? AND version = ?').run(
        next.title,
        next.description,
        next.config,
        flow.id,
        flow.version,
      );
      stmt(db, 'UPDATE flows SET updated_at = ? WHERE id = ?').run(now, flow.id);
    } else {
      assertActivatable(JSON.parse(next.config) as FlowConfig);
      const version = flow.version + 1;
      stmt(db, 'UPDATE flow_versions SET superseded_at = ? WHERE flow_id = ? AND version = ?').run(now, flow.id, flow.active_version);
      stmt(
        db,
        `INSERT INTO flow_versions (flow_id, version, title, description, config, created_at, activated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(flow.id, version, next.title, next.description, next.config, now, now);
      stmt(db, 'UPDATE flows SET version = ?, active_version = ?, updated_at = ? WHERE id = ?').run(version, version, now, flow.id);
    }
    return getFlow(ctx, accountId, flowId);
  });
}

/** A page of the account's flows, oldest first. */
export function listFlows(
  ctx: ServerContext,
  accountId: string,
  page: { limit: number; cursor?: string | undefined },
): { flows: Flow[]; next_cursor: string | null } {
  const rows = stmt<[string, number, number], FlowRow>(
    ctx.db,
    'SELECT * FROM flows WHERE account_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  ).all(accountId, decodeCursor(page.cursor), page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return { flows: items.map((r) => toFlow(ctx.db, r)), next_cursor };
}

/** A page of one flow's versions, oldest first; undefined when the flow is not the account's. */
export function listFlowVersions(
  ctx: ServerContext,
  accountId: string,
  flowId: string,
  page: { limit: number; cursor?: string | undefined },
): { flow_versions: FlowVersion[]; next_cursor: string | null } | undefined {
  const flow = findOwned(ctx.db, accountId, flowId);
  if (!flow) return undefined;
  const rows = stmt<[string, number, number], VersionRow>(
    ctx.db,
    'SELECT * FROM flow_versions WHERE flow_id = ? AND version > ? ORDER BY version LIMIT ?',
  ).all(flow.id, decodeCursor(page.cursor), page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.version);
  return { flow_versions: items.map((r) => toWireVersion(toRecord(flow, r))), next_cursor };
}

/** A version record in its wire shape (`flow_version`). */
export function toWireVersion(record: FlowVersionRecord): FlowVersion {
  const { account_id: _a, application_id: _b, pattern: _p, ...wire } = record;
  return wire;
}
