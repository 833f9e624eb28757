// verifyReceipt and verifyAuditChain in every engine: the same Web Crypto and jose code paths as Node, checked against a
// receipt and an audit chain signed in Node (the vector below), so both runtimes agree offline.
import { expect } from '@open-wc/testing';
import { verifyAuditChain, verifyReceipt } from '../index.js';

const vector = {
  jwks: {
    keys: [
      {
        kty: 'EC',
        x: 'weMtuL3a3ymVjgwvEPkWtvEHSctnYFLh6GO3-GomQLQ',
        y: 'V768S121ZAqp4uGvyUFQnAiN6xdnihKGth_Id3qyucQ',
        crv: 'P-256',
        kid: 'browser-k1',
        alg: 'ES256',
        use: 'sig',
      },
    ],
  },
  signed: {
    receipt: {
      schema_version: 'svc-cr/2.13',
      conforms_to: 'ISO/IEC TS 27560:2023',
      record_id: 'cr_browser',
      record_type: 'consent_record',
      pii_principal_id: 'prs_browser',
      pii_processing: {
        language: 'de',
        jurisdiction: 'unspecified',
        purposes: [
          {
            purpose_id: 'newsletter',
            purpose: 'Newsletter für Kundinnen ✉',
            lawful_basis: 'consent',
          },
        ],
      },
      party_identification: [
        {
          party_id: 'tp_dev_browser',
          party_name: 'Laden',
          party_role: 'controller',
        },
      ],
      event: [
        {
          event_time: '2026-01-01T00:00:00.000Z',
          entity_id: 'prs_browser',
          event_type: 'explicit',
          event_state: 'consent given',
          validity_duration: 'P1Y',
        },
      ],
    },
    signature:
      'eyJhbGciOiJFUzI1NiIsImtpZCI6ImJyb3dzZXItazEifQ..vGxbiJc-iWE4qgw5InNUSf7iaXC_MXAwmPbUZ4z2ixR2DXaBgS4LwgmE7gIYc7vsO3yZwfp9v_e0duOIDdvH4g',
  },
  events: [
    {
      id: 'aev_b1',
      application_id: 'tp_dev_browser',
      sequence: 1,
      type: 'consent.granted',
      occurred_at: '2026-01-01T00:00:00.000Z',
      data: {
        decision: 'granted',
        record_id: 'cr_b1',
      },
      previous_hash: '0000000000000000000000000000000000000000000000000000000000000000',
      hash: '42c9a1f652d600d95706c640391a9b1825b1e080940f1f66611f56153927d1d8',
      anchor_id: 'anc_browser',
    },
    {
      id: 'aev_b2',
      application_id: 'tp_dev_browser',
      sequence: 2,
      type: 'consent.granted',
      occurred_at: '2026-01-01T00:00:00.000Z',
      data: {
        decision: 'granted',
        record_id: 'cr_b2',
      },
      previous_hash: '42c9a1f652d600d95706c640391a9b1825b1e080940f1f66611f56153927d1d8',
      hash: '7d7c8472331b5b74fd2a11c136ba34ae4df3101507f8a46a07f682e27ac910e4',
      anchor_id: 'anc_browser',
    },
    {
      id: 'aev_b3',
      application_id: 'tp_dev_browser',
      sequence: 3,
      type: 'consent.granted',
      occurred_at: '2026-01-01T00:00:00.000Z',
      data: {
        decision: 'granted',
        record_id: 'cr_b3',
      },
      previous_hash: '7d7c8472331b5b74fd2a11c136ba34ae4df3101507f8a46a07f682e27ac910e4',
      hash: 'fbc7cf32956c28c4fd37fef0dee0bb95b31f772ea5e176bfc213e5c4298ad8e1',
      anchor_id: 'anc_browser',
    },
  ],
  anchors: [
    {
      id: 'anc_browser',
      application_id: 'tp_dev_browser',
      type: 'rfc6962_merkle_root',
      format_version: 'svc-audit-anchor/1',
      signature:
        'eyJhbGciOiJFUzI1NiIsImtpZCI6ImJyb3dzZXItazEifQ..UC2-6ychZRC15B75vbheGtGcobhJhGLOgmxpfMk0ZMupHjpCqb6jwT-unMFQt67cnAWmnVQLNXXWF3RxDB3wLA',
      key_version: '1',
      merkle_root: '10a145aa5122e425cfef0b81808b4d5068d907c3e461bfdcacf6b44a6b6e41f0',
      issuer_id: null,
      issuer_key_fingerprint: 'browser-k1',
      previous_anchor_id: null,
      record_count: 3,
      sequence_from: 1,
      sequence_to: 3,
      created_at: '2026-01-01T00:15:00.000Z',
    },
  ],
};

async function code(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

describe('offline verification in the browser', () => {
  it('verifies a signed receipt with only the JWKS', async () => {
    const receipt = await verifyReceipt(structuredClone(vector.signed), vector.jwks);
    expect(receipt.record_id).to.equal('cr_browser');
  });

  it('refuses a changed receipt and an unknown key', async () => {
    const changed = structuredClone(vector.signed);
    changed.receipt.pii_processing.purposes[0]!.purpose = 'Something else';
    expect(await code(verifyReceipt(changed, vector.jwks))).to.equal('ERR_SVC_RECEIPT_SIGNATURE');
    expect(await code(verifyReceipt(vector.signed, { keys: [{ ...vector.jwks.keys[0]!, kid: 'other' }] }))).to.equal('ERR_SVC_RECEIPT_KEY');
  });

  it('verifies an audit chain and names a changed event', async () => {
    expect(await verifyAuditChain(vector.events, vector.anchors, { issuer: vector.jwks })).to.deep.equal({
      ok: true,
      events: 3,
      anchors: 1,
      anchored_through: 3,
      witnessed: 0,
      externally_witnessed: 0,
      witnesses: [],
    });
    const changed = structuredClone(vector.events);
    changed[1]!.data = { decision: 'denied', record_id: 'cr_b2' };
    const result = await verifyAuditChain(changed, vector.anchors, { issuer: vector.jwks });
    expect(result.ok ? null : [result.sequence, result.reason]).to.deep.equal([2, 'hash_mismatch']);
  });
});
