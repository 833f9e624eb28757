// The signature_request kind: a party signs an agreement (cross-border signing). Its sessions are opened by the
// agreement, one per party; the kind is inferred from the session token.
import { findPartyRow } from '../../../../surfaces/agree/agreements/store.js';
import type { DecisionKindModule } from '../kind.js';
import { prepareSignature } from './create.js';
import { signatureInbox } from './inbox.js';
import { signaturePage } from './page.js';
import { expireSignature, recordSignature, signatureClaimsOf, signatureEvent } from './record.js';
import { actSignature, SIGNATURE_SCREENS, signatureActions } from './steps.js';

export const signatureKind: DecisionKindModule<'signature_request'> = {
  kind: 'signature_request',
  actions: signatureActions,
  cancellable: false,
  prepare: prepareSignature,
  totalSteps: () => SIGNATURE_SCREENS.length + 1,
  page: signaturePage,
  act: actSignature,
  record: recordSignature,
  event: signatureEvent,
  expire: expireSignature,
  // The record of a signature is the agreement's receipt (GET /api/v1/agreements/{id}/receipt), not a consent record.
  recordId: () => null,
  claims: signatureClaimsOf,
  inbox: signatureInbox,
  wire: (ctx, row) => {
    const party = findPartyRow(ctx, row.subject_ref);
    return party ? { agreement_id: party.agreement_id } : {};
  },
};
