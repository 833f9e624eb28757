// Both directions of a mailing connection. Outbound: a record event of the connection's flow and purpose queues a
// write of the member's permission (granted: on; withdrawn: off), in the transaction of the event. Inbound: a
// provider's unsubscribe or permission change is applied only after the member is read back through the client and
// the read-back confirms the permission is off, only as a withdrawal (`event_channel: mailing_tool`), and never when
// the state read back is the one the service itself last wrote (no echo). A subscribe never creates consent.
import type { ServerContext } from '../../infra/context.js';
import type { DomainEvent } from '../../infra/events.js';
import { stmt } from '../../infra/db.js';
import { isoNow } from '../../infra/clock.js';
import { findPerson } from '../records/person.js';
import { issuedOf, recordState, withdrawalsOf, type RecordRow } from '../records/rows.js';
import { withdrawConsentRecord } from '../records/withdrawals.js';
import { connectionsOf, lastWrite, queueWrite, type MailingConnectionRow } from './store.js';
import { clientOf } from './worker.js';

type Outcome = { key: string; outcome: string };

/** The purposes an event turns on (true) or off (false). */
function changesOf(event: DomainEvent): [string, boolean][] {
  const d = event.data as { purposes?: Outcome[]; withdrawn?: Outcome[]; purpose?: string };
  if (event.type === 'consent.granted') return (d.purposes ?? []).filter((p) => p.outcome === 'granted').map((p) => [p.key, true]);
  if (event.type === 'consent.revoked') return (d.withdrawn ?? []).map((p) => [p.key, false]);
  if (event.type === 'consent.purpose_revoked' && d.purpose) return [[d.purpose, false]];
  return [];
}

/** Queues the writes a record event owes the flow's connections (inside the emitter's transaction). */
export function onRecordEvent(ctx: ServerContext, event: DomainEvent, kick: () => void): void {
  const d = event.data as { flow_id?: string; subject_ref?: { email?: string } | null };
  const email = d.subject_ref?.email;
  if (!d.flow_id || !email) return; // an anonymous record has no member to write to
  let queued = false;
  for (const [purpose, enabled] of changesOf(event)) {
    for (const row of connectionsOf(ctx, d.flow_id, purpose)) {
      queueWrite(ctx, row, email, enabled);
      queued = true;
    }
  }
  if (queued) kick();
}

/** What an inbound call asks, read from the provider's own format; undefined for anything that cannot withdraw. */
export function readInbound(provider: MailingConnectionRow['provider'], body: unknown): { email: string } | undefined {
  const b = (body ?? {}) as Record<string, unknown>;
  let email: unknown;
  if (provider === 'mailchimp') {
    // `subscribe`, `cleaned`, `upemail`, `campaign` never withdraw: a subscribe does not make consent.
    if (b.type !== 'unsubscribe' && b.type !== 'profile') return undefined;
    email = b['data[email]'];
  } else {
    if (b.event !== 'unsubscribed' && b.event !== 'contact_updated' && b.event !== 'contactUpdated') return undefined;
    email = b.email;
  }
  if (typeof email !== 'string' || email.length > 320 || !/^[^\s@]+@[^\s@]+$/.test(email)) return undefined;
  return { email: email.trim().toLowerCase() };
}

/** The person's records of the flow on which the purpose is still granted. */
export function grantedRecords(ctx: ServerContext, row: MailingConnectionRow, personId: string): RecordRow[] {
  const now = isoNow(ctx.clock);
  return stmt<[string, string, string], RecordRow>(
    ctx.db,
    'SELECT * FROM consent_records WHERE account_id = ? AND person_id = ? AND flow_id = ? ORDER BY seq',
  )
    .all(row.account_id, personId, row.flow_id)
    .filter((r) => {
      const state = recordState(issuedOf(r), withdrawalsOf(ctx, r.id), r.expires_at, now);
      return state.status !== 'expired' && state.purposes.some((p) => p.key === row.purpose && p.outcome === 'granted');
    });
}

/** Applies a provider's change after reading the member back; answers whether a withdrawal was made. */
export async function applyInbound(ctx: ServerContext, row: MailingConnectionRow, email: string): Promise<'applied' | 'ignored'> {
  const state = await (await clientOf(ctx, row)).readBack(email);
  if (state !== 'off') return 'ignored'; // not confirmed: the call alone changes nothing
  if (lastWrite(ctx, row.id, email) === false) return 'ignored'; // the service wrote this state itself
  const person = findPerson(ctx, row.account_id, row.application_id, { email });
  if (!person) return 'ignored';
  let applied = false;
  for (const record of grantedRecords(ctx, row, person.id)) {
    withdrawConsentRecord(ctx, row.account_id, record.id, { purposes: [row.purpose], eventChannel: 'mailing_tool' });
    applied = true;
  }
  return applied ? 'applied' : 'ignored';
}
