// Credentials and presentations through the client against a reference server of two country cells: a consent is
// fulfilled in US, a credential issued there, presented with one purpose disclosed and verified by a client of the DE
// cell; revoked, listed; refusals are typed errors with their code.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { credentialClaims, presentCredential } from '../credentials/index.js';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcValidationError } from '../lib/errors.js';
import { consentToNewsletter } from '../testing/participant.test.helper.js';
import { rejection } from '../testing/rejection.test.helper.js';
import { startTestCells, type TestCells, type TestServer } from '../testing/servers.test.helper.js';

describe('credentials and presentations against the reference server', () => {
  let cells: TestCells;
  let us: TestServer;
  let issuer: SvcClient;
  let verifier: SvcClient;

  before(async () => {
    cells = await startTestCells(['US', 'DE']);
    us = cells.cells.US!;
    issuer = createClient({ baseUrl: us.url, apiToken: us.sandbox.api_token });
    verifier = createClient({ baseUrl: cells.cells.DE!.url, apiToken: us.sandbox.api_token });
  });
  after(() => cells.dispose());

  it('issues, presents one claim, verifies in the other cell, lists and revokes', async () => {
    const decision = await issuer.decisions.create({
      kind: 'consent',
      subject_ref: us.sandbox.flow_id!,
      delivery_mode: 'embed',
      embed_origin: us.url,
    });
    await consentToNewsletter(us.url, decision.session_token, 'cleo@example.com');
    const { consent_transaction_id } = await issuer.decisions.get(decision.session_token);
    assert.ok(consent_transaction_id);

    const credential = await issuer.credentials.create({ consent_transaction_id, credential_type: 'ConsentCredential', validity_days: 7 });
    assert.equal(credential.home_country, 'US');
    assert.equal(credential.format, 'dc+sd-jwt');
    assert.equal((await credentialClaims(credential.credential)).email, 'cleo@example.com');

    const presentation = await presentCredential(credential.credential, { disclose: ['purposes.newsletter'] });
    const result = await verifier.presentations.verify({ presentation });
    assert.equal(result.valid, true);
    assert.equal(result.issuer_country, 'US');
    assert.deepEqual(result.disclosed_claims, { home_country: 'US', purposes: { newsletter: true } });

    assert.deepEqual((await issuer.credentials.get(credential.id)).id, credential.id);
    const listed = [];
    for await (const c of issuer.credentials.list({ consent_transaction_id, limit: 1 })) listed.push(c.id);
    assert.deepEqual(listed, [credential.id]);
    const revoked = await issuer.credentials.revoke(credential.id);
    assert.equal(revoked.status, 'revoked');

    await assert.rejects(
      presentCredential(credential.credential, { disclose: ['purposes.marketing'] }),
      /No disclosable claim "purposes.marketing"/,
    );
    const tampered = presentation.replace(/~([A-Za-z0-9_-]+)~$/, (_m, d: string) => `~${d.slice(0, -2)}AA~`);
    const refused = await rejection(verifier.presentations.verify({ presentation: tampered }), SvcValidationError);
    assert.ok(['disclosure_not_referenced', 'malformed_presentation'].includes(refused.reason ?? ''), refused.reason);
  });
});
