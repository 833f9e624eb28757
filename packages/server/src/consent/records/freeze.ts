// Step 5 of recording: freeze the receipt. The frozen part is written with the record and never changes; withdrawals
// and the end of the term are appended when the receipt is read.
import type { ConsentReceiptRecord } from '@svc/schemas';
import type { ServerContext } from '../../infra/context.js';
import { agentDisclosuresOf } from '../../authority/disclosures/agents.js';
import { freezeReceipt } from '../receipts/canonical.js';
import { recordWithdrawalUrl } from '../../people/withdrawal/links.js';
import type { FlowTermsResolver } from './terms.js';
import type { ConsentRecordInput, RecordDraft } from './types.js';

/** The frozen receipt of the drafted record. */
export function freezeRecordReceipt(
  ctx: ServerContext,
  input: ConsentRecordInput,
  draft: RecordDraft,
  resolver: FlowTermsResolver,
): ConsentReceiptRecord {
  const { terms } = draft;
  const application = resolver.application(draft.applicationId);
  return freezeReceipt({
    storedIn: ctx.country,
    recordId: draft.id,
    personId: draft.personId,
    anonymous: draft.anonymous,
    application: { id: draft.applicationId, name: application?.name ?? draft.applicationId, region: application?.region ?? 'dev' },
    flow: { id: input.flowId, title: terms.title, description: terms.description, config: terms.config },
    outcomes: draft.outcomes,
    channel: input.channel,
    locale: input.locale ?? terms.config.locale,
    capturedAt: draft.capturedAt,
    recordedAt: draft.now,
    expiresAt: draft.expiresAt,
    wordingVerdict: draft.verdict,
    supersedesRecordId: draft.previous?.id ?? null,
    deliveryMode: input.deliveryMode,
    collectionMechanism: input.collectionMechanism,
    authentication: input.authentication,
    presentationAttested: input.presentationAttested,
    renderingEvidence: input.renderingEvidence,
    collectionPlatform: input.collectionPlatform,
    agentDisclosures: agentDisclosuresOf(ctx, terms.config) as unknown as Record<string, unknown>[],
    signatureEvidence: input.signatureEvidence,
    withdrawalMethod: recordWithdrawalUrl(ctx, draft.id),
  });
}
