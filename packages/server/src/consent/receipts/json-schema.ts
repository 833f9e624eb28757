// The receipt JSON Schema (Draft 2020-12), generated from the zod schema in @svc/client/schemas. It is checked in as
// schemas/receipt/v2/record.json (a test fails on drift; `pnpm schemas` rewrites it) and served byte for byte at
// /schemas/receipt/v2/record.json.
import {
  authorizationReceiptRecord,
  consentReceiptRecord,
  piiProcessing,
  privacyNotice,
  receiptAuthority,
  receiptEvent,
  receiptParty,
  receiptPurpose,
  receiptRecord,
  RECEIPT_SCHEMA_VERSION,
} from '@svc/schemas';
import { z } from 'zod/mini';

/** Where the receipt schema is published; its `$id`. */
export const RECEIPT_SCHEMA_ID = 'https://svc.example/schemas/receipt/v2/record.json';

// Shared parts become named `$defs`; descriptions live here so the browser bundle of the schemas stays lean.
const documented = z.registry<{ id?: string; description: string }>();
documented.add(consentReceiptRecord, {
  description: 'A consent record (or a notice record); absent record_type on old records means consent_record.',
});
documented.add(authorizationReceiptRecord, {
  description: 'An authorization record: authority bounds, personal-data processing only when there is some.',
});
documented.add(piiProcessing, {
  id: 'pii_processing',
  description:
    'The processing the record covers: language, jurisdiction, granted purposes with labels frozen at issue, and the versioned notice.',
});
documented.add(receiptPurpose, {
  id: 'purpose',
  description: 'A granted purpose (consent given, a legitimate interest not objected to, or notice-only), its label frozen at issue.',
});
documented.add(privacyNotice, {
  id: 'privacy_notice',
  description:
    'Versioned notice reference plus the SHA-256 over the JCS canonical notice (locale, title, description, policy URL, purpose rows sorted by name).',
});
documented.add(receiptParty, {
  id: 'party',
  description:
    'A party of the record: controller, processor, supervisory authority, recipient; principal and agent on authorization records.',
});
documented.add(receiptEvent, {
  id: 'event',
  description:
    'An evidence projection: the frozen prefix at issue, then the events appended at read time (withdrawals, objections, expiry).',
});
documented.add(receiptAuthority, {
  id: 'authority',
  description: 'Authority granted (authorization records only); each bound appears exactly when enforced, absence means not configured.',
});

/** The receipt record's JSON Schema document. */
export function receiptJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(receiptRecord, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
    metadata: documented,
  }) as Record<string, unknown>;
  const { $schema, anyOf, ...body } = generated as { $schema: string; anyOf: Record<string, unknown>[] };
  // zod refinements have no JSON Schema form; this one is stated by hand on each record kind.
  const identified = {
    if: { properties: { anonymous: { const: true } }, required: ['anonymous'] },
    then: { properties: { pii_principal_id: false } },
    else: { properties: { pii_principal_id: true }, required: ['pii_principal_id'] },
  };
  return {
    $schema,
    $id: RECEIPT_SCHEMA_ID,
    title: `svc receipt record (${RECEIPT_SCHEMA_VERSION})`,
    description:
      'A consent, notice or authorization record conforming to ISO/IEC TS 27560:2023. A field the platform cannot state truthfully is omitted, never guessed. pii_principal_id is required on identified records and forbidden on anonymous ones.',
    anyOf: anyOf.map((kind) => ({ ...kind, ...identified })),
    ...body,
  };
}

/** The documents of `schemas/receipt/v2`, keyed by file name (for `pnpm schemas`). */
export function receiptJsonSchemas(): Record<string, object> {
  return { 'record.json': receiptJsonSchema() };
}

let text: string | undefined;
/** The published bytes: the document as `pnpm schemas` writes it (two-space JSON and a newline). */
export function receiptSchemaText(): string {
  text ??= `${JSON.stringify(receiptJsonSchema(), null, 2)}\n`;
  return text;
}
