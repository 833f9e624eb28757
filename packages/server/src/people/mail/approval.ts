// The approval request email: a decision addressed to a person (an escalation's approval, a signing session, a
// decision with `addressee`) tells them that something waits in their Trust Inbox. It carries no session token: the
// inbox lists the decision once they sign in as that address.
import type { ServerContext } from '../../infra/context.js';
import { queueMail } from '../../infra/mail/index.js';
import { kindOf } from '../../consent/decisions/kinds/index.js';
import type { DecisionRow } from '../../consent/decisions/row.js';
import { compose, organisationOf, whoAsks } from './compose.js';

/** Queues the request to the decision's addressee, if it has one, in the transaction that created the decision. */
export function mailAddressee(ctx: ServerContext, row: DecisionRow): void {
  if (!row.addressee_email) return;
  const kind = kindOf(row.kind);
  const entry = kind.inbox ? kind.inbox(ctx, row) : { title: kind.page(ctx, row).heading, summary: null };
  if (!entry) return;
  const names = organisationOf(ctx, row.application_id);
  const content = compose(`${names.application} asks for your answer`, entry.title, [
    { text: `${whoAsks(names)} asks for your answer.` },
    ...(entry.summary ? [{ text: entry.summary }] : []),
    { lead: 'Open your Trust Inbox to answer:', url: `${ctx.trustUrl}/inbox` },
    { text: `The request stays open until ${row.deadline_at.slice(0, 16).replace('T', ' ')} UTC.` },
  ]);
  queueMail(ctx, { to: row.addressee_email, kind: 'approval_request', ...content });
}
