import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import canonicalize from 'canonicalize';
import { CompactSign, exportJWK, generateKeyPair, type JSONWebKeySet } from 'jose';
import { capabilityManifestDigest, isSvcError, SvcError, verifyReceipt, verifyTransparencyRecord } from '../index.js';
import { base64url, canonicalJson } from './jcs.js';

const jcsReference = ((canonicalize as unknown as { default?: unknown }).default ?? canonicalize) as (v: unknown) => string;

const manifest = {
  agent_type: 'autonomous',
  name: 'Travel agent — Zürich',
  delegated_scopes: ['bookings:read', 'payments:write'],
  capabilities: ['book_travel', 'pay'],
  operator_name: 'Example Travel Ltd',
  privacy_policy_url: null,
  data_storage: 'EU',
  retention_period: 'P30D',
};
const digest = `sha256:${createHash('sha256').update(jcsReference(manifest)).digest('hex')}`;

const manifestRecord = {
  record_type: 'capability_manifest_record',
  format: 'svc-transparency/1',
  issuer: 'http://127.0.0.1:4010',
  agent_id: 'agt_dev_x',
  version: 1,
  manifest,
  digest_method: 'sha256-jcs',
  digest,
  pinned_at: '2026-01-01T00:00:00.000Z',
};

const revocationList = {
  record_type: 'oap_revocation_list',
  format: 'svc-transparency/1',
  issuer: 'http://127.0.0.1:4010',
  agent_identities: [{ id: 'agt_dev_gone', revoked_at: '2026-01-02T00:00:00.000Z' }],
  delegation_grants: [],
  issued_at: '2026-01-03T00:00:00.000Z',
};

