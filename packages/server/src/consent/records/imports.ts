// Bulk import of consent records captured elsewhere. All accepted rows commit in one transaction, so a crash in the
// middle leaves no half import; rows are accepted or refused one by one (Errors rule 10) while the others proceed.
import { IMPORT_MAX_ROWS, importRow, type ConsentImport, type ImportAllowance, type ImportResult } from '@svc/schemas';
import { z } from 'zod/mini';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { unprocessable } from '../../infra/errors.js';
import { homedId } from '../../infra/ids.js';
import { fieldErrors, validate } from '../../infra/validate.js';
import { recordDecisions } from './service.js';
import { FlowTermsResolver } from './terms.js';
import { stmt } from '../../infra/db.js';
import { transaction } from '../../infra/transaction.js';

/** `settings` key of the per-account import allowance (records created by imports); absent means unlimited. */
export const IMPORT_ALLOWANCE_SETTING = 'records.import_allowance';

/**
 * Test hook: with `SVC_TEST_IMPORT_KILL_AFTER_ROWS=N` the server kills itself (SIGKILL) after recording N rows of an
 * import, inside its transaction, so the crash test can show that nothing of the import survives.
 */
export const KILL_AFTER_ROWS_ENV = 'SVC_TEST_IMPORT_KILL_AFTER_ROWS';

// The envelope is checked as a whole; rows one by one, so one bad row is refused by name instead of failing all.
const importEnvelope = z.strictObject({
  flow_id: z.string().check(z.minLength(1), z.maxLength(100)),
  records: z.array(z.unknown()).check(z.minLength(1, 'records must hold at least one row')),
  dry_run: z.optional(z.boolean()),
  send_receipts: z.optional(z.boolean()),
});

interface ImportRowRecord {
  seq: number;
  id: string;
  account_id: string;
  application_id: string;
  flow_id: string;
  status: ConsentImport['status'];
  send_receipts: number;
  row_count: number;
  accepted_count: number;
  refused_count: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  allowance: string;
  results: string;
}

/** The account's import allowance now: unlimited unless the `records.import_allowance` setting (or `SVC_IMPORT_ALLOWANCE`) caps it. */
export function importAllowance(ctx: ServerContext, accountId: string): ImportAllowance {
  const setting =
    stmt<[string], { value: string }>(ctx.db, 'SELECT value FROM settings WHERE key = ?').get(IMPORT_ALLOWANCE_SETTING)?.value ??
    process.env.SVC_IMPORT_ALLOWANCE;
  const limit = setting !== undefined && /^\d+$/.test(setting) ? Number(setting) : undefined;
  if (limit === undefined) return { meter: 'consent_records', state: 'unlimited', remaining: null };
  const used = stmt<[string], { n: number }>(
    ctx.db,
    "SELECT count(*) AS n FROM consent_records WHERE account_id = ? AND channel = 'imported'",
  ).get(accountId)!.n;
  const remaining = Math.max(0, limit - used);
  return { meter: 'consent_records', state: remaining > 0 ? 'available' : 'exhausted', remaining };
}

function toWire(row: ImportRowRecord, dryRun = false): ConsentImport {
  return {
    id: row.id,
    status: row.status,
    dry_run: dryRun,
    row_count: row.row_count,
    accepted_count: row.accepted_count,
    refused_count: row.refused_count,
    flow_id: row.flow_id,
    send_receipts: row.send_receipts === 1,
    started_at: row.started_at,
    finished_at: row.finished_at,
    error: row.error,
    allowance: JSON.parse(row.allowance) as ImportAllowance,
    results: JSON.parse(row.results) as ImportResult[],
  };
}

/** The account's import `id`, or undefined (dry runs are never stored). */
export function getImport(ctx: ServerContext, accountId: string, id: string): ConsentImport | undefined {
  const row = stmt<[string], ImportRowRecord>(ctx.db, 'SELECT * FROM consent_imports WHERE id = ?').get(id);
  return row && row.account_id === accountId ? toWire(row) : undefined;
}

/** Marks imports a previous process left `running` (it stopped mid-import; their transaction never committed) as failed. */
export function recoverInterruptedImports(ctx: ServerContext): number {
  return stmt(
    ctx.db,
    `UPDATE consent_imports SET status = 'failed', finished_at = ?, error = ? WHERE status IN ('pending', 'running')`,
  ).run(isoNow(ctx.clock), 'interrupted: the server stopped during the import; none of its rows were written').changes;
}

