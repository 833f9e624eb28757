// The receipts a person reads with their own access token: what agents and delegates did in their name
// (`/api/v1/me/authorization_receipts`) and the agents disclosed to them (`/api/v1/me/disclosure_receipts`), each
// with the signed receipt itself (`{receipt, signature}`, the signed flavor), so the person can check it offline
// against the service's JWKS. What the people's receipts pages and `<svc-receipts>` show.
import { z } from 'zod/mini';
import { dateTime, listOf, listQuery } from './common.js';
import { boundName } from './delegations.js';
import { signedReceipt } from './receipts.js';

/** The OAuth scope a person's access token needs to read the receipts made in their name or for them. */
export const RECEIPTS_READ_SCOPE = 'receipts:read';

const named = z.object({ id: z.string(), name: z.string() });

/**
 * One of the eight bound dimensions of an authorization (scope, action, value, time, escalation, reputation,
 * jurisdiction, sequence): `limit` is the receipt's bound as enforced (`authority.<bound>_bounds`), null when the
 * bound is not configured (which never means unlimited).
 */
export const receiptBound = z.object({ bound: boundName, configured: z.boolean(), limit: z.nullable(z.record(z.string(), z.unknown())) });
export type ReceiptBound = z.infer<typeof receiptBound>;

/**
 * One action an agent proposed under the grant, with its verdict against the bounds: `allowed` (within every bound),
 * `denied` or `escalated` (to the person), `bound` naming the bound it went beyond (null when allowed).
 */
export const receiptAction = z.object({
  id: z.string(),
  at: dateTime(),
  scope: z.string(),
  action: z.string(),
  value: z.nullable(z.number()),
  currency: z.nullable(z.string()),
  jurisdiction: z.nullable(z.string()),
  outcome: z.enum(['allowed', 'denied', 'escalated']),
  bound: z.nullable(boundName),
});
export type ReceiptAction = z.infer<typeof receiptAction>;

/**
 * An authorization receipt in the person's name: a grant they made (`kind` grant, outcome granted) or an approval
 * they answered (`kind` approval). `delegate` is who acted for them (null when the record names no one but the
 * requesting application); `bounds` lists all eight dimensions; `actions` counts every action proposed under a grant
 * by verdict, with the most recent (at most 50) in `recent` (approvals have none: all zero). `signed_receipt` is the
 * signed flavor as read now.
 */
export const personAuthorizationReceipt = z.object({
  id: z.string(),
  kind: z.enum(['grant', 'approval']),
  outcome: z.enum(['granted', 'approved', 'denied', 'countered']),
  organisation: named,
  application: named,
  delegate: z.nullable(z.object({ id: z.string(), name: z.string(), type: z.nullable(z.string()) })),
  recorded_at: dateTime(),
  bounds: z.array(receiptBound),
  actions: z.object({ allowed: z.int(), denied: z.int(), escalated: z.int(), recent: z.array(receiptAction) }),
  signed_receipt: signedReceipt,
});
export type PersonAuthorizationReceipt = z.infer<typeof personAuthorizationReceipt>;

/** `{authorization_receipt}`: one receipt in the person's name. */
export const personAuthorizationReceiptEnvelope = z.object({ authorization_receipt: personAuthorizationReceipt });
export type PersonAuthorizationReceiptEnvelope = z.infer<typeof personAuthorizationReceiptEnvelope>;

/** `{authorization_receipts: [...], next_cursor}`: most recently recorded first. */
export const personAuthorizationReceiptList = listOf('authorization_receipts', personAuthorizationReceipt);
export type PersonAuthorizationReceiptList = z.infer<typeof personAuthorizationReceiptList>;

/** One agent a receipt disclosed to the person: as its identity stood when the record was made. */
export const receiptDisclosedAgent = z.object({
  agent_id: z.string(),
  agent_name: z.string(),
  agent_type: z.string(),
  operator_name: z.nullable(z.string()),
  role: z.nullable(z.string()),
});
export type ReceiptDisclosedAgent = z.infer<typeof receiptDisclosedAgent>;

/**
 * A receipt that disclosed agents to the person: one of their consent records made under terms that declare agents
 * (`extensions.agent_disclosures`). The organisation's own disclosure receipts (`POST /api/v1/disclosure_receipts`)
 * are anonymous notice records that name no person, so no person can be shown them.
 */
export const personDisclosureReceipt = z.object({
  id: z.string(),
  record_type: z.enum(['consent_record', 'notice_record']),
  organisation: named,
  application: named,
  disclosed_at: dateTime(),
  agents: z.array(receiptDisclosedAgent),
  signed_receipt: signedReceipt,
});
export type PersonDisclosureReceipt = z.infer<typeof personDisclosureReceipt>;

/** `{disclosure_receipt}`: one receipt that disclosed agents to the person. */
export const personDisclosureReceiptEnvelope = z.object({ disclosure_receipt: personDisclosureReceipt });
export type PersonDisclosureReceiptEnvelope = z.infer<typeof personDisclosureReceiptEnvelope>;

/** `{disclosure_receipts: [...], next_cursor}`: most recently recorded first. */
export const personDisclosureReceiptList = listOf('disclosure_receipts', personDisclosureReceipt);
export type PersonDisclosureReceiptList = z.infer<typeof personDisclosureReceiptList>;

/** Query of both lists: the list query. */
export const personReceiptListQuery = z.strictObject({ ...listQuery.shape });
export type PersonReceiptListQuery = z.input<typeof personReceiptListQuery>;
