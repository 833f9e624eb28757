// Where the server's mail goes: an SMTP server (`SVC_SMTP_URL`, from `SVC_MAIL_FROM`), or, without one, the sandbox
// mailbox the playground shows. Set per server context by `startServer`; a context never configured is a sandbox.
import type { ServerContext } from '../context.js';

/** `startServer({mail})`: the SMTP server and the sender. */
export interface MailOptions {
  /** `smtp://host:port` (or `smtps://`, credentials in the URL as nodemailer reads them). Unset: the sandbox mailbox. */
  smtpUrl?: string | undefined;
  /** The From of every message, e.g. `svc <no-reply@example.com>`. Default {@link DEFAULT_FROM}. */
  from?: string | undefined;
}

/** Tunables of the mail worker (tests shorten the poll). */
export interface MailWorkerSettings {
  /** How often the outbox is polled, in wall-clock ms. Default 250 (`SVC_MAIL_POLL_MS`). */
  pollMs: number;
  /** Messages in flight at once. Default 4. */
  concurrency: number;
  /** On close, how long messages in flight may finish; the rest are sent again on the next start. Default 2000. */
  shutdownGraceMs: number;
  /** Time allowed to connect and for each SMTP answer. Default 10 000 ms. */
  timeoutMs: number;
}

/** A server's mail settings: `smtp` undefined means the sandbox mailbox. */
export interface MailSettings {
  smtp: { url: string; from: string } | undefined;
  worker: MailWorkerSettings;
}

export const DEFAULT_FROM = 'svc <no-reply@localhost>';

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** The options of the environment: `SVC_SMTP_URL`, `SVC_MAIL_FROM`. */
export function mailOptionsFromEnv(env: NodeJS.ProcessEnv): MailOptions {
  return { smtpUrl: env.SVC_SMTP_URL || undefined, from: env.SVC_MAIL_FROM || undefined };
}

/** Checks the options (an SMTP URL must be smtp: or smtps:) and fills in the defaults. */
export function mailSettingsOf(options: MailOptions, env: NodeJS.ProcessEnv = process.env): MailSettings {
  let smtp: MailSettings['smtp'];
  if (options.smtpUrl) {
    const url = new URL(options.smtpUrl);
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new RangeError('the SMTP URL must start with smtp:// or smtps://');
    smtp = { url: options.smtpUrl, from: options.from || DEFAULT_FROM };
  }
  return {
    smtp,
    worker: { pollMs: positive(env.SVC_MAIL_POLL_MS, 250), concurrency: 4, shutdownGraceMs: 2000, timeoutMs: 10_000 },
  };
}

const configured = new WeakMap<ServerContext, MailSettings>();

/** Sets a server context's mail settings; call before its first request. */
export function configureMail(ctx: ServerContext, settings: MailSettings): void {
  configured.set(ctx, settings);
}

/** The context's mail settings (a sandbox mailbox when never configured). */
export function mailSettings(ctx: ServerContext): MailSettings {
  return configured.get(ctx) ?? mailSettingsOf({});
}

/** True when mail goes out over SMTP; false when it stays in the sandbox mailbox. */
export function sendsMail(ctx: ServerContext): boolean {
  return mailSettings(ctx).smtp !== undefined;
}
