// An approval decided on the real hosted page (embedded or in a popup) leaves an authorization record: the host's
// server exchanges the token, reads the record id, fetches the signed receipt once and checks it offline with
// verifyReceipt and the JWKS alone; the dpv flavor is refused (Errors rule 11); the audit trail holds the outcome and
// verifies with verifyAuditChain; the receipt's withdrawal method is a page anyone can open.
import { verifyAuditChain, verifyReceipt, SvcReceiptVerificationError, type ReceiptRecord } from '@svc/client';
import type { AuditEvent } from '@svc/client/schemas';
import { expect, ofTypes, test, type Received, type Service } from './fixtures.js';

interface SignedReceipt {
  receipt: ReceiptRecord & Record<string, unknown>;
  signature: string;
}

/** The exchange token of the page's svc:complete, once it arrived. */
async function completion(messages: () => Promise<Received[]>): Promise<string> {
  await expect.poll(async () => ofTypes(await messages(), 'svc:complete').length).toBe(1);
  return ofTypes(await messages(), 'svc:complete')[0]!.data.payload.exchange_token as string;
}

/** What the host's server does after svc:complete: exchange, then fetch the signed receipt and the JWKS. */
async function receiptOf(svc: Service, sessionToken: string, exchangeToken: string) {
  const exchanged = await svc.api<{ record_id?: string; outcome: string }>(`/api/v1/decisions/${sessionToken}/exchange`, {
    json: { exchange_token: exchangeToken },
  });
  expect(exchanged.status).toBe(200);
  const recordId = exchanged.body.record_id!;
  expect(recordId).toMatch(/^ar_/);
  const decision = await svc.api<{ decision: { record_id: string | null } }>(`/api/v1/decisions/${sessionToken}`);
  expect(decision.body.decision.record_id).toBe(recordId);
  const signed = await svc.api<SignedReceipt>(`/api/v1/consent_receipts/${recordId}?flavor=signed`);
  expect(signed.status).toBe(200);
  const jwks = (await (await fetch(`${svc.server.url}/.well-known/jwks.json`)).json()) as never;
  return { recordId, outcome: exchanged.body.outcome, signed: signed.body, jwks };
}

async function expectAudited(svc: Service, recordId: string, type: string): Promise<void> {
  const { body } = await svc.api<{ audit_events: AuditEvent[] }>('/api/v1/audit/events?limit=1000');
  const events = body.audit_events;
  expect(events.filter((e) => e.data.record_id === recordId).map((e) => e.type)).toEqual([type]);
  const witness = (await (await fetch(`${svc.server.url}/.well-known/witness-configuration`)).json()) as { jwks: never };
  const issuer = (await (await fetch(`${svc.server.url}/.well-known/jwks.json`)).json()) as never;
  expect((await verifyAuditChain(events, [], { issuer, witness: witness.jwks })).ok).toBe(true);
}