class Rollback extends Error {}

/** What one import request runs with, once its envelope, flow and allowance are checked. */
interface ImportPlan {
  ctx: ServerContext;
  accountId: string;
  request: z.infer<typeof importEnvelope>;
  resolver: FlowTermsResolver;
  dryRun: boolean;
  allowance: ImportAllowance;
  /** The import's row as it is stored while it runs. */
  base: ImportRowRecord;
}

/** 422 before anything runs when the request holds more rows than an import may. */
function checkRowCount(body: unknown): void {
  const rows = (body as { records?: unknown } | null)?.records;
  if (Array.isArray(rows) && rows.length > IMPORT_MAX_ROWS) {
    throw unprocessable(`An import holds at most ${IMPORT_MAX_ROWS} rows; this one has ${rows.length}. Split it.`, 'too_many_rows', [
      { path: 'records', code: 'too_many_rows', message: `at most ${IMPORT_MAX_ROWS} rows` },
    ]);
  }
}

/** Checks the envelope and that its flow can take records; the import's row as it starts running. */
function planImport(ctx: ServerContext, accountId: string, body: unknown): ImportPlan {
  checkRowCount(body);
  const request = validate(importEnvelope, body);
  const resolver = new FlowTermsResolver(ctx, accountId, request.flow_id);
  resolver.check();
  const allowance = importAllowance(ctx, accountId);
  const startedAt = isoNow(ctx.clock);
  const base: ImportRowRecord = {
    seq: 0,
    id: homedId(ctx.country, 'imp_', 20),
    account_id: accountId,
    application_id: resolver.versionFor(startedAt).application_id,
    flow_id: request.flow_id,
    status: 'running',
    send_receipts: request.send_receipts ? 1 : 0,
    row_count: request.records.length,
    accepted_count: 0,
    refused_count: 0,
    created_at: startedAt,
    started_at: startedAt,
    finished_at: null,
    error: null,
    allowance: JSON.stringify(allowance),
    results: '[]',
  };
  return { ctx, accountId, request, resolver, dryRun: request.dry_run ?? false, allowance, base };
}

