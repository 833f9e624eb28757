// Test support for records, receipts and the audit trail: a capturable flow with one purpose of each kind, request
// helpers, and the receipt schema check every receipt of the suite goes through.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { verifyReceipt } from '@svc/client';
import type { ConsentRecord, FlowConfigInput } from '@svc/schemas';
import type { TestServer } from '../../testing.js';

/** A capturable flow (no verification step, a consent duration): an opening notice and one purpose of each kind. */
export const recordFlowConfig: FlowConfigInput = {
  locale: 'en',
  policy_url: 'https://shop.example/privacy',
  consent_duration: 'P1Y',
  purposes: [
    { key: 'newsletter', label: 'Email newsletter', description: 'A monthly email about offers.', basis: 'consent', mechanism: 'explicit' },
    {
      key: 'research',
      label: 'Research panel',
      description: 'Invitations to take part in studies.',
      basis: 'consent',
      mechanism: 'informed',
    },
    {
      key: 'analytics',
      label: 'Product analytics',
      description: 'Measuring use. You may object.',
      basis: 'legitimate_interest',
      mechanism: 'opt_out',
    },
    { key: 'service', label: 'Providing the service', basis: 'contract', mechanism: 'notice', required: true },
    { key: 'invoices', label: 'Keeping invoices', basis: 'legal_obligation', mechanism: 'notice', required: true },
  ],
  steps: [
    { type: 'disclosure', title: 'Before you decide', body: 'How we use your data, in plain words.' },
    { type: 'review', title: 'Decide' },
  ],
};

/** Decisions every purpose accepts: both consents granted, analytics not objected to. */
export const grantAll = {
  newsletter: { decision: 'granted' },
  research: { decision: 'granted' },
  analytics: { decision: 'granted' },
} as const;

type Body = Record<string, unknown>;

/** Creates and activates a flow through the API; returns its id. */
export async function createActiveFlow(
  server: TestServer,
  config: FlowConfigInput = recordFlowConfig,
  title = 'Shop signup',
): Promise<string> {
  const res = await server.api('/api/v1/flows', {
    method: 'POST',
    json: { flow: { pattern: 'standard', title, description: 'Signing up to the shop.', config } },
  });
  assert.equal(res.status, 201, await res.clone().text());
  const { flow } = (await res.json()) as { flow: { id: string } };
  const activated = await server.api(`/api/v1/flows/${flow.id}/activate`, { method: 'POST' });
  assert.equal(activated.status, 200, await activated.clone().text());
  return flow.id;
}

/** Posts a Record API request; returns status and body. */
export async function postRecord(
  server: TestServer,
  body: Body,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Body & { consent_record: ConsentRecord } }> {
  const res = await server.api('/api/v1/consent_records', { method: 'POST', json: body, headers });
  return { status: res.status, body: (await res.json()) as Body & { consent_record: ConsentRecord } };
}

/** Posts a Record API request that must succeed with 201; returns the record. */
export async function createRecord(server: TestServer, body: Body): Promise<ConsentRecord> {
  const { status, body: answer } = await postRecord(server, body);
  assert.equal(status, 201, JSON.stringify(answer));
  return answer.consent_record;
}

// ajv comes with the OpenAPI validator the workspace already has; it is not a dependency of its own.
const fromValidator = createRequire(createRequire(import.meta.url).resolve('@seriousme/openapi-schema-validator'));
const Ajv2020 = (
  fromValidator('ajv/dist/2020.js') as {
    default: new (o: object) => { compile(s: object): ((d: unknown) => boolean) & { errors?: unknown } };
  }
).default;
const addFormats = (fromValidator('ajv-formats') as { default: (ajv: unknown) => void }).default;

/** The checked-in receipt schema, `schemas/receipt/v2/record.json`. */
export const RECEIPT_SCHEMA_FILE = new URL('../../../../../schemas/receipt/v2/record.json', import.meta.url);

let validateReceipt: (((d: unknown) => boolean) & { errors?: unknown }) | undefined;
let validated = 0;
let signedVerified = 0;

/** How many signed receipts {@link fetchReceipt} has verified with only the JWKS in this process. */
export const signedReceiptsVerified = () => signedVerified;

/** Asserts a receipt validates against the published schema (every receipt the suite sees goes through here). */
export function assertValidReceipt(receipt: unknown): void {
  if (!validateReceipt) {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    validateReceipt = ajv.compile(JSON.parse(readFileSync(RECEIPT_SCHEMA_FILE, 'utf8')) as object);
  }
  assert.ok(
    validateReceipt(receipt),
    `receipt does not match schemas/receipt/v2/record.json: ${JSON.stringify(validateReceipt.errors, null, 2)}`,
  );
  validated++;
}

/** How many receipts {@link assertValidReceipt} has validated in this process. */
export const receiptsValidated = () => validated;

/**
 * Fetches a receipt in a flavor; canonical and signed receipts are validated against the published schema, and a
 * signed one is verified with nothing but the server's `/.well-known/jwks.json`.
 */
export async function fetchReceipt(
  server: TestServer,
  recordId: string,
  flavor?: 'canonical' | 'dpv' | 'signed',
): Promise<{ status: number; body: Body; contentType: string }> {
  const res = await server.api(`/api/v1/consent_receipts/${recordId}${flavor ? `?flavor=${flavor}` : ''}`);
  const body = (await res.json()) as Body;
  if (res.status === 200 && (flavor === undefined || flavor === 'canonical')) assertValidReceipt(body.consent_receipt);
  if (res.status === 200 && flavor === 'signed') {
    assertValidReceipt(body.receipt);
    const jwks = await (await fetch(`${server.url}/.well-known/jwks.json`)).json();
    await verifyReceipt(body as { receipt: unknown; signature: string }, jwks as never);
    signedVerified++;
  }
  return { status: res.status, body, contentType: res.headers.get('content-type') ?? '' };
}

/** `n` valid rows, each a different person, with idempotency keys `<prefix>-<i>`. */
export function importRows(n: number, prefix = 'row'): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    subject: { email: `${prefix}-${i}@example.com`, external_id: `${prefix}-ext-${i}` },
    decisions: i % 3 === 0 ? { ...grantAll, research: { decision: 'declined' } } : grantAll,
    captured_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    idempotency_key: `${prefix}-${i}`,
  }));
}