test.describe('authorization records of approvals decided in the hosted page', () => {
  test('approved in the embed: the signed authorization receipt verifies offline; dpv is refused; the trail holds it', async ({
    page,
    svc,
    host,
    messages,
  }) => {
    const decision = await svc.createDecision({
      kind: 'approval',
      subject_ref: 'esc_e2e_receipt_1',
      delivery_mode: 'embed',
      embed_origin: host.origin,
      scope: 'payments:write',
      state: 'Pay invoice INV-9: 120.00 EUR',
    });
    await page.goto(host.embedPage(decision.embed_url));
    const frame = page.frameLocator('#svc');
    await frame.getByRole('button', { name: 'Approve' }).click();
    await expect(frame.getByRole('heading', { level: 2, name: 'Approved' })).toBeVisible();

    const { recordId, outcome, signed, jwks } = await receiptOf(svc, decision.session_token, await completion(() => messages(page)));
    expect(outcome).toBe('approved');
    // Offline from here on: nothing but the signed receipt and the JWKS.
    const receipt = await verifyReceipt(signed, jwks);
    expect(receipt.record_type).toBe('authorization_record');
    if (receipt.record_type !== 'authorization_record') return;
    expect(receipt.anonymous).toBe(true);
    expect(receipt.pii_processing).toBeUndefined();
    expect(receipt.event.map((e) => [e.event_state, e.approval_id])).toEqual([
      ['approval requested', 'esc_e2e_receipt_1'],
      ['approval granted', 'esc_e2e_receipt_1'],
    ]);
    expect(receipt.party_identification.map((p) => p.party_role)).toEqual(['principal', 'agent', 'processor']);
    expect(receipt.extensions).toMatchObject({ delivery_mode: 'embed', collection_channel: 'embedded', scopes: ['payments:write'] });
    expect(receipt.authority.withdrawal_method).toBe(`${svc.server.url}/authorization_receipts/${recordId}/withdraw`);

    const forged = structuredClone(signed);
    (forged.receipt.event as { event_state: string }[])[1]!.event_state = 'approval denied';
    await expect(verifyReceipt(forged, jwks)).rejects.toBeInstanceOf(SvcReceiptVerificationError);

    const dpv = await svc.api<{ message: string; code: string }>(`/api/v1/consent_receipts/${recordId}?flavor=dpv`);
    expect(dpv.status).toBe(422);
    expect(dpv.body.code).toBe('dpv_not_applicable');
    expect(dpv.body.message).toMatch(/personal-data processing/);

    await expectAudited(svc, recordId, 'approval.granted');

    // The withdrawal method opens without any credential and says how to withdraw.
    await page.goto(receipt.authority.withdrawal_method);
    await expect(page.getByRole('heading', { level: 1, name: 'Withdrawing an approval' })).toBeVisible();
    await expect(page.getByText(/contact Sandbox application/)).toBeVisible();
  });

  test('countered in a popup: an authorization record without the counter-proposal text', async ({ page, svc, host }) => {
    const decision = await svc.createDecision({
      kind: 'approval',
      subject_ref: 'esc_e2e_receipt_2',
      delivery_mode: 'popup',
      embed_origin: host.origin,
    });
    await page.goto(host.popupPage(decision.url));
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Open' }).click()]);
    await popup.getByRole('button', { name: 'Counter…' }).click();
    await popup.getByLabel('Your counter-proposal').fill('Half now, half on delivery');
    await popup.getByRole('button', { name: 'Send counter-proposal' }).click();
    await expect(popup.getByRole('heading', { level: 2, name: 'Counter-proposal sent' })).toBeVisible();

    const all = await page.evaluate(() => (window as unknown as { svcMessages: Received[] }).svcMessages);
    const { recordId, outcome, signed, jwks } = await receiptOf(
      svc,
      decision.session_token,
      ofTypes(all, 'svc:complete')[0]!.data.payload.exchange_token as string,
    );
    expect(outcome).toBe('countered');
    const receipt = await verifyReceipt(signed, jwks);
    expect(receipt.event.at(-1)!.event_state).toBe('approval countered');
    expect(JSON.stringify(receipt)).not.toContain('Half now');
    await expectAudited(svc, recordId, 'approval.countered');
  });

  test('denied in the embed: the record and audit event of a refusal', async ({ page, svc, host, messages }) => {
    const decision = await svc.createDecision({
      kind: 'approval',
      subject_ref: 'esc_e2e_receipt_3',
      delivery_mode: 'embed',
      embed_origin: host.origin,
    });
    await page.goto(host.embedPage(decision.embed_url));
    await page.frameLocator('#svc').getByRole('button', { name: 'Deny' }).click();
    await expect(page.frameLocator('#svc').getByRole('heading', { level: 2, name: 'Denied' })).toBeVisible();
    const { recordId, outcome, signed, jwks } = await receiptOf(svc, decision.session_token, await completion(() => messages(page)));
    expect(outcome).toBe('denied');
    const receipt = await verifyReceipt(signed, jwks);
    expect(receipt.event.at(-1)!.event_state).toBe('approval denied');
    if (receipt.record_type === 'authorization_record') expect(receipt.authority.valid_from).toBeUndefined();
    await expectAudited(svc, recordId, 'approval.denied');
  });
});
