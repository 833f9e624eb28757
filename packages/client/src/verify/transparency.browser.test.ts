// verifyTransparencyRecord in every engine: the same Web Crypto and jose code paths as Node, checked against a manifest
// version signed in Node by the server's own signer (the vector below), so both runtimes agree offline.
import { expect } from '@open-wc/testing';
import { capabilityManifestDigest, verifyTransparencyRecord } from '../index.js';

const vector = {
  jwks: {
    keys: [
      {
        kty: 'EC',
        x: 'Kh8pPzwQXDHtzXLPpfzlgNC0sYqc2magTaFsG5weQAU',
        y: 'gcZ7HRrkO_FLoK0GygObrxORVYbavxyIuwEeNGZB5hw',
        crv: 'P-256',
        kid: 'browser-t1',
        alg: 'ES256',
        use: 'sig',
      },
    ],
  },
  signed: {
    record: {
      record_type: 'capability_manifest_record',
      format: 'svc-transparency/1',
      issuer: 'http://127.0.0.1:4010',
      agent_id: 'agt_dev_browser',
      version: 1,
      manifest: {
        agent_type: 'assistant',
        name: 'Reiseagent für Zürich ✈',
        delegated_scopes: ['bookings:read', 'payments:write'],
        capabilities: ['book_travel', 'pay'],
        operator_name: 'Beispiel Reisen GmbH',
        privacy_policy_url: 'https://reisen.example/datenschutz',
        data_storage: 'DE',
        retention_period: 'P30D',
      },
      digest_method: 'sha256-jcs',
      digest: 'sha256:fdfbdd452a7731e28edd521a487e9d124fdc782994123c39f683d0e37b4d96d0',
      pinned_at: '2026-01-01T00:00:00.000Z',
    },
    signature:
      'eyJhbGciOiJFUzI1NiIsImtpZCI6ImJyb3dzZXItdDEifQ..BuTejSzC0JmmGQVZiri5YDu6I1E_jENy7wh4z1g-MSPIOWn-TQI3xF4HhTw7A9txzgQRSE29d7k1SVL3QRHNqw',
  },
};

describe('transparency records in the browser', () => {
  it('verifies a signed manifest version with only the JWKS and recomputes its digest', async () => {
    const record = await verifyTransparencyRecord(vector.signed, vector.jwks, { recordType: 'capability_manifest_record' });
    expect(record.manifest.name).to.equal('Reiseagent für Zürich ✈');
    expect(await capabilityManifestDigest(record.manifest)).to.equal(record.digest);
  });

  it('refuses a changed manifest', async () => {
    const changed = {
      ...vector.signed,
      record: { ...vector.signed.record, manifest: { ...vector.signed.record.manifest, capabilities: ['pay'] } },
    };
    let code: string | undefined;
    try {
      await verifyTransparencyRecord(changed, vector.jwks);
    } catch (err) {
      code = (err as { code?: string }).code;
    }
    expect(code).to.equal('ERR_SVC_TRANSPARENCY_SIGNATURE');
  });
});
