// The mail worker: polls the outbox on the server clock and hands each due message to the SMTP server with
// nodemailer. A refusal or an error (a 4xx or 5xx answer, a connection refused, a timeout) is retried on the
// outboxes' schedule (infra/retry.ts); after the last attempt the message is `failed` with its last error and
// keeps its sealed body. A sent message drops its body (the code or links it carried) and keeps its metadata.
//
// Delivery is at least once: a message is marked in flight before it goes out; one a stopped or crashed run left
// in flight is sent again on the next start.
import { createRequire } from 'node:module';
import type { Transporter } from 'nodemailer';
import type { ServerContext } from '../context.js';
import { stmt } from '../db.js';
import { nextAttemptMs } from '../retry.js';
import { openMail, type MailContent, type MailRow } from './outbox.js';
import type { MailSettings, MailWorkerSettings } from './settings.js';

const require = createRequire(import.meta.url);
const iso = (ms: number) => new Date(ms).toISOString();
const MAX_ERROR = 500;

/** Delivers the outbox of one server context. */
export class MailWorker {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly transport: Transporter;
  private timer: NodeJS.Timeout | undefined;
  private kicked = false;
  private stopped = false;
  /** Set once the grace of a stop has passed: late answers are not written (the database may be closed). */
  private abandoned = false;

  constructor(
    private readonly ctx: ServerContext,
    private readonly smtp: NonNullable<MailSettings['smtp']>,
    readonly settings: MailWorkerSettings,
  ) {
    const t = settings.timeoutMs;
    // Required here, when the service has an SMTP server to send to, rather than with every start of the service.
    const { createTransport } = require('nodemailer') as typeof import('nodemailer');
    this.transport = createTransport({ url: smtp.url, connectionTimeout: t, greetingTimeout: t, socketTimeout: 3 * t });
  }

  /** Recovers messages a previous run left in flight, then polls every `pollMs`. */
  start(): void {
    stmt(this.ctx.db, "UPDATE mail_outbox SET in_flight = 0, next_attempt_ms = ? WHERE in_flight = 1 AND status = 'pending'").run(
      this.ctx.clock.now(),
    );
    this.timer = setInterval(() => this.poll(), this.settings.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Polls soon, once the current transaction has committed. */
  kick(): void {
    if (this.kicked || this.stopped) return;
    this.kicked = true;
    setImmediate(() => {
      this.kicked = false;
      this.poll();
    });
  }

  /** Starts due messages, oldest first, up to the concurrency limit. */
  poll(): void {
    if (this.stopped) return;
    const free = this.settings.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const due = stmt<[number, number], string>(
      this.ctx.db,
      `SELECT id FROM mail_outbox WHERE status = 'pending' AND next_attempt_ms <= ? AND in_flight = 0
        ORDER BY next_attempt_ms, seq LIMIT ?`,
    )
      .pluck()
      .all(this.ctx.clock.now(), free) as unknown as string[];
    for (const id of due) this.run(id);
  }

  /** Polls and waits until no message is due or in flight (tests); gives up after `timeoutMs`. */
  async drain(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.poll();
      if (!this.inFlight.size) return;
      if (Date.now() > deadline) throw new Error(`mail still in flight after ${timeoutMs} ms`);
      await Promise.race([Promise.allSettled(this.inFlight.values()), new Promise((r) => setTimeout(r, 50))]);
    }
  }

  /** Stops polling, lets messages in flight finish for `shutdownGraceMs`, then closes the SMTP connections. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    if (this.inFlight.size) {
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(this.inFlight.values()),
        new Promise((r) => {
          grace = setTimeout(r, this.settings.shutdownGraceMs);
        }),
      ]);
      clearTimeout(grace);
    }
    this.abandoned = true;
    this.transport.close();
  }

  private run(id: string): void {
    const promise = this.deliver(id)
      .catch((err: unknown) => console.error('[svc-server] mail delivery failed unexpectedly', id, err))
      .finally(() => {
        this.inFlight.delete(id);
        this.poll();
      });
    this.inFlight.set(id, promise);
  }

  /** Marks the message in flight and opens it; undefined when it is not deliverable now. */
  private claim(id: string): { row: MailRow; content: MailContent } | undefined {
    const { db } = this.ctx;
    return db.transaction(() => {
      const row = stmt<[string], MailRow>(db, 'SELECT * FROM mail_outbox WHERE id = ?').get(id);
      if (!row || row.status !== 'pending' || row.in_flight) return undefined;
      const content = openMail(this.ctx, row);
      if (!content) return undefined;
      stmt(db, 'UPDATE mail_outbox SET in_flight = 1 WHERE id = ?').run(id);
      return { row, content };
    })();
  }

  private async deliver(id: string): Promise<void> {
    const claimed = this.claim(id);
    if (!claimed) return;
    const { row, content } = claimed;
    let error: string | undefined;
    let messageId: string | undefined;
    try {
      const info = await this.transport.sendMail({
        from: this.smtp.from,
        to: row.recipient,
        subject: content.subject,
        text: content.text,
        html: content.html,
        headers: content.headers ?? {},
      });
      messageId = String(info.messageId ?? '');
    } catch (err) {
      error = (err instanceof Error ? err.message : String(err)).slice(0, MAX_ERROR);
    }
    if (this.abandoned) return; // recovered as in flight on the next start
    this.complete(row, error, messageId);
  }

  /** Records the attempt: sent (the body dropped), due again later, or failed for good with its last error. */
  private complete(row: MailRow, error: string | undefined, messageId: string | undefined): void {
    const nowMs = this.ctx.clock.now();
    const attempts = row.attempt_count + 1;
    const kind = row.kind;
    if (error === undefined) {
      stmt(
        this.ctx.db,
        `UPDATE mail_outbox SET status = 'sent', in_flight = 0, attempt_count = ?, next_attempt_ms = NULL, last_error = NULL,
                body_enc = NULL, message_id = ?, completed_at = ? WHERE id = ?`,
      ).run(attempts, messageId ?? null, iso(nowMs), row.id);
      this.ctx.metrics.increment('mail.sent_total', { kind });
      return;
    }
    const next = nextAttemptMs(attempts, nowMs);
    stmt(
      this.ctx.db,
      `UPDATE mail_outbox SET status = ?, in_flight = 0, attempt_count = ?, next_attempt_ms = ?, last_error = ?, completed_at = ?
        WHERE id = ?`,
    ).run(next === undefined ? 'failed' : 'pending', attempts, next ?? null, error, next === undefined ? iso(nowMs) : null, row.id);
    this.ctx.metrics.increment(next === undefined ? 'mail.failed_total' : 'mail.retried_total', { kind });
  }
}
