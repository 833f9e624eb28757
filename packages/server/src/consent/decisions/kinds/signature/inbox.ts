// A signing session in the Trust Inbox of the party it is addressed to: the agreement's title and where its signatures
// stand.
import { agreementOfParty, findPartyRow, partiesOf } from '../../../../surfaces/agree/agreements/store.js';
import type { ServerContext } from '../../../../infra/context.js';
import type { DecisionRow } from '../../row.js';
import type { InboxEntry } from '../kind.js';

/** The signing session's inbox entry. */
export function signatureInbox(ctx: ServerContext, row: DecisionRow): InboxEntry | null {
  const party = findPartyRow(ctx, row.subject_ref);
  if (!party) return null;
  const agreement = agreementOfParty(ctx, party);
  const parties = partiesOf(ctx, agreement.id);
  const signed = parties.filter((p) => p.status === 'signed').length;
  return {
    title: agreement.title,
    summary: `Your signature is asked for: ${signed} of ${parties.length} ${parties.length === 1 ? 'party has' : 'parties have'} signed, ${agreement.quorum} needed.`,
    trigger: null,
  };
}
