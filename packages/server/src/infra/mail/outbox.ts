// The mail outbox: a message is a row written in the caller's transaction (a rolled-back change sends nothing, and a
// committed one is never lost to a crash), sealed at rest with the server's at-rest key. With an SMTP server it is
// `pending` until the worker delivers it; without one it is kept as `sandbox`, for the playground's mailbox.
import { isoNow } from '../clock.js';
import type { ServerContext } from '../context.js';
import { stmt } from '../db.js';
import { tooManyRequests } from '../errors.js';
import { newId } from '../ids.js';
import { loadSealer, type Sealer } from '../secrets.js';
import { transaction } from '../transaction.js';
import { sendsMail } from './settings.js';

/** What a message says; `text` and `html` are two parts of the same content. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
  /** Extra header lines, e.g. `List-Unsubscribe`. */
  headers?: Record<string, string> | undefined;
}

/** A message to queue: its recipient, its content and its kind (`receipt`, `sign_in_code`, `approval_request`). */
export interface MailMessage extends MailContent {
  to: string;
  kind: string;
  /**
   * At most `max` messages of this kind to this address in any `windowSeconds` (counted in the outbox, so across
   * restarts); past it, queueing throws 429 `rate_limited` and the caller's transaction rolls back.
   */
  limit?: { name: string; max: number; windowSeconds: number } | undefined;
}

/** One row of the outbox. */
export interface MailRow {
  seq: number;
  id: string;
  kind: string;
  recipient: string;
  body_enc: string | null;
  status: 'pending' | 'sent' | 'failed' | 'sandbox';
  attempt_count: number;
  next_attempt_ms: number | null;
  in_flight: number;
  last_error: string | null;
  message_id: string | null;
  created_ms: number;
  created_at: string;
  completed_at: string | null;
}

const sealers = new WeakMap<ServerContext, Sealer>();
const kickers = new WeakMap<ServerContext, () => void>();

/** The at-rest key of the context's control plane (the webhooks' key), loaded once. */
export function mailSealer(ctx: ServerContext): Sealer {
  let sealer = sealers.get(ctx);
  if (!sealer) sealers.set(ctx, (sealer = loadSealer(ctx.controlDataDir)));
  return sealer;
}

/** Registers what polls the outbox soon after a message is queued (the worker). */
export function onQueued(ctx: ServerContext, kick: () => void): void {
  kickers.set(ctx, kick);
}

/**
 * The recipients that reach the same mailbox as `to` as far as the outbox can tell: the address itself and its
 * sub-addresses (`ada+anything@example.com`, RFC 5233), so that tags do not multiply what one person receives.
 */
function sameMailbox(to: string): { base: string; from: string; until: string; domain: string } {
  const at = to.lastIndexOf('@');
  const local = to.slice(0, at).split('+')[0]!;
  // '+' sorts just before ',': the range [local+, local,) holds every `local+tag` (an index range, no scan).
  return { base: `${local}${to.slice(at)}`, from: `${local}+`, until: `${local},`, domain: to.slice(at) };
}

function checkLimit(ctx: ServerContext, to: string, kind: string, limit: NonNullable<MailMessage['limit']>, nowMs: number): void {
  const since = nowMs - limit.windowSeconds * 1000;
  const box = sameMailbox(to);
  const recent = (
    stmt<[string, string, string, string, string, number], { recipient: string; created_ms: number }>(
      ctx.db,
      `SELECT recipient, created_ms FROM mail_outbox
        WHERE (recipient = ? AND kind = ? OR recipient >= ? AND recipient < ? AND kind = ?) AND created_ms > ?`,
    ).all(box.base, kind, box.from, box.until, kind, since) as { recipient: string; created_ms: number }[]
  )
    .filter((row) => row.recipient === box.base || row.recipient.endsWith(box.domain))
    .map((row) => row.created_ms)
    .sort((a, b) => a - b);
  if (recent.length < limit.max) return;
  // The window slides: the address may receive one more once the oldest message in it is older than the window.
  const retryAfterMs = recent[recent.length - limit.max]! - since;
  throw tooManyRequests('Too many messages were sent to this address; ask again later.', retryAfterMs, {
    name: limit.name,
    limit: limit.max,
    windowSeconds: limit.windowSeconds,
  });
}

/**
 * Queues a message inside the caller's transaction (or one of its own) and returns its id. The worker is asked to
 * poll once the transaction has committed.
 */
export function queueMail(ctx: ServerContext, message: MailMessage): string {
  const id = newId('mail_');
  const to = message.to.trim().toLowerCase();
  const content: MailContent = { subject: message.subject, text: message.text, html: message.html, headers: message.headers ?? {} };
  const nowMs = ctx.clock.now();
  const smtp = sendsMail(ctx);
  transaction(ctx.db, () => {
    if (message.limit) checkLimit(ctx, to, message.kind, message.limit, nowMs);
    stmt(
      ctx.db,
      `INSERT INTO mail_outbox (id, kind, recipient, body_enc, status, next_attempt_ms, created_ms, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      message.kind,
      to,
      mailSealer(ctx).seal(JSON.stringify(content), id),
      smtp ? 'pending' : 'sandbox',
      smtp ? nowMs : null,
      nowMs,
      isoNow(ctx.clock),
    );
  });
  if (smtp) kickers.get(ctx)?.();
  return id;
}

/** The content of a row whose body is still kept (not yet sent, failed, or in the sandbox). */
export function openMail(ctx: ServerContext, row: Pick<MailRow, 'id' | 'body_enc'>): MailContent | undefined {
  return row.body_enc ? (JSON.parse(mailSealer(ctx).open(row.body_enc, row.id)) as MailContent) : undefined;
}

/** A sandbox message as the mailbox shows it. */
export interface SandboxMail extends MailContent {
  id: string;
  kind: string;
  to: string;
  created_at: string;
}

/** The sandbox mailbox, newest first, at most `limit` messages. */
export function sandboxMail(ctx: ServerContext, limit = 50): SandboxMail[] {
  const rows = stmt<[number], MailRow>(ctx.db, "SELECT * FROM mail_outbox WHERE status = 'sandbox' ORDER BY seq DESC LIMIT ?").all(limit);
  return rows.map((row) => ({ id: row.id, kind: row.kind, to: row.recipient, created_at: row.created_at, ...openMail(ctx, row)! }));
}

/** One outbox row by id (tests, tools). */
export function findMail(ctx: ServerContext, id: string): MailRow | undefined {
  return stmt<[string], MailRow>(ctx.db, 'SELECT * FROM mail_outbox WHERE id = ?').get(id);
}