async function keyPair(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

/** Signs as the server does: a compact JWS over the JCS bytes, with the payload segment dropped. */
async function sign(value: unknown, privateKey: CryptoKey, kid: string): Promise<string> {
  const jws = await new CompactSign(new TextEncoder().encode(jcsReference(value)))
    .setProtectedHeader({ alg: 'ES256', kid })
    .sign(privateKey);
  const [h, , s] = jws.split('.');
  return `${h}..${s}`;
}

describe('verifyTransparencyRecord', () => {
  it('returns the record when the detached signature fits its JCS bytes and a key of the JWKS; the JSON text works too', async () => {
    const { privateKey, jwk } = await keyPair('k1');
    const jwks: JSONWebKeySet = { keys: [(await keyPair('k0')).jwk, jwk] };
    for (const record of [manifestRecord, revocationList]) {
      const signed = { record, signature: await sign(record, privateKey, 'k1') };
      assert.deepEqual(await verifyTransparencyRecord(signed, jwks), record);
      assert.deepEqual(await verifyTransparencyRecord(JSON.stringify(signed), jwks), record);
    }
    const signed = { record: manifestRecord, signature: await sign(manifestRecord, privateKey, 'k1') };
    const typed = await verifyTransparencyRecord(signed, jwks, { recordType: 'capability_manifest_record' });
    assert.equal(typed.manifest.name, manifest.name); // narrowed to the manifest record by recordType
  });

  it('throws typed errors: a changed field, an unknown key, another key, a malformed signature, an unexpected kind', async () => {
    const { privateKey, jwk } = await keyPair('k1');
    const jwks = { keys: [jwk] };
    const signature = await sign(manifestRecord, privateKey, 'k1');
    const changed = { ...manifestRecord, manifest: { ...manifest, capabilities: ['pay'] } };
    await assert.rejects(
      verifyTransparencyRecord({ record: changed, signature }, jwks),
      (err: unknown) => err instanceof SvcError && isSvcError(err) && err.code === 'ERR_SVC_TRANSPARENCY_SIGNATURE',
    );
    await assert.rejects(verifyTransparencyRecord({ record: { ...manifestRecord, version: 2 }, signature }, jwks), {
      code: 'ERR_SVC_TRANSPARENCY_SIGNATURE',
    });
    await assert.rejects(verifyTransparencyRecord({ record: manifestRecord, signature }, { keys: [{ ...jwk, kid: 'k2' }] }), {
      code: 'ERR_SVC_TRANSPARENCY_KEY',
    });
    await assert.rejects(verifyTransparencyRecord({ record: manifestRecord, signature }, { keys: [{ ...(await keyPair('k1')).jwk }] }), {
      code: 'ERR_SVC_TRANSPARENCY_SIGNATURE',
    });
    const attached = signature.replace('..', `.${base64url(new TextEncoder().encode(canonicalJson(manifestRecord)))}.`);
    await assert.rejects(verifyTransparencyRecord({ record: manifestRecord, signature: attached }, jwks), {
      code: 'ERR_SVC_TRANSPARENCY_FORMAT',
    });
    await assert.rejects(verifyTransparencyRecord({ record: manifestRecord, signature: 'nonsense' }, jwks), {
      code: 'ERR_SVC_TRANSPARENCY_FORMAT',
    });
    await assert.rejects(verifyTransparencyRecord('{not json', jwks), { code: 'ERR_SVC_TRANSPARENCY_FORMAT' });
    await assert.rejects(verifyTransparencyRecord({ record: [], signature } as never, jwks), { code: 'ERR_SVC_TRANSPARENCY_FORMAT' });
    await assert.rejects(verifyTransparencyRecord({ record: manifestRecord, signature }, { nope: 1 } as never), {
      code: 'ERR_SVC_TRANSPARENCY_FORMAT',
    });
    await assert.rejects(
      verifyTransparencyRecord({ record: manifestRecord, signature }, jwks, { recordType: 'controller_record' }),
      (err: unknown) =>
        (err as { code: string; errors: { path: string }[] }).code === 'ERR_SVC_TRANSPARENCY_INVALID' &&
        (err as { errors: { path: string }[] }).errors[0]!.path === 'record_type',
    );
  });

  it("refuses a signed record that does not match its schema, or whose digest is not its manifest's", async () => {
    const { privateKey, jwk } = await keyPair('k1');
    const jwks = { keys: [jwk] };
    const unknownField = { ...revocationList, subjects: ['prs_someone'] };
    await assert.rejects(verifyTransparencyRecord({ record: unknownField, signature: await sign(unknownField, privateKey, 'k1') }, jwks), {
      code: 'ERR_SVC_TRANSPARENCY_INVALID',
    });
    assert.deepEqual(
      await verifyTransparencyRecord({ record: unknownField, signature: await sign(unknownField, privateKey, 'k1') }, jwks, {
        validate: false,
      }),
      unknownField,
    );
    const wrongDigest = { ...manifestRecord, digest: `sha256:${'0'.repeat(64)}` };
    await assert.rejects(
      verifyTransparencyRecord({ record: wrongDigest, signature: await sign(wrongDigest, privateKey, 'k1') }, jwks),
      (err: unknown) =>
        (err as { code: string }).code === 'ERR_SVC_TRANSPARENCY_INVALID' &&
        (err as { errors: { path: string }[] }).errors[0]!.path === 'digest',
    );
  });

  it("computes a manifest's digest as the service does (sha256 over its RFC 8785 bytes)", async () => {
    assert.equal(await capabilityManifestDigest(manifest), digest);
  });

  it('shares its signature check with verifyReceipt, each naming its own errors', async () => {
    const { privateKey, jwk } = await keyPair('k1');
    const signature = await sign(manifestRecord, privateKey, 'k1');
    // A transparency record presented as a receipt: the member is missing, so the receipt verifier says so in its terms.
    await assert.rejects(verifyReceipt({ record: manifestRecord, signature } as never, { keys: [jwk] }), {
      code: 'ERR_SVC_RECEIPT_FORMAT',
      message: 'The signed receipt has no receipt object.',
    });
  });
});
