// verifyEvidencePackage with keys made here: a package verifies and answers its content and kid; it fails, with the
// check that failed, when a character changes anywhere, when no key matches, when it is not an evidence package, or
// when its envelope says something else than what was signed.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { CompactSign, exportJWK, generateKeyPair, type JSONWebKeySet } from 'jose';
import { EVIDENCE_PACKAGE_TYP, SvcEvidenceVerificationError, verifyEvidencePackage } from './evidence.js';

let privateKey: CryptoKey;
let jwks: JSONWebKeySet;
let otherJwks: JSONWebKeySet;

before(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  privateKey = pair.privateKey;
  jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] };
  const other = await generateKeyPair('ES256', { extractable: true });
  otherJwks = { keys: [{ ...(await exportJWK(other.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] };
});

async function sign(payload: unknown, header: Record<string, unknown> = {}): Promise<string> {
  return new CompactSign(new TextEncoder().encode(typeof payload === 'string' ? payload : JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: EVIDENCE_PACKAGE_TYP, ...header })
    .sign(privateKey);
}

const content = {
  evidence_package_id: 'evp_us_1',
  format_type: 'svc.residency_posture.v1',
  drawn_at: '2026-11-24T00:00:00.000Z',
  residency_posture: { countries: [] },
};

async function failure(promise: Promise<unknown>): Promise<SvcEvidenceVerificationError['check']> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof SvcEvidenceVerificationError, String(err));
    assert.equal(err.code, 'ERR_SVC_EVIDENCE_VERIFICATION');
    return err.check;
  }
  assert.fail('verified');
}

describe('verifyEvidencePackage', () => {
  it('answers the signed content and the kid, from the envelope, its JSON text or the JWS alone', async () => {
    const evidence = { evidence_package_id: 'evp_us_1', format_type: 'svc.residency_posture.v1', package: await sign(content) };
    for (const input of [evidence, JSON.stringify(evidence), evidence.package]) {
      const verified = await verifyEvidencePackage(input, jwks, { formatType: 'svc.residency_posture.v1' });
      assert.equal(verified.kid, 'k1');
      assert.equal(verified.evidence_package_id, 'evp_us_1');
      assert.deepEqual(verified.payload, content);
    }
  });

  it('fails when any one character of the header, payload or signature changes', async () => {
    const evidence = { evidence_package_id: 'evp_us_1', format_type: 'svc.residency_posture.v1', package: await sign(content) };
    const jws = evidence.package;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < jws.length; i += 1) {
      if (jws[i] === '.') continue;
      for (const shift of [1, 32]) {
        const c = alphabet[(alphabet.indexOf(jws[i]!) + shift) % 64]!;
        assert.ok(
          ['signature', 'key', 'format', 'invalid'].includes(
            await failure(verifyEvidencePackage({ ...evidence, package: jws.slice(0, i) + c + jws.slice(i + 1) }, jwks)),
          ),
        );
      }
    }
  });

  it('names the check that failed', async () => {
    const jws = await sign(content);
    assert.equal(await failure(verifyEvidencePackage({ package: jws }, otherJwks)), 'signature');
    assert.equal(await failure(verifyEvidencePackage({ package: jws }, { keys: [] })), 'key');
    assert.equal(await failure(verifyEvidencePackage({ package: 'a.b' }, jwks)), 'format');
    assert.equal(await failure(verifyEvidencePackage('{not json', jwks)), 'format');
    assert.equal(await failure(verifyEvidencePackage({ package: jws }, {} as JSONWebKeySet)), 'format');
    assert.equal(await failure(verifyEvidencePackage({ package: await sign(content, { typ: 'JWT' }) }, jwks)), 'invalid');
    assert.equal(await failure(verifyEvidencePackage({ package: await sign('[1,2]') }, jwks)), 'invalid');
    assert.equal(await failure(verifyEvidencePackage({ package: await sign('not json') }, jwks)), 'invalid');
    assert.equal(await failure(verifyEvidencePackage({ package: await sign({ format_type: 'x' }) }, jwks)), 'invalid');
    assert.equal(await failure(verifyEvidencePackage({ package: jws, evidence_package_id: 'evp_us_2' }, jwks)), 'invalid');
    assert.equal(await failure(verifyEvidencePackage({ package: jws, format_type: 'svc.breach_scope.v1' }, jwks)), 'invalid');
    assert.equal(await failure(verifyEvidencePackage({ package: jws }, jwks, { formatType: 'svc.breach_scope.v1' })), 'invalid');
    assert.equal(
      await failure(
        verifyEvidencePackage(
          { package: await sign(content, { alg: 'ES384' }).catch(() => jws.replace(/^[^.]+/, 'eyJhbGciOiJub25lIn0')) },
          jwks,
        ),
      ),
      'signature',
    );
  });
});
