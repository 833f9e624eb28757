// Anchoring: every fifteen minutes of the server clock, each application's new audit events are summed up in an
// RFC 6962 Merkle root, signed with the server's versioned ES256 key, linked to the previous anchor and sent to the
// witness, whose countersignature is stored as an AnchorReceipt.
import { anchorSigningInput, type AnchorReceipt, type AuditAnchor } from '@svc/schemas';
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { newId } from '../../infra/ids.js';
import { decodeCursor, toPage } from '../../infra/pagination.js';
import { signJcs } from '../receipts/sign.js';
import { stmt } from '../../infra/db.js';
import { transaction } from '../../infra/transaction.js';
import { unanchoredEvents } from './chain.js';
import { auditMerkleRoot } from './merkle.js';
import { hasDueReceipts, nextAttemptAt, retryDueReceipts } from './retry.js';
import { ANCHOR_FORMAT, ANCHOR_INTERVAL_SECONDS, askWitness, type Witness, type WitnessAnswer } from './witness.js';
import { witnessesOf } from './witnesses.js';

/** The anchor `type`: a Merkle root over event hashes. */
export const ANCHOR_TYPE = 'rfc6962_merkle_root';

interface AnchorRow {
  seq: number;
  id: string;
  application_id: string;
  type: string;
  format_version: string;
  merkle_root: string;
  signature: string;
  key_version: string;
  issuer_id: string | null;
  issuer_key_fingerprint: string | null;
  previous_anchor_id: string | null;
  record_count: number;
  sequence_from: number | null;
  sequence_to: number | null;
  created_at: string;
}

function toWire({ seq: _seq, ...row }: AnchorRow): AuditAnchor {
  return row;
}

/**
 * The version of the server key `kid`: its position in the JWKS counted from the oldest key (1 for the first key
 * the server ever made). The JWKS lists every key ever used, so a version never changes meaning.
 */
export function keyVersionOf(ctx: ServerContext, kid: string): string {
  const keys = ctx.keys.jwks.keys;
  const index = keys.findIndex((k) => k.kid === kid);
  return String(index < 0 ? 1 : keys.length - index);
}

// One anchoring or retry run at a time per server: a run signs and asks witnesses between reading and writing.
const running = new WeakMap<ServerContext, Promise<unknown>>();

function serialized<T>(ctx: ServerContext, run: () => Promise<T>): Promise<T> {
  const next = (running.get(ctx) ?? Promise.resolve()).catch(() => undefined).then(run);
  running.set(ctx, next);
  return next;
}

/** Anchors every application's unanchored events now (a no-op for applications without new events). */
export function anchorNow(ctx: ServerContext, witness?: Witness): Promise<AuditAnchor[]> {
  return serialized(ctx, () => runAnchoring(ctx, witness));
}

/** Asks the configured witnesses again for every `failed` receipt whose retry is due; gives how many turned `witnessed`. */
export function retryWitnessesNow(ctx: ServerContext): Promise<number> {
  return serialized(ctx, () => retryDueReceipts(ctx));
}

async function runAnchoring(ctx: ServerContext, witnessOverride?: Witness): Promise<AuditAnchor[]> {
  if (!ctx.db.open) return [];
  const witnesses = witnessOverride ? [witnessOverride] : await witnessesOf(ctx);
  const applications = stmt<[], { application_id: string }>(
    ctx.db,
    'SELECT DISTINCT application_id FROM audit_events WHERE anchor_id IS NULL',
  ).all();
  const made: AuditAnchor[] = [];
  for (const { application_id } of applications) {
    if (!ctx.db.open) break;
    const anchor = await anchorApplication(ctx, application_id, witnesses);
    if (anchor) made.push(anchor);
  }
  return made;
}

async function anchorApplication(ctx: ServerContext, applicationId: string, witnesses: Witness[]): Promise<AuditAnchor | undefined> {
  const last = stmt<[string], AnchorRow>(ctx.db, 'SELECT * FROM audit_anchors WHERE application_id = ? ORDER BY seq DESC LIMIT 1').get(
    applicationId,
  );
  const events = unanchoredEvents(ctx, applicationId, last?.sequence_to ?? 0);
  if (events.length === 0) return undefined;
  const anchor: AuditAnchor = {
    id: newId('anc_', 20),
    application_id: applicationId,
    type: ANCHOR_TYPE,
    format_version: ANCHOR_FORMAT,
    merkle_root: auditMerkleRoot(events.map((e) => e.hash)),
    signature: '',
    key_version: keyVersionOf(ctx, ctx.keys.kid),
    issuer_id: ctx.baseUrl || null,
    issuer_key_fingerprint: ctx.keys.kid,
    previous_anchor_id: last?.id ?? null,
    record_count: events.length,
    sequence_from: events[0]!.sequence,
    sequence_to: events[events.length - 1]!.sequence,
    created_at: isoNow(ctx.clock),
  };
  anchor.signature = await signJcs(anchorSigningInput(anchor), ctx.keys.privateKey, ctx.keys.kid);
  // Every witness at once; a failure is stored as a `failed` receipt (retried later), never a lost anchor.
  const answers = await Promise.all(witnesses.map((w) => askWitness(w, anchor)));
  if (!ctx.db.open) return undefined; // the server closed while the witnesses answered
  transaction(ctx.db, () => {
    insertAnchor(ctx, anchor);
    for (const answer of answers) insertReceipt(ctx, anchor.id, answer);
  });
  return anchor;
}

