// Evidence packages: signed, independently verifiable snapshots of what the service can state about an account (its
// transfer register, its residency posture, the scope of a leaked credential). The package is a compact JWS (ES256,
// the cell's current key, `kid` in its /.well-known/jwks.json) over JSON that names the audit chain heads the snapshot
// was drawn against, so a verifier can later hold it to the anchored trail. Each package drawn is kept as a row.
import { createHash } from 'node:crypto';
import { CompactSign } from 'jose';
import { isoNow } from '../../../infra/clock.js';
import type { ServerContext } from '../../../infra/context.js';
import { stmt } from '../../../infra/db.js';
import { homedId } from '../../../infra/ids.js';
import { decodeCursor, toPage } from '../../../infra/pagination.js';

/** The JWS `typ` of every evidence package. */
export const EVIDENCE_PACKAGE_TYP = 'svc-evidence+jwt';

/** What POST …/evidence_package answers. */
export interface EvidencePackage {
  evidence_package_id: string;
  format_type: string;
  /** Compact JWS `header.payload.signature`. */
  package: string;
}

/** One application's audit chain head in this cell, and the latest anchor that covers part of it. */
export interface AuditChainHead {
  application_id: string;
  /** Sequence of the newest event (0 when the chain is empty). */
  sequence: number;
  /** Hash of the newest event (null when the chain is empty). */
  head_hash: string | null;
  /** The newest anchor of the chain (null before the first anchoring). */
  anchor_id: string | null;
  /** The last sequence the newest anchor covers (null before the first anchoring). */
  anchored_through: number | null;
  anchor_merkle_root: string | null;
}

/** What the package says it was drawn against: the cell and every audit chain head of the account there. */
export interface AuditAnchorRef {
  country: string;
  chains: AuditChainHead[];
}

/** The audit chain heads of the account's applications in `ctx`'s cell (hashes and positions only). */
export function auditAnchorOf(ctx: ServerContext, accountId: string): AuditAnchorRef {
  const rows = stmt<
    [string],
    {
      application_id: string;
      sequence: number | null;
      hash: string | null;
      anchor_id: string | null;
      sequence_to: number | null;
      merkle_root: string | null;
    }
  >(
    ctx.db,
    `SELECT a.id AS application_id,
            e.sequence, e.hash,
            n.id AS anchor_id, n.sequence_to, n.merkle_root
       FROM applications a
       LEFT JOIN audit_events e ON e.application_id = a.id
         AND e.sequence = (SELECT MAX(sequence) FROM audit_events WHERE application_id = a.id)
       LEFT JOIN audit_anchors n ON n.application_id = a.id
         AND n.seq = (SELECT MAX(seq) FROM audit_anchors WHERE application_id = a.id)
      WHERE a.account_id = ?
      ORDER BY a.id`,
  ).all(accountId);
  return {
    country: ctx.country,
    chains: rows.map((r) => ({
      application_id: r.application_id,
      sequence: r.sequence ?? 0,
      head_hash: r.hash,
      anchor_id: r.anchor_id,
      anchored_through: r.sequence_to,
      anchor_merkle_root: r.merkle_root,
    })),
  };
}

const encoder = new TextEncoder();

/**
 * Signs `body` as an evidence package of `formatType` with the cell's current key and keeps a row of it. The signed
 * payload is `{iss, iat, jti, evidence_package_id, format_type, country, drawn_at, audit_anchor?, ...body}`:
 * `audit_anchor` (the account's chain heads in this cell, see `auditAnchorOf`) is added when `options.accountId` is
 * given and the body does not carry its own. `body` must hold no personal data.
 */
export async function signEvidencePackage(
  ctx: ServerContext,
  formatType: string,
  body: object,
  options: { accountId?: string } = {},
): Promise<EvidencePackage> {
  const id = homedId(ctx.country, 'evp_', 20);
  const drawnAt = (body as { drawn_at?: unknown }).drawn_at;
  const drawn_at = typeof drawnAt === 'string' ? drawnAt : isoNow(ctx.clock);
  // The signer's own members come first and cannot be overridden by the body.
  const reserved = {
    iss: ctx.baseUrl,
    iat: Math.floor(Date.parse(drawn_at) / 1000),
    jti: id,
    evidence_package_id: id,
    format_type: formatType,
    country: ctx.country,
    drawn_at,
  };
  const anchor =
    options.accountId !== undefined && !('audit_anchor' in body) ? { audit_anchor: auditAnchorOf(ctx, options.accountId) } : {};
  const payload: Record<string, unknown> = { ...reserved, ...anchor, ...body, ...reserved };
  const bytes = encoder.encode(JSON.stringify(payload));
  const jws = await new CompactSign(bytes)
    .setProtectedHeader({ alg: 'ES256', kid: ctx.keys.kid, typ: EVIDENCE_PACKAGE_TYP })
    .sign(ctx.keys.privateKey);
  stmt(
    ctx.db,
    `INSERT INTO evidence_packages (id, account_id, format_type, kid, payload_sha256, package, drawn_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, options.accountId ?? null, formatType, ctx.keys.kid, createHash('sha256').update(bytes).digest('hex'), jws, drawn_at);
  return { evidence_package_id: id, format_type: formatType, package: jws };
}

/** A package this cell drew for the account, as it was answered; undefined when absent. */
export function findEvidencePackage(ctx: ServerContext, accountId: string, id: string): EvidencePackage | undefined {
  const row = stmt<[string, string], { id: string; format_type: string; package: string }>(
    ctx.db,
    'SELECT id, format_type, package FROM evidence_packages WHERE id = ? AND account_id = ?',
  ).get(id, accountId);
  return row && { evidence_package_id: row.id, format_type: row.format_type, package: row.package };
}

/** A package as `GET /api/v1/evidence_packages` lists it: no package, only what it is, when, and its key and digest. */
export interface EvidencePackageSummary {
  id: string;
  format_type: string;
  kid: string;
  payload_sha256: string;
  created_at: string;
}

/** A page of the packages this cell drew for the account, newest first; the cursor is the last row's `seq`. */
export function listEvidencePackages(
  ctx: ServerContext,
  accountId: string,
  page: { limit: number; cursor?: string | undefined },
): { evidence_packages: EvidencePackageSummary[]; next_cursor: string | null } {
  const before = page.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(page.cursor);
  const rows = stmt<[string, number, number], EvidencePackageSummary & { seq: number }>(
    ctx.db,
    `SELECT seq, id, format_type, kid, payload_sha256, drawn_at AS created_at FROM evidence_packages
      WHERE account_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
  ).all(accountId, before, page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return { evidence_packages: items.map(({ seq: _seq, ...summary }) => summary), next_cursor };
}
