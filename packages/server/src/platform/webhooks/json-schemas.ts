// JSON Schema (Draft 2020-12) documents of the webhook delivery bodies, generated from the zod schemas in
// `@svc/client/schemas` and checked in under `schemas/webhooks/` (`pnpm schemas`; a test fails on drift).
import {
  approvalDecisionData,
  consentDecisionData,
  consentPurposeRevokedData,
  consentRevokedData,
  signatureDecisionData,
  webhookEvent,
  webhookEventSchemas,
  webhookPurposeOutcome,
  webhookSubjectReference,
  webhookTestData,
} from '@svc/schemas';
import { z } from 'zod/mini';

/** Where the webhook schemas are published; each document's `$id` is this plus its file name. */
export const WEBHOOK_SCHEMAS_BASE_URL = 'https://svc.example/schemas/webhooks/';

const fields = z.registry<{ description: string }>();
const describe = (pairs: [z.core.$ZodType, string][]) => {
  for (const [schema, description] of pairs) if (!fields.has(schema)) fields.add(schema, { description });
};

describe([
  [webhookSubjectReference, 'The person the event is about: the email and external id a server commit or the sign-in supplied.'],
  [webhookPurposeOutcome, 'How one purpose stands after the change: key, outcome and legal basis.'],
  [
    consentDecisionData,
    'A completed consent: the consent token (hosted decisions and committed captures), user identifier, flow and per-purpose outcome.',
  ],
  [consentRevokedData, "A withdrawn consent: the subject reference and every purpose's outcome after the withdrawal."],
  [consentPurposeRevokedData, 'One purpose withdrawn (purpose, outcome); the same carriage as consent.revoked.'],
  [approvalDecisionData, 'An approval outcome: the escalation decided, how, and any counter-proposal.'],
  [
    signatureDecisionData,
    "A party's signing outcome (once per party): the party, their quorum vote, the signature (signed) and where the agreement and its quorum stand.",
  ],
  [webhookTestData, 'A test delivery requested through POST .../webhook_endpoints/{id}/test.'],
  [
    consentDecisionData.shape.consent_token,
    'Optional: the single-use consent token of a hosted decision or a committed capture (browser or server commit) that granted consent, the same token the exchange or the authorize answer hands out; it verifies once, within 5 minutes, whichever copy comes first. Null when none was issued (a denial, the Record API, an import, a form platform).',
  ],
  [consentDecisionData.shape.user_id, "The person's identifier at the service, when it has one."],
  [consentDecisionData.shape.flow_id, 'The flow the consent was given under.'],
  [consentDecisionData.shape.decision_id, 'The hosted decision (dec_...), null when the consent did not come from one.'],
  [consentDecisionData.shape.record_id, 'The consent record, when the channel produces one.'],
  [consentDecisionData.shape.channel, 'The collection channel, e.g. hosted, embedded, form_capture, controller_attested.'],
  [
    consentRevokedData.shape.withdrawn,
    'The purposes this withdrawal moved, each to revoked (a consent) or objected (a legitimate interest).',
  ],
  [consentRevokedData.shape.subject_ref, 'The subject reference: the email and external id the record names.'],
  [consentRevokedData.shape.event_channel, "How the withdrawal arrived (the spec's event channel)."],
  [consentPurposeRevokedData.shape.purpose, 'The purpose withdrawn.'],
  [consentPurposeRevokedData.shape.outcome, "The purpose's outcome now: revoked, or objected for a legitimate interest."],
  [consentDecisionData.shape.subject_ref, 'The subject reference (email, external id) supplied by a server commit or the sign-in.'],
  [consentDecisionData.shape.consent_token_expires_at, 'When the consent token stops verifying, null without a token.'],
  [approvalDecisionData.shape.escalation_id, "The escalation the approval decided (the decision's subject_ref)."],
  [approvalDecisionData.shape.counter_proposal, "The person's counter-proposal (approval.countered), otherwise null."],
  [
    signatureDecisionData.shape.signature,
    'The compact JWS of the signature (signature.signed): ES256 over the document hash, the party and the time; otherwise null.',
  ],
  [
    signatureDecisionData.shape.vote,
    "The party's quorum vote: approve for a signature, deny for a decline or a counter-proposal, null for an expiry.",
  ],
  [
    signatureDecisionData.shape.agreement_status,
    'The agreement after this outcome: pending, partially_signed, or active once signatures reach the quorum.',
  ],
]);
for (const schema of Object.values(webhookEventSchemas)) {
  describe([
    [schema.shape.id, 'The event id: stable across retries, the same as X-Svc-Event-ID; receivers use it as idempotency key.'],
    [schema.shape.type, 'The event type, the same as X-Svc-Event-Type.'],
    [schema.shape.application_id, 'The application whose webhook endpoints receive the event.'],
    [schema.shape.occurred_at, 'When the change happened, on the server clock (ISO 8601, UTC).'],
  ]);
}

const titles: Record<keyof typeof webhookEventSchemas, string> = {
  'consent.granted': 'Consent completed and granted.',
  'consent.denied': 'Consent declined.',
  'consent.revoked': 'Consent withdrawn.',
  'consent.purpose_revoked': 'One purpose of a consent withdrawn.',
  'approval.granted': 'An approval was granted (approved).',
  'approval.denied': 'An approval was denied.',
  'approval.countered': 'An approval was answered with a counter-proposal.',
  'escalation.opened': "An agent's action went beyond its grant and waits for the principal's approval.",
  'delegation.revoked': 'A delegation grant was revoked, with every grant made under it and every token issued from them.',
  'signature.signed': 'A party signed an agreement.',
  'signature.declined': 'A party declined to sign an agreement.',
  'signature.expired': "A party's signing session ended at its deadline without an outcome.",
  'signature.countered': 'A party answered an agreement with a counter-proposal.',
  'webhook.test': 'A test delivery; it cannot be subscribed to.',
};

function document(file: string, title: string, description: string, schema: z.core.$ZodType) {
  const { $schema, ...body } = z.toJSONSchema(schema, { target: 'draft-2020-12', metadata: fields, io: 'output' });
  return { $schema, $id: WEBHOOK_SCHEMAS_BASE_URL + file, title, description, ...body };
}

/**
 * The webhook body documents keyed by file name: one per event type (`consent.granted.json` ...) and `event.json`,
 * any body discriminated by `type`. Objects are open (receivers ignore fields they do not know).
 */
export function webhookJsonSchemas(): Record<string, Record<string, unknown>> {
  const documents: Record<string, Record<string, unknown>> = {};
  for (const [type, schema] of Object.entries(webhookEventSchemas) as [keyof typeof webhookEventSchemas, z.core.$ZodType][]) {
    documents[`${type}.json`] = document(
      `${type}.json`,
      `svc webhook ${type}`,
      `${titles[type]} The JSON body POSTed to subscribed endpoints.`,
      schema,
    );
  }
  documents['event.json'] = document('event.json', 'svc webhook event', 'Any webhook delivery body, discriminated by type.', webhookEvent);
  return documents;
}
