// A decision completed in the embedded hosted page leaves a consent record whose signed receipt anyone can verify
// offline with nothing but the service's JWKS: the host's server exchanges the token, reads the record id, fetches
// the signed receipt once and checks it with verifyReceipt from @svc/client.
import { verifyReceipt, SvcReceiptVerificationError, type ReceiptRecord } from '@svc/client';
import { expect, grantConsent, ofTypes, test, type Received, type Service } from './fixtures.js';

interface Exchanged {
  record_id?: string;
  access_token?: string;
  provenance: { collection_channel: string; delivery_mode: string };
  claims: { subject: { email: string } | null };
}

interface SignedReceipt {
  receipt: ReceiptRecord & Record<string, unknown>;
  signature: string;
}

/** The exchange token of the page's svc:complete, once it arrived. */
async function completion(messages: () => Promise<Received[]>): Promise<string> {
  await expect.poll(async () => ofTypes(await messages(), 'svc:complete').length).toBe(1);
  const [complete] = ofTypes(await messages(), 'svc:complete');
  return complete!.data.payload.exchange_token as string;
}

/** What the host's server does after svc:complete: exchange, then fetch the signed receipt of the record and the JWKS. */
async function receiptOf(
  svc: Service,
  sessionToken: string,
  exchangeToken: string,
): Promise<{ exchanged: Exchanged; signed: SignedReceipt; jwks: { keys: unknown[] } }> {
  const exchanged = await svc.api<Exchanged>(`/api/v1/decisions/${sessionToken}/exchange`, { json: { exchange_token: exchangeToken } });
  expect(exchanged.status).toBe(200);
  const recordId = exchanged.body.record_id;
  expect(recordId).toMatch(/^cr_/);
  const decision = await svc.api<{ decision: { record_id: string | null } }>(`/api/v1/decisions/${sessionToken}`);
  expect(decision.body.decision.record_id).toBe(recordId);
  const signed = await svc.api<SignedReceipt>(`/api/v1/consent_receipts/${recordId}?flavor=signed`);
  expect(signed.status).toBe(200);
  // The JWKS is public: no credential, fetched once and kept.
  const jwks = (await (await fetch(`${svc.server.url}/.well-known/jwks.json`)).json()) as { keys: unknown[] };
  return { exchanged: exchanged.body, signed: signed.body, jwks };
}

test.describe('records of decisions completed in the embed', () => {
  test('standard path: the signed receipt of the embedded record verifies offline with only the JWKS', async ({
    page,
    svc,
    host,
    messages,
  }) => {
    const decision = await svc.createDecision({
      kind: 'consent',
      subject_ref: svc.server.sandbox.flow_id,
      delivery_mode: 'embed',
      embed_origin: host.origin,
    });
    await page.goto(host.embedPage(decision.embed_url));
    const frame = page.frameLocator('#svc');
    await grantConsent(frame, 'receipt@example.com');
    await expect(frame.getByRole('heading', { level: 2, name: 'Thank you' })).toBeVisible();

    const { exchanged, signed, jwks } = await receiptOf(svc, decision.session_token, await completion(() => messages(page)));
    expect(exchanged.provenance).toEqual({ collection_channel: 'embedded', delivery_mode: 'embed' });
    expect(exchanged.claims.subject).toEqual({ email: 'receipt@example.com' });

    // Offline from here on: nothing but the signed receipt and the JWKS.
    const receipt = await verifyReceipt(signed, jwks as never);
    expect(receipt.record_id).toBe(exchanged.record_id);
    expect(receipt.pii_principal_id).toMatch(/^prs_/);
    expect(receipt.extensions).toMatchObject({
      collection_channel: 'embedded',
      delivery_mode: 'embed',
      consent_flow_id: svc.server.sandbox.flow_id,
    });
    expect(receipt.pii_processing.purposes.map((p) => p.purpose_id)).toContain('newsletter');
    expect(receipt.event.map((e) => e.event_state)).toEqual(['consent requested', 'consent given']);

    // A receipt changed after signing does not verify.
    const forged = structuredClone(signed);
    forged.receipt.pii_processing.purposes = forged.receipt.pii_processing.purposes.filter((p) => p.purpose_id !== 'newsletter');
    await expect(verifyReceipt(forged, jwks as never)).rejects.toBeInstanceOf(SvcReceiptVerificationError);
  });

  test('informed path without sign-in: an anonymous receipt, verified offline the same way', async ({ page, svc, host, messages }) => {
    const decision = await svc.createDecision({
      kind: 'consent',
      subject_ref: svc.server.sandbox.informed_flow_id,
      delivery_mode: 'embed',
      embed_origin: host.origin,
    });
    await page.goto(host.embedPage(decision.embed_url));
    const frame = page.frameLocator('#svc');
    await frame.getByRole('button', { name: 'Continue' }).click();
    await frame.getByRole('button', { name: 'I have read this' }).click();
    await frame.getByRole('radio', { name: 'Yes, at any time' }).check();
    await frame.getByRole('button', { name: 'Check answer' }).click();
    await frame.getByRole('checkbox', { name: /research study/ }).check();
    await frame.getByRole('button', { name: 'Agree' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'Thank you' })).toBeVisible();

    const { exchanged, signed, jwks } = await receiptOf(svc, decision.session_token, await completion(() => messages(page)));
    expect(exchanged.claims.subject).toBeNull();
    const receipt = await verifyReceipt(signed, jwks as never);
    expect(receipt.anonymous).toBe(true);
    expect(receipt.pii_principal_id).toBeUndefined();
    expect(receipt.event.map((e) => e.event_state)).toEqual(['notice shown', 'consent requested', 'consent given']);
    expect(receipt.event.at(-1)!.entity_id, 'the record id stands in for the principal').toBe(receipt.record_id);
  });
});
