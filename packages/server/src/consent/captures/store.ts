// Capture storage: one row per capture, found by the SHA-256 of its capture token.
import type { CaptureChannel, DecisionEntry, WordingVerdict } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt, type Db } from '../../infra/db.js';
import { hashSecret } from '../../infra/ids.js';
import type { IssuedOutcome } from '../records/attestation.js';

/** How long an uncommitted capture token can be committed (spec Limits: 24 hours, server clock). */
export const CAPTURE_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

/** An expired capture row is kept this long (so a late commit hears "expired"), then deleted. */
export const EXPIRED_CAPTURE_RETENTION_SECONDS = 30 * 24 * 60 * 60;

/** A stored capture. JSON columns are parsed by {@link parseCapture}. */
export interface CaptureRow {
  id: string;
  token_hash: string;
  account_id: string;
  application_id: string;
  flow_id: string;
  flow_version: number;
  channel: CaptureChannel;
  status: 'pending' | 'committed' | 'expired';
  decisions: string;
  outcomes: string;
  locale: string | null;
  form_id: string | null;
  page_url: string | null;
  origin: string | null;
  notice_hash: string | null;
  notice_hashes: string | null;
  wording_verdict: WordingVerdict;
  wording: string | null;
  snapshot: string | null;
  rendering_evidence: string | null;
  record_id: string | null;
  captured_at: string;
  expires_at: string;
  committed_at: string | null;
}

/** The parsed JSON columns of a capture. */
export interface ParsedCapture {
  decisions: Record<string, DecisionEntry>;
  outcomes: IssuedOutcome[];
  notice_hashes: Record<string, string> | undefined;
  rendering_evidence: Record<string, unknown> | undefined;
}

/** Parses a row's JSON columns. */
export function parseCapture(row: CaptureRow): ParsedCapture {
  return {
    decisions: JSON.parse(row.decisions) as Record<string, DecisionEntry>,
    outcomes: JSON.parse(row.outcomes) as IssuedOutcome[],
    notice_hashes: row.notice_hashes ? (JSON.parse(row.notice_hashes) as Record<string, string>) : undefined,
    rendering_evidence: row.rendering_evidence ? (JSON.parse(row.rendering_evidence) as Record<string, unknown>) : undefined,
  };
}

/** Inserts a capture; `token` is stored only as its hash. */
export function insertCapture(ctx: ServerContext, token: string, row: Omit<CaptureRow, 'token_hash'>): void {
  stmt(
    ctx.db,
    `INSERT INTO captures (id, token_hash, account_id, application_id, flow_id, flow_version, channel, status, decisions,
      outcomes, locale, form_id, page_url, origin, notice_hash, notice_hashes, wording_verdict, wording, snapshot,
      rendering_evidence, record_id, captured_at, expires_at, committed_at)
    VALUES (@id, @token_hash, @account_id, @application_id, @flow_id, @flow_version, @channel, @status, @decisions, @outcomes,
      @locale, @form_id, @page_url, @origin, @notice_hash, @notice_hashes, @wording_verdict, @wording, @snapshot,
      @rendering_evidence, @record_id, @captured_at, @expires_at, @committed_at)`,
  ).run({ ...row, token_hash: hashSecret(token) });
}

/** The capture behind a capture token, or undefined. */
export function findCaptureByToken(ctx: ServerContext, token: string): CaptureRow | undefined {
  return stmt<[string], CaptureRow>(ctx.db, 'SELECT * FROM captures WHERE token_hash = ?').get(hashSecret(token));
}

/** Marks a capture committed with its record. */
export function markCommitted(ctx: ServerContext, id: string, recordId: string, channel: CaptureChannel, at: string): void {
  stmt(ctx.db, "UPDATE captures SET status = 'committed', record_id = ?, channel = ?, committed_at = ? WHERE id = ?").run(
    recordId,
    channel,
    at,
    id,
  );
}

/**
 * Expires uncommitted captures past their 24 hours: they leave no record, and their snapshot, page URL and form id
 * are wiped at once. Rows expired longer than the retention are deleted.
 * Runs on every capture and commit, so expiry follows the server clock (and the test clock) without a timer.
 */
export function sweepCaptures(ctx: ServerContext): void {
  const now = isoNow(ctx.clock);
  stmt(
    ctx.db,
    `UPDATE captures SET status = 'expired', snapshot = NULL, page_url = NULL, form_id = NULL
      WHERE status = 'pending' AND expires_at <= ?`,
  ).run(now);
  const cutoff = new Date(ctx.clock.now() - EXPIRED_CAPTURE_RETENTION_SECONDS * 1000).toISOString();
  stmt(ctx.db, "DELETE FROM captures WHERE status = 'expired' AND expires_at <= ?").run(cutoff);
}
