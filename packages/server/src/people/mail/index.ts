// What the service mails people: receipts of their consent records, sign-in codes and approval requests, through
// the durable outbox of infra/mail.
import type { ServerContext } from '../../infra/context.js';
import { startMailWorker } from '../../infra/mail/index.js';
import { onRecordEvent } from './receipt.js';

export { mailAddressee } from './approval.js';
export { mailSignInCode, SIGN_IN_MAIL_LIMIT } from './sign-in.js';

const started = new WeakSet<ServerContext>();

/** Starts a server context's mail once: the receipt listener on its domain events, and the worker (with SMTP). */
export function startMail(ctx: ServerContext): void {
  if (started.has(ctx)) return;
  started.add(ctx);
  ctx.events.on('*', onRecordEvent);
  startMailWorker(ctx);
}