function insertAnchor(ctx: ServerContext, a: AuditAnchor): void {
  stmt(
    ctx.db,
    `INSERT INTO audit_anchors (id, application_id, type, format_version, merkle_root, signature, key_version, issuer_id,
                issuer_key_fingerprint, previous_anchor_id, record_count, sequence_from, sequence_to, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    a.id,
    a.application_id!,
    a.type!,
    a.format_version ?? null,
    a.merkle_root,
    a.signature,
    a.key_version,
    a.issuer_id ?? null,
    a.issuer_key_fingerprint ?? null,
    a.previous_anchor_id ?? null,
    a.record_count ?? 0,
    a.sequence_from ?? null,
    a.sequence_to ?? null,
    a.created_at!,
  );
  stmt(ctx.db, 'UPDATE audit_events SET anchor_id = ? WHERE application_id = ? AND sequence BETWEEN ? AND ?').run(
    a.id,
    a.application_id!,
    a.sequence_from ?? 0,
    a.sequence_to ?? 0,
  );
}

function insertReceipt(ctx: ServerContext, anchorId: string, answer: WitnessAnswer): void {
  const failed = answer.status !== 'witnessed';
  stmt(
    ctx.db,
    `INSERT INTO audit_anchor_receipts (id, anchor_id, status, receipt_id, witness_id, witness_key_version, witness_signature,
                witnessed_at, created_at, attempts, next_attempt_at, last_error)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
  ).run(
    newId('arc_', 20),
    anchorId,
    answer.status,
    answer.receipt_id,
    answer.witness_id,
    answer.witness_key_version,
    answer.witness_signature,
    answer.witnessed_at,
    isoNow(ctx.clock),
    failed ? nextAttemptAt(ctx, 1) : null,
    failed ? (answer.error ?? 'the witness refused the anchor') : null,
  );
}

/**
 * Starts the anchoring timer: it looks at the server clock every second (so a test clock moved forward is noticed
 * at once), anchors when a fifteen-minute boundary has passed, and retries failed witness receipts that are due.
 * The timer stops when the server closes.
 */
export function startAnchoring(ctx: ServerContext, options: { checkEveryMs?: number } = {}): () => void {
  const period = ANCHOR_INTERVAL_SECONDS * 1000;
  const boundaryAfter = (ms: number) => (Math.floor(ms / period) + 1) * period;
  let nextAt = boundaryAfter(ctx.clock.now());
  let retrying = false;
  const report = (what: string) => (err: unknown) => {
    if (ctx.db.open) console.error(`[svc-server] audit ${what} failed`, err);
  };
  const timer = setInterval(() => {
    if (!ctx.db.open) return stop();
    const now = ctx.clock.now();
    if (now >= nextAt) {
      nextAt = boundaryAfter(now);
      anchorNow(ctx).catch(report('anchoring'));
    }
    if (!retrying && hasDueReceipts(ctx)) {
      retrying = true;
      retryWitnessesNow(ctx)
        .catch(report('witness retry'))
        .finally(() => {
          retrying = false;
        });
    }
  }, options.checkEveryMs ?? 1000);
  timer.unref();
  function stop() {
    clearInterval(timer);
  }
  return stop;
}

/** A page of an application's anchors, oldest first. */
export function listAnchors(ctx: ServerContext, applicationId: string, page: { limit: number; cursor?: string | undefined }) {
  const rows = stmt<[string, number, number], AnchorRow>(
    ctx.db,
    'SELECT * FROM audit_anchors WHERE application_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  ).all(applicationId, decodeCursor(page.cursor), page.limit + 1);
  const { items, next_cursor } = toPage(rows, page.limit, (r) => r.seq);
  return { anchors: items.map(toWire), next_cursor };
}

/** One anchor of the account, or undefined. */
export function findAnchor(ctx: ServerContext, accountId: string, id: string): AuditAnchor | undefined {
  const row = stmt<[string, string], AnchorRow>(
    ctx.db,
    'SELECT n.* FROM audit_anchors n JOIN applications a ON a.id = n.application_id WHERE n.id = ? AND a.account_id = ?',
  ).get(id, accountId);
  return row && toWire(row);
}

/** The witness answers to one anchor. */
export function anchorReceipts(ctx: ServerContext, anchorId: string): AnchorReceipt[] {
  return stmt<[string], AnchorReceipt & { seq: number; anchor_id: string; created_at: string }>(
    ctx.db,
    'SELECT * FROM audit_anchor_receipts WHERE anchor_id = ? ORDER BY seq',
  )
    .all(anchorId)
    .map(({ id, status, receipt_id, witness_id, witness_key_version, witness_signature, witnessed_at }) => ({
      id,
      status,
      receipt_id,
      witness_id,
      witness_key_version,
      witness_signature,
      witnessed_at,
    }));
}
