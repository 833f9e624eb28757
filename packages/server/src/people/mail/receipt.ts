// The receipt email: when a consent record with a subject email is made (and its receipt is not suppressed: the
// records hub then queues a `receipt_emails` row), the person is told what they agreed to and declined, with the link
// that withdraws this record and the one that manages all their records with the organisation (List-Unsubscribe).
// It is written by a listener on the record's domain event, so it commits or rolls back with the record.
import type { ServerContext } from '../../infra/context.js';
import { stmt } from '../../infra/db.js';
import type { DomainEvent } from '../../infra/events.js';
import { queueMail } from '../../infra/mail/index.js';
import { getFlowVersion } from '../../platform/flows/store.js';
import { managementUrl, recordWithdrawalUrl } from '../withdrawal/links.js';
import { compose, organisationOf, whoAsks, type Block } from './compose.js';

interface Waiting {
  id: string;
  account_id: string;
  application_id: string;
  person_id: string;
  flow_id: string;
  flow_version: number;
  recorded_at: string;
  purposes: string;
  email: string;
}

const GROUPS = [
  ['granted', 'You agreed to:'],
  ['declined', 'You declined:'],
  ['objected', 'You objected to:'],
  ['noticed', 'You were told about:'],
  ['revoked', 'You withdrew:'],
] as const;

/** The purposes of the record by outcome, with the labels of the flow version it was made under. */
function purposeBlocks(ctx: ServerContext, row: Waiting): Block[] {
  const labels = new Map((getFlowVersion(ctx, row.flow_id, row.flow_version)?.config.purposes ?? []).map((p) => [p.key, p.label]));
  const outcomes = JSON.parse(row.purposes) as { key: string; outcome: string }[];
  return GROUPS.flatMap(([outcome, title]) => {
    const items = outcomes.filter((o) => o.outcome === outcome).map((o) => labels.get(o.key) ?? o.key);
    return items.length ? [{ title, items }] : [];
  });
}

/** Queues the receipt email of `recordId` if the record waits for one; marks it queued in the outbox. */
export function mailReceipt(ctx: ServerContext, recordId: string): void {
  const row = stmt<[string], Waiting>(
    ctx.db,
    `SELECT r.id, r.account_id, r.application_id, r.person_id, r.flow_id, r.flow_version, r.recorded_at, r.purposes, p.email
       FROM receipt_emails e JOIN consent_records r ON r.id = e.record_id JOIN persons p ON p.id = r.person_id
      WHERE e.record_id = ? AND e.status = 'queued'`,
  ).get(recordId);
  if (!row?.email) return;
  const names = organisationOf(ctx, row.application_id);
  const manage = managementUrl(ctx, row.account_id, row.person_id);
  const content = compose(
    `Your consent receipt from ${names.application}`,
    'Your consent receipt',
    [
      { text: `${whoAsks(names)} recorded your choices on ${row.recorded_at.slice(0, 10)}.` },
      ...purposeBlocks(ctx, row),
      { lead: 'To withdraw this consent, open:', url: recordWithdrawalUrl(ctx, row.id) },
      { lead: `To see or change everything you agreed to with ${names.organisation || names.application}, open:`, url: manage },
      { text: `Record ${row.id}. Keep this email: it is your receipt.` },
    ],
    { 'List-Unsubscribe': `<${manage}>` },
  );
  queueMail(ctx, { to: row.email, kind: 'receipt', ...content });
  stmt(ctx.db, "UPDATE receipt_emails SET status = 'outbox' WHERE record_id = ?").run(row.id);
}

/** The listener: any event naming a record that waits for its receipt email. */
export function onRecordEvent(ctx: ServerContext, event: DomainEvent): void {
  const recordId = event.data.record_id;
  if (typeof recordId === 'string') mailReceipt(ctx, recordId);
}
