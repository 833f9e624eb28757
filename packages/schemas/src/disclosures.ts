import { z } from 'zod/mini';
import { dateTime } from './common.js';

/**
 * `POST /api/v1/disclosure_receipts`: the spec's CreateDisclosureReceiptRequest. The flow must be the token's
 * account's and declare the agent (`config.agents`); `disclosed_at` is never in the future nor before the agent's
 * registration (Errors rule 9). `locale` defaults to the flow's.
 */
export const createDisclosureReceiptRequest = z.strictObject({
  flow_id: z.string().check(z.minLength(1), z.maxLength(100)),
  agent_id: z.string().check(z.minLength(1), z.maxLength(100)),
  disclosed_at: z.iso.datetime({ offset: true }),
  locale: z.optional(z.string().check(z.regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,3}$/, 'locale must be a BCP 47 language tag'))),
});
export type CreateDisclosureReceiptRequest = z.input<typeof createDisclosureReceiptRequest>;

/**
 * A disclosure receipt: the notice record (`record_type: notice_record`) that a flow disclosed an agent to a person.
 * Its receipt is at `/api/v1/consent_receipts/{record_id}` in every flavor.
 */
export const disclosureReceipt = z.object({
  record_id: z.string(),
  record_type: z.literal('notice_record'),
  flow_id: z.string(),
  flow_version: z.int(),
  agent_id: z.string(),
  application_id: z.string(),
  locale: z.string(),
  disclosed_at: dateTime(),
  recorded_at: dateTime(),
});
export type DisclosureReceipt = z.infer<typeof disclosureReceipt>;

/** `{disclosure_receipt}` envelope. */
export const disclosureReceiptEnvelope = z.object({ disclosure_receipt: disclosureReceipt });
