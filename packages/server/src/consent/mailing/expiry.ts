// The end of a term as a record event: no domain event tells of it (a record's expiry is read from its
// `expires_at`), so the worker sweeps, at most once a minute of server time, the records of each connected flow
// whose term ended since the last sweep, and queues the permission off for each whose purpose was still granted,
// unless the person holds another record of the flow that grants it now.
import { isoNow } from '../../infra/clock.js';
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import { transaction } from '../../infra/transaction.js';
import { emailOf, isAnonymousPrincipal, issuedOf, withdrawalsOf, type RecordRow } from '../records/rows.js';
import { queueWrite, type MailingConnectionRow } from './store.js';
import { grantedRecords } from './sync.js';

/** How often, in server-clock milliseconds, the sweep runs at most. */
export const EXPIRY_SWEEP_MS = 60_000;

/** Whether the record's purpose was granted (and never withdrawn) when its term ended, and nothing grants it now. */
function endedGrant(ctx: ServerContext, connection: MailingConnectionRow, record: RecordRow): boolean {
  if (isAnonymousPrincipal(record.person_id)) return false;
  const issued = issuedOf(record).find((o) => o.key === connection.purpose);
  if (issued?.outcome !== 'granted') return false;
  if (withdrawalsOf(ctx, record.id).some((w) => w.purpose_key === connection.purpose)) return false;
  return grantedRecords(ctx, connection, record.person_id).length === 0;
}

/** Queues the writes owed for terms that ended since the last sweep; answers whether any was queued. */
export function sweepExpired(ctx: ServerContext): boolean {
  const now = isoNow(ctx.clock);
  let queued = false;
  transaction(ctx.db, () => {
    const connections = stmt<[], MailingConnectionRow>(ctx.db, "SELECT * FROM mailing_connections WHERE status = 'active'").all();
    for (const connection of connections) {
      const since = connection.expired_through ?? connection.created_at;
      const ended = stmt<[string, string, string], RecordRow>(
        ctx.db,
        'SELECT * FROM consent_records WHERE flow_id = ? AND expires_at > ? AND expires_at <= ? ORDER BY expires_at, seq',
      ).all(connection.flow_id, since, now);
      for (const record of ended) {
        if (!endedGrant(ctx, connection, record)) continue;
        queueWrite(ctx, connection, emailOf(ctx, record.person_id), false);
        queued = true;
      }
      stmt(ctx.db, 'UPDATE mailing_connections SET expired_through = ? WHERE id = ?').run(now, connection.id);
    }
  });
  return queued;
}
