// Agreements through the client against a running reference server: create one (each party gets a signing session),
// a party signs on the hosted page's participant API, the agreement is read, listed, its quorum votes and its receipt
// fetched, and the receipt verified offline with the service's JWKS.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcValidationError } from '../lib/errors.js';
import { signAsParty } from '../testing/participant.test.helper.js';
import { rejection } from '../testing/rejection.test.helper.js';
import { startTestServer, type TestServer } from '../testing/servers.test.helper.js';
import { verifyAgreementReceipt } from '../verify/agreement.js';

const TEXT = 'We agree to share the garden.\n';
const SHA = createHash('sha256').update(TEXT).digest('hex');

describe('agreements against the reference server', () => {
  let server: TestServer;
  let svc: SvcClient;

  before(async () => {
    server = await startTestServer();
    svc = createClient({ baseUrl: server.url, apiToken: server.sandbox.api_token });
  });
  after(() => server.dispose());

  it('creates, signs, reads, lists, and verifies the receipt offline', async () => {
    const created = await svc.agreements.create({
      agreement: {
        title: 'Garden',
        document: { text: TEXT, sha256: SHA },
        quorum: 1,
        parties: [
          { email: 'ana@example.pt', home_country: 'PT' },
          { email: 'ben@example.com', home_country: 'US' },
        ],
      },
    });
    assert.equal(created.status, 'pending');
    const decision = await svc.decisions.get(created.party_details[0]!.session_token);
    assert.equal(decision.kind, 'signature_request');

    const token = created.party_details[0]!.session_token;
    await signAsParty(server.url, token, 'Ana Costa');

    const read = await svc.agreements.get(created.id);
    assert.deepEqual([read.status, read.quorum_status], ['active', 'reached']);
    const listed = await svc.agreements.list({ status: 'active' }).page();
    assert.deepEqual(
      listed.items.map((a) => a.id),
      [created.id],
    );
    assert.deepEqual(
      (await svc.agreements.quorumVotes(created.id)).map((v) => [v.party_id, v.vote]),
      [[created.party_details[0]!.id, 'approve']],
    );

    const receipt = await svc.agreements.receipt(created.id);
    const verified = await verifyAgreementReceipt(receipt, await svc.receipts.jwks());
    assert.deepEqual(
      verified.signed.map((s) => [s.party_email, s.signed_name, s.document_sha256]),
      [['ana@example.pt', 'Ana Costa', SHA]],
    );
  });

  it('a digest that does not fit the text is a validation error naming the field', async () => {
    const error = await rejection(
      svc.agreements.create({
        agreement: {
          title: 'Garden',
          document: { text: TEXT, sha256: '0'.repeat(64) },
          quorum: 1,
          parties: [{ email: 'ana@example.pt', home_country: 'PT' }],
        },
      }),
      SvcValidationError,
    );
    assert.deepEqual(
      error.errors.map((e) => [e.path, e.code]),
      [['agreement.document.sha256', 'digest_mismatch']],
    );
  });
});
