// A signing session on the hosted page: the document (its text and SHA-256), who is asked to sign, and where the
// agreement's quorum stands.
import { agreementOfParty, findPartyRow, partiesOf } from '../../../../surfaces/agree/agreements/store.js';
import type { ServerContext } from '../../../../infra/context.js';
import type { DecisionRow } from '../../row.js';
import type { KindPage } from '../kind.js';

/** The signing part of the page data. */
export function signaturePage(ctx: ServerContext, row: DecisionRow): KindPage<'signature_request'> {
  const party = findPartyRow(ctx, row.subject_ref)!;
  const agreement = agreementOfParty(ctx, party);
  const parties = partiesOf(ctx, agreement.id);
  return {
    heading: agreement.title,
    part: {
      agreement_id: agreement.id,
      title: agreement.title,
      document_text: agreement.document_text,
      document_sha256: agreement.document_sha256,
      party: { id: party.id, email: party.email, name: party.name, home_country: party.home_country },
      quorum: agreement.quorum,
      signed_count: parties.filter((p) => p.status === 'signed').length,
      party_count: parties.length,
    },
  };
}
