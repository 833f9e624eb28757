// The server's mail: a durable outbox written in the caller's transaction, delivered over SMTP by a worker, or kept
// in the sandbox mailbox when no SMTP server is configured (ARCHITECTURE.md, "Email").
import type { ServerContext } from '../context.js';
import { onClose } from '../lifecycle.js';
import { onQueued } from './outbox.js';
import { mailSettings } from './settings.js';
import { MailWorker } from './worker.js';

export {
  queueMail,
  sandboxMail,
  findMail,
  openMail,
  type MailContent,
  type MailMessage,
  type MailRow,
  type SandboxMail,
} from './outbox.js';
export {
  configureMail,
  mailOptionsFromEnv,
  mailSettings,
  mailSettingsOf,
  sendsMail,
  DEFAULT_FROM,
  type MailOptions,
  type MailSettings,
} from './settings.js';
export type { MailWorker } from './worker.js';

const workers = new WeakMap<ServerContext, MailWorker | null>();

/**
 * Starts the context's mail worker once (none in the sandbox: nothing is sent) and stops it when the server closes.
 * Returns the worker, or undefined without SMTP.
 */
export function startMailWorker(ctx: ServerContext): MailWorker | undefined {
  if (workers.has(ctx)) return workers.get(ctx) ?? undefined;
  const settings = mailSettings(ctx);
  if (!settings.smtp) {
    workers.set(ctx, null);
    return undefined;
  }
  const worker = new MailWorker(ctx, settings.smtp, settings.worker);
  workers.set(ctx, worker);
  onQueued(ctx, () => worker.kick());
  worker.start();
  onClose(ctx, () => worker.stop());
  return worker;
}

/** The context's running mail worker, if any (tests drain it). */
export function mailWorker(ctx: ServerContext): MailWorker | undefined {
  return workers.get(ctx) ?? undefined;
}
