// The transfer register, residency posture and breach scope through the client against a reference server of two
// country cells: each call answers its validated shape, every evidence package verifies offline with the answering
// cell's JWKS, and the server's refusals arrive as the client's errors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type SvcClient } from '../lib/client.js';
import { SvcNotFoundError, SvcPermissionError, SvcValidationError } from '../lib/errors.js';
import { rejection } from '../testing/rejection.test.helper.js';
import { startTestCells, type TestCells } from '../testing/servers.test.helper.js';
import { SvcEvidenceVerificationError, verifyEvidencePackage } from '../verify/evidence.js';
import type { JSONWebKeySet } from 'jose';

describe('cross-border and breach scope against the reference server', () => {
  let cells: TestCells;
  let svc: SvcClient;
  let jwks: JSONWebKeySet;

  before(async () => {
    cells = await startTestCells(['US', 'DE']);
    svc = createClient({ baseUrl: cells.cells.DE!.url, apiToken: cells.first.sandbox.api_token });
    jwks = (await (await fetch(`${cells.cells.DE!.url}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
  });
  after(() => cells.dispose());

  it('lists the transfer register and verifies its evidence package offline', async () => {
    const page = await svc.transferRegister.list({ limit: 10 }).page();
    assert.ok(Array.isArray(page.items));
    const evidence = await svc.transferRegister.evidencePackage();
    assert.equal(evidence.format_type, 'svc.transfer_register.v1');
    const { payload, kid } = await verifyEvidencePackage(evidence, jwks, { formatType: 'svc.transfer_register.v1' });
    assert.equal(payload.country, 'DE');
    assert.ok(kid.length > 0);
    const tampered = { ...evidence, package: evidence.package.replace(/\.(.)/, (_, c: string) => `.${c === 'e' ? 'f' : 'e'}`) };
    await rejection(verifyEvidencePackage(tampered, jwks), SvcEvidenceVerificationError);
    await rejection(svc.transferRegister.evidencePackage({ application_id: '' }), SvcValidationError);
  });

  it('reads the residency posture of every country and its signed proof', async () => {
    const posture = await svc.residencyPosture.get();
    assert.deepEqual(
      posture.countries.map((c) => c.country),
      ['US', 'DE'],
    );
    assert.ok(posture.countries.every((c) => c.assurance === 'verified' && c.storage_locations[0] === c.country));
    const evidence = await svc.residencyPosture.evidencePackage();
    const verified = await verifyEvidencePackage(evidence, jwks, { formatType: 'svc.residency_posture.v1' });
    assert.equal(verified.evidence_package_id, evidence.evidence_package_id);
  });

  it('reports a breach scope, signs it, and refuses what it must', async () => {
    const request = {
      credential_type: 'publishable_key' as const,
      credential_id: cells.first.sandbox.publishable_key,
      window: { from: '2020-01-01T00:00:00Z' },
    };
    const scope = await svc.breachScope.report(request);
    assert.equal(scope.credential.type, 'publishable_key');
    assert.match(scope.credential.fingerprint, /^sha256:[0-9a-f]{64}$/);
    assert.equal(scope.subjects_affected, 0);
    assert.ok(!JSON.stringify(scope).includes(cells.first.sandbox.publishable_key));
    const evidence = await svc.breachScope.evidencePackage(request);
    const { payload } = await verifyEvidencePackage<{ breach_scope: { credential: { fingerprint: string } } }>(evidence, jwks);
    assert.equal(payload.breach_scope.credential.fingerprint, scope.credential.fingerprint);

    await rejection(svc.breachScope.report({ ...request, credential_id: 'pk_test_nosuchkeyatall' }), SvcNotFoundError);
    await rejection(
      svc.breachScope.report({ ...request, window: { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' } }),
      SvcValidationError,
    );
    const token = await svc.apiTokens.create({ name: 'reader', permissions: ['read'] });
    const reader = createClient({ baseUrl: cells.first.url, apiToken: token.token });
    await rejection(reader.breachScope.report(request), SvcPermissionError);
    assert.ok(Array.isArray((await reader.transferRegister.list().page()).items));
  });
});