function insertImport(ctx: ServerContext, row: ImportRowRecord): void {
  stmt(
    ctx.db,
    `INSERT INTO consent_imports (id, account_id, application_id, flow_id, status, send_receipts,
    row_count, accepted_count, refused_count, created_at, started_at, finished_at, error, allowance, results)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    row.id,
    row.account_id,
    row.application_id,
    row.flow_id,
    row.status,
    row.send_receipts,
    row.row_count,
    row.accepted_count,
    row.refused_count,
    row.created_at,
    row.started_at,
    row.finished_at,
    row.error,
    row.allowance,
    row.results,
  );
}

/** A row refused before it reached the records: its shape is wrong. */
function invalidRow(raw: unknown, index: number, issues: Parameters<typeof fieldErrors>[0]): ImportResult {
  const capturedAt = (raw as { captured_at?: unknown } | null)?.captured_at;
  return {
    index,
    outcome: 'refused',
    record_id: null,
    code: 'invalid_row',
    purpose: null,
    errors: fieldErrors(issues, ['records', index]),
    captured_at: typeof capturedAt === 'string' ? capturedAt : null,
    recorded_at: null,
  };
}

/** Records (or refuses by name) one row, inside the import's transaction. */
function importOne(plan: ImportPlan, raw: unknown, index: number): ImportResult {
  const parsed = importRow.safeParse(raw);
  if (!parsed.success) return invalidRow(raw, index, parsed.error.issues as Parameters<typeof fieldErrors>[0]);
  const row = parsed.data;
  const { dryRun } = plan;
  const outcome = recordDecisions(
    plan.ctx,
    {
      accountId: plan.accountId,
      flowId: plan.request.flow_id,
      subject: row.subject,
      decisions: row.decisions,
      capturedAt: row.captured_at,
      channel: 'imported',
      idempotencyKey: row.idempotency_key,
      locale: row.locale,
      noticeHash: row.notice_hash,
      importId: plan.base.id,
    },
    plan.resolver,
    { sendReceipt: plan.base.send_receipts === 1, quiet: dryRun },
  );
  if (outcome.kind === 'refused') {
    const first = outcome.refusals[0];
    return {
      index,
      outcome: 'refused',
      record_id: null,
      code: first?.code ?? 'invalid_row',
      purpose: first?.purpose ?? null,
      errors: outcome.errors.map((e) => ({ ...e, path: `records.${index}.${e.path}` })),
      captured_at: row.captured_at,
      recorded_at: null,
    };
  }
  const unsaved = dryRun && outcome.kind === 'created';
  return {
    index,
    outcome: 'accepted',
    record_id: unsaved ? null : outcome.record.id,
    ...(outcome.kind === 'existing' ? { existing: true } : {}),
    code: null,
    purpose: null,
    captured_at: outcome.record.captured_at,
    recorded_at: unsaved ? null : outcome.record.recorded_at,
  };
}

/** Every row in order; the crash test's kill switch fires after its row. */
function importRows(plan: ImportPlan): ImportResult[] {
  const killAfter = Number(process.env[KILL_AFTER_ROWS_ENV] ?? NaN);
  return plan.request.records.map((raw, index) => {
    const result = importOne(plan, raw, index);
    if (!plan.dryRun && index + 1 === killAfter) process.kill(process.pid, 'SIGKILL');
    return result;
  });
}

/** The import's row once it ended: a completed one counts and keeps its results, a failed one none. */
function finished(plan: ImportPlan, results: ImportResult[], status: 'completed' | 'failed', error: string | null): ImportRowRecord {
  const accepted = results.filter((r) => r.outcome === 'accepted').length;
  return {
    ...plan.base,
    status,
    finished_at: isoNow(plan.ctx.clock),
    error,
    accepted_count: status === 'completed' ? accepted : 0,
    refused_count: status === 'completed' ? results.length - accepted : 0,
    results: JSON.stringify(status === 'completed' ? results : []),
  };
}

/** A dry run: the same work in a transaction that always rolls back, so its report is exact and nothing is written. */
function dryRunImport(plan: ImportPlan): ConsentImport {
  let results: ImportResult[] = [];
  try {
    transaction(plan.ctx.db, () => {
      results = importRows(plan);
      throw new Rollback();
    });
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
  }
  return toWire(finished(plan, results, 'completed', null), true);
}

/** Every row in one transaction with the import's final row; on failure, none of the rows and a failed import. */
function storeImport(plan: ImportPlan): ConsentImport {
  const { ctx, base } = plan;
  // The import row is committed first, as running: a crash leaves it behind (failed at the next start), never its rows.
  insertImport(ctx, base);
  try {
    return toWire(
      transaction(ctx.db, () => {
        const completed = finished(plan, importRows(plan), 'completed', null);
        stmt(
          ctx.db,
          `UPDATE consent_imports SET status = ?, finished_at = ?, error = ?, accepted_count = ?, refused_count = ?, results = ? WHERE id = ?`,
        ).run(
          completed.status,
          completed.finished_at,
          completed.error,
          completed.accepted_count,
          completed.refused_count,
          completed.results,
          base.id,
        );
        return completed;
      }),
    );
  } catch (err) {
    // The transaction rolled back: no row of this import was written.
    const failed = finished(
      plan,
      [],
      'failed',
      `failed: ${err instanceof Error ? err.message : String(err)}; none of the rows were written`,
    );
    stmt(ctx.db, 'UPDATE consent_imports SET status = ?, finished_at = ?, error = ? WHERE id = ?').run(
      failed.status,
      failed.finished_at,
      failed.error,
      base.id,
    );
    if (!ctx.db.open) throw err;
    return toWire(failed);
  }
}

/**
 * Runs an import request: 422 before anything runs when it has more than 5000 rows or its flow cannot take
 * records; then the allowance is checked; then every row is recorded or refused by name in one transaction. A dry
 * run does the same work and rolls it back, so its report is exact and nothing is written. Returns the import and
 * whether it was stored (dry runs are not).
 */
export function runImport(ctx: ServerContext, accountId: string, body: unknown): { import: ConsentImport; stored: boolean } {
  const plan = planImport(ctx, accountId, body);
  if (plan.dryRun) return { import: dryRunImport(plan), stored: false };
  const { allowance, base } = plan;
  if (allowance.remaining !== null && base.row_count > allowance.remaining) {
    const error = `allowance_exceeded: the import has ${base.row_count} rows and the allowance has ${allowance.remaining} left; nothing was written`;
    const failed: ImportRowRecord = { ...base, status: 'failed', finished_at: base.started_at, error };
    insertImport(ctx, failed);
    return { import: toWire(failed), stored: true };
  }
  return { import: storeImport(plan), stored: true };
}
