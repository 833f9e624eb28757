// Receipts in their three flavors through the client, and a signed receipt verified offline with verifyReceipt.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect } from '../lib/connection.js';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcNotFoundError, SvcResponseValidationError, type SvcError } from '../lib/errors.js';
import { RECEIPT_SCHEMA_VERSION } from '@svc/schemas';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { createRecordFlow, freshEmail, grantAll } from '../testing/records.test.helper.js';
import { SvcReceiptKeyError, SvcReceiptSignatureError, verifyReceipt } from '../verify/receipt.js';
import { getJwks } from './receipts.js';
import { rejection } from '../testing/rejection.test.helper.js';

describe('receipts against the reference server', () => {
  let server: TestServer;
  let svc: SvcClient;
  let recordId: string;

  before(async () => {
    server = await startTestServer();
    svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
    const flowId = await createRecordFlow(svc);
    recordId = (await svc.consentRecords.create({ flow_id: flowId, subject: { email: freshEmail('receipt') }, decisions: grantAll })).id;
  });
  after(() => server.dispose());

  it('reads the canonical receipt, unwrapped', async () => {
    const receipt = await svc.receipts.get(recordId);
    assert.equal(receipt.schema_version, RECEIPT_SCHEMA_VERSION);
    assert.equal(receipt.record_id, recordId);
    assert.deepEqual(receipt.pii_processing?.purposes.map((p) => p.purpose_id).sort(), ['analytics', 'newsletter', 'research', 'service']);
    assert.equal(receipt.extensions?.collection_channel, 'controller_attested');
  });

  it('reads the signed receipt and verifies it offline with the JWKS, and nothing else', async () => {
    const signed = await svc.receipts.getSigned(recordId);
    const jwks = await svc.receipts.jwks();
    assert.ok(jwks.keys.length >= 1 && jwks.keys.every((k) => k.kid && !('d' in k)), 'public keys only');
    // Everything the verifier gets is JSON (as if stored and read back years later), so nothing else is needed.
    const receipt = await verifyReceipt(JSON.stringify(signed), JSON.parse(JSON.stringify(jwks)));
    assert.deepEqual(receipt, await svc.receipts.get(recordId));
  });

  it('makes a changed signed receipt fail verification', async () => {
    const signed = await svc.receipts.getSigned(recordId);
    const jwks = await svc.receipts.jwks();
    const purposes = signed.receipt.pii_processing!.purposes;
    const changed = {
      ...signed,
      receipt: { ...signed.receipt, pii_processing: { ...signed.receipt.pii_processing!, purposes: purposes.slice(1) } },
    };
    await rejection(verifyReceipt(changed, jwks), SvcReceiptSignatureError);
    await rejection(verifyReceipt(signed, { keys: [] }), SvcReceiptKeyError);
  });

  it('shows a withdrawal as an appended event after the frozen ones, still signed', async () => {
    const before = await svc.receipts.getSigned(recordId);
    await svc.consentRecords.withdraw(recordId, { purposes: ['research'], event_channel: 'receipt_record_link' });
    const after = await svc.receipts.getSigned(recordId);
    const withdrawn = after.receipt.event.find((e) => e.event_state === 'consent withdrawn');
    assert.equal(withdrawn?.purpose_id, 'research');
    assert.equal(withdrawn?.event_channel, 'receipt_record_link');
    assert.deepEqual(after.receipt.event.slice(0, before.receipt.event.length), before.receipt.event);
    await verifyReceipt(after, await svc.receipts.jwks());
  });

  it('reads the dpv flavor as JSON-LD', async () => {
    const dpv = await svc.receipts.getDpv(recordId);
    assert.equal(dpv['@type'], 'dpv:ConsentRecord');
    assert.equal(dpv['dct:identifier'], recordId);
    assert.ok(typeof dpv['@context'] === 'object' && dpv['@context'] !== null, 'the context is embedded');
    assert.ok(dpv['dpv:hasPurpose'].some((p) => p['dct:identifier'] === 'newsletter'));
  });

  it('throws SvcNotFoundError for an unknown record, in every flavor', async () => {
    for (const read of [svc.receipts.get, svc.receipts.getSigned, svc.receipts.getDpv]) {
      const err = await rejection<SvcError>(read('cr_nothing'), SvcNotFoundError);
      assert.match(err.path ?? '', /^\/api\/v1\/consent_receipts\/cr_nothing/);
    }
  });

  it('serves the JWKS to any connection, publishable ones included', async () => {
    const page = connect({ baseUrl: server.url, publishableKey: server.sandbox.publishable_key });
    assert.deepEqual(await getJwks(page), await svc.receipts.jwks());
  });

  it('refuses a signed receipt whose signature is not a detached JWS, as a response validation error', async () => {
    const forging = createClient({
      baseUrl: server.url,
      apiToken: server.sandbox.api_token,
      fetch: async (url, init) => {
        const res = await fetch(url, init);
        const body = (await res.json()) as { signature: string };
        return Response.json({ ...body, signature: body.signature.replace('..', '.payload.') });
      },
    });
    const err = await rejection(forging.receipts.getSigned(recordId), SvcResponseValidationError);
    assert.equal(err.errors[0]?.path, 'signature');
  });
});
